/**
 * The executor: the shared execute() of the action nodes, and the order of a run. Each item
 * is read ahead of its turn (engine/item.ts: its operation, its request from its fields), its
 * input checked, then it passes the ordered gate to talk to the platform through its operation,
 * up to the configured number of items at a time; output keeps the input's order and every item
 * is paired with its input. One run scope per execution is passed along.
 *
 * The order of a run:
 * 1. Request Options read and checked (nothing sent for a value that cannot work).
 * 2. When the node stops on errors (no Continue On Fail), every item is read and its input
 *    checked (its fields' mapping, then its operation's declared `check`) before the first
 *    request: bad input in any item stops the run with nothing written.
 * 3. Items run (`runItem`): read ahead (n8n's expression evaluation is most of the CPU an item
 *    costs; with Continue On Fail each is checked here), then the gate in input order, then the
 *    operation: its own `execute`, or the request its fields give and the answer as items.
 * 4. Output collected in input order. When the platform refused an item, items sent at the same
 *    time may have been written: the node's error names every record the run wrote (item and
 *    ID), so nothing exists unseen.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { mapConcurrent, RunScope, type Settled } from '../run-scope';
import { DEFAULT_TUNING, type Tuning } from '../tuning';
import { CUSTOM_CALL_OPERATION } from './custom-call';
import { CONCURRENCY_PARAMETER } from './description';
import { readItem, type ReadItem } from './item';
import type { BuiltRequest, OpContext, Operation, Output, Resource } from './model';
import { defaultOutput } from './output';
import { readSetting } from './params';

/** One item through its operation: its own `execute`, or the request its fields give and the answer as items; then Simplify. */
async function runOperation(op: Operation, ctx: OpContext, req: BuiltRequest): Promise<Output> {
	const out = op.execute ? await op.execute(ctx, req) : defaultOutput(await ctx.send(req));
	if (op.simplify && out !== undefined && ctx.param<boolean>('simplify', true)) {
		return Array.isArray(out) ? out.map(op.simplify) : op.simplify(out);
	}
	return out;
}

/** Output items in input order, each paired with its input; a failure is the item's error (continue on fail) or the node's. */
function collect(
	scope: RunScope<IExecuteFunctions>,
	results: Array<Settled<Output> | undefined>,
	continueOnFail: boolean,
	written?: string,
): INodeExecutionData[] {
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < results.length; i++) {
		const r = results[i];
		if (!r) continue; // not started after an earlier failure
		if (r.ok) {
			const list = r.value === undefined ? [] : Array.isArray(r.value) ? r.value : [r.value];
			for (const json of list) {
				const binary = scope.files.get(json);
				out.push(
					binary ? { json, binary, pairedItem: { item: i } } : { json, pairedItem: { item: i } },
				);
			}
			continue;
		}
		const error = r.error as Error & { description?: string; context?: IDataObject };
		if (continueOnFail) {
			out.push({
				json: {
					error: error.message,
					...(error.description ? { description: error.description } : {}),
					itemIndex: i,
				},
				pairedItem: { item: i },
			});
			continue;
		}
		const known =
			error instanceof NodeOperationError || (error as { name?: string }).name === 'NodeApiError';
		const failure = known
			? error
			: new NodeOperationError(scope.ctx.getNode(), error, { itemIndex: i });
		if (known && failure.context && failure.context.itemIndex === undefined)
			failure.context.itemIndex = i;
		if (written) failure.description = [failure.description, written].filter(Boolean).join(' ');
		throw failure;
	}
	return out;
}

