/**
 * The pack in n8n's queue mode (main, 2 workers, a webhook processor, Redis, PostgreSQL;
 * scripts/n8n-queue.ts): the three action nodes run on workers, token expiry under load
 * in the three OAuth modes, and the trigger's registrations and deliveries. One cluster
 * for the file; each case uses its own credential, workflows and records.
 */
import { startTestSandbox, type Sandbox } from '../helpers/sandbox';
import { campaignsCrud, peopleCrud, salesCrud } from '../e2e/workflows';
import { describeQueue, startQueue, type Queue } from './queue-env';

jest.setTimeout(600_000);

let sb: Sandbox;
let q: Queue;

beforeAll(async () => {
	sb = await startTestSandbox({ rows: 10 });
	q = await startQueue(sb);
}, 300_000);

afterAll(async () => {
	await q?.cluster.stop();
	await sb?.stop();
});

describeQueue('queue mode: the action nodes run on workers', () => {
	it('Sales, Campaigns and People workflows started through the webhook processor succeed, each on one worker, both workers used', async () => {
		const cred = await q.connect('Queue: nodes');
		const ids = {
			sales: await q.create(salesCrud, cred, 'sales-crud'),
			campaigns: await q.create(campaignsCrud, cred, 'campaigns-crud'),
			people: await q.create(peopleCrud, cred, 'people-crud'),
		};
		const runs = Array.from({ length: 5 }, (_, i) => [
			q.call('sales-crud', { name: `Queue Person ${i}`, email: `queue.person.${i}@example.com` }),
			q.call('campaigns-crud', { name: `Queue Category ${i}` }),
			q.call('people-crud', { firstName: `Queue${i}`, email: `queue.people.${i}@acme.example` }),
		]).flat();
		const answers = await Promise.all(runs);
		expect(answers.map((a) => [a.status, a.body])).toEqual(Array(15).fill([200, [expect.objectContaining({ deleted: true })]]));
		// In the sandbox: each record was created, updated and deleted, once.
		const t = sb.store.tenant(1);
		const creates = (route: string, text: string) => sb.requests().filter((r) => r.route === route && r.status < 300 && r.body?.includes(text)).length;
		for (let i = 0; i < 5; i++) {
			expect(creates('POST /v1/crm/contacts', `queue.person.${i}@example.com`)).toBe(1);
			expect(creates('POST /v1/crm/campaign/category', `Queue Category ${i}`)).toBe(1);
			expect(creates('POST /v1/people/users', `queue.people.${i}@acme.example`)).toBe(1);
		}
		expect(t.contacts.values().filter((c) => String(c.name).startsWith('Queue Person'))).toHaveLength(0);
		expect(t.categories.values().filter((c) => String(c.name).startsWith('Queue Category'))).toHaveLength(0);
		expect(t.peopleUsers.values().filter((u) => String(u.emailId).startsWith('queue.people.'))).toHaveLength(0);

		// In n8n: 15 successful executions, each started on exactly one worker; both workers used.
		const executions = (await Promise.all(Object.values(ids).map((id) => q.executions(id)))).flat();
		expect(executions).toHaveLength(15);
		expect(executions.map((e) => e.status)).toEqual(Array(15).fill('success'));
		for (const e of executions) expect(q.cluster.workerOf(e.id)).toHaveLength(1);
		const perWorker = q.cluster.workers.map((w) => executions.filter((e) => w.started.has(e.id)).length);
		expect(perWorker.every((n) => n > 0)).toBe(true);
		expect(perWorker.reduce((a, b) => a + b, 0)).toBe(15);
		// Main and the webhook processor ran none of them.
		for (const p of [q.cluster.main, q.cluster.webhook!]) expect(p.log()).not.toMatch(/Worker started execution/);
	});
});
