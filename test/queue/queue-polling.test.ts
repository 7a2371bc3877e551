/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * A polling trigger in n8n's queue mode (testbed/queue/cluster.ts), under each scheduler: n8n's
 * default one and its durable one with and without durable cursors (main and one worker each; on
 * the durable ones main restarted in the middle, and beside it a backlog longer than the poll
 * budget). Every lane runs from the start of the
 * file, at the same time, so they wait for n8n's minute ticks together; the file has clusters of
 * its own, so those ticks pass on another jest worker while queue.test.ts's cases run.
 */
import { stripVTControlCharacters } from 'node:util';

import { n8nAtLeast } from '../../testbed/runtime/versions';
import { startTestSandbox, type Sandbox } from '../helpers/sandbox';
import { connectCredential } from '../../testbed/n8n/env';
import { pollingExactlyOnce, SCHEDULERS } from '../helpers/polling';
import { BACKLOG_ENV, backlogExactlyOnce } from '../helpers/polling-backlog';
import { crmPollingExactlyOnce } from '../helpers/polling-crm';
import { sharedRestart, type RestartParty } from '../helpers/shared-restart';
import { describeQueue, hiddenByMain, startQueue, type Queue } from './queue-env';

// The lanes start with their clusters (beforeAll does not wait for them), so the test's limit also covers
// the clusters' start: the limits of the lanes' own waits (test/helpers/polling.ts, polling-backlog.ts) come first.
jest.setTimeout(900_000);

/** The default scheduler's cluster and its sandbox. */
let sb: Sandbox | undefined;
let q: Queue | undefined;
/** The default scheduler's lane, started by beforeAll. */
let defaultLane: Promise<void> | undefined;

/**
 * Two more clusters (main and one worker each): n8n 2.41's durable scheduler, with and without
 * durable cursors (the oldest tested n8n has none).
 */
interface DurableLane {
	tag: string;
	env: NodeJS.ProcessEnv;
	sb?: Sandbox;
	/** The backlog's own sandbox (its pages get slow): test/helpers/polling-backlog.ts. */
	backlog?: Sandbox;
	q?: Queue;
	lane?: Promise<void>;
}
const durables: DurableLane[] = [
	{ tag: 'QueueCursors', env: SCHEDULERS.durableCursors },
	{ tag: 'QueueDurable', env: SCHEDULERS.durable },
];

/** Publishing and reading executions on a cluster, with its credential. */
const queueHost = (cluster: Queue, credential: string) => ({
	async publish(wf: Record<string, unknown>) {
		const id = await cluster.create(wf, credential);
		await cluster.cluster.api.pub('POST', `/workflows/${id}/activate`);
		return id;
	},
	executions: async (id: string) => (await cluster.executions(id, true)) as never,
});

/** Main's ran no execution of the workflow: the workers ran them all. */
async function ranOnWorkers(cluster: Queue, id: string) {
	const ran = new Set(cluster.cluster.workers.flatMap((w) => [...w.started]));
	const runs = await cluster.executions(id);
	expect(runs.length).toBeGreaterThan(0);
	expect(runs.filter((e) => !ran.has(e.id)).map((e) => e.id)).toEqual([]);
}

/** The polling lane (test/helpers/polling.ts) on a cluster; with a restart party, main restarts in the middle. */
async function lane(
	cluster: Queue,
	sandbox: Sandbox,
	tag: string,
	credential: string,
	party?: RestartParty,
) {
	const id = await pollingExactlyOnce(
		sandbox,
		{
			...queueHost(cluster, credential),
			...(party ? { restart: async () => await party.join() } : {}),
		},
		tag,
	);
	// Main polled; the workers ran every execution.
	await ranOnWorkers(cluster, id);
}

