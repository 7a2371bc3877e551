/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The pack in n8n's queue mode (main, 2 workers, a webhook processor, Redis, PostgreSQL;
 * scripts/n8n-queue.ts): the three action nodes run on workers, token expiry under load
 * in the three OAuth modes, the trigger's registrations and deliveries, and a polling trigger.
 * One cluster for the file (n8n's default scheduler); each case uses its own credential,
 * workflows and records. Two smaller clusters with n8n's durable scheduler, with and without
 * durable cursors, run their polling lanes from the start of the file, beside the other cases:
 * the payrun lane with a main restart, and a backlog longer than the poll budget.
 */
import { randomUUID } from 'node:crypto';
import { stripVTControlCharacters } from 'node:util';

import { n8nAtLeast } from '../../scripts/n8n-versions';
import { startTestSandbox, type Sandbox } from '../helpers/sandbox';
import { connectCredential, eventually, pack, workflow } from '../../scripts/n8n-env';
import { pollingExactlyOnce, SCHEDULERS } from '../e2e/polling';
import { BACKLOG_ENV, backlogExactlyOnce } from '../e2e/polling-backlog';
import { campaignsCrud, peopleCrud, salesCrud } from '../e2e/workflows';
import { contactsByName, describeQueue, startQueue, type Execution, type Queue } from './queue-env';
import { batch, createMany } from '../../scripts/queue-workflows';

jest.setTimeout(600_000);
const EVENTS = 500;

let sb: Sandbox;
let q: Queue;

/**
 * Two more clusters (main and one worker each): n8n 2.41's durable scheduler, with and without
 * durable cursors (the oldest tested n8n has none). Their polling lanes need nothing of this
 * file's cluster, so they run from the start, beside the other cases, and their minute ticks
 * pass while those run.
 */
interface DurableLane {
	tag: string;
	env: NodeJS.ProcessEnv;
	sb?: Sandbox;
	/** The backlog's own sandbox (its pages get slow): test/e2e/polling-backlog.ts. */
	backlog?: Sandbox;
	q?: Queue;
	lane?: Promise<void>;
}
const durables: DurableLane[] = [
	{ tag: 'QueueCursors', env: SCHEDULERS.durableCursors },
	{ tag: 'QueueDurable', env: SCHEDULERS.durable },
];

/** The polling lane (test/e2e/polling.ts) on a cluster; with `restart`, main restarts in the middle. */
async function lane(
	cluster: Queue,
	sandbox: Sandbox,
	tag: string,
	credential: string,
	restart: boolean,
) {
	const id = await pollingExactlyOnce(
		sandbox,
		{
			async publish(wf) {
				const id = await cluster.create(wf, credential);
				await cluster.cluster.api.pub('POST', `/workflows/${id}/activate`);
				return id;
			},
			executions: async (id) => (await cluster.executions(id, true)) as never,
			...(restart ? { restart: async () => await cluster.cluster.restart('main') } : {}),
		},
		tag,
	);
	// Main polled; the workers ran every execution.
	const ran = new Set(cluster.cluster.workers.flatMap((w) => [...w.started]));
	const runs = await cluster.executions(id);
	expect(runs.length).toBeGreaterThan(0);
	expect(runs.filter((e) => !ran.has(e.id)).map((e) => e.id)).toEqual([]);
}

/** What main's scheduler said (debug lines of its polls), the last `n`: for a failure's message. */
/** The lines of a process's log that say what its scheduler and executions did (n8n's error and warn lines too). */
const logLines = (log: string, n: number) =>
	log
		.split('\n')
		.map((l) => stripVTControlCharacters(l))
		.filter((l) => /Poll |poll trigger|Shutting down n8n|n8n ready|\s(error|warn)\s/i.test(l))
		.slice(-n)
		.map((l) => l.slice(0, 240))
		.join('\n');

/**
 * Main's scheduler lines, then each worker's error and warn lines: a delivery main handed off
 * whose execution never appears (seen in CI under load) says there where it went.
 */
const schedulerLines = (q: Queue, n = 40) =>
	[
		logLines(q.cluster.main.log(), n),
		...q.cluster.workers.map((w, i) => `worker ${i + 1}, last lines:\n${logLines(w.log(), 15)}`),
	].join('\n');

/** The polling lane with a main restart, and beside it a backlog longer than the poll budget. */
async function durableLane(d: DurableLane): Promise<void> {
	d.sb = await startTestSandbox({ rows: 10 });
	d.sb.config.mode = 'v1';
	d.backlog = await startTestSandbox({ rows: 4 });
	// Debug: n8n logs each poll's outcome, which a failure quotes.
	const env = { ...d.env, ...BACKLOG_ENV, N8N_LOG_LEVEL: 'debug' };
	const q = (d.q = await startQueue(d.sb, { workers: 1, webhookProcessor: false, env }));
	const credential = await q.connect(`Queue: polling, ${d.tag}`);
	const backlogCredential = await connectCredential(
		q.cluster.api,
		q.cluster.main.instance.url,
		d.backlog,
		`Backlog, ${d.tag}`,
	);
	const results = await Promise.allSettled([
		lane(q, d.sb, d.tag, credential, true),
		backlogExactlyOnce(
			d.backlog,
			{
				async publish(wf) {
					const id = await q.create(wf, backlogCredential);
					await q.cluster.api.pub('POST', `/workflows/${id}/activate`);
					return id;
				},
				executions: async (id) => (await q.executions(id, true)) as never,
			},
			d.tag,
		),
	]);
	const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
	if (failed)
		throw new Error(
			`${d.tag}: ${String(failed.reason)}\nmain's scheduler, last lines:\n${schedulerLines(q)}`,
		);
	expect(q.cluster.main.log()).not.toMatch(/Poll exceeded its timeout/);
}

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
	if (n8nAtLeast('2.41.0'))
		for (const d of durables) {
			d.lane = durableLane(d);
			d.lane.catch(() => undefined); // raised by the polling case
		}
}, 300_000);

