/* eslint-disable @typescript-eslint/no-explicit-any, import-x/no-unresolved -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The action nodes as AI tools in a real n8n (the one the e2e files share, shared-n8n.ts), for
 * both ways in:
 * - n8n's AI Agent: the demo agent workflow (AI Agent, OpenAI Chat Model, the pack's nodes
 *   as tools with `$fromAI()` fields), the model replaced by a scripted OpenAI-compatible
 *   server (test/helpers/scripted-llm.ts). The tool calls must reach the sandbox, platform
 *   errors must come back to the model as a readable tool result, and the agent's final
 *   answer is the chat's answer.
 * - n8n's MCP Server Trigger with the same tool nodes, driven by the official MCP SDK
 *   client over Streamable HTTP: a call creates a record; a bad argument and a platform
 *   error are MCP tool errors (isError) within a time limit, never a hang.
 * Both check what the model receives (tool names, descriptions, argument schemas) against
 * docs/ai-tools.md (`npm run docs:ai-tools` rewrites it).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { DEFAULT_N8N_VERSION, n8nAtLeast, selectedRuntime } from '../../testbed/runtime/versions';
import { DEMO_AGENT, demoCredential, demoOpenAiCredential } from '../../demo/demo';
import {
	AI_AGENTS_DOC,
	AI_TOOLS_DOC,
	checkDocSection,
	renderToolTable,
	renderTools,
	type ToolView,
} from '../helpers/ai-tools-doc';
import { startTestSandbox, type Sandbox } from '../helpers/sandbox';
import {
	startScriptedLlm,
	text,
	toolResults,
	type ChatRequest,
	type ScriptedLlm,
} from '../helpers/scripted-llm';
import {
	demoAgent,
	fromAiKeys,
	tableAgent,
	tableToolNodes,
	toolNodes,
	type Wf,
	type WfNode,
} from '../helpers/ai-env';
import { eventually } from '../../testbed/n8n/env';
import { joinSharedN8n, type SharedE2e } from '../helpers/shared-n8n';

jest.setTimeout(900_000);

const MCP_WORKFLOW = 'e2eMcpServer0001';
const MCP_PATH = 'business-platform';
const TABLE_MCP_WORKFLOW = 'e2eMcpTables0001';
const TABLE_MCP_PATH = 'business-platform-tables';
const MCP_TRIGGER = 'MCP Server Trigger';
/** A tool call that takes longer than this is a hang: the SDK rejects it instead of waiting. */
const CALL_LIMIT = { timeout: 60_000 };

let sb: Sandbox;
let llm: ScriptedLlm;
let e2e: SharedE2e;
let client: Client;
let tableClient: Client;
let chatPath: string;
let tableChatPath: string;

/**
 * What n8n 1.x (the oldest tested, 1.123.81) does differently here (README, Compatibility):
 * - its AI Agent stops the execution when a tool fails instead of handing the error to the
 *   model, unless the tool node's On Error setting is "Continue" (set below, as the README
 *   tells users of n8n 1.x);
 * - its n8n-workflow keeps an HTTP error's response body where the pack's error reader does
 *   not look, so errors name the status but not the platform's words;
 * - its MCP Server Trigger writes the input schemas in another JSON Schema dialect than
 *   docs/ai-tools.md records (from the newest n8n): the same tools, keys and descriptions.
 */
const N8N_1 = !n8nAtLeast('2.0.0');
const PLATFORM_ERROR = N8N_1 ? /400/ : /400.*deal 99999999 does not exist/s;

/** An agent workflow (the demo's by default), its chat made reachable as a webhook (embedded mode) that answers with the agent's output. */
function agentWorkflow(wf: Wf = demoAgent(), setPath = (path: string) => (chatPath = path)): Wf {
	const trigger = wf.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger')!;
	// The demo's AI Agent is version 3.1; n8n 1.x (1.123.81) knows it up to 3, and 3.1 only moves the prompt options.
	const agent = wf.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.agent')!;
	if (N8N_1) {
		agent.typeVersion = Math.min(agent.typeVersion, 3);
		for (const n of wf.nodes) if (n.type.endsWith('Tool')) n.onError = 'continueRegularOutput';
	}
	trigger.parameters = { public: true, mode: 'webhook', options: { responseMode: 'lastNode' } };
	setPath(`${trigger.webhookId}/chat`);
	return wf;
}

