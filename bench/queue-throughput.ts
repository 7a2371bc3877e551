/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Queue-mode throughput, part of `npm run bench` (alone: `npm run bench:queue`): 5,000
 * contacts created by 50 executions of 100 items (Webhook → Split Out → Sales: Create
 * contact), all started at once through the webhook processor, with 1 worker and with 2
 * workers. Baseline, measured in the same run: the same 50 executions in one n8n in
 * regular mode (SQLite). For each run: executions and contacts per second, and the CPU
 * time each process took (utime + stime from /proc), which shows where the ceiling is.
 */
import { cpus } from 'node:os';

import { startQueueCluster, type QueueCluster } from '../testbed/queue/cluster';
import { type N8nApi } from '../testbed/n8n/start';
import { runtimeReady } from '../testbed/runtime/install';
import { stopAll } from '../testbed/processes';
import { postgresBinaries } from '../testbed/queue/postgres';
import { ensureRedis } from '../testbed/queue/redis';
import { startSandboxProcess, type SandboxReady } from '../testbed/sandbox-process';
import {
	connectCredential,
	createWorkflow,
	credential,
	eventually,
	startE2e,
	type SandboxAddress,
} from '../testbed/n8n/env';
import { batch, createMany } from '../testbed/queue/workflows';
import { trackCpu } from './cpu';

/** One benchmark row (the shape bench/run.ts writes to bench/results/latest.json). */
export interface BenchRow {
	id: string;
	scenario: string;
	pack: string;
	baseline: string;
	ratio: string;
	target: string;
	met: string;
}

export interface Run {
	label: string;
	executions: number;
	contacts: number;
	seconds: number;
	executionsPerSecond: number;
	contactsPerSecond: number;
	/** CPU seconds per process (tree) during the run. */
	cpu: Record<string, number>;
	peakRssMb: Record<string, number>;
}

const EXECUTIONS = 50;
const ITEMS = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number, d = 0) =>
	n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

