/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * n8n in queue mode, the way companies run it at volume: Redis, PostgreSQL, a main
 * process, workers that pull executions from Redis and a webhook processor in front —
 * every process with the pack installed in its own user folder and one encryption key.
 * For the queue-mode tests (test/queue) and the throughput benchmark. Everything runs
 * on 127.0.0.1 as managed processes; `stop()` (also run by the process registry on every
 * path, see testbed/processes.ts) stops them and removes the cluster's temp folder.
 * Settings and pitfalls: docs/running-at-scale.md.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import {
	n8nEnvironment,
	HEADLESS_N8N,
	N8N_START_TIMEOUT_MS,
	ownerApi,
	prepareUserFolder,
	startN8n,
	type N8nApi,
	type N8nInstance,
} from '../n8n/start';
import { freePort } from '../ports';
import { onCleanup } from '../processes';
import { type Postgres } from './postgres';
import { type Server } from './server-process';
import { startQueueServers, type QueueServers } from './servers';

export type Role = 'main' | 'worker' | 'webhook';

/** One n8n process of the cluster; `instance` changes when it is restarted. */
export interface QueueProcess {
	name: string;
	role: Role;
	env: NodeJS.ProcessEnv;
	/** Where its readiness endpoint answers (N8N_PORT, or a worker's health port). */
	healthPort: number;
	instance: N8nInstance;
	/** Execution ids this process logged as started ("Worker started execution N"), over all its restarts. */
	started: Set<string>;
	finished: Set<string>;
	/** Its whole log since the cluster started (all restarts). */
	log(): string;
}

export interface QueueCluster {
	main: QueueProcess;
	workers: QueueProcess[];
	webhook?: QueueProcess;
	all(): QueueProcess[];
	redis: Server;
	postgres: Postgres;
	/** The owner's REST session and public-API key on main (renewed by `restart('main')`). */
	api: N8nApi;
	/** Base URL of production webhooks: the webhook processor's (main's without one). */
	webhookUrl: string;
	/** Seconds: servers ready, n8n processes ready. */
	timings: { servers: number; n8n: number };
	/** Stops a process (SIGTERM), runs `whileStopped`, and starts it again with the same settings; waits until it is ready. */
	restart(name: string, whileStopped?: () => Promise<void>): Promise<void>;
	/** Sends SIGKILL to a process and everything it started (its task runner): a crashed container. */
	kill(name: string): Promise<void>;
	/** Starts a process that was killed or stopped again. */
	start(name: string): Promise<void>;
	/** Which worker logged each execution id as started. */
	workerOf(executionId: string): string[];
	stop(): Promise<void>;
}

export interface QueueOptions {
	workers?: number;
	/** Run a webhook processor in front (default true). */
	webhookProcessor?: boolean;
	/** More settings for every n8n process (e.g. shorter job locks in tests). */
	env?: NodeJS.ProcessEnv;
	/** Progress lines. */
	log?: (line: string) => void;
	timeoutMs?: number;
	/** Also write each process's log to <logDir>/<name>.log (default: $BP_QUEUE_LOG_DIR; for debugging). */
	logDir?: string;
}

const READY: Record<Role, RegExp> = {
	main: /Editor is now accessible/,
	worker: /n8n worker is now ready/,
	webhook: /Webhook listener waiting for requests/,
};
const COMMAND: Record<Role, string> = { main: 'start', worker: 'worker', webhook: 'webhook' };

/** Follows a process's log line by line: the executions a worker started and finished. */
function tracker(p: Pick<QueueProcess, 'started' | 'finished'>, logFile?: string) {
	let partial = '';
	let all = '';
	const onOutput = (chunk: string) => {
		if (logFile) appendFileSync(logFile, chunk);
		all = all.length > 4_000_000 ? all.slice(-2_000_000) + chunk : all + chunk;
		const lines = (partial + chunk).split('\n');
		partial = lines.pop() ?? '';
		for (const line of lines) {
			const m = /Worker (started|finished) execution (\d+)/.exec(line);
			if (m) (m[1] === 'started' ? p.started : p.finished).add(m[2]);
		}
	};
	return { onOutput, log: () => all + partial };
}