/** The same tool nodes behind an MCP Server Trigger. */
function mcpWorkflow(tools: WfNode[] = toolNodes(), id = MCP_WORKFLOW, path = MCP_PATH): Wf {
	const webhookId =
		id === MCP_WORKFLOW
			? '1d0f3a52-0c6e-4b8e-9f0e-5b7a3c2d1e02'
			: '1d0f3a52-0c6e-4b8e-9f0e-5b7a3c2d1e12';
	return {
		id,
		name: `E2E MCP server with the Business Platform tools (${path})`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: '1d0f3a52-0c6e-4b8e-9f0e-5b7a3c2d1e01',
				name: MCP_TRIGGER,
				type: '@n8n/n8n-nodes-langchain.mcpTrigger',
				typeVersion: 2,
				position: [0, 0],
				parameters: { path },
				webhookId,
			},
			...tools,
		],
		connections: Object.fromEntries(
			tools.map((t) => [t.name, { ai_tool: [[{ node: MCP_TRIGGER, type: 'ai_tool', index: 0 }]] }]),
		),
	};
}

beforeAll(async () => {
	sb = await startTestSandbox({ rows: 20 });
	llm = await startScriptedLlm();
	const credentials = [demoCredential(sb), demoOpenAiCredential('sk-scripted-test', llm.url)];
	const tables = agentWorkflow(tableAgent(), (path) => (tableChatPath = path));
	e2e = await joinSharedN8n(
		credentials,
		[
			agentWorkflow(),
			mcpWorkflow(),
			tables,
			mcpWorkflow(tableToolNodes(), TABLE_MCP_WORKFLOW, TABLE_MCP_PATH),
		],
		{},
	);
	for (const id of [DEMO_AGENT, MCP_WORKFLOW, tables.id, TABLE_MCP_WORKFLOW])
		await e2e.activate(id);
	// Activation registers the MCP endpoint asynchronously: connect until it answers.
	const connect = async (path: string) =>
		await eventually(async () => {
			const c = new Client({ name: 'bp-e2e', version: '1.0.0' });
			await c.connect(new StreamableHTTPClientTransport(new URL(`${e2e.n8n.url}/mcp/${path}`)));
			return c;
		}, 30_000);
	client = await connect(MCP_PATH);
	tableClient = await connect(TABLE_MCP_PATH);
});

afterAll(async () => {
	await tableClient?.close();
	await client?.close();
	await e2e?.stop();
	await llm?.stop();
	await sb?.stop();
});

/** One tool per tool node, each with a description and exactly its `$fromAI` keys as arguments, each described. */
function expectOneToolPerNode(tools: ToolView[]): void {
	const keys = fromAiKeys();
	expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(keys).sort());
	for (const t of tools) {
		expect([t.name, t.description]).toEqual([t.name, expect.stringMatching(/^\S.{10,}/)]);
		const props = (t.schema.properties ?? {}) as Record<string, { description?: string }>;
		expect([t.name, Object.keys(props).sort()]).toEqual([t.name, keys[t.name]]);
		for (const [k, p] of Object.entries(props))
			expect([t.name, k, p.description]).toEqual([t.name, k, expect.stringMatching(/\w{3,}/)]);
	}
}

let session = 0;
async function chat(prompt: string, path = chatPath): Promise<{ status: number; body: any }> {
	return await eventually(async () => {
		const res = await e2e.call(path, {
			action: 'sendMessage',
			sessionId: `s${++session}`,
			chatInput: prompt,
		});
		if (res.status === 404)
			throw new Error(`chat webhook not registered yet: ${JSON.stringify(res.body).slice(0, 200)}`);
		return res;
	}, 30_000);
}

/** The agent's latest execution: its status, the run's error, and the errors of single node runs (a tool's, given to the model). */
async function lastExecution(
	workflowId = DEMO_AGENT,
): Promise<{ status: string; error?: string; nodeErrors: string[] }> {
	const list = await e2e.api.pub<{ data: Array<{ id: string }> }>(
		'GET',
		`/executions?workflowId=${e2e.id(workflowId)}&limit=1`,
	);
	const ex = await e2e.api.pub<{
		status: string;
		data?: {
			resultData: {
				error?: { message: string; description?: string };
				runData: Record<string, Array<{ error?: { message: string } }>>;
			};
		};
	}>('GET', `/executions/${list.data[0].id}?includeData=true`);
	const nodeErrors = Object.entries(ex.data?.resultData.runData ?? {}).flatMap(([node, runs]) =>
		runs.filter((r) => r.error).map((r) => `${node}: ${r.error!.message}`),
	);
	const error = [ex.data?.resultData.error?.message, ex.data?.resultData.error?.description]
		.filter(Boolean)
		.join(' ');
	return { status: ex.status, ...(error ? { error } : {}), nodeErrors };
}

