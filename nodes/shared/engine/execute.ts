/**
 * The executor: the shared execute() of the action nodes. Each item runs through its
 * operation (build the request, send it or walk its pages, shape the answer), up to
 * the configured number of items at a time; output keeps the input's order and every
 * item is paired with its input. One run scope per execution is passed along.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { mapConcurrent, type Settled } from '../concurrency';
import { paginate } from '../pagination';
import { RunScope } from '../run-scope';
import { apiRequest, type ApiRequest } from '../transport';
import { CONCURRENCY_PARAMETER } from './description';
import type { OpContext, Operation, Output, Resource } from './model';
import { readParameter, readSetting } from './params';
import { buildRequest } from './request';

function defaultOutput(answer: unknown): Output {
	if (answer === undefined || answer === null || answer === '') return { success: true };
	if (Array.isArray(answer)) return answer.map((a) => (a !== null && typeof a === 'object' ? (a as IDataObject) : { value: a as string }));
	if (typeof answer === 'object') return answer as IDataObject;
	return { value: answer as string };
}

/** The answer of an operation for one item: its own `run`, or its request (paged for lists) and `output`. */
async function answerOf(op: Operation, ctx: OpContext): Promise<Output> {
	if (op.run) return await op.run(ctx);
	const req = await buildRequest(op, ctx);
	const api: ApiRequest = {
		method: req.method,
		path: req.path,
		qs: Object.keys(req.qs).length ? req.qs : undefined,
		body: req.rawBody !== undefined ? req.rawBody : (req.sendBody ?? (['POST', 'PUT', 'PATCH'].includes(req.method) || Object.keys(req.body).length > 0)) ? req.body : undefined,
		regional: op.regional,
		retry: op.retry,
		idempotent: op.idempotent,
		text: op.text,
	};
	let answer: unknown;
	if (op.paginate) {
		const returnAll = ctx.param<boolean>('returnAll', false);
		answer = await ctx.paginate(api, op.paginate, returnAll ? undefined : ctx.param<number>('limit', 50));
	} else {
		answer = await ctx.request(api);
	}
	return op.output ? await op.output(answer, ctx, req) : defaultOutput(answer);
}

async function runOperation(op: Operation, ctx: OpContext): Promise<Output> {
	const out = await answerOf(op, ctx);
	if (op.simplify && out !== undefined && ctx.param<boolean>('simplify', true)) {
		return Array.isArray(out) ? out.map(op.simplify) : op.simplify(out);
	}
	return out;
}

function contextFor(scope: RunScope<IExecuteFunctions>, itemIndex: number, op: Operation): OpContext {
	const fn = scope.ctx;
	return {
		fn,
		scope,
		itemIndex,
		operation: op,
		param: <T>(name: string, fallback?: T) => readParameter<T>(fn, name, itemIndex, fallback, op.fields),
		request: async <T>(req: ApiRequest) => await apiRequest<T>(scope, { ...req, itemIndex }),
		paginate: async (req, style, limit) => await paginate(scope, { ...req, itemIndex }, { style, limit }),
		fail: (message, description) => new NodeOperationError(fn.getNode(), message, { itemIndex, description }),
	};
}

function findOperation(resources: Resource[], resource: string, operation: string): Operation | undefined {
	return resources.find((r) => r.value === resource)?.operations.find((o) => o.value === operation);
}

/** Output items in input order, each paired with its input; a failure is the item's error (continue on fail) or the node's. */
function collect(scope: RunScope<IExecuteFunctions>, results: Array<Settled<Output> | undefined>, continueOnFail: boolean): INodeExecutionData[] {
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < results.length; i++) {
		const r = results[i];
		if (!r) continue; // not started after an earlier failure
		if (r.ok) {
			const list = r.value === undefined ? [] : Array.isArray(r.value) ? r.value : [r.value];
			for (const json of list) {
				const binary = scope.binaryOf(json);
				out.push(binary ? { json, binary, pairedItem: { item: i } } : { json, pairedItem: { item: i } });
			}
			continue;
		}
		const error = r.error as Error & { description?: string; context?: IDataObject };
		if (continueOnFail) {
			out.push({ json: { error: error.message, ...(error.description ? { description: error.description } : {}), itemIndex: i }, pairedItem: { item: i } });
			continue;
		}
		if (error instanceof NodeOperationError || (error as { name?: string }).name === 'NodeApiError') {
			if (error.context && error.context.itemIndex === undefined) error.context.itemIndex = i;
			throw error;
		}
		throw new NodeOperationError(scope.ctx.getNode(), error, { itemIndex: i });
	}
	return out;
}

/** The shared execute(): every item through its operation, in parallel up to the configured limit, in order, paired. */
export async function executeOperations(fn: IExecuteFunctions, resources: Resource[]): Promise<INodeExecutionData[][]> {
	const scope = new RunScope(fn);
	const items = fn.getInputData();
	const continueOnFail = fn.continueOnFail();
	const concurrency = Number(readSetting(fn, CONCURRENCY_PARAMETER, {}).concurrency ?? 5) || 5;
	const results = await mapConcurrent(
		items,
		concurrency,
		async (_item, itemIndex) => {
			const resource = fn.getNodeParameter('resource', itemIndex) as string;
			const operation = fn.getNodeParameter('operation', itemIndex) as string;
			const op = findOperation(resources, resource, operation);
			if (!op) throw new NodeOperationError(fn.getNode(), `The operation "${operation}" of "${resource}" is not known`, { itemIndex });
			return await runOperation(op, contextFor(scope, itemIndex, op));
		},
		!continueOnFail,
	);
	return [collect(scope, results, continueOnFail)];
}