async function admin<T>(base: string, path: string, body?: unknown): Promise<T> {
	const res = await fetch(`${base}/__admin${path}`, {
		method: body === undefined ? 'GET' : 'POST',
		headers: { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return (await res.json()) as T;
}

/** Contacts whose name starts with `tag`: how many, and whether any name is there twice. */
async function created(base: string, tag: string): Promise<{ count: number; duplicates: number }> {
	const names = (await admin<Array<{ name: string }>>(base, '/state/1/contacts'))
		.map((c) => c.name)
		.filter((n) => n.startsWith(tag));
	return { count: names.length, duplicates: names.length - new Set(names).size };
}

interface Execution {
	id: string;
	status: string;
	startedAt: string;
	stoppedAt: string | null;
}

async function executionsOf(api: N8nApi, workflowId: string): Promise<Execution[]> {
	const all: Execution[] = [];
	let cursor = '';
	do {
		const page = (await api.pub(
			'GET',
			`/executions?workflowId=${workflowId}&limit=250${cursor ? `&cursor=${cursor}` : ''}`,
		)) as { data: Execution[]; nextCursor?: string | null };
		all.push(...page.data);
		cursor = page.nextCursor ?? '';
	} while (cursor);
	return all;
}

/**
 * Starts 50 executions at once and waits until n8n stored them all as finished. The run
 * lasts from the first request to the last execution's stoppedAt.
 */
async function measure(
	label: string,
	o: {
		call: (body: unknown) => Promise<Response>;
		api: N8nApi;
		workflowId: string;
		sandbox: SandboxReady;
		roots: Record<string, number>;
	},
): Promise<Run> {
	const tag = `${label} `;
	// The warm-up's executions (started, not awaited) must be over and out of the count.
	let before = new Set<string>();
	for (let idle = false; !idle; await sleep(500)) {
		const all = await executionsOf(o.api, o.workflowId);
		idle = all.length > 0 && all.every((e) => e.stoppedAt);
		before = new Set(all.map((e) => e.id));
	}
	const cpu = trackCpu(o.roots);
	const t0 = Date.now();
	const answers = await Promise.all(
		Array.from({ length: EXECUTIONS }, (_, e) => o.call(batch(tag, e, ITEMS))),
	);
	const refused = answers.filter((a) => a.status !== 200).length;
	if (refused) throw new Error(`${label}: ${refused} of ${EXECUTIONS} webhook calls were refused`);
	// Asked once a second: the asking costs main some CPU, which counts in its share.
	let runs: Execution[] = [];
	for (const deadline = Date.now() + 900_000; ; await sleep(1000)) {
		runs = (await executionsOf(o.api, o.workflowId)).filter((e) => !before.has(e.id));
		if (runs.length >= EXECUTIONS && runs.every((e) => e.stoppedAt)) break;
		if (Date.now() > deadline)
			throw new Error(
				`${label}: ${runs.filter((e) => e.stoppedAt).length} of ${EXECUTIONS} executions finished after 15 min`,
			);
	}
	const seconds = (Math.max(...runs.map((e) => Date.parse(e.stoppedAt!))) - t0) / 1000;
	const cpuSeconds = cpu.stop();
	const failed = runs.filter((e) => e.status !== 'success').length;
	const { count, duplicates } = await created(o.sandbox.baseUrl, tag);
	if (failed || count !== EXECUTIONS * ITEMS || duplicates)
		throw new Error(
			`${label}: ${failed} failed executions, ${count} contacts created of ${EXECUTIONS * ITEMS}, ${duplicates} duplicates`,
		);
	return {
		label,
		executions: EXECUTIONS,
		contacts: count,
		seconds,
		executionsPerSecond: EXECUTIONS / seconds,
		contactsPerSecond: count / seconds,
		cpu: cpuSeconds,
		peakRssMb: cpu.peakRssMb(),
	};
}

const post = (url: string) => (body: unknown) =>
	fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});

/** The baseline: one n8n, regular mode, SQLite (what the end-to-end tests run). */
async function regularMode(
	sandbox: SandboxReady,
	address: SandboxAddress,
	sandboxPid: number,
): Promise<Run> {
	const wf = createMany('bench-regular', 'onReceived');
	const tokens = await admin<Record<string, unknown>>(sandbox.baseUrl, '/tokens/issue', {});
	const e2e = await startE2e([credential(address, tokens)], [wf], {
		[String(wf.id)]: 'bench-regular',
	});
	try {
		const call = post(`${e2e.n8n.url}/webhook/bench-regular`);
		await call(batch('warm-up regular ', 0, 10));
		return await measure('regular mode', {
			call,
			api: e2e.api,
			workflowId: String(wf.id),
			sandbox,
			roots: { n8n: e2e.n8n.process.pid, sandbox: sandboxPid, driver: process.pid },
		});
	} finally {
		await e2e.stop();
	}
}

async function queueMode(
	sandbox: SandboxReady,
	address: SandboxAddress,
	sandboxPid: number,
	say: (s: string) => void,
): Promise<{ one: Run; two: Run; cluster: QueueCluster['timings'] }> {
	const cluster = await startQueueCluster({ workers: 2, log: (l) => say(`  ${l}`) });
	try {
		const cred = await connectCredential(
			cluster.api,
			cluster.main.instance.url,
			address,
			'Bench queue',
		);
		const workflowId = await createWorkflow(
			cluster.api,
			createMany('bench-queue', 'onReceived'),
			cred,
		);
		await cluster.api.pub('POST', `/workflows/${workflowId}/activate`);
		const call = post(`${cluster.webhookUrl}/webhook/bench-queue`);
		await eventually(async () => {
			if ((await call(batch('warm-up ', 0, 10))).status !== 200)
				throw new Error('the webhook processor does not serve the workflow yet');
		}, 60_000);
		const roots = () => ({
			...Object.fromEntries(
				cluster
					.all()
					.filter((p) => !p.instance.process.exited())
					.map((p) => [p.name, p.instance.process.pid]),
			),
			redis: cluster.redis.process.pid,
			postgres: cluster.postgres.process.pid,
			sandbox: sandboxPid,
			driver: process.pid,
		});
		say('  1 worker…');
		await cluster.workers[1].instance.stop();
		const one = await measure('queue mode, 1 worker', {
			call,
			api: cluster.api,
			workflowId,
			sandbox,
			roots: roots(),
		});
		say('  2 workers…');
		await cluster.start(cluster.workers[1].name);
		await Promise.all([call(batch('warm-up 2 ', 0, 10)), call(batch('warm-up 2 ', 1, 10))]);
		const two = await measure('queue mode, 2 workers', {
			call,
			api: cluster.api,
			workflowId,
			sandbox,
			roots: roots(),
		});
		return { one, two, cluster: cluster.timings };
	} finally {
		await cluster.stop();
	}
}

/** Where the CPU went during a run: seconds, share of the run's CPU, and cores used (of the machine's). */
export function cpuTable(runs: Run[]): string {
	const names = [...new Set(runs.flatMap((r) => Object.keys(r.cpu)))];
	const lines = [
		`| Process | ${runs.map((r) => r.label).join(' | ')} |`,
		`|---|${runs.map(() => '---').join('|')}|`,
	];
	for (const name of names) {
		const cells = runs.map((r) => {
			if (!(name in r.cpu)) return '—';
			const total = Object.values(r.cpu).reduce((a, b) => a + b, 0);
			return `${fmt(r.cpu[name], 1)} s (${fmt((100 * r.cpu[name]) / total)} %), ${fmt(r.peakRssMb[name])} MB`;
		});
		lines.push(`| ${name} | ${cells.join(' | ')} |`);
	}
	lines.push(
		`| all: CPU busy over the run | ${runs.map((r) => `${fmt((100 * Object.values(r.cpu).reduce((a, b) => a + b, 0)) / (r.seconds * cpus().length))} % of ${cpus().length} cores over ${fmt(r.seconds, 1)} s`).join(' | ')} |`,
	);
	return lines.join('\n');
}

export interface QueueThroughput {
	rows: BenchRow[];
	runs: Run[];
	/** Markdown: where the CPU went in each run. */
	cpu: string;
	raw: Record<string, unknown>;
}

/** The queue benchmark; undefined (with a line saying why) where queue mode cannot run. */
export async function queueThroughput(
	say: (s: string) => void,
): Promise<QueueThroughput | undefined> {
	if (process.platform !== 'linux' || process.arch !== 'x64')
		return void say('Queue-mode throughput: skipped (needs Linux x64)');
	if (!runtimeReady())
		return void say(
			'Queue-mode throughput: skipped (the n8n runtime is not installed: npm run n8n:install)',
		);
	ensureRedis(say);
	postgresBinaries();
	say(
		`Queue-mode throughput: ${EXECUTIONS} executions of ${ITEMS} contacts, regular mode, then queue mode with 1 and 2 workers…`,
	);
	const { ready, pid, stop } = await startSandboxProcess(['--rows', '10']);
	try {
		const address = {
			baseUrl: ready.baseUrl,
			authUrl: ready.authUrl,
			config: { clientId: ready.clientId, clientSecret: ready.clientSecret },
		};
		const regular = await regularMode(ready, address, pid);
		const { one, two, cluster } = await queueMode(ready, address, pid, say);
		const rate = (r: Run) =>
			`${fmt(r.executionsPerSecond, 2)} executions/s, ${fmt(r.contactsPerSecond)} contacts/s (${fmt(r.contacts)} in ${fmt(r.seconds, 1)} s)`;
		const rows: BenchRow[] = [
			{
				id: 'queue-throughput-1-worker',
				scenario: `Queue mode, 1 worker: ${fmt(EXECUTIONS * ITEMS)} contacts in ${EXECUTIONS} executions started at once`,
				pack: rate(one),
				baseline: `regular mode (one n8n, SQLite): ${rate(regular)}`,
				ratio: `${fmt(one.contactsPerSecond / regular.contactsPerSecond, 2)}× regular mode`,
				target: '—',
				met: '—',
			},
			{
				id: 'queue-throughput-2-workers',
				scenario: `Queue mode, 2 workers: ${fmt(EXECUTIONS * ITEMS)} contacts in ${EXECUTIONS} executions started at once`,
				pack: rate(two),
				baseline: `1 worker: ${rate(one)}`,
				ratio: `${fmt(two.contactsPerSecond / one.contactsPerSecond, 2)}× 1 worker`,
				target: '—',
				met: '—',
			},
		];
		const runs = [regular, one, two];
		return { rows, runs, cpu: cpuTable(runs), raw: { runs, clusterStart: cluster } };
	} finally {
		await stop();
	}
}

if (require.main === module) {
	queueThroughput((s) => process.stdout.write(`${s}\n`))
		.then((r) => {
			if (!r) return;
			process.stdout.write(
				`\n${r.rows.map((row) => `${row.id}: ${row.pack}; ${row.ratio} (${row.baseline})`).join('\n')}\n\n${r.cpu}\n`,
			);
		})
		.catch((e) => {
			process.stderr.write(`queue benchmark failed: ${e instanceof Error ? e.stack : String(e)}\n`);
			process.exitCode = 1;
		})
		.finally(() => void stopAll());
}