/** One item: its parameters read ahead (or already, when every input was checked first), then its turn with the platform at the gate. */
async function runItem(
	scope: RunScope<IExecuteFunctions>,
	gate: OrderedGate,
	itemIndex: number,
	stopOnError: boolean,
	read: () => ReadItem,
): Promise<Output> {
	let entered = false;
	let failed = true;
	let line: { turn: Promise<void>; release: () => void } | undefined;
	try {
		const { op, ctx, req, checked } = read();
		// Taken before the first await, so places are in input order.
		const key = op.serialKey?.(ctx);
		line = key === undefined ? undefined : scope.queue(`${op.value}:${key}`);
		if (!checked) await checkInput(op, ctx, req);
		await gate.enter(itemIndex);
		entered = true;
		await line?.turn;
		const out = await runOperation(op, ctx, req);
		failed = false;
		return out;
	} finally {
		line?.release();
		// A failure (a NotStarted item only repeats an earlier one) keeps later items from the platform.
		if (failed && stopOnError) gate.fail(itemIndex);
		if (entered) gate.leave();
		else gate.pass(itemIndex);
	}
}

/** The longest timer Node.js keeps: a longer one fires after 1 ms (every attempt would be aborted at once). */
export const MAX_TIMEOUT_MS = 2_147_483_647;
/** Request Options → Parallel Requests: its field's range (a larger value from an expression is taken as the largest). */
export const MAX_CONCURRENCY = 20;

/**
 * Request Options (Parallel Requests, Timeout), checked before anything is sent: a value that
 * cannot work is refused, naming the field, rather than turned into something else on the way
 * (a timeout past Node.js's longest timer fires at once; fewer than one request at a time never starts).
 */
function requestOptions(fn: IExecuteFunctions): { concurrency: number; timeout?: number } {
	const settings = readSetting(fn, CONCURRENCY_PARAMETER, {});
	const given = (v: unknown) => v !== undefined && v !== null && v !== '';
	const refuse = (field: string, value: unknown, range: string) =>
		new NodeOperationError(
			fn.getNode(),
			`Request Options → ${field} must be ${range}, got "${String(value).slice(0, 40)}"`,
			{
				description: `Nothing was sent. Set "${field}" under Request Options to ${range}, or remove it to use the default.`,
				itemIndex: 0,
			},
		);
	let concurrency = 5;
	if (given(settings.concurrency)) {
		const n = Math.floor(Number(settings.concurrency));
		if (!Number.isFinite(n) || n < 1)
			throw refuse(
				'Parallel Requests',
				settings.concurrency,
				`a whole number from 1 to ${MAX_CONCURRENCY}`,
			);
		concurrency = Math.min(n, MAX_CONCURRENCY);
	}
	if (!given(settings.timeout)) return { concurrency };
	const timeout = Number(settings.timeout);
	if (!Number.isFinite(timeout) || timeout < 1 || timeout > MAX_TIMEOUT_MS)
		throw refuse(
			'Timeout',
			settings.timeout,
			`a number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (about 24 days)`,
		);
	return { concurrency, timeout: Math.round(timeout) };
}

/** The shared execute(): every item through its operation, in parallel up to the configured limit, in order, paired. */
export async function executeOperations(
	fn: IExecuteFunctions,
	resources: Resource[],
	tuning: Tuning = DEFAULT_TUNING,
): Promise<INodeExecutionData[][]> {
	const scope = new RunScope(fn, tuning);
	const items = fn.getInputData();
	const continueOnFail = fn.continueOnFail();
	const { concurrency, timeout } = requestOptions(fn);
	scope.requestTimeoutMs = timeout;
	const gate = new OrderedGate(concurrency);
	// Stop on errors: every item's input is checked before the first request.
	const ready = continueOnFail ? undefined : await checkAll(scope, resources, items.length);
	const read = (itemIndex: number) => ready?.[itemIndex] ?? readItem(scope, resources, itemIndex);
	// Up to `concurrency` items with the platform, and as many again reading their parameters ahead (at least 2).
	const window = concurrency + Math.max(2, concurrency);
	const results = await mapConcurrent(
		items,
		window,
		async (_item, itemIndex) =>
			await runItem(scope, gate, itemIndex, !continueOnFail, () => read(itemIndex)),
		!continueOnFail,
	);
	// Items after a failure that read their parameters but never reached the platform have no output.
	const started = results.map((r) => (r && !r.ok && r.error instanceof NotStarted ? undefined : r));
	const written = ready
		? writtenText(
				started,
				ready.map((r) => writes(r.op, r.ctx)),
			)
		: undefined;
	return [collect(scope, started, continueOnFail, written)];
}

