/**
 * In n8n's editor: the record column mapper and the trigger's test listening, the way the README
 * tells a person to use them (the polling triggers and the demo workflows `npm start` imports:
 * workflows-demo.test.ts, on an n8n of its own, so that the two halves run on two jest workers).
 */
import { eventually } from '../../testbed/n8n/env';
import { contractEvents } from '../helpers/contract';
import { call } from '../helpers/sandbox';
import { useWorkflowsEditor } from './workflows-env';

jest.setTimeout(180_000);

const { env, scenario, contactsTable, recordsOf, columnId } = useWorkflowsEditor();

/** New workflow → Sales "Create a record" → the contacts table picked from the list. */
async function recordCreateOnContacts(): Promise<void> {
	const { ed } = env;
	await ed.newWorkflow();
	await ed.addNode('Business Platform Sales', 'Create a record');
	const tables = await ed.pickerOptions('tableId');
	await ed.choose('tableId', tables.find((t) => t.startsWith(String(contactsTable().name)))!);
	await ed.ndv
		.getByTestId('resource-mapper-container')
		.getByTestId('parameter-input-Name')
		.waitFor();
}

describe('Record → Create', () => {
	scenario(
		"the column mapper lists the table's columns by name and creates the record",
		async () => {
			const { ed } = env;
			await recordCreateOnContacts();
			const mapper = ed.ndv.getByTestId('resource-mapper-container');
			const shown = await mapper
				.locator('[data-test-id^="parameter-input-"]:not([data-test-id="parameter-input-field"])')
				.evaluateAll((els) =>
					els.map((e) => String(e.getAttribute('data-test-id')).replace('parameter-input-', '')),
				);
			const visible = (contactsTable().columnsMetaData as Array<{ name: string; hidden: boolean }>)
				.filter((c) => !c.hidden)
				.map((c) => c.name);
			expect(shown).toEqual(expect.arrayContaining(visible));
			await mapper
				.getByTestId('parameter-input-Name')
				.locator('input')
				.first()
				.fill('Made in the editor');
			await mapper
				.getByTestId('parameter-input-Email')
				.locator('input')
				.first()
				.fill('editor@example.com');
			expect(await ed.executeStep()).toMatch(/1 item/);
			const table = contactsTable();
			const made = recordsOf(table).find(
				(r) =>
					(r.cells as Record<string, unknown>)[columnId(table, 'Name')] === 'Made in the editor',
			);
			expect(made?.cells).toMatchObject({ [columnId(table, 'Email')]: 'editor@example.com' });
		},
	);

	scenario(
		'[6] a boolean column left untouched is not sent (the record gets no "Subscribed: false")',
		async () => {
			const { ed } = env;
			await recordCreateOnContacts();
			const mapper = ed.ndv.getByTestId('resource-mapper-container');
			await mapper
				.getByTestId('parameter-input-Name')
				.locator('input')
				.first()
				.fill('Untouched boolean');
			expect(await ed.executeStep()).toMatch(/1 item/);
			const table = contactsTable();
			const made = recordsOf(table).find(
				(r) =>
					(r.cells as Record<string, unknown>)[columnId(table, 'Name')] === 'Untouched boolean',
			)!;
			expect(
				(made.cells as Record<string, unknown>)[columnId(table, 'Subscribed')] ?? null,
			).toBeNull();
		},
	);

	scenario(
		'[6] before a table is picked, the mapper shows no red "No columns found… Retry"',
		async () => {
			const { ed } = env;
			await ed.newWorkflow();
			await ed.addNode('Business Platform Sales', 'Create a record');
			await ed.param('tableId').waitFor();
			const mapper = ed.ndv.getByTestId('resource-mapper-container');
			await mapper
				.getByTestId('mapping-mode-select')
				.or(mapper.getByTestId('empty-fields-notice'))
				.first()
				.waitFor();
			expect(await mapper.innerText()).not.toMatch(/No columns found|Retry/);
		},
	);
});

describe('Trigger', () => {
	/** New workflow → first step: the trigger, opened in the nodes panel; returns its events. */
	async function triggerEvents(): Promise<string[]> {
		const { ed } = env;
		await ed.newWorkflow();
		// The trigger's events are listed with the Sales node (the trigger's type is businessPlatformSalesTrigger).
		await ed.openNodeActions('Business Platform Sales');
		return (await ed.panelEntries()).filter((e) => /^On /.test(e));
	}

	scenario(
		'the nodes panel lists its events; "Execute step" listens and receives an event the sandbox sends',
		async () => {
			const { ed, sb } = env;
			// The list renders as n8n loads the node types: wait for all of them (up to 30 s), not one read.
			const events = await eventually(async () => {
				const listed = await triggerEvents();
				expect(listed.length).toBeGreaterThanOrEqual(contractEvents().length);
				return listed;
			}, 30_000);
			await ed.creator
				.getByText(events.find((e) => /deal created/i.test(e))!, { exact: true })
				.click();
			await ed.ndv.waitFor();
			await ed.ndv.getByTestId('node-execute-button').click();
			await ed.ndv.getByText('Listening for test event').first().waitFor();
			const testHook = () =>
				sb.store
					.tenant(1)
					.webhooks.values()
					.find(
						(h) =>
							!h.deleted &&
							h.eventType === 'CREATE_CRM_DEAL' &&
							String(h.webhookUrl).includes('/webhook-test/'),
					);
			await eventually(() => expect(testHook()).toBeDefined(), 30_000);
			const sent = await call(sb, 'POST', '/__admin/events', {
				token: null,
				body: { eventType: 'CREATE_CRM_DEAL', data: { id: 1, name: 'Sent while listening' } },
			});
			expect(sent.status).toBe(200);
			await ed.page.getByTestId('output-panel').getByText('Sent while listening').first().waitFor();
			// The test registration goes once the event arrived.
			await eventually(() => expect(testHook()).toBeUndefined(), 30_000);
		},
	);

	scenario(
		'the nodes panel lists its polling events beside the instant ones; "Execute step" on one fetches the newest change at once (no listening, no webhook registered)',
		async () => {
			const { ed, sb } = env;
			const events = await eventually(async () => {
				const listed = await triggerEvents();
				expect(listed.filter((e) => /\(polling, no public address needed\)$/.test(e))).toHaveLength(
					3,
				);
				return listed;
			}, 30_000);
			const hooks = sb.store.tenant(1).webhooks.size;
			await call(sb, 'POST', '/v1/crm/contacts', { body: { name: 'Newest for the editor' } });
			await ed.creator
				.getByText(events.find((e) => /^On contact changed \(polling/i.test(e))!, { exact: true })
				.click();
			await ed.ndv.waitFor();
			const output = await ed.executeStep();
			expect(output).toMatch(/Newest for the editor/);
			expect(output).not.toMatch(/Listening/);
			expect(sb.store.tenant(1).webhooks.size).toBe(hooks);
		},
	);

	scenario('[5] its panel does not say "Pull in events" (the platform pushes them)', async () => {
		const { ed } = env;
		const events = await triggerEvents();
		await ed.creator
			.getByText(events.find((e) => /deal created/i.test(e))!, { exact: true })
			.click();
		const header = ed.ndv.getByTestId('trigger-header');
		await header.waitFor();
		expect(await header.innerText()).not.toMatch(/Pull in events/);
	});
});
