/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
/** What the benchmark's producers share: the sandbox's admin API and one measurement (bench/scenarios.ts). */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

import { request } from 'undici';

import type { SandboxReady } from '../testbed/sandbox-process';
import type { Base } from './measure-kit';

export type { Base };

export const ROOT = resolve(__dirname, '..');

export const say = (s: string) => process.stdout.write(`${s}\n`);

/**
 * `BENCH_SMOKE=1`: every section at tiny counts, to prove it still runs and gives its rows
 * (the smoke tests of `npm test`, test/integration/bench-smoke.test.ts and
 * test/e2e/bench-smoke.e2e.test.ts); its figures mean nothing and bench/run.ts writes none.
 */
export const SMOKE = process.env.BENCH_SMOKE === '1';

/** A size of a benchmark: `full` in a real run, `tiny` in a smoke run (BENCH_SMOKE=1). */
export const sized = <T>(full: T, tiny: T): T => (SMOKE ? tiny : full);

/**
 * Calls the sandbox's admin API on a connection of its own: the measurements block this
 * process's event loop (spawnSync) for longer than the server keeps an idle connection,
 * and a pooled connection closed meanwhile would fail the next call.
 */
export async function admin<T = any>(
	base: string,
	method: string,
	path: string,
	body?: unknown,
	opts: { timeoutMs?: number } = {},
): Promise<T> {
	const timeouts =
		opts.timeoutMs === undefined
			? {}
			: { headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs };
	const res = await request(`${base}/__admin${path}`, {
		method: method as 'GET',
		reset: true,
		headers: { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
		...timeouts,
	});
	const text = await res.body.text();
	if (res.statusCode >= 400)
		throw new Error(`${method} /__admin${path} answered ${res.statusCode}: ${text.slice(0, 300)}`);
	return JSON.parse(text) as T;
}

/** The sandbox's counters that explain a run: TCP connections, in all and at once (see sandbox/README.md). */
export interface WireStats {
	maxOpenConnections: number;
	/** The most requests being answered at once: the client's real parallelism. */
	maxRequestsAtOnce: number;
	connections: number;
	requests: number;
}

export async function wireStats(base: string): Promise<WireStats> {
	const s = await admin<WireStats>(base, 'GET', '/stats');
	// This call's own connection is counted too.
	return {
		maxOpenConnections: s.maxOpenConnections,
		maxRequestsAtOnce: s.maxRequestsAtOnce,
		connections: s.connections - 1,
		requests: s.requests,
	};
}

export interface MeasureOptions {
	/** Extra node flags, e.g. `--cpu-prof`. */
	nodeFlags?: string[];
	env?: NodeJS.ProcessEnv;
}

/** The one scenario a smoke run still gives a process of its own: n8n's floor of the harness's memory rows. */
export const SMOKE_OWN_PROCESS = 'helperRecords';

/**
 * Runs one scenario of bench/scenarios.ts and gives its figures: in a fresh process
 * (bench/measure.ts), so its memory figures are its own; in a smoke run (BENCH_SMOKE=1, no node
 * flags) in this process, where the tiny counts measure nothing and a process per scenario would
 * cost `npm test` its start each time (about 1.4 CPU-seconds), but for n8n's floor of the heap's
 * figures (SMOKE_OWN_PROCESS), so that the smoke also runs bench/measure.ts in a process of its own.
 */
export async function measure(
	name: string,
	args: Record<string, unknown>,
	opts: MeasureOptions = {},
): Promise<Record<string, number>> {
	if (SMOKE && !opts.nodeFlags?.length && !opts.env) {
		const { scenarios } = await import('./scenarios');
		if (name !== SMOKE_OWN_PROCESS)
			return (await scenarios[name](args as never)) as Record<string, number>;
	}
	const r = spawnSync(
		process.execPath,
		[
			'--expose-gc',
			...(opts.nodeFlags ?? []),
			'--import',
			'tsx',
			join(ROOT, 'bench/measure.ts'),
			name,
			JSON.stringify(args),
		],
		{
			cwd: ROOT,
			encoding: 'utf8',
			maxBuffer: 64 * 1024 * 1024,
			env: { ...process.env, ...opts.env },
		},
	);
	if (r.status !== 0) throw new Error(`${name} failed:\n${r.stderr.slice(-2000)}`);
	return JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, number>;
}

/** Restores an environment variable as it was (`process.env.X = undefined` would store the text "undefined"). */
export function restoreEnv(name: string, previous: string | undefined): void {
	if (previous === undefined) delete process.env[name];
	else process.env[name] = previous;
}

/** A sandbox process's addresses and app, with tokens it issues for the measurements. */
export async function baseOf(ready: SandboxReady): Promise<Base> {
	const tokenResponse = await admin<Record<string, unknown>>(
		ready.baseUrl,
		'POST',
		'/tokens/issue',
		{},
	);
	return {
		baseUrl: ready.baseUrl,
		authUrl: ready.authUrl,
		clientId: ready.clientId,
		clientSecret: ready.clientSecret,
		tokenResponse,
		accessToken: String(tokenResponse['platform-token']),
	};
}
