/**
 * The world of the workflow files (workflows.test.ts, workflows-demo.test.ts): the
 * demo (test/editor/env.ts) with 10 rows per table and the demo's published workflows active,
 * and what they read of the sandbox's contacts table.
 */
import { DEMO_ACTIVE } from '../../demo/demo';
import { useEditor } from './env';

/** useEditor with that world (call it at the top of the test file), and the contacts table's readers. */
export function useWorkflowsEditor() {
	const editor = useEditor({ rows: 10 });
	const { env } = editor;
	beforeAll(async () => {
		for (const id of DEMO_ACTIVE) await env.e2e.activate(id);
	}, 120_000);
	const contactsTable = () =>
		env.sb.store
			.tenant(1)
			.tables.values()
			.find((t) => t.objectType === 'CONTACT')!;
	const recordsOf = (table: Record<string, unknown>) =>
		env.sb.store.tenant(1).records.get(String(table._id))!.values();
	const columnId = (table: Record<string, unknown>, name: string) =>
		(table.columnsMetaData as Array<{ id: string; name: string }>).find((c) => c.name === name)!.id;
	return { ...editor, contactsTable, recordsOf, columnId };
}
