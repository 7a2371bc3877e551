/**
 * The action nodes as AI tools in a real n8n: the demo agent workflow (n8n's AI Agent,
 * its OpenAI Chat Model, the pack's nodes as tools with `$fromAI()` fields) with the
 * model replaced by a scripted OpenAI-compatible server (test/helpers/scripted-llm.ts).
 * What the model receives (tool names, descriptions, argument schemas) is checked against
 * docs/ai-tools.md; the tool calls must reach the sandbox; platform errors must come back
 * to the model as a readable tool result; the agent's final answer is the chat's answer.
 */
import { DEMO_AGENT, demoCredential, demoOpenAiCredential, demoWorkflows } from '../../scripts/start';
import { checkDocSection, renderTools } from '../helpers/ai-tools-doc';
import { startTestSandbox, type Sandbox } from '../helpers/sandbox';
import { startScriptedLlm, text, toolResults, type ChatRequest, type ScriptedLlm } from '../helpers/scripted-llm';
import { eventually, startE2e, type E2e } from './n8n-env';

jest.setTimeout(600_000);

let sb: Sandbox;
let llm: ScriptedLlm;
let e2e: E2e;
let chatPath: string;

interface Wf {
	id: string;
	nodes: Array<{ name: string; type: string; parameters: Record<string, unknown>; webhookId?: string }>;
}

/** The demo agent, its chat made reachable as a webhook (embedded mode) that answers with the agent's output. */
function agentWorkflow(): Wf {
	const wf = (demoWorkflows() as Wf[]).find((w) => w.id === DEMO_AGENT)!;
	const trigger = wf.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger')!;
	trigger.parameters = { public: true, mode: 'webhook', options: { responseMode: 'lastNode' } };
	chatPath = `${trigger.webhookId}/chat`;
	return wf;
}

