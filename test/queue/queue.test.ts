/* eslint-disable @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The pack in n8n's queue mode (main, 2 workers, a webhook processor, Redis, PostgreSQL;
 * testbed/queue/cluster.ts): the three action nodes run on workers, token expiry under load
 * in the three OAuth modes, the trigger's registrations and deliveries, a killed worker.
 * One cluster for the file (n8n's default scheduler); each case uses its own credential,
 * workflows and records. The polling trigger under each scheduler has clusters of its own
 * (queue-polling.test.ts), whose minute ticks pass on another jest worker while these cases run.
 */
import { randomUUID } from 'node:crypto';

import { startTestSandbox, type Sandbox } from '../helpers/sandbox';
import { eventually, pack, workflow } from '../../testbed/n8n/env';
import { campaignsCrud, peopleCrud, salesCrud } from '../helpers/workflows';
import { contactsByName, describeQueue, startQueue, type Execution, type Queue } from './queue-env';
import { batch, createMany } from '../../testbed/queue/workflows';

jest.setTimeout(900_000);
// Enough deliveries, 10 at a time, for both workers and every event type to take many; throughput at volume is
// `npm run bench:queue`'s.
const EVENTS = 100;
/** Creates per execution when the token expires under load: ten executions at once over both workers. */
const PER_RUN = 25;

/**
 * The workflow with its Webhook answering at once (responseMode onReceived): what ran is read from
 * n8n's executions and the sandbox. A webhook that waits for its execution (lastNode) waits in n8n's
 * webhook processor for Bull's job.finished(), which can miss the completion of a job that finished
 * fast (see queue-env.ts, executions()) and then never answers although the execution succeeded:
 * seen 2 times in about 10 runs of the token-expiry test (n8n 2.41.1).
 */
const answeringAtOnce = (wf: Record<string, unknown>) => ({
	...wf,
	nodes: (wf.nodes as Array<{ type: string; parameters: Record<string, unknown> }>).map((n) =>
		n.type === 'n8n-nodes-base.webhook'
			? { ...n, parameters: { ...n.parameters, responseMode: 'onReceived' } }
			: n,
	),
});

let sb: Sandbox;
let q: Queue;

beforeAll(async () => {
	sb = await startTestSandbox({ rows: 10 });
	// Job locks shorter than n8n's defaults (60 s lock, 30 s stalled-job check) so that a killed worker's job is found in seconds.
	q = await startQueue(sb, {
		env: {
			QUEUE_WORKER_LOCK_DURATION: '15000',
			QUEUE_WORKER_LOCK_RENEW_TIME: '3000',
			QUEUE_WORKER_STALLED_INTERVAL: '5000',
		},
	});
}, 900_000);

afterAll(async () => {
	await q?.cluster.stop();
	await sb?.stop();
});

/**
 * A worker killed mid-execution. n8n needs a while for its verdict (the job's lock must
 * expire, a stalled-job check must find it, then the process that enqueued it gives up on
 * it: 15 to 50 s with this file's lock settings), so the kill comes first and the verdict
 * is checked last, while the other cases run in between.
 */
const killed: {
	executionId?: string;
	victim?: string;
	tag: string;
	workflowId?: string;
	createdAtKill: number;
	answer?: Promise<{ status: number; body: any }>;
} = { tag: 'kill ', createdAtKill: 0 };

describeQueue('queue mode: a worker killed mid-execution', () => {
	it('SIGKILL while it creates 50 contacts: the contacts it created exist once, the rest were never sent; the worker comes back', async () => {
		sb.config.mode = 'v1';
		const cred = await q.connect('Queue: worker kill');
		const path = 'worker-kill';
		killed.workflowId = await q.create(createMany(path), cred, path);
		// Slow creates (300 ms each, 5 at a time): the execution takes about 3 s.
		sb.faults.add({ kind: 'latency', ms: 300, method: 'POST', path: '/v1/crm/contacts' });
		const startedBefore = new Map(q.cluster.workers.map((w) => [w.name, new Set(w.started)]));
		killed.answer = q.call(path, batch(killed.tag, 0));
		await eventually(
			() => expect(contactsByName(sb, killed.tag).size).toBeGreaterThanOrEqual(10),
			60_000,
		);
		const victim = q.cluster.workers.find((w) =>
			[...w.started].some((id) => !startedBefore.get(w.name)!.has(id)),
		)!;
		killed.executionId = [...victim.started].find(
			(id) => !startedBefore.get(victim.name)!.has(id),
		)!;
		killed.victim = victim.name;
		await q.cluster.kill(victim.name);
		killed.createdAtKill = contactsByName(sb, killed.tag).size;
		sb.faults.clear();
		await q.cluster.start(victim.name);

		const counts = contactsByName(sb, killed.tag);
		expect(Math.max(...counts.values())).toBe(1);
		expect(counts.size).toBeLessThan(50);
	});
});

