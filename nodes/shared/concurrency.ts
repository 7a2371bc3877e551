/**
 * Runs per-item work with bounded concurrency and keeps results in input order.
 * No timers: workers pull the next index until the list is done. After the first
 * failure (when `stopOnError`), no new items start; those in flight finish.
 */
export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

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

/** An item that comes after a failed one (stop on error): it never reaches the platform and has no output. */
export class NotStarted extends Error {
	constructor() {
		super('Not started: an earlier item failed');
	}
}

/**
 * Lets items talk to the platform in input order, at most `size` at a time. Items may
 * prepare ahead (read their parameters, build their request) and then wait at the gate:
 * item i enters only after every earlier item has entered or finished without entering,
 * so the platform sees the same order as without preparing ahead. After `fail(i)`, no
 * item after i enters (those already inside finish); earlier ones still do.
 */
export class OrderedGate {
	private nextIndex = 0;

	private inside = 0;

	private firstFailure = Number.POSITIVE_INFINITY;

	/** Items after `nextIndex` that finished without entering. */
	private readonly passed = new Set<number>();

	private readonly waiting = new Map<number, () => void>();

	constructor(private readonly size: number) {}

	/** Waits for item `index`'s turn and a free place; throws NotStarted when an earlier item failed. */
	async enter(index: number): Promise<void> {
		for (;;) {
			if (index > this.firstFailure) throw new NotStarted();
			if (index === this.nextIndex && this.inside < this.size) break;
			await new Promise<void>((resolve) => this.waiting.set(index, resolve));
		}
		this.inside++;
		this.advance();
	}

	/** Item done with the platform: its place goes to the next in order. */
	leave(): void {
		this.inside--;
		this.wake(this.nextIndex);
	}

	/** Item finished without entering (its parameters failed, or it was not started): later ones no longer wait for it. */
	pass(index: number): void {
		if (index === this.nextIndex) this.advance();
		else if (index > this.nextIndex) this.passed.add(index);
	}

	/** Item `index` failed and the node stops on errors: no later item enters. */
	fail(index: number): void {
		this.firstFailure = Math.min(this.firstFailure, index);
		for (const i of [...this.waiting.keys()]) if (i > index) this.wake(i);
	}

	private advance(): void {
		this.nextIndex++;
		while (this.passed.delete(this.nextIndex)) this.nextIndex++;
		this.wake(this.nextIndex);
	}

	private wake(index: number): void {
		const resolve = this.waiting.get(index);
		if (!resolve) return;
		this.waiting.delete(index);
		resolve();
	}
}
