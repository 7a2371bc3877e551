/**
 * The pack's nodes as AI tools, for the agent and MCP end-to-end tests: the tool nodes of
 * the demo agent workflow (demo/workflows/5-ai-agent-with-tools.json), so the tests prove
 * exactly what the demo ships.
 */
import { DEMO_AGENT, demoWorkflows } from '../../demo/demo';

export interface WfNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: number[];
	parameters: Record<string, unknown>;
	webhookId?: string;
	credentials?: Record<string, unknown>;
	onError?: string;
}

export interface Wf {
	id: string;
	name: string;
	nodes: WfNode[];
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

/** The demo agent workflow, credential ids filled in. */
export const demoAgent = (): Wf => (demoWorkflows() as Wf[]).find((w) => w.id === DEMO_AGENT)!;

/** Its tool nodes: the pack's nodes as tools. */
export const toolNodes = (): WfNode[] =>
	demoAgent().nodes.filter(
		(n) => n.type.startsWith('n8n-nodes-business-platform.') && n.type.endsWith('Tool'),
	);

/** Each tool's name as models see it (n8n's rule: the node name, other characters as `_`) → the `$fromAI` keys it uses. */
export function fromAiKeys(): Record<string, string[]> {
	return Object.fromEntries(
		toolNodes().map((n) => [
			n.name.replace(/[^a-zA-Z0-9_-]+/g, '_'),
			[
				...new Set(
					[...JSON.stringify(n.parameters).matchAll(/\$fromAI\('(\w+)'/g)].map((m) => m[1]),
				),
			].sort(),
		]),
	);
}

/** A tool node of the Sales node, with the demo's Business Platform credential. */
function salesTool(
	id: string,
	name: string,
	parameters: Record<string, unknown>,
	x: number,
): WfNode {
	const credentials = toolNodes()[0].credentials;
	return {
		id,
		name,
		type: 'n8n-nodes-business-platform.businessPlatformSalesTool',
		typeVersion: 2,
		position: [x, 260],
		parameters,
		credentials,
	};
}

const TABLE_ARG =
	"={{ $fromAI('table', 'Name or ID of the table, from the tool that lists tables', 'string') }}";

/**
 * The tools of an agent that works with the platform's own tables (issue 35): list the
 * tables, read one's columns, create a record with its cells as JSON keyed by column name,
 * search records with conditions as JSON; the table by name or ID, from the model.
 */
export function tableToolNodes(): WfNode[] {
	return [
		salesTool(
			'7a1e0c52-1b7d-4f0e-8d7a-2a3b4c5d6e01',
			'Get many tables in Business Platform Sales',
			{ resource: 'table', operation: 'getAll', returnAll: true, simplify: true },
			420,
		),
		salesTool(
			'7a1e0c52-1b7d-4f0e-8d7a-2a3b4c5d6e02',
			'Get a table in Business Platform Sales',
			{
				resource: 'table',
				operation: 'get',
				tableId: { __rl: true, mode: 'id', value: TABLE_ARG },
				simplify: true,
			},
			580,
		),
		salesTool(
			'7a1e0c52-1b7d-4f0e-8d7a-2a3b4c5d6e03',
			'Create a record in Business Platform Sales',
			{
				resource: 'record',
				operation: 'create',
				tableId: { __rl: true, mode: 'id', value: TABLE_ARG },
				cellsInput: 'json',
				cellsJson:
					"={{ $fromAI('cells', 'The cells: a JSON object keyed by column name; select columns take an option name', 'json') }}",
			},
			740,
		),
		salesTool(
			'7a1e0c52-1b7d-4f0e-8d7a-2a3b4c5d6e04',
			'Search records in Business Platform Sales',
			{
				resource: 'record',
				operation: 'search',
				tableId: { __rl: true, mode: 'id', value: TABLE_ARG },
				conditionsInput: 'json',
				conditionsJson:
					"={{ $fromAI('conditions', 'A JSON list of conditions, each with column, operator (eq, neq, gt, gte, lt, lte, c, sw, ew, in, nin, emp, nemp) and value; all must match', 'json') }}",
				returnAll: false,
				limit: 20,
			},
			900,
		),
	];
}

/** The demo agent with the table tools instead of the demo's, its own id and chat webhook. */
export function tableAgent(): Wf {
	const wf = structuredClone(demoAgent());
	const tools = tableToolNodes();
	const agentName = wf.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.agent')!.name;
	wf.id = 'e2eTableAgent001';
	wf.name = 'E2E agent with the Business Platform table tools';
	wf.nodes = [
		...wf.nodes.filter((n) => !n.type.startsWith('n8n-nodes-business-platform.')),
		...tools,
	];
	const trigger = wf.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger')!;
	trigger.webhookId = '7a1e0c52-1b7d-4f0e-8d7a-2a3b4c5d6eff';
	for (const n of wf.nodes) n.id = n.id.replace(/^.{8}/, 'e2e0ab1e');
	wf.connections = {
		...Object.fromEntries(
			Object.entries(wf.connections).filter(([name]) => wf.nodes.some((n) => n.name === name)),
		),
		...Object.fromEntries(
			tools.map((t) => [t.name, { ai_tool: [[{ node: agentName, type: 'ai_tool', index: 0 }]] }]),
		),
	};
	return wf;
}