describeQueue('queue mode: the action nodes run on workers', () => {
	it('Sales, Campaigns and People workflows started through the webhook processor succeed, each on one worker, both workers used', async () => {
		const cred = await q.connect('Queue: nodes');
		const ids = {
			sales: await q.create(answeringAtOnce(salesCrud), cred, 'sales-crud'),
			campaigns: await q.create(answeringAtOnce(campaignsCrud), cred, 'campaigns-crud'),
			people: await q.create(answeringAtOnce(peopleCrud), cred, 'people-crud'),
		};
		const runs = Array.from({ length: 5 }, (_, i) => [
			q.call('sales-crud', { name: `Queue Person ${i}`, email: `queue.person.${i}@example.com` }),
			q.call('campaigns-crud', { name: `Queue Category ${i}` }),
			q.call('people-crud', { firstName: `Queue${i}`, email: `queue.people.${i}@acme.example` }),
		]).flat();
		expect((await Promise.all(runs)).map((a) => a.status)).toEqual(Array(15).fill(200));
		const executions = await eventually(
			async () => {
				const all = (
					await Promise.all(Object.values(ids).map((id) => q.executions(id, true)))
				).flat();
				expect(all.map((e) => e.status)).toEqual(Array(15).fill('success'));
				return all;
			},
			120_000,
			500,
		);
		// Each ended with its record deleted (the last node's answer).
		for (const e of executions) {
			const runData = e.data!.resultData.runData;
			const last = Object.keys(runData).at(-1)!;
			expect(runData[last][0].data?.main[0].map((i) => i.json)).toEqual([
				expect.objectContaining({ deleted: true }),
			]);
		}
		// In the sandbox: each record was created, updated and deleted, once.
		const t = sb.store.tenant(1);
		const creates = (route: string, text: string) =>
			sb.requests().filter((r) => r.route === route && r.status < 300 && r.body?.includes(text))
				.length;
		for (let i = 0; i < 5; i++) {
			expect(creates('POST /v1/crm/contacts', `queue.person.${i}@example.com`)).toBe(1);
			expect(creates('POST /v1/crm/campaign/category', `Queue Category ${i}`)).toBe(1);
			expect(creates('POST /v1/people/users', `queue.people.${i}@acme.example`)).toBe(1);
		}
		expect(
			t.contacts.values().filter((c) => String(c.name).startsWith('Queue Person')),
		).toHaveLength(0);
		expect(
			t.categories.values().filter((c) => String(c.name).startsWith('Queue Category')),
		).toHaveLength(0);
		expect(
			t.peopleUsers.values().filter((u) => String(u.emailId).startsWith('queue.people.')),
		).toHaveLength(0);

		// In n8n: 15 successful executions, each started on exactly one worker; both workers used.
		for (const e of executions) expect(q.cluster.workerOf(e.id)).toHaveLength(1);
		const perWorker = q.cluster.workers.map(
			(w) => executions.filter((e) => w.started.has(e.id)).length,
		);
		expect(perWorker.every((n) => n > 0)).toBe(true);
		expect(perWorker.reduce((a, b) => a + b, 0)).toBe(15);
		// Main and the webhook processor ran none of them.
		for (const p of [q.cluster.main, q.cluster.webhook!])
			expect(p.log()).not.toMatch(/Worker started execution/);
	});
});