/** The tools of a chat request as the model sees them. */
const toolsOf = (req: ChatRequest) =>
	(req.tools ?? []).map((t) => ({
		name: t.function.name,
		description: t.function.description ?? '',
		schema: t.function.parameters ?? {},
	}));

describe('an n8n AI Agent with the pack as tools', () => {
	it('creates a contact: the model gets one tool per node, with a description and a schema of its $fromAI keys; the call reaches the sandbox', async () => {
		const prompt = 'Add Ada Lovelace (ada@analytical.example) as a person contact.';
		llm.script(prompt, [
			{
				toolCalls: [
					{
						name: 'Create_a_contact_in_Business_Platform_Sales',
						arguments: {
							name: 'Ada Lovelace',
							type: 'person',
							email: 'ada@analytical.example',
							phone: '',
						},
					},
				],
			},
			(req) => ({
				content: `Added Ada Lovelace as contact #${(toolResults(req)[0] as Array<{ id: number }>)[0].id}.`,
			}),
		]);
		const res = await chat(prompt);
		const ada = sb.store
			.tenant(1)
			.contacts.values()
			.find((c) => c.name === 'Ada Lovelace');
		expect(ada).toMatchObject({ type: 'person', email: 'ada@analytical.example' });
		expect([res.status, res.body]).toEqual([
			200,
			{ output: `Added Ada Lovelace as contact #${String(ada!.id)}.` },
		]);

		expect(await lastExecution()).toEqual({ status: 'success', nodeErrors: [] });

		const [first] = llm.conversation(prompt);
		const tools = toolsOf(first);
		expectOneToolPerNode(tools);
		checkDocSection(AI_TOOLS_DOC, 'agent', renderTools(tools));
		checkDocSection(AI_AGENTS_DOC, 'demo-agent-tools', renderToolTable(tools));
	});

	it('finds the deals of a contact, adds an activity; a platform error comes back to the model as a readable tool result, and it recovers', async () => {
		const t = sb.store.tenant(1);
		const deal = t.deals
			.values()
			.find((d) => d.contact_id != null && t.contacts.has(d.contact_id as number))!;
		const contact = t.contacts.get(deal.contact_id as number)!;
		const prompt = `Log a call with ${String(contact.name)} about their deals tomorrow at 10:00 UTC.`;
		let found: Array<{ id: number; name: string }> = [];
		const call = (dealId: number) => ({
			name: 'Create_an_activity_in_Business_Platform_Sales',
			arguments: {
				title: `Call ${String(contact.name)}`,
				activityType: 'call',
				start: '2030-01-15T10:00:00Z',
				end: '2030-01-15T10:30:00Z',
				contactId: contact.id,
				dealId,
				notes: 'Logged by the agent',
			},
		});
		llm.script(prompt, [
			{
				toolCalls: [
					{
						name: 'Get_many_deals_in_Business_Platform_Sales',
						arguments: { contactId: contact.id },
					},
				],
			},
			(req) => {
				found = toolResults(req)[0] as typeof found;
				return { toolCalls: [call(99999999)] }; // a wrong deal ID, as a model may invent one
			},
			{ toolCalls: [call(deal.id as number)] },
			(req) => ({ content: `Logged: ${text(req.messages.at(-1)).slice(0, 40)}` }),
		]);
		const before = t.activities.size;
		const res = await chat(prompt);
		expect(res.status).toBe(200);
		// n8n 1.x: the tool's On Error is "Continue", so the error is the tool's output, not a node error.
		expect(await lastExecution()).toEqual({
			status: 'success',
			nodeErrors: N8N_1
				? []
				: [
						expect.stringMatching(
							/^Create an activity in Business Platform Sales: .*deal 99999999/,
						),
					],
		});

		expect(found.map((d) => d.id)).toContain(deal.id);
		const rounds = llm.conversation(prompt);
		expect(rounds).toHaveLength(4);
		// The failed call: a tool message the model can read and act on, not a crashed execution.
		const failure = text(rounds[2].messages.at(-1));
		expect(failure).toMatch(PLATFORM_ERROR);
		expect(failure).not.toMatch(/access.token|Bearer|x-access-token/i);
		const added = t.activities
			.values()
			.filter((a) => a.linked_to === deal.id && a.name === `Call ${String(contact.name)}`);
		expect(added).toHaveLength(1);
		expect(added[0]).toMatchObject({ contact_ids: [contact.id], activity_type: 'call' });
		expect(t.activities.size).toBe(before + 1);
		expect(res.body.output).toMatch(/^Logged: /);
	});

	it('asks People and Campaigns in parallel: a user by email, and the forms', async () => {
		const t = sb.store.tenant(1);
		const user = t.peopleUsers.values().find((u) => typeof u.emailId === 'string')!;
		const prompt = `Who is ${String(user.emailId)}, and which forms do we have?`;
		llm.script(prompt, [
			{
				toolCalls: [
					{
						name: 'Search_users_by_conditions_in_Business_Platform_People',
						arguments: { email: user.emailId },
					},
					{ name: 'Get_many_forms_in_Business_Platform_Campaigns', arguments: { search: '' } },
				],
			},
			(req) => {
				const [users, forms] = toolResults(req) as [
					Array<Record<string, unknown>>,
					Array<Record<string, unknown>>,
				];
				return { content: `${JSON.stringify(users.map((u) => u.emailId))} ${forms.length} forms` };
			},
		]);
		const res = await chat(prompt);
		expect(await lastExecution()).toEqual({ status: 'success', nodeErrors: [] });
		expect([res.status, res.body]).toEqual([
			200,
			{ output: `${JSON.stringify([user.emailId])} ${Math.min(20, t.forms.size)} forms` },
		]);
	});
});

