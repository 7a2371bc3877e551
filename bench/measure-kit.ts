/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * What the scenarios of bench/scenarios.ts share: their arguments, a timer, a sampler of the
 * heap's peak, a list's figures, and the n8n-core harness (with bench/helper-node.ts registered
 * for n8n's floor).
 */
/** What a measurement needs of a sandbox process: its addresses, its app, and tokens it issued. */
export type Base = {
	baseUrl: string;
	authUrl: string;
	clientId: string;
	clientSecret: string;
	tokenResponse: Record<string, unknown>;
	accessToken: string;
};

export interface Args {
	baseUrl: string;
	tokenResponse: Record<string, unknown>;
	accessToken: string;
	clientId: string;
	clientSecret: string;
	authUrl: string;
	count?: number;
	concurrency?: number;
	tableId?: string;
	pageSize?: number;
	ids?: number[];
	rawCells?: boolean;
	/** rawCreate: false opens a new connection for every request (`connection: close`), as n8n's request helpers do. */
	keepAlive?: boolean;
	/** packCreate: fixed parameter values instead of `{{ $json.… }}` expressions (what n8n's expression engine costs). */
	fixedParams?: boolean;
}

/** Runs `fn`; its time, and its start and end on the monotonic clock in µs (the clock of a --cpu-prof profile). */
export async function timed<T>(
	fn: () => Promise<T>,
): Promise<{ value: T; ms: number; fromUs: number; toUs: number }> {
	const t0 = process.hrtime.bigint();
	const value = await fn();
	const t1 = process.hrtime.bigint();
	return { value, ms: Number(t1 - t0) / 1e6, fromUs: Number(t0 / 1000n), toUs: Number(t1 / 1000n) };
}

/** Peak heap above the starting point, sampled while `fn` runs (after a GC when available). */
export async function withMemory<T>(fn: () => Promise<T>): Promise<{
	value: T;
	ms: number;
	peakHeapMb: number;
	retainedMb: number;
	fromUs: number;
	toUs: number;
}> {
	const gc = (globalThis as { gc?: () => void }).gc;
	gc?.();
	const base = process.memoryUsage().heapUsed;
	let peak = base;
	const timer = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage().heapUsed);
	}, 5);
	const t0 = process.hrtime.bigint();
	const value = await fn();
	const t1 = process.hrtime.bigint();
	const ms = Number(t1 - t0) / 1e6;
	clearInterval(timer);
	peak = Math.max(peak, process.memoryUsage().heapUsed);
	gc?.();
	const retained = process.memoryUsage().heapUsed - base;
	return {
		value,
		ms,
		peakHeapMb: (peak - base) / 1048576,
		retainedMb: retained / 1048576,
		fromUs: Number(t0 / 1000n),
		toUs: Number(t1 / 1000n),
	};
}

function fakeSandbox(a: Args) {
	// The harness needs only these fields of a Sandbox to build its stored credential.
	return {
		baseUrl: a.baseUrl,
		authUrl: a.authUrl,
		config: { clientId: a.clientId, clientSecret: a.clientSecret },
		demo: { tokenResponse: a.tokenResponse },
	} as never;
}

export async function harness(a: Args) {
	const { createHarness } = await import('../testbed/harness/run');
	return createHarness(fakeSandbox(a), a.tokenResponse);
}

/** The harness with bench/helper-node.ts registered beside the pack's nodes. */
export async function helperHarness(a: Args) {
	const { NODE_TYPES, PACKAGE } = await import('../testbed/harness/nodes');
	const { BenchHelperOnly } = await import('./helper-node');
	NODE_TYPES[`${PACKAGE}.benchHelperOnly`] = new BenchHelperOnly();
	return await harness(a);
}

/** A list a scenario read: its time, its length and JSON size, the heap its reading grew and kept. */
export function listFigures(
	r: Omit<Awaited<ReturnType<typeof withMemory>>, 'value'>,
	items: unknown[],
): Record<string, number> {
	return {
		ms: r.ms,
		items: items.length,
		bytes: Buffer.byteLength(JSON.stringify(items)),
		peakHeapMb: r.peakHeapMb,
		retainedMb: r.retainedMb,
		fromUs: r.fromUs,
		toUs: r.toUs,
	};
}