afterAll(async () => {
	// The durable clusters first: a lane still waiting for one fails at once instead of at its limit.
	await Promise.all(durables.map((d) => d.q?.cluster.stop()));
	await Promise.all(durables.map((d) => d.lane?.catch(() => undefined)));
	await Promise.all(durables.flatMap((d) => [d.sb?.stop(), d.backlog?.stop()]));
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
		expect(answers.map((a) => [a.status, a.body])).toEqual(
			Array(15).fill([200, [expect.objectContaining({ deleted: true })]]),
		);
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
		const executions = (await Promise.all(Object.values(ids).map((id) => q.executions(id)))).flat();
		expect(executions).toHaveLength(15);
		expect(executions.map((e) => e.status)).toEqual(Array(15).fill('success'));
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
		'mode %s: 10 executions of 50 creates over 2 workers, the token expiring mid-run, twice (the second time with the rotated refresh token): 0 failed, 0 duplicates, 1 refresh per expiry',
		async (mode) => {
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
				await eventually(
					() => expect(contactsByName(sb, tag).size).toBeGreaterThanOrEqual(100),
					120_000,
				);
				sb.auth.expireAll();
				const createdAtExpiry = contactsByName(sb, tag).size;
				const answers = await Promise.all(runs);

				expect(
					answers.map((a) => [a.status, Array.isArray(a.body) ? a.body.length : a.body]),
				).toEqual(Array(10).fill([200, 50]));
				const counts = contactsByName(sb, tag);
				expect([counts.size, Math.max(...counts.values())]).toEqual([500, 1]); // every item once: none lost, none twice
				expect(createdAtExpiry).toBeLessThan(500); // the expiry did happen mid-run
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

				const executions = (await q.executions(wf)).filter((e) => !seen.has(e.id));
				expect(executions.map((e) => e.status)).toEqual(Array(10).fill('success'));
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
	it('activation registers one webhook per event, once; 500 events run 500 executions on workers, each once; restarting main and the webhook processor registers nothing again but the one the platform dropped meanwhile, once, and the next event of it runs once; deactivation removes every registration', async () => {
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

		// 500 events, delivered by the sandbox to the webhook processor 10 at a time.
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

describeQueue('queue mode: a polling trigger', () => {
	it("People Trigger on Payrun Created, under n8n's default scheduler (this cluster) and its durable scheduler with and without durable cursors (a cluster each, main and one worker, main restarted, and a backlog of 25 s of pages within a 15 s budget; their lanes run from the start of the file): main polls, the workers run the executions, each change is delivered exactly once", async () => {
		sb.config.mode = 'v1';
		const cred = await q.connect('Queue: polling');
		// Both lanes to their end, then the first failure.
		const results = await Promise.allSettled([
			lane(q, sb, 'Queue', cred, false),
			...durables.map((d) => d.lane),
		]);
		for (const r of results) if (r.status === 'rejected') throw r.reason;
	}, 600_000);
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