type Content = Array<{ type: string; text?: string }>;
const textOf = (r: unknown) =>
	(((r as { content?: Content }).content ?? []) as Content).map((c) => c.text ?? '').join('\n');

describe('the pack through n8n’s MCP Server Trigger and the MCP SDK client', () => {
	it('lists one tool per node, with its description and an input schema of its $fromAI keys', async () => {
		const { tools } = await client.listTools(undefined, CALL_LIMIT);
		const views = tools.map((t) => ({
			name: t.name,
			description: t.description ?? '',
			schema: t.inputSchema as Record<string, unknown>,
		}));
		expectOneToolPerNode(views);
		if (selectedRuntime().n8n === DEFAULT_N8N_VERSION)
			checkDocSection(AI_TOOLS_DOC, 'mcp', renderTools(views));
	});

	it('callTool creates a contact in the sandbox and answers with it', async () => {
		const result = await client.callTool(
			{
				name: 'Create_a_contact_in_Business_Platform_Sales',
				arguments: { name: 'Grace Hopper', type: 'person', email: 'grace@navy.example', phone: '' },
			},
			undefined,
			CALL_LIMIT,
		);
		expect(result.isError).toBeFalsy();
		const grace = sb.store
			.tenant(1)
			.contacts.values()
			.find((c) => c.name === 'Grace Hopper');
		expect(grace).toMatchObject({ type: 'person', email: 'grace@navy.example' });
		expect(JSON.parse(textOf(result))).toEqual([
			expect.objectContaining({ id: grace!.id, name: 'Grace Hopper' }),
		]);
	});

	it('a bad argument is an MCP tool error that names it, not a hang, and nothing is created', async () => {
		const before = sb.store.tenant(1).contacts.size;
		const missing = await client.callTool(
			{ name: 'Create_a_contact_in_Business_Platform_Sales', arguments: { type: 'person' } },
			undefined,
			CALL_LIMIT,
		);
		expect(missing.isError).toBe(true);
		expect(textOf(missing)).toMatch(/name/);
		const wrongType = await client.callTool(
			{
				name: 'Get_many_deals_in_Business_Platform_Sales',
				arguments: { contactId: 'the big one' },
			},
			undefined,
			CALL_LIMIT,
		);
		expect(wrongType.isError).toBe(true);
		expect(textOf(wrongType)).toMatch(/contactId/);
		expect(sb.store.tenant(1).contacts.size).toBe(before);
	});

	it('a platform error is an MCP tool error with the platform’s words and no secret', async () => {
		const contact = sb.store.tenant(1).contacts.values()[0];
		const result = await client.callTool(
			{
				name: 'Create_an_activity_in_Business_Platform_Sales',
				arguments: {
					title: 'Call about nothing',
					activityType: 'call',
					start: '2030-01-15T10:00:00Z',
					end: '2030-01-15T10:30:00Z',
					contactId: contact.id,
					dealId: 99999999,
					notes: '',
				},
			},
			undefined,
			CALL_LIMIT,
		);
		expect(result.isError).toBe(true);
		expect(textOf(result)).toMatch(PLATFORM_ERROR);
		expect(textOf(result)).not.toMatch(/access.token|Bearer|x-access-token|client.secret/i);
	});
});

