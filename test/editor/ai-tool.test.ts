/**
 * In n8n's editor (issue 35): a Record → Create tool node on an AI Agent, switched to Cells
 * "From JSON", shows the JSON field with n8n's ✨ button ("let the model define this
 * parameter"), and clicking it hands the field to the model. Every check waits (with a
 * limit) for the state it asserts.
 */
import { tableAgent } from '../helpers/ai-env';
import { useEditor } from './env';

jest.setTimeout(180_000);

const WORKFLOW = 'bpEditorTableAgt';
const TOOL = 'Create a record in Business Platform Sales';

/** The table agent of the end-to-end test, its Create tool left as a new tool node is: Cells "Map Each Column", nothing from the model. */
function agentWithRecordTool(): Record<string, unknown> {
	const wf = tableAgent();
	const tool = wf.nodes.find((n) => n.name === TOOL)!;
	tool.parameters = {
		resource: 'record',
		operation: 'create',
		tableId: { __rl: true, mode: 'list', value: '' },
	};
	return {
		...wf,
		id: WORKFLOW,
		name: 'Editor: AI Agent with a Record → Create tool',
		active: false,
	};
}

const { env, scenario } = useEditor({ workflows: [agentWithRecordTool()] });

describe('a Record → Create tool on an AI Agent', () => {
	scenario(
		'switched to Cells "From JSON": the Columns mapper goes, the JSON field comes with the ✨ button, which hands it to the model',
		async () => {
			const { ed } = env;
			await ed.openWorkflow(WORKFLOW);
			await ed.openNode(TOOL);
			// The default, as saved workflows have it: the Columns mapper, no JSON field.
			await ed.param('cellsInput').waitFor({ timeout: 30_000 });
			const mapper = ed.ndv.getByText('Mapping Column Mode', { exact: true });
			await mapper.waitFor({ timeout: 30_000 });
			await ed.param('cellsJson').waitFor({ state: 'hidden', timeout: 30_000 });

			await ed.choose('cellsInput', 'From JSON');
			const json = ed.param('cellsJson');
			await json.waitFor({ timeout: 30_000 });
			// The mapper is hidden (waited for, not read once).
			await mapper.waitFor({ state: 'hidden', timeout: 30_000 });

			// The field becomes the model's (✨, then n8n's "defined automatically by the model" box).
			await ed.letModelDefine('cellsJson');
		},
	);
});