/** Every item read and checked in input order; the first bad one fails the node before anything is sent. */
async function checkAll(
	scope: RunScope<IExecuteFunctions>,
	resources: Resource[],
	count: number,
): Promise<ReadItem[]> {
	const ready: ReadItem[] = [];
	for (let i = 0; i < count; i++) {
		try {
			const item = readItem(scope, resources, i);
			await checkInput(item.op, item.ctx, item.req);
			ready.push({ ...item, checked: true });
		} catch (error) {
			collect(scope, [...new Array<undefined>(i), { ok: false, error }], false);
		}
	}
	return ready;
}

/** An item's input checks beyond its fields' (already mapped when its request was read): its operation's declared `check`. */
async function checkInput(op: Operation, ctx: OpContext, req: BuiltRequest): Promise<void> {
	if (!op.check) return;
	try {
		await op.check(req, ctx);
	} catch (error) {
		throw error instanceof NodeOperationError || error instanceof NodeApiError
			? error
			: new NodeOperationError(ctx.fn.getNode(), error as Error, { itemIndex: ctx.itemIndex });
	}
}

/** The action nodes' execute(): `this` is n8n's execute context; the node's resources and tuning are its own. */
export function executorFor(
	resources: Resource[],
	tuning: Tuning,
): (this: IExecuteFunctions) => Promise<INodeExecutionData[][]> {
	return async function (this: IExecuteFunctions) {
		return await executeOperations(this, resources, tuning);
	};
}

// ── Items in parallel, in input order ─────────────────────────────────────────────────────────

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

// ── n8n-internals 4. Items read ahead of their turn ───────────────────────────────────────────
// Relies on: getNodeParameter is synchronous and has no effect on other items (n8n-core
// ExecuteContext evaluates the expression on the spot), so item i+1 may read its parameters
// while item i's request is in flight, and n8n takes the results of all items from one
// `execute` call. Buys: at 1 in parallel, expressions are evaluated while requests are under
// way, as n8n's HTTP Request node does (docs/performance.md, "read ahead"); the ordered gate
// (OrderedGate, above) keeps the platform seeing the items in input order.
// There is no other path to fall back to: a getNodeParameter that returned a promise would
// change n8n's node API itself (its type), so the typecheck against that n8n-workflow fails,
// and the pinned test names the change.

// ── What a failed run wrote ───────────────────────────────────────────────────────────────────

/** Whether an item of this operation writes to the platform (not a read, a list or a GET custom call). */
export function writes(op: Operation, ctx: OpContext): boolean {
	if (op === CUSTOM_CALL_OPERATION) return ctx.param<string>('customMethod', 'GET') !== 'GET';
	return op.method !== 'GET' && !op.paginate && op.readOnly !== true;
}

/** The ID an output item names (`id`, `_id`, a people user's `userId`), if any. */
function idOf(json: unknown): string | undefined {
	if (!json || typeof json !== 'object') return undefined;
	const o = json as IDataObject;
	const id = o.id ?? o._id ?? o.Id ?? o.userId;
	return typeof id === 'number' || (typeof id === 'string' && id !== '') ? String(id) : undefined;
}

/**
 * "Before it failed, the run wrote: item 0 (ID 12), item 3 (ID 15)." for the items that wrote
 * and succeeded; undefined when none did.
 */
export function writtenText(
	results: Array<Settled<Output> | undefined>,
	wrote: boolean[],
): string | undefined {
	const parts: string[] = [];
	results.forEach((r, i) => {
		if (!r?.ok || !wrote[i]) return;
		const list = r.value === undefined ? [] : Array.isArray(r.value) ? r.value : [r.value];
		const ids = list.map(idOf).filter((id): id is string => id !== undefined);
		parts.push(ids.length ? `item ${i} (ID ${ids.join(', ')})` : `item ${i}`);
	});
	if (!parts.length) return undefined;
	return `These items were written to the platform before the run stopped and exist there now: ${parts.join(', ')}. Running the workflow again would write them again: start it from the failed item, or use Continue On Fail to see each item's outcome.`;
}