// ------------------------------------------------ the platform's own tables (issue 35) -----

type Row = { _id: string; cells: Record<string, any> };
const contactsTable = () =>
	sb.store
		.tenant(1)
		.tables.values()
		.find((x: any) => x.objectType === 'CONTACT') as any as {
		_id: string;
		columnsMetaData: Array<{
			id: string;
			name: string;
			options?: Array<{ id: number; name: string }>;
		}>;
	};
const col = (name: string) => contactsTable().columnsMetaData.find((c) => c.name === name)!;
const optionOf = (column: string, option: string) =>
	col(column).options!.find((o) => o.name === option)!.id;
const contactRows = () =>
	sb.store.tenant(1).records.get(contactsTable()._id)!.values() as unknown as Row[];
const named = (name: string) => contactRows().filter((r) => r.cells[col('Name').id] === name);

describe('an agent that works with the platform’s own tables', () => {
	it('lists the tables, reads the columns, creates a record by column name in JSON, corrects a wrong column from the error, finds it by conditions in JSON', async () => {
		const prompt =
			'Add Grace Brewster to the contacts table as a Customer with score 88, then list the Customers scoring over 80.';
		let columns: Array<{ name: string; type: string; options?: string[] }> = [];
		const create = (cells: Record<string, unknown>) => ({
			toolCalls: [
				{
					name: 'Create_a_record_in_Business_Platform_Sales',
					arguments: { table: 'Contacts', cells },
				},
			],
		});
		llm.script(prompt, [
			{ toolCalls: [{ name: 'Get_many_tables_in_Business_Platform_Sales', arguments: {} }] },
			(req) => ({
				toolCalls: [
					{
						name: 'Get_a_table_in_Business_Platform_Sales',
						arguments: {
							table: (toolResults(req)[0] as Array<{ _id: string; name: string }>).find(
								(x) => x.name === 'Contacts',
							)!._id,
						},
					},
				],
			}),
			(req) => {
				columns = (toolResults(req)[0] as Array<{ columns: typeof columns }>)[0].columns;
				return create({ Name: 'Grace Brewster', Lable: 'Customer', Score: 88 }); // a misspelt column, as a model may write it
			},
			create({ Name: 'Grace Brewster', Label: 'Customer', Score: 88 }),
			{
				toolCalls: [
					{
						name: 'Search_records_in_Business_Platform_Sales',
						arguments: {
							table: 'Contacts',
							conditions: [
								{ column: 'Label', operator: 'eq', value: 'Customer' },
								{ column: 'Score', operator: 'gt', value: 80 },
							],
						},
					},
				],
			},
			(req) => ({
				content: `Customers over 80: ${(toolResults(req)[0] as Array<{ Name: string }>)
					.map((r) => r.Name)
					.sort()
					.join(', ')}`,
			}),
		]);
		const res = await chat(prompt, tableChatPath);
		expect(res.status).toBe(200);

		// In the sandbox: one record, its cells by column id, the option as its id.
		const grace = named('Grace Brewster');
		expect(grace).toHaveLength(1);
		expect(grace[0].cells).toEqual({
			[col('Name').id]: 'Grace Brewster',
			[col('Label').id]: [optionOf('Label', 'Customer')],
			[col('Score').id]: 88,
		});

		const rounds = llm.conversation(prompt);
		expect(rounds).toHaveLength(6);
		// The model read the columns with their types and options before it wrote.
		expect(columns).toEqual(
			expect.arrayContaining([
				{
					id: col('Label').id,
					name: 'Label',
					type: 'select',
					options: ['Hot lead', 'Customer', 'Partner'],
				},
				{ id: col('Score').id, name: 'Score', type: 'number' },
			]),
		);
		// The wrong column came back as a tool result naming it and listing the columns, types and options.
		const raw = text(rounds[3].messages.at(-1));
		const failure = /^\[\{"error"/.test(raw)
			? (JSON.parse(raw) as Array<{ error: string }>)[0].error
			: raw;
		expect(failure).toMatch(
			/^Column "Lable" is not in table "Contacts"\. The table's columns are: Name \(text, required\), .*Label \(select: Hot lead, Customer, Partner\), .*Score \(number\)/,
		);
		expect(failure).not.toMatch(/access.token|Bearer|x-access-token/i);
		// The search found what the store holds: Customers over 80, Grace among them.
		const expected = contactRows()
			.filter(
				(r) =>
					(r.cells[col('Label').id] ?? []).includes(optionOf('Label', 'Customer')) &&
					Number(r.cells[col('Score').id]) > 80,
			)
			.map((r) => String(r.cells[col('Name').id]))
			.sort();
		expect(expected).toContain('Grace Brewster');
		expect(res.body).toEqual({ output: `Customers over 80: ${expected.join(', ')}` });
		expect(await lastExecution('e2eTableAgent001')).toEqual({
			status: 'success',
			nodeErrors: N8N_1
				? []
				: [
						expect.stringMatching(
							/^Create a record in Business Platform Sales: Column "Lable" is not in table "Contacts"/,
						),
					],
		});

		// What the model was told: read the table first; the table and the cells as arguments.
		const tools = toolsOf(rounds[0]);
		checkDocSection(AI_TOOLS_DOC, 'table-agent', renderTools(tools));
		const createTool = tools.find((t) => t.name === 'Create_a_record_in_Business_Platform_Sales')!;
		expect(createTool.description).toMatch(
			/Call the tool that gets a table first to learn its columns, their types and allowed options/,
		);
		expect(Object.keys((createTool.schema.properties ?? {}) as object).sort()).toEqual([
			'cells',
			'table',
		]);
		expect(
			tools.find((t) => t.name === 'Get_a_table_in_Business_Platform_Sales')!.description,
		).toMatch(/each column’s name, type .*allowed options/);
	});
});

describe('the table tools through MCP', () => {
	const call = async (name: string, args: Record<string, unknown>) =>
		await tableClient.callTool({ name, arguments: args }, undefined, CALL_LIMIT);

	it('creates a record by column name after an error that lists the options, and finds it by conditions in JSON', async () => {
		const { tools } = await tableClient.listTools(undefined, CALL_LIMIT);
		expect(tools.map((t) => t.name).sort()).toEqual([
			'Create_a_record_in_Business_Platform_Sales',
			'Get_a_table_in_Business_Platform_Sales',
			'Get_many_tables_in_Business_Platform_Sales',
			'Search_records_in_Business_Platform_Sales',
		]);

		const table = await call('Get_a_table_in_Business_Platform_Sales', { table: 'Contacts' });
		expect(table.isError).toBeFalsy();
		expect(JSON.parse(textOf(table))[0].columns).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ name: 'Label', options: ['Hot lead', 'Customer', 'Partner'] }),
			]),
		);

		const wrong = await call('Create_a_record_in_Business_Platform_Sales', {
			table: 'Contacts',
			cells: { Name: 'Mary Jackson', Label: 'Gold', Score: 12 },
		});
		expect(wrong.isError).toBe(true);
		expect(textOf(wrong)).toMatch(
			/Column "Label" has no option "Gold"\. Allowed options: Hot lead, Customer, Partner/,
		);
		expect(named('Mary Jackson')).toHaveLength(0);

		const right = await call('Create_a_record_in_Business_Platform_Sales', {
			table: contactsTable()._id,
			cells: [
				{ column: 'Name', value: 'Mary Jackson' },
				{ column: 'Label', value: 'Partner' },
				{ column: 'Score', value: 12 },
			],
		});
		expect(right.isError).toBeFalsy();
		const mary = named('Mary Jackson');
		expect(mary).toHaveLength(1);
		expect(mary[0].cells).toEqual({
			[col('Name').id]: 'Mary Jackson',
			[col('Label').id]: [optionOf('Label', 'Partner')],
			[col('Score').id]: 12,
		});

		const found = await call('Search_records_in_Business_Platform_Sales', {
			table: 'contacts',
			conditions: [
				{ column: 'Name', operator: 'eq', value: 'Mary Jackson' },
				{ column: 'Label', operator: 'in', value: 'Partner, Customer' },
			],
		});
		expect(found.isError).toBeFalsy();
		expect(JSON.parse(textOf(found))).toEqual([
			expect.objectContaining({
				_id: mary[0]._id,
				Name: 'Mary Jackson',
				Label: 'Partner',
				Score: 12,
			}),
		]);
	});
});