describeQueue('queue mode: token expiry under load', () => {
	it.each(['v1', 'v1-legacy', 'v2'] as const)(
		'mode %s: 10 executions of 25 creates over 2 workers, the token expiring mid-run, twice (the second time with the rotated refresh token): 0 failed, 0 duplicates, 1 refresh per expiry',
		async (mode) => {
			sb.config.mode = mode;
			const cred = await q.connect(`Queue: expiry ${mode}`);
			const path = `expiry-${mode}`;
			// n8n answers at once: the runs are read from its executions (answeringAtOnce says why).
			const wf = await q.create(createMany(path, 'onReceived'), cred, path);
			for (const round of ['first expiry', 'second expiry, rotated refresh token']) {
				const tag = `exp ${mode} ${round.slice(0, 6)} `;
				const before = { ...sb.auth.stats };
				const seen = new Set((await q.executions(wf)).map((e) => e.id));
				const runs = Array.from({ length: 10 }, (_, e) => q.call(path, batch(tag, e, PER_RUN)));
				// Expire every token once a fifth of the creates went through (looking every 50 ms: the
				// sandbox's own records, so that the expiry comes well before the last create).
				await eventually(
					() => expect(contactsByName(sb, tag).size).toBeGreaterThanOrEqual(2 * PER_RUN),
					120_000,
					50,
				);
				sb.auth.expireAll();
				const createdAtExpiry = contactsByName(sb, tag).size;
				expect((await Promise.all(runs)).map((a) => a.status)).toEqual(Array(10).fill(200));
				const executions = await eventually(
					async () => {
						const runsNow = (await q.executions(wf, true)).filter((e) => !seen.has(e.id));
						expect(runsNow.map((e) => e.status)).toEqual(Array(10).fill('success'));
						return runsNow;
					},
					120_000,
					500,
				);
				// Each execution's Create node output every item it was given.
				expect(
					executions.map((e) => e.data?.resultData.runData.Create?.[0]?.data?.main[0].length),
				).toEqual(Array(10).fill(PER_RUN));
				const counts = contactsByName(sb, tag);
				expect([counts.size, Math.max(...counts.values())]).toEqual([10 * PER_RUN, 1]); // every item once: none lost, none twice
				expect(createdAtExpiry).toBeLessThan(10 * PER_RUN); // the expiry did happen mid-run
				const stats = sb.auth.stats;
				expect({
					refreshGrant: stats.refreshGrant - before.refreshGrant,
					getRefreshToken: stats.getRefreshToken - before.getRefreshToken,
					failedRefresh: stats.failedRefresh - before.failedRefresh,
					rejectedExpired: stats.invalidToken - before.invalidToken > 0,
				}).toEqual({
					refreshGrant: 1,
					getRefreshToken: mode === 'v1-legacy' ? 1 : 0,
					failedRefresh: 0,
					rejectedExpired: true,
				});

				expect(
					q.cluster.workers
						.map((w) => executions.filter((e) => w.started.has(e.id)).length)
						.every((n) => n > 0),
				).toBe(true);
			}
		},
	);
});