/** The tool nodes of the demo agent, and the `$fromAI` keys each one uses. */
function fromAiKeys(): Record<string, string[]> {
	const wf = (demoWorkflows() as Wf[]).find((w) => w.id === DEMO_AGENT)!;
	return Object.fromEntries(
		wf.nodes.filter((n) => n.type.endsWith('Tool')).map((n) => [n.name.replace(/[^a-zA-Z0-9_-]+/g, '_'), [...new Set([...JSON.stringify(n.parameters).matchAll(/\$fromAI\('(\w+)'/g)].map((m) => m[1]))].sort()]),
	);
}

beforeAll(async () => {
	sb = await startTestSandbox({ rows: 20 });
	llm = await startScriptedLlm();
	e2e = await startE2e([demoCredential(sb.baseUrl, sb.authUrl, sb.config.clientId, sb.config.clientSecret, sb.demo.tokenResponse), demoOpenAiCredential('sk-scripted-test', llm.url)], [agentWorkflow()], {});
	await e2e.activate(DEMO_AGENT);
});

afterAll(async () => {
	await e2e?.stop();
	await llm?.stop();
	await sb?.stop();
});

let session = 0;
async function chat(prompt: string): Promise<{ status: number; body: any }> {
	return await eventually(async () => {
		const res = await e2e.call(chatPath, { action: 'sendMessage', sessionId: `s${++session}`, chatInput: prompt });
		if (res.status === 404) throw new Error(`chat webhook not registered yet: ${JSON.stringify(res.body).slice(0, 200)}`);
		return res;
	}, 30_000);
}

/** The agent's latest execution: its status, and the error of the run or of a node when it failed. */
async function lastExecution(): Promise<{ status: string; error?: string }> {
	const list = await e2e.api.pub<{ data: Array<{ id: string }> }>('GET', `/executions?workflowId=${DEMO_AGENT}&limit=1`);
	const ex = await e2e.api.pub<{ status: string; data?: { resultData: { error?: { message: string; description?: string }; runData: Record<string, Array<{ error?: { message: string } }>> } } }>(
		'GET',
		`/executions/${list.data[0].id}?includeData=true`,
	);
	const nodeErrors = Object.entries(ex.data?.resultData.runData ?? {}).flatMap(([node, runs]) => runs.filter((r) => r.error).map((r) => `${node}: ${r.error!.message}`));
	const error = [ex.data?.resultData.error?.message, ex.data?.resultData.error?.description, ...nodeErrors].filter(Boolean).join(' | ');
	return { status: ex.status, ...(error ? { error } : {}) };
}

/** The tools of a chat request as the model sees them. */
const toolsOf = (req: ChatRequest) => (req.tools ?? []).map((t) => ({ name: t.function.name, description: t.function.description ?? '', schema: t.function.parameters ?? {} }));

describe('an n8n AI Agent with the pack as tools', () => {
	it('creates a contact: the model gets one tool per node, with a description and a schema of its $fromAI keys; the call reaches the sandbox', async () => {
		const prompt = 'Add Ada Lovelace (ada@analytical.example) as a person contact.';
		llm.script(prompt, [
			{ toolCalls: [{ name: 'Create_a_contact_in_Business_Platform_Sales', arguments: { name: 'Ada Lovelace', type: 'person', email: 'ada@analytical.example', phone: '' } }] },
			(req) => ({ content: `Added Ada Lovelace as contact #${(toolResults(req)[0] as Array<{ id: number }>)[0].id}.` }),
		]);
		const res = await chat(prompt);
		const ada = sb.store.tenant(1).contacts.values().find((c) => c.name === 'Ada Lovelace');
		expect(ada).toMatchObject({ type: 'person', email: 'ada@analytical.example' });
		expect([res.status, res.body]).toEqual([200, { output: `Added Ada Lovelace as contact #${String(ada!.id)}.` }]);

		const [first] = llm.conversation(prompt);
		const tools = toolsOf(first);
		const keys = fromAiKeys();
		expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(keys).sort());
		for (const t of tools) {
			expect([t.name, t.description]).toEqual([t.name, expect.stringMatching(/^\S.{10,}/)]);
			expect([t.name, Object.keys(t.schema.properties as object).sort()]).toEqual([t.name, keys[t.name]]);
			for (const [k, p] of Object.entries(t.schema.properties as Record<string, { description?: string }>)) expect([t.name, k, p.description]).toEqual([t.name, k, expect.stringMatching(/\w{3,}/)]);
		}
		checkDocSection('agent', renderTools(tools));
	});

	it('finds the deals of a contact, adds an activity; a platform error comes back to the model as a readable tool result, and it recovers', async () => {
		const t = sb.store.tenant(1);
		const deal = t.deals.values().find((d) => d.contact_id != null && t.contacts.has(d.contact_id as number))!;
		const contact = t.contacts.get(deal.contact_id as number)!;
		const prompt = `Log a call with ${String(contact.name)} about their deals tomorrow at 10:00 UTC.`;
		let found: Array<{ id: number; name: string }> = [];
		const call = (dealId: number) => ({
			name: 'Create_an_activity_in_Business_Platform_Sales',
			arguments: { title: `Call ${String(contact.name)}`, activityType: 'call', start: '2030-01-15T10:00:00Z', end: '2030-01-15T10:30:00Z', contactId: contact.id, dealId, notes: 'Logged by the agent' },
		});
		llm.script(prompt, [
			{ toolCalls: [{ name: 'Get_many_deals_in_Business_Platform_Sales', arguments: { contactId: contact.id } }] },
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

		expect(found.map((d) => d.id)).toContain(deal.id);
		const rounds = llm.conversation(prompt);
		expect(rounds).toHaveLength(4);
		// The failed call: a tool message the model can read and act on, not a crashed execution.
		const failure = text(rounds[2].messages.at(-1));
		expect(failure).toMatch(/400/);
		expect(failure).toMatch(/deal 99999999 does not exist/);
		expect(failure).not.toMatch(/access.token|Bearer|x-access-token/i);
		const added = t.activities.values().filter((a) => a.linked_to === deal.id && a.name === `Call ${String(contact.name)}`);
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
					{ name: 'Search_users_by_conditions_in_Business_Platform_People', arguments: { email: user.emailId } },
					{ name: 'Get_many_forms_in_Business_Platform_Campaigns', arguments: { search: '' } },
				],
			},
			(req) => {
				const [users, forms] = toolResults(req) as [Array<Record<string, unknown>>, Array<Record<string, unknown>>];
				return { content: `${JSON.stringify(users.map((u) => u.emailId))} ${forms.length} forms` };
			},
		]);
		const res = await chat(prompt);
		expect(await lastExecution()).toEqual({ status: 'success' });
		expect([res.status, res.body]).toEqual([200, { output: `${JSON.stringify([user.emailId])} ${Math.min(20, t.forms.size)} forms` }]);
	});
});
