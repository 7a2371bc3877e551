/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The cells of a test matrix side by side: a few lanes (each with its own sandbox, harness and whatever else a
 * cell changes, such as fault rules or expired tokens), each running one cell at a time, all at once. A cell
 * never shares a lane with another cell running at the same time, so nothing one cell injects reaches another.
 *
 * Cells are registered while jest collects the file (`cell(run)` in a describe body) and start, in that order,
 * once the lanes are open (a beforeAll); each test awaits its own cell and makes its assertions on the result,
 * so every cell keeps its own test, its name and its failure. Code a cell calls (fixtures, record lookups) finds
 * its lane with `current()`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface Lanes<L> {
	/** Registers a cell (call it while jest collects the file); its test calls what it returns to await the cell's result. */
	cell<T>(run: (lane: L) => Promise<T>): () => Promise<T>;
	/** The lane of the cell that is running (in the code that cell calls). */
	current(): L;
	/** The same, or undefined outside this pool's cells. */
	find(): L | undefined;
	/** Runs `fn` as code of `lane`'s cell: for callbacks that start elsewhere, such as a sandbox's request handler. */
	within<T>(lane: L, fn: () => T): T;
}

/**
 * `count` lanes made by `open` (before the file's first test), closed by `close` after its last, once every cell
 * has ended. A cell that fails leaves its lane to the next cell; its test fails with its error.
 */
export function useLanes<L>(
	count: number,
	open: (index: number) => Promise<L>,
	close: (lane: L) => Promise<void> = async () => {},
): Lanes<L> {
	const here = new AsyncLocalStorage<L>();
	const queue: Array<(lane: L) => Promise<void>> = [];
	const lanes: L[] = [];
	let workers: Promise<void>[] = [];

	beforeAll(async () => {
		for (let i = 0; i < count; i++) lanes.push(await open(i));
		workers = lanes.map(async (lane) => {
			for (let job = queue.shift(); job; job = queue.shift())
				await here.run(lane, async () => await job(lane));
		});
	});
	afterAll(async () => {
		await Promise.all(workers);
		for (const lane of lanes) await close(lane);
	});

	return {
		cell<T>(run: (lane: L) => Promise<T>) {
			let settle!: (s: Settled<T>) => void;
			const settled = new Promise<Settled<T>>((resolve) => (settle = resolve));
			queue.push(async (lane) => {
				try {
					settle({ ok: true, value: await run(lane) });
				} catch (error) {
					settle({ ok: false, error });
				}
			});
			return async () => {
				const s = await settled;
				if (!s.ok) throw s.error;
				return s.value;
			};
		},
		find: () => here.getStore(),
		within: (lane, fn) => here.run(lane, fn),
		current() {
			const lane = here.getStore();
			if (lane === undefined) throw new Error('no lane: this runs outside a cell of useLanes');
			return lane;
		},
	};
}
