/**
 * The demo that `npm start` sets up, run in a real n8n (the one the e2e files share, which runs
 * as `npm start`'s does, with its editor): the demo credentials and workflows import, the
 * event-driven ones activate, and each one succeeds. The AI agent demo needs a model:
 * ai-tools.e2e.test.ts runs it against a scripted one.
 */
import {
	DEMO_AGENT,
	demoCredential,
	demoOpenAiCredential,
	demoWorkflows,
	DEMO_ACTIVE,
	DEMO_OPENAI_CREDENTIAL_ID,
} from '../../demo/demo';
import { call, startTestSandbox, type Sandbox } from '../helpers/sandbox';
import { eventually } from '../../testbed/n8n/env';
import { joinSharedN8n, type SharedE2e } from '../helpers/shared-n8n';

jest.setTimeout(900_000);

let sb: Sandbox;
let e2e: SharedE2e;

beforeAll(async () => {
	sb = await startTestSandbox({ rows: 30 });
	e2e = await joinSharedN8n(
		[demoCredential(sb), demoOpenAiCredential()],
		demoWorkflows() as Array<Record<string, unknown>>,
	);
	for (const id of DEMO_ACTIVE) await e2e.activate(id);
	await eventually(() =>
		expect(
			sb.store
				.tenant(1)
				.webhooks.values()
				.filter((h) => !h.deleted)
				.map((h) => h.eventType)
				.sort(),
		).toEqual(['CREATE_CRM_DEAL', 'CREATE_INVOICE']),
	);
});

afterAll(async () => {
	await e2e?.stop();
	await sb?.stop();
});

type RunData = Record<
	string,
	Array<{
		data?: { main: Array<Array<{ json: Record<string, unknown> }>> };
		error?: { message: string };
	}>
>;

/** Runs a manual workflow the way the editor's "Execute workflow" button does, and waits for its result. */
async function execute(
	id: string,
	trigger: string,
): Promise<Record<string, Array<{ json: Record<string, unknown> }>>> {
	// n8n 1.x runs the workflow the editor sends (workflowData); 2.x reads it from the database and ignores it.
	const workflowData = (
		await e2e.api.rest<{ data: Record<string, unknown> }>('GET', `/workflows/${e2e.id(id)}`)
	).data;
	const started = await e2e.api.rest<{ data: { executionId: string } }>(
		'POST',
		`/workflows/${e2e.id(id)}/run`,
		{ workflowData, triggerToStartFrom: { name: trigger } },
	);
	const executionId = started.data.executionId;
	const done = await eventually(async () => {
		const ex = (await e2e.api.pub<{
			finished: boolean;
			status: string;
			data?: { resultData: { runData: RunData; error?: { message: string } } };
		}>('GET', `/executions/${executionId}?includeData=true`)) as {
			status: string;
			data?: { resultData: { runData: RunData; error?: { message: string } } };
		};
		expect(['success', 'error', 'crashed']).toContain(ex.status);
		return ex;
	}, 60_000);
	expect([done.status, done.data?.resultData.error?.message]).toEqual(['success', undefined]);
	return Object.fromEntries(
		Object.entries(done.data!.resultData.runData).map(([name, runs]) => [
			name,
			runs[0].data?.main[0] ?? [],
		]),
	);
}

describe('the npm start demo', () => {
	it('"create a sample deal" creates a deal, and "new deal → get its contact → add an activity" adds the call', async () => {
		const activitiesBefore = sb.store.tenant(1).activities.size;
		const out = await execute('bpDemoSampleDeal', 'Click to Create a Sample Deal');
		const deal = out['Create a Deal'][0].json;
		expect(sb.store.tenant(1).deals.get(deal.id as number)).toMatchObject({
			name: deal.name,
			contact_id: expect.any(Number),
		});
		const activity = await eventually(() => {
			const found = sb.store
				.tenant(1)
				.activities.values()
				.find((a) => a.linked_to === deal.id);
			expect(found).toBeDefined();
			return found!;
		});
		expect(String(activity.name)).toMatch(/^Call .+ about Sample deal with/);
		expect(activity.contact_ids).toEqual([
			sb.store.tenant(1).deals.get(deal.id as number)!.contact_id,
		]);
		expect(sb.store.tenant(1).activities.size).toBe(activitiesBefore + 1);
	});

	it('"invoice created → log" runs for an invoice event', async () => {
		const before = sb.hooks.deliveries.length;
		await call(sb, 'POST', '/__admin/events', {
			token: null,
			body: { eventType: 'CREATE_INVOICE', data: { invoiceId: 'INV-DEMO', total: 42 } },
		});
		expect(sb.hooks.deliveries.slice(before).map((d) => [d.eventType, d.status])).toEqual([
			['CREATE_INVOICE', 200],
		]);
	});

	it('"page all records of a table" returns every record of the contacts table', async () => {
		const table = sb.store
			.tenant(1)
			.tables.values()
			.find((t) => t.objectType === 'CONTACT')!;
		const out = await execute('bpDemoAllRecords', 'Click to Page All Records');
		expect(out['Get All Its Records']).toHaveLength(
			sb.store.tenant(1).records.get(String(table._id))!.size,
		);
	});

	it('"AI agent with the Business Platform tools" is imported, inactive, with its OpenAI credential for the user to fill in', async () => {
		const wf = await e2e.api.pub<{
			active: boolean;
			nodes: Array<{ type: string; credentials?: Record<string, { id: string }> }>;
		}>('GET', `/workflows/${e2e.id(DEMO_AGENT)}`);
		expect(wf.active).toBe(false);
		expect(
			wf.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi')?.credentials
				?.openAiApi.id,
		).toBe(e2e.id(DEMO_OPENAI_CREDENTIAL_ID));
		expect(
			wf.nodes.filter(
				(n) => n.type.startsWith('n8n-nodes-business-platform.') && n.type.endsWith('Tool'),
			),
		).toHaveLength(5);
	});
});