describeQueue('queue mode: the trigger', () => {
	it('activation registers one webhook per event, once; 100 events run 100 executions on workers, each once; restarting main and the webhook processor registers nothing again but the one the platform dropped meanwhile, once, and the next event of it runs once; deactivation removes every registration', async () => {
		sb.config.mode = 'v1';
		const cred = await q.connect('Queue: trigger');
		const events = ['CREATE_CRM_DEAL', 'CREATE_INVOICE', 'UPDATE_CRM_CONTACT'];
		const webhookId = randomUUID();
		const trigger = workflow('queueTrigger0001', 'Queue: trigger', [
			pack('businessPlatformSalesTrigger', 'Trigger', { events, options: {} }, { webhookId }),
			{ name: 'Done', type: 'n8n-nodes-base.noOp', parameters: {} },
		]);
		const wf = await q.create(trigger, cred);
		const tenant = sb.store.tenant(1);
		// Every registration ever made for this workflow (deleted ones stay in the store, flagged).
		const registrations = () =>
			tenant.webhooks.values().filter((h) => String(h.webhookUrl).includes(webhookId));
		const live = () => registrations().filter((h) => !h.deleted);

		await q.cluster.api.pub('POST', `/workflows/${wf}/activate`);
		await eventually(() =>
			expect(
				live()
					.map((h) => h.eventType)
					.sort(),
			).toEqual([...events].sort()),
		);
		expect(registrations()).toHaveLength(3);
		for (const h of live())
			expect(String(h.webhookUrl)).toMatch(
				new RegExp(`^${q.cluster.webhookUrl}/webhook/${webhookId}/`),
			);
		const hookIds = live()
			.map((h) => h.hookId)
			.sort();

		// EVENTS events, delivered by the sandbox to the webhook processor 10 at a time.
		const finished = () => q.cluster.workers.flatMap((w) => [...w.finished]);
		const finishedBefore = new Set(finished());
		const emitted: string[] = [];
		for (let wave = 0; wave < EVENTS / 10; wave++) {
			for (let i = 0; i < 10; i++)
				emitted.push(
					sb.hooks.emit(tenant, events[(wave * 10 + i) % 3], {
						id: wave * 10 + i,
						note: 'queue trigger',
					}),
				);
			await sb.hooks.idle();
		}
		const sent = new Set(emitted);
		const outcomes = sb.hooks.deliveries
			.filter((d) => sent.has(d.eventId))
			.map((d) => (d.error ? `${d.status} ${d.error}` : String(d.status)));
		expect(outcomes.filter((o) => o !== '200')).toEqual([]);
		expect(outcomes).toHaveLength(EVENTS);
		// The workers' logs say when they are done (cheaper than asking main again and again).
		await eventually(
			() => expect(finished().filter((id) => !finishedBefore.has(id))).toHaveLength(EVENTS),
			300_000,
		);
		const executions = await q.executions(wf, true);
		expect(executions.map((e) => e.status)).toEqual(Array(EVENTS).fill('success'));
		const eventIds = executions.map(
			(e) => e.data!.resultData.runData.Trigger[0].data!.main[0][0].json.payload.eventId as string,
		);
		expect(eventIds.sort()).toEqual([...emitted].sort()); // each event exactly once
		for (const e of executions) expect(q.cluster.workerOf(e.id)).toHaveLength(1);
		expect(
			q.cluster.workers
				.map((w) => executions.filter((e) => w.started.has(e.id)).length)
				.every((n) => n > 0),
		).toBe(true);

		// Main stopped: the webhook processor and the workers carry on without it. Then main
		// and the webhook processor restarted: nothing is registered or removed again.
		const seq = Math.max(...sb.requests().map((r) => r.seq));
		await q.cluster.main.instance.stop();
		const whileMainDown = events.map((type) =>
			sb.hooks.emit(tenant, type, { id: 1000, note: 'while main is down' }),
		);
		await sb.hooks.idle();
		// ... and the platform drops one registration meanwhile (issue 41): main, once started,
		// registers it again (at start, or at the Trigger's next poll), once.
		const dropped = live().find((h) => h.eventType === 'CREATE_INVOICE')!;
		tenant.webhooks.values().find((h) => h.hookId === dropped.hookId)!.deleted = true;
		await q.cluster.start('main');
		await eventually(
			() =>
				expect(
					live()
						.map((h) => h.eventType)
						.sort(),
				).toEqual([...events].sort()),
			300_000,
		);
		await q.cluster.restart('webhook');
		const after = events.map((type) =>
			sb.hooks.emit(tenant, type, { id: 1001, note: 'after the restarts' }),
		);
		await sb.hooks.idle();
		expect(
			sb.hooks.deliveries
				.filter((d) => [...whileMainDown, ...after].includes(d.eventId))
				.map((d) => d.status),
		).toEqual(Array(6).fill(200));
		await eventually(
			() => expect(finished().filter((id) => !finishedBefore.has(id))).toHaveLength(EVENTS + 6),
			60_000,
		);
		expect(
			sb
				.requests()
				.filter((r) => r.seq > seq && /webhooks\/(register|delete)/.test(r.path))
				.map((r) => `${r.method} ${r.path} ${String(JSON.parse(r.body ?? '{}').eventType)}`),
		).toEqual(['POST /v1/webhooks/register CREATE_INVOICE']);
		expect(registrations()).toHaveLength(4);
		expect(live().map((h) => h.hookId)).not.toContain(dropped.hookId);
		expect(
			live()
				.filter((h) => h.hookId !== dropped.hookId && h.eventType !== 'CREATE_INVOICE')
				.map((h) => h.hookId)
				.sort(),
		).toEqual(hookIds.filter((id) => id !== dropped.hookId));

		await q.cluster.api.pub('POST', `/workflows/${wf}/deactivate`);
		await eventually(() => expect(live()).toHaveLength(0));
		expect(registrations()).toHaveLength(4);
		expect((await q.executions(wf)).map((e) => e.status)).toEqual(
			Array(EVENTS + 6).fill('success'),
		); // nothing ran twice
	});
});

describeQueue('queue mode: a worker killed mid-execution, n8n’s verdict', () => {
	it('n8n does not run the execution again: the job fails as stalled and the execution is marked failed; no contact was created twice', async () => {
		const { executionId, victim, tag } = killed;
		if (!executionId)
			throw new Error('the worker-kill case did not get to kill a worker (see its failure above)');
		// The process that enqueued it (the webhook processor) answers the webhook's caller once it
		// has given up on the job, and stores its verdict. (The killed worker, started again with
		// its user folder, first marks the execution crashed from its event log; the verdict replaces that.)
		const answer = await killed.answer!;
		const verdict = await eventually(async () => {
			const e = (await q.cluster.api.pub<Execution>(
				'GET',
				`/executions/${executionId}?includeData=true`,
			)) as Execution;
			expect(e.status).toBe('error');
			return e;
		}, 120_000);
		const counts = contactsByName(sb, tag);
		expect(Math.max(...counts.values())).toBe(1); // nothing created twice
		expect(counts.size).toBeGreaterThanOrEqual(killed.createdAtKill);
		expect(counts.size).toBeLessThan(50); // the rest was never sent
		expect(q.cluster.workerOf(executionId)).toEqual([victim]); // not run again anywhere
		expect((await q.executions(killed.workflowId!)).map((e) => e.id)).toEqual([executionId]);
		// The webhook's caller (responseMode lastNode) gets n8n's 500 "Error in workflow".
		expect({ error: verdict.data?.resultData.error?.message, answer }).toEqual({
			error: expect.stringMatching(
				/^This execution failed to be processed too many times and will no longer retry/,
			),
			answer: { status: 500, body: { message: 'Error in workflow' } },
		});
	});
});
