/**
 * Runs per-item work with bounded concurrency and keeps results in input order.
 * No timers: workers pull the next index until the list is done. After the first
 * failure (when `stopOnError`), no new items start; those in flight finish.
 */
export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

export async function mapConcurrent<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>, stopOnError = false): Promise<Array<Settled<R> | undefined>> {
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
