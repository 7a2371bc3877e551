/**
 * A list worked through a few items at a time: the executor's items (engine/execute.ts), the
 * webhook Trigger's registrations, the harness's and the bench's helper nodes.
 */

/** How one call of the function ended: its value, or what it threw. */
export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * Calls `fn` for every item, at most `concurrency` at a time, each item started in order; the
 * results in the items' order. A call that throws is kept as its error, not thrown; with
 * `stopOnError` no item starts after one failed (those left are undefined).
 */
export async function mapConcurrent<T, R>(
	items: readonly T[],
	concurrency: number,
	fn: (item: T, index: number) => Promise<R>,
	stopOnError = false,
): Promise<Array<Settled<R> | undefined>> {
	const results: Array<Settled<R> | undefined> = new Array(items.length);
	let next = 0;
	let failed = false;
	const worker = async () => {
		while (next < items.length && !(stopOnError && failed)) {
			const i = next++;
			try {
				results[i] = { ok: true, value: await fn(items[i], i) };
			} catch (error) {
				results[i] = { ok: false, error };
				failed = true;
			}
		}
	};
	const n = Math.max(1, Math.min(Math.floor(concurrency) || 1, items.length));
	await Promise.all(Array.from({ length: n }, worker));
	return results;
}