/** A scenario of a cluster, a party of its one restart of main: when it ends it no longer holds the restart back. */
async function asParty(
	restart: ReturnType<typeof sharedRestart>,
	run: (party: RestartParty) => Promise<void>,
) {
	const party = restart.party();
	try {
		await run(party);
	} finally {
		party.leave();
	}
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
		`finished executions the public API hid (main held them as running): ${[...hiddenByMain].join(', ') || 'none'}`,
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
	// The Sales Trigger's polling events beside the payrun lane on one cluster: its main restart shared.
	const crm = d.tag === CRM_CLUSTER;
	const restart = sharedRestart(
		(whileStopped) => q.cluster.restart('main', whileStopped),
		crm ? 2 : 1,
	);
	const results = await Promise.allSettled([
		asParty(restart, (party) => lane(q, d.sb!, d.tag, credential, party)),
		...(crm ? [crmLane(q, d.sb, credential, restart, d.tag)] : []),
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

/**
 * The cluster whose main restart the Sales Trigger's polling events (test/helpers/polling-crm.ts: 50
 * changes made while main is stopped) share with its payrun lane: no n8n start of their own. On
 * the oldest tested n8n (no durable scheduler) the default scheduler's cluster, restarted for them.
 */
const CRM_CLUSTER = n8nAtLeast('2.41.0') ? 'QueueDurable' : 'Queue';

/** The CRM scenario on a cluster, a party of its main restart. */
async function crmLane(
	cluster: Queue,
	sandbox: Sandbox,
	credential: string,
	restart: ReturnType<typeof sharedRestart>,
	tag: string,
): Promise<void> {
	await asParty(restart, (party) =>
		crmPollingExactlyOnce(
			sandbox,
			{ ...queueHost(cluster, credential), restart: async (w) => await party.join(w) },
			tag,
		),
	);
}

/**
 * The default scheduler's cluster and its lane, no restart: main and one worker, as the durable
 * lanes' (a poll runs on main whatever the workers; a second worker and a webhook processor cost
 * two n8n starts and showed nothing more). On the oldest tested n8n the CRM scenario too (above).
 */
async function defaultSchedulerLane(): Promise<void> {
	sb = await startTestSandbox({ rows: 10 });
	sb.config.mode = 'v1';
	q = await startQueue(sb, { workers: 1, webhookProcessor: false });
	const cluster = q;
	const cred = await q.connect('Queue: polling');
	const crm = CRM_CLUSTER === 'Queue';
	const restart = sharedRestart((whileStopped) => cluster.cluster.restart('main', whileStopped), 1);
	// The lanes to their end, then the first failure.
	const results = await Promise.allSettled([
		lane(q, sb, 'Queue', cred),
		...(crm ? [crmLane(q, sb, cred, restart, 'Queue')] : []),
	]);
	const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
		?.reason as unknown | undefined;
	if (failed)
		throw new Error(
			`Queue: ${String(failed)}\nmain's scheduler, last lines:\n${schedulerLines(q)}`,
		);
}

beforeAll(() => {
	// Every lane from the start (the tick they wait for is shared); the test awaits them.
	defaultLane = defaultSchedulerLane();
	defaultLane.catch(() => undefined); // raised by the test
	if (n8nAtLeast('2.41.0'))
		for (const d of durables) {
			d.lane = durableLane(d);
			d.lane.catch(() => undefined); // raised by the test
		}
});

afterAll(async () => {
	// Evidence, when it happens: a finished execution main held as running (queue-env.ts, executions).
	if (hiddenByMain.size > 0)
		console.warn(
			`queue-polling: the public API hid ${hiddenByMain.size} finished execution(s) main still held as running: ${[...hiddenByMain].join(', ')}`,
		);
	// The clusters first: a lane still waiting for one fails at once instead of at its limit.
	await Promise.all([q?.cluster.stop(), ...durables.map((d) => d.q?.cluster.stop())]);
	await Promise.all(
		[defaultLane, ...durables.map((d) => d.lane)].map((l) => l?.catch(() => undefined)),
	);
	await Promise.all([sb?.stop(), ...durables.flatMap((d) => [d.sb?.stop(), d.backlog?.stop()])]);
});

describeQueue('queue mode: a polling trigger', () => {
	it("People Trigger on Payrun Created, and beside it on the durable scheduler's cluster the Sales Trigger's polling events (contacts, deals, activities created and updated, one item each; 50 changes while main was stopped, 50 items; main's restart shared), under n8n's default scheduler (this cluster) and its durable scheduler with and without durable cursors (a cluster each, main and one worker, main restarted, and a backlog of 25 s of pages within a 15 s budget; their lanes run from the start of the file): main polls, the workers run the executions, each change is delivered exactly once", async () => {
		// Every lane to its end, then the first failure.
		const results = await Promise.allSettled([defaultLane, ...durables.map((d) => d.lane)]);
		for (const r of results) if (r.status === 'rejected') throw r.reason;
	});
});
