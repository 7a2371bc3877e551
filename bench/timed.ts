/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/** A scenario's time on the monotonic clock, and the heap it grew and kept (bench/scenarios.ts). */
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

/** A list a scenario read: its time, its length and JSON size, the heap its reading grew and kept. */
export function listFigures(
	r: Omit<Awaited<ReturnType<typeof withMemory>>, 'value'>,
	list: unknown[],
): Record<string, number> {
	return {
		ms: r.ms,
		items: list.length,
		bytes: Buffer.byteLength(JSON.stringify(list)),
		peakHeapMb: r.peakHeapMb,
		retainedMb: r.retainedMb,
		fromUs: r.fromUs,
		toUs: r.toUs,
	};
}