/** Starts Redis, PostgreSQL, main, `workers` workers and a webhook processor, all in parallel where they can be. */
export async function startQueueCluster(opts: QueueOptions = {}): Promise<QueueCluster> {
	const {
		workers: workerCount = 2,
		webhookProcessor = true,
		log = () => {},
		timeoutMs = N8N_START_TIMEOUT_MS,
	} = opts;
	const processes: QueueProcess[] = [];
	let servers: QueueServers | undefined;
	let stopping: Promise<void> | undefined;
	// n8n first, then the servers it uses and the folder that holds everyone's data.
	const stop = () =>
		(stopping ??= (async () => {
			await Promise.all(processes.map((p) => p.instance?.stop()));
			await servers?.stop();
		})());
	const unregister = onCleanup(stop);

	try {
		const t0 = Date.now();
		servers = await startQueueServers(false);
		const { redis, postgres, dir } = servers;
		const t1 = Date.now();
		log(
			`Redis on ${redis.port}, PostgreSQL ${postgres.version} on ${postgres.port}: ${((t1 - t0) / 1000).toFixed(1)} s`,
		);

		// Every port distinct: freePort() can give the same free port twice, as nothing holds it.
		const taken = new Set<number>([redis.port, postgres.port]);
		const port = async () => {
			for (;;) {
				const p = await freePort();
				if (!taken.has(p)) return taken.add(p) && p;
			}
		};
		const mainPort = await port();
		const webhookPort = webhookProcessor ? await port() : mainPort;
		const shared: NodeJS.ProcessEnv = {
			N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: postgres.database,
			DB_POSTGRESDB_USER: postgres.user,
			DB_POSTGRESDB_PASSWORD: postgres.password,
			DB_POSTGRESDB_POOL_SIZE: '10',
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			// Main builds webhook URLs (the trigger's registrations) from it: the webhook processor.
			WEBHOOK_URL: `http://127.0.0.1:${webhookPort}/`,
			N8N_EDITOR_BASE_URL: `http://127.0.0.1:${mainPort}/`,
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			...(webhookProcessor ? { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' } : {}),
			...HEADLESS_N8N,
			...opts.env,
		};
		const define = async (name: string, role: Role, httpPort: number): Promise<QueueProcess> => {
			const folderOf = prepareUserFolder(join(dir, name), undefined, { sqlite: false }); // PostgreSQL
			const env: NodeJS.ProcessEnv = {
				...(await n8nEnvironment(folderOf, httpPort)),
				...shared,
				N8N_RUNNERS_BROKER_PORT: String(await port()),
			};
			let healthPort = httpPort;
			if (role === 'worker') {
				healthPort = await port();
				Object.assign(env, {
					QUEUE_HEALTH_CHECK_ACTIVE: 'true',
					QUEUE_HEALTH_CHECK_PORT: String(healthPort),
					N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
				});
			}
			const p = {
				name,
				role,
				env,
				healthPort,
				started: new Set<string>(),
				finished: new Set<string>(),
			} as QueueProcess;
			const logDir = opts.logDir ?? process.env.BP_QUEUE_LOG_DIR;
			if (logDir) mkdirSync(logDir, { recursive: true });
			const t = tracker(p, logDir ? join(logDir, `${name}.log`) : undefined);
			p.log = t.log;
			outputs.set(p, t.onOutput);
			return p;
		};
		processes.push(await define('main', 'main', mainPort));
		for (let i = 1; i <= workerCount; i++)
			processes.push(await define(`worker-${i}`, 'worker', await port()));
		if (webhookProcessor) processes.push(await define('webhook', 'webhook', webhookPort));

		// All at once: one of them runs the migrations on the empty database, the others wait for its lock.
		const failed = (await Promise.allSettled(processes.map((p) => launch(p, timeoutMs)))).find(
			(r) => r.status === 'rejected',
		);
		if (failed) throw (failed as PromiseRejectedResult).reason;
		const t2 = Date.now();
		log(
			`n8n main, ${workerCount} worker(s)${webhookProcessor ? ', webhook processor' : ''} ready: ${((t2 - t1) / 1000).toFixed(1)} s`,
		);

		const byName = (name: string) => {
			const p = processes.find((x) => x.name === name);
			if (!p)
				throw new Error(
					`no process named ${name} (there are ${processes.map((x) => x.name).join(', ')})`,
				);
			return p;
		};
		const cluster: QueueCluster = {
			main: processes[0],
			workers: processes.filter((p) => p.role === 'worker'),
			webhook: processes.find((p) => p.role === 'webhook'),
			all: () => [...processes],
			redis,
			postgres,
			api: await ownerApi(processes[0].instance),
			webhookUrl: `http://127.0.0.1:${webhookPort}`,
			timings: { servers: (t1 - t0) / 1000, n8n: (t2 - t1) / 1000 },
			async restart(name, whileStopped) {
				const p = byName(name);
				await p.instance.stop();
				await whileStopped?.();
				await cluster.start(name);
			},
			async kill(name) {
				const p = byName(name);
				try {
					process.kill(-p.instance.process.pid, 'SIGKILL');
				} catch {
					// already gone
				}
				await p.instance.process.exit;
				await p.instance.stop();
			},
			async start(name) {
				const p = byName(name);
				await launch(p, timeoutMs);
				if (p.role === 'main') cluster.api = await ownerApi(p.instance);
			},
			workerOf: (id) =>
				processes.filter((p) => p.role === 'worker' && p.started.has(id)).map((p) => p.name),
			async stop() {
				unregister();
				await stop();
			},
		};
		return cluster;
	} catch (e) {
		unregister();
		await stop();
		throw e;
	}
}

const outputs = new WeakMap<QueueProcess, (chunk: string) => void>();

async function launch(p: QueueProcess, timeoutMs: number): Promise<void> {
	const onOutput = outputs.get(p);
	p.instance = await startN8n(p.env, {
		command: COMMAND[p.role],
		name: `n8n ${p.name}`,
		readyLine: READY[p.role],
		healthPort: p.healthPort,
		onOutput,
		timeoutMs,
	});
}
