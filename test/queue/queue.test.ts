/**
 * The pack in n8n's queue mode (main, 2 workers, a webhook processor, Redis, PostgreSQL;
 * scripts/n8n-queue.ts): the three action nodes run on workers, token expiry under load
 * in the three OAuth modes, and the trigger's registrations and deliveries. One cluster
 * for the file; each case uses its own credential, workflows and records.
 */
import { randomUUID } from 'node:crypto';

import { startTestSandbox, type Sandbox } from '../helpers/sandbox';
import { eventually, pack, webhookStart, workflow } from '../e2e/n8n-env';
import { campaignsCrud, peopleCrud, salesCrud } from '../e2e/workflows';
import { contactsByName, describeQueue, startQueue, type Execution, type Queue } from './queue-env';

jest.setTimeout(600_000);
const EVENTS = Number(process.env.WAVES ?? 50) * 10;

let sb: Sandbox;
let q: Queue;

beforeAll(async () => {
	sb = await startTestSandbox({ rows: 10 });
	// Job locks shorter than n8n's defaults (60 s lock, 30 s stalled-job check) so that a killed worker's job is found in seconds.
	q = await startQueue(sb, { env: { QUEUE_WORKER_LOCK_DURATION: '15000', QUEUE_WORKER_LOCK_RENEW_TIME: '3000', QUEUE_WORKER_STALLED_INTERVAL: '5000' } });
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

/** Webhook (answers when done) → one item per contact in the body → Sales: create contact. */
const createMany = (path: string) =>
	workflow(`queueCreate${path}`.slice(0, 16), `Queue: create contacts (${path})`, [
		webhookStart(path),
		{ name: 'Split', type: 'n8n-nodes-base.splitOut', typeVersion: 1, parameters: { fieldToSplitOut: 'body.contacts', options: {} } },
		pack('businessPlatformSales', 'Create', { resource: 'contact', operation: 'create', name: '={{ $json.name }}', type: 'person', additionalFields: {} }),
	]);

const batch = (tag: string, execution: number, items = 50) => ({ contacts: Array.from({ length: items }, (_, i) => ({ name: `${tag}${execution}-${i}` })) });

describeQueue('queue mode: token expiry under load', () => {
	it.each(['v1', 'v1-legacy', 'v2'] as const)('mode %s: 10 executions of 50 creates over 2 workers, the token expiring mid-run, twice (the second time with the rotated refresh token): 0 failed, 0 duplicates, 1 refresh per expiry', async (mode) => {
		sb.config.mode = mode;
		const cred = await q.connect(`Queue: expiry ${mode}`);
		const path = `expiry-${mode}`;
		const wf = await q.create(createMany(path), cred, path);
		for (const round of ['first expiry', 'second expiry, rotated refresh token']) {
			const tag = `exp ${mode} ${round.slice(0, 6)} `;
			const before = { ...sb.auth.stats };
			const seen = new Set((await q.executions(wf)).map((e) => e.id));
			const runs = Array.from({ length: 10 }, (_, e) => q.call(path, batch(tag, e)));
			// Expire every token once a fifth of the creates went through.
			await eventually(() => expect(contactsByName(sb, tag).size).toBeGreaterThanOrEqual(100), 120_000);
			sb.auth.expireAll();
			const createdAtExpiry = contactsByName(sb, tag).size;
			const answers = await Promise.all(runs);

			expect(answers.map((a) => [a.status, Array.isArray(a.body) ? a.body.length : a.body])).toEqual(Array(10).fill([200, 50]));
			const counts = contactsByName(sb, tag);
			expect([counts.size, Math.max(...counts.values())]).toEqual([500, 1]); // every item once: none lost, none twice
			expect(createdAtExpiry).toBeLessThan(500); // the expiry did happen mid-run
			const stats = sb.auth.stats;
			expect({
				refreshGrant: stats.refreshGrant - before.refreshGrant,
				getRefreshToken: stats.getRefreshToken - before.getRefreshToken,
				failedRefresh: stats.failedRefresh - before.failedRefresh,
				rejectedExpired: stats.invalidToken - before.invalidToken > 0,
			}).toEqual({ refreshGrant: 1, getRefreshToken: mode === 'v1-legacy' ? 1 : 0, failedRefresh: 0, rejectedExpired: true });

			const executions = (await q.executions(wf)).filter((e) => !seen.has(e.id));
			expect(executions.map((e) => e.status)).toEqual(Array(10).fill('success'));
			expect(q.cluster.workers.map((w) => executions.filter((e) => w.started.has(e.id)).length).every((n) => n > 0)).toBe(true);
		}
	});
});

describeQueue('queue mode: the trigger', () => {
	it('activation registers one webhook per event, once; 500 events run 500 executions on workers, each once; restarting main and the webhook processor registers nothing again; deactivation removes every registration', async () => {
		sb.config.mode = 'v1';
		const cred = await q.connect('Queue: trigger');
		const events = ['CREATE_CRM_DEAL', 'CREATE_INVOICE', 'UPDATE_CRM_CONTACT'];
		const webhookId = randomUUID();
		const trigger = workflow('queueTrigger0001', 'Queue: trigger', [
			pack('businessPlatformTrigger', 'Trigger', { events, options: {} }, { webhookId }),
			{ name: 'Done', type: 'n8n-nodes-base.noOp', parameters: {} },
		]);
		const wf = await q.create(trigger, cred);
		const tenant = sb.store.tenant(1);
		// Every registration ever made for this workflow (deleted ones stay in the store, flagged).
		const registrations = () => tenant.webhooks.values().filter((h) => String(h.webhookUrl).includes(webhookId));
		const live = () => registrations().filter((h) => !h.deleted);

		await q.cluster.api.pub('POST', `/workflows/${wf}/activate`);
		await eventually(() => expect(live().map((h) => h.eventType).sort()).toEqual([...events].sort()));
		expect(registrations()).toHaveLength(3);
		for (const h of live()) expect(String(h.webhookUrl)).toMatch(new RegExp(`^${q.cluster.webhookUrl}/webhook/${webhookId}/`));
		const hookIds = live().map((h) => h.hookId).sort();

		// 500 events at once, delivered by the sandbox to the webhook processor.
		const emitted: string[] = [];
		const t0 = Date.now();
		for (let wave = 0; wave < EVENTS / 10; wave++) {
			for (let i = 0; i < 10; i++) emitted.push(sb.hooks.emit(tenant, events[(wave * 10 + i) % 3], { id: wave * 10 + i, note: 'queue trigger' }));
			await sb.hooks.idle();
			if (wave % 10 === 9) console.log(`wave ${wave}: ${Date.now() - t0} ms`);
		}
		const deliveries = sb.hooks.deliveries.filter((d) => emitted.includes(d.eventId));
		const statuses = deliveries.reduce<Record<string, number>>((acc, d) => ({ ...acc, [`${d.status}${d.error ? ` ${d.error}` : ''}`]: (acc[`${d.status}${d.error ? ` ${d.error}` : ''}`] ?? 0) + 1 }), {});
		expect(statuses).toEqual({ 200: EVENTS });
		await eventually(async () => expect((await q.executions(wf)).filter((e) => e.status === 'success')).toHaveLength(EVENTS), 300_000);
		const executions = await q.executions(wf, true);
		expect(executions.map((e) => e.status)).toEqual(Array(EVENTS).fill("success"));
		const eventIds = executions.map((e) => e.data!.resultData.runData.Trigger[0].data!.main[0][0].json.payload.eventId as string);
		expect(eventIds.sort()).toEqual([...emitted].sort()); // each event exactly once
		for (const e of executions) expect(q.cluster.workerOf(e.id)).toHaveLength(1);
		expect(q.cluster.workers.map((w) => executions.filter((e) => w.started.has(e.id)).length).every((n) => n > 0)).toBe(true);

		// Main stopped: the webhook processor and the workers carry on without it. Then main
		// and the webhook processor restarted: nothing is registered or removed again.
		const seq = Math.max(...sb.requests().map((r) => r.seq));
		await q.cluster.main.instance.stop();
		const whileMainDown = events.map((type) => sb.hooks.emit(tenant, type, { id: 1000, note: 'while main is down' }));
		await sb.hooks.idle();
		await q.cluster.start('main');
		await q.cluster.restart('webhook');
		const after = events.map((type) => sb.hooks.emit(tenant, type, { id: 1001, note: 'after the restarts' }));
		await sb.hooks.idle();
		expect(sb.hooks.deliveries.filter((d) => [...whileMainDown, ...after].includes(d.eventId)).map((d) => d.status)).toEqual(Array(6).fill(200));
		await eventually(async () => expect((await q.executions(wf)).filter((e) => e.status === 'success')).toHaveLength(EVENTS + 6), 60_000);
		expect(sb.requests().filter((r) => r.seq > seq && /webhooks\/(register|delete)/.test(r.path))).toEqual([]);
		expect(registrations()).toHaveLength(3);
		expect(live().map((h) => h.hookId).sort()).toEqual(hookIds);

		await q.cluster.api.pub('POST', `/workflows/${wf}/deactivate`);
		await eventually(() => expect(live()).toHaveLength(0));
		expect(registrations()).toHaveLength(3);
		expect(await q.executions(wf)).toHaveLength(EVENTS + 6); // nothing ran twice
	});
});

describeQueue('queue mode: a worker killed mid-execution', () => {
	it('SIGKILL while it creates 50 contacts: no contact is created twice; n8n does not run the execution again and marks it failed', async () => {
		sb.config.mode = 'v1';
		const cred = await q.connect('Queue: worker kill');
		const path = 'worker-kill';
		const wf = await q.create(createMany(path), cred, path);
		const tag = 'kill ';
		// Slow creates (300 ms each, 5 at a time): the execution takes about 3 s.
		sb.faults.add({ kind: 'latency', ms: 300, method: 'POST', path: '/v1/crm/contacts' });
		const startedBefore = new Map(q.cluster.workers.map((w) => [w.name, new Set(w.started)]));
		const answer = q.call(path, batch(tag, 0));
		await eventually(() => expect(contactsByName(sb, tag).size).toBeGreaterThanOrEqual(10), 60_000);
		const victim = q.cluster.workers.find((w) => [...w.started].some((id) => !startedBefore.get(w.name)!.has(id)))!;
		const executionId = [...victim.started].find((id) => !startedBefore.get(victim.name)!.has(id))!;
		await q.cluster.kill(victim.name);
		const createdAtKill = contactsByName(sb, tag).size;
		sb.faults.clear();

		// n8n's verdict: the job's lock expires, a worker's stalled-job check fails the job
		// (n8n allows no retry), and the process that enqueued it marks the execution failed.
		await q.cluster.start(victim.name);
		const verdict = await eventually(async () => {
			const e = (await q.cluster.api.pub<Execution>('GET', `/executions/${executionId}?includeData=true`)) as Execution;
			expect(['new', 'running']).not.toContain(e.status);
			return e;
		}, 180_000);
		const res = await answer;
		const counts = contactsByName(sb, tag);
		expect(Math.max(...counts.values())).toBe(1); // nothing created twice
		expect(counts.size).toBeGreaterThanOrEqual(createdAtKill);
		expect(counts.size).toBeLessThan(50); // the rest was never sent
		expect(q.cluster.workerOf(executionId)).toEqual([victim.name]); // not run again anywhere
		expect((await q.executions(wf)).map((e) => e.id)).toEqual([executionId]);
		expect({ status: verdict.status, error: verdict.data?.resultData.error?.message, answer: res.status }).toEqual({
			status: 'error',
			error: expect.stringMatching(/failed to be processed too many times/),
			answer: expect.any(Number),
		});
	});
});
