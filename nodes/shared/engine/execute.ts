/**
 * The executor: the shared execute() of the action nodes. Each item runs through its
 * operation (build the request, send it or walk its pages, shape the answer), up to
 * the configured number of items at a time; output keeps the input's order and every
 * item is paired with its input. One run scope per execution is passed along.
 *
 * Items read their parameters ahead of their turn (n8n's expression evaluation is most of
 * the CPU an item costs), then pass the ordered gate to talk to the platform: the
 * platform sees the same order and the same number of requests at once as without
 * reading ahead, while the next items' parameters are read during a request's wait.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { mapConcurrent, NotStarted, OrderedGate, type Settled } from '../concurrency';
import { paginate } from '../pagination';
import { RunScope } from '../run-scope';
import { DEFAULT_TUNING, type Tuning } from '../tuning';
import { apiRequest, type ApiRequest } from '../transport';
import { CUSTOM_CALL, CUSTOM_CALL_OPERATION } from './custom-call';
import { CONCURRENCY_PARAMETER } from './description';
import type { BuiltRequest, OpContext, Operation, Output, Resource } from './model';
import { defaultOutput } from './output';
import { readItemValue, readSetting, wireLabels } from './params';
import { collectRequest } from './request';
import { checkInput, writes, writtenText } from './checks';
import { echo } from '../readers';

/** A built request as the transport takes it, with the operation's settings. */
function apiRequestOf(op: Operation, req: BuiltRequest): ApiRequest {
	const bodyWanted =
		req.sendBody ??
		(['POST', 'PUT', 'PATCH'].includes(req.method) || Object.keys(req.body).length > 0);
	return {
		method: req.method,
		path: req.path,
		qs: Object.keys(req.qs).length ? req.qs : undefined,
		body: req.rawBody !== undefined ? req.rawBody : bodyWanted ? req.body : undefined,
		regional: op.regional,
		retry: op.retry,
		idempotent: op.idempotent,
		text: op.text,
	};
}

/** One item through its operation: its own `execute`, or the request its fields give and the answer as items; then Simplify. */
async function runOperation(op: Operation, ctx: OpContext): Promise<Output> {
	const out = op.execute ? await op.execute(ctx) : defaultOutput(await ctx.send(ctx.fromFields()));
	if (op.simplify && out !== undefined && ctx.param<boolean>('simplify', true)) {
		return Array.isArray(out) ? out.map(op.simplify) : op.simplify(out);
	}
	return out;
}

/** The item's context; its request from the fields is read here, before its turn (nothing is sent). */
function contextFor(
	scope: RunScope<IExecuteFunctions>,
	itemIndex: number,
	op: Operation,
): OpContext {
	const fn = scope.ctx;
	const labelOf = wireLabels(op.fields);
	let collected: BuiltRequest | undefined;
	const ctx: OpContext = {
		fn,
		scope,
		itemIndex,
		operation: op,
		param: <T>(name: string, fallback?: T) =>
			readItemValue<T>(scope, name, itemIndex, fallback, op.fields),
		fromFields: () => (collected ??= collectRequest(op, ctx)),
		send: async <T>(req: BuiltRequest) => {
			const api = apiRequestOf(op, req);
			if (!op.paginate) return await ctx.request<T>(api);
			const limit = ctx.param<boolean>('returnAll', false)
				? undefined
				: limitOf(ctx.param<unknown>('limit', 50), ctx);
			return (await ctx.paginate(api, op.paginate, limit)) as T;
		},
		request: async <T>(req: ApiRequest) =>
			await apiRequest<T>(scope, { ...req, itemIndex, labelOf }),
		paginate: async (req, style, limit) =>
			await paginate(scope, { ...req, itemIndex, labelOf }, { style, limit }),
		fail: (message, description) =>
			new NodeOperationError(fn.getNode(), message, { itemIndex, description }),
	};
	return ctx;
}

/** Limit as a whole number of at least 1 (a fraction is rounded down); anything else (0, negative, not a number) is refused, naming the field. */
function limitOf(value: unknown, ctx: OpContext): number {
	const n = Math.floor(Number(value));
	if (
		value === '' ||
		value === null ||
		typeof value === 'boolean' ||
		!Number.isFinite(n) ||
		n < 1
	) {
		throw ctx.fail(
			`Limit must be a whole number of 1 or more, got "${String(value).slice(0, 40)}"`,
			'Set "Limit" to how many items to return, or turn on "Return All".',
		);
	}
	return n;
}

function findOperation(
	resources: Resource[],
	resource: string,
	operation: string,
): Operation | undefined {
	if (operation === CUSTOM_CALL) return CUSTOM_CALL_OPERATION;
	return resources.find((r) => r.value === resource)?.operations.find((o) => o.value === operation);
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
				const binary = scope.binaryOf(json);
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

/** An item ready for its turn: its operation and context, its request read from its fields. */
interface ReadItem {
	op: Operation;
	ctx: OpContext;
	/** Whether its `check` ran already (before the first request of the run). */
	checked?: boolean;
}

/** Reads an item's parameters into its request (n8n evaluates their expressions here); nothing is sent. */
function readItem(
	scope: RunScope<IExecuteFunctions>,
	resources: Resource[],
	itemIndex: number,
): ReadItem {
	const resource = readItemValue<string>(scope, 'resource', itemIndex, '');
	const operation = readItemValue<string>(scope, 'operation', itemIndex, '');
	const op = findOperation(resources, resource, operation);
	if (!op)
		throw new NodeOperationError(
			scope.ctx.getNode(),
			`The operation ${echo(operation, 60)} of ${echo(resource, 60)} is not known`,
			{ itemIndex },
		);
	const ctx = contextFor(scope, itemIndex, op);
	ctx.fromFields();
	return { op, ctx };
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
		const { op, ctx, checked } = read();
		// Taken before the first await, so places are in input order.
		const key = op.serialKey?.(ctx);
		line = key === undefined ? undefined : scope.queue(`${op.value}:${key}`);
		if (!checked) await op.check?.(ctx.fromFields(), ctx);
		await gate.enter(itemIndex);
		entered = true;
		await line?.turn;
		const out = await runOperation(op, ctx);
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
	// Stop on errors: every item's input is checked before the first request (engine/checks.ts).
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
			await checkInput(item.op, item.ctx);
			ready.push({ ...item, checked: true });
		} catch (error) {
			collect(scope, [...new Array<undefined>(i), { ok: false, error }], false);
		}
	}
	return ready;
}
