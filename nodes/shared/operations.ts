/**
 * Operations as data. Each endpoint is one `Operation`: method, path, fields (each
 * with where it goes on the wire), paging style and, where needed, small hooks.
 * From these the node's UI properties and its requests are both made, so adding an
 * endpoint is one entry, not a new function.
 */
import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodeListSearchResult,
	INodeProperties,
	INodePropertyOptions,
	ResourceMapperFields,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { mapConcurrent } from './concurrency';
import { paginate, type PageStyle } from './pagination';
import { apiRequest, type ApiRequest } from './transport';

/** Where a field's value goes on the wire. */
export interface Send {
	in: 'path' | 'query' | 'body';
	/** Wire name; defaults to the property name. Dotted keys build nested objects (`address.city`). */
	key?: string;
	/** UI value → wire value. Return undefined to send nothing. May throw `ctx.fail(...)`. */
	map?: (value: unknown, ctx: OpContext) => unknown;
	/** Send empty strings and empty lists too (default: left out). */
	keepEmpty?: boolean;
}

export interface Field {
	property: INodeProperties;
	send?: Send;
	/** For collections and fixed collections: the children, each with its own `send`. */
	children?: Field[];
}

export interface OpContext {
	fn: IExecuteFunctions;
	itemIndex: number;
	operation: Operation;
	/** A node parameter of this item (resource locators give their value). */
	param<T = unknown>(name: string, fallback?: T): T;
	/** One API request for this item (with its index in errors). */
	request<T = unknown>(req: ApiRequest): Promise<T>;
	/** A list request through the operation's paging style. */
	paginate(req: ApiRequest, style: PageStyle, limit?: number): Promise<IDataObject[]>;
	/** A NodeOperationError that names this item. */
	fail(message: string, description?: string): NodeOperationError;
}

export interface BuiltRequest {
	method: IHttpRequestMethods;
	path: string;
	qs: IDataObject;
	body: IDataObject;
	/** Replaces `body` when set (endpoints whose body is an array or a scalar). */
	rawBody?: unknown;
	/** Whether the body should be sent at all (default: for POST, PUT, PATCH, or when not empty). */
	sendBody?: boolean;
}

export type Output = IDataObject | IDataObject[] | undefined;

const BINARY = new WeakMap<IDataObject, IBinaryKeyData>();

/** Marks an output item as carrying binary data (files such as markup); `output` hooks return what this returns. */
export function withBinary(json: IDataObject, binary: IBinaryKeyData): IDataObject {
	BINARY.set(json, binary);
	return json;
}

export interface Operation {
	value: string;
	name: string;
	action: string;
	description: string;
	method: IHttpRequestMethods;
	/** Path with `{param}` placeholders, filled from fields sent `in: 'path'`. */
	path: string;
	/** Served by the regional base URL when the credential has one. */
	regional?: boolean;
	/** `never` for operations that must not be repeated automatically (payroll postings). */
	retry?: 'auto' | 'never';
	/** A POST that only reads (searches): safe to repeat after a 5xx or a dropped connection. */
	idempotent?: boolean;
	/** Text answers (markup, confirmations). */
	text?: boolean;
	fields?: Field[];
	/** A list endpoint: adds Return All and Limit and walks the pages in this style. */
	paginate?: PageStyle;
	/** Adds a Simplify switch (on by default) that maps each output item. */
	simplify?: (item: IDataObject) => IDataObject;
	/** Adjusts the built request (validation, encodings, computed fields). */
	prepare?: (req: BuiltRequest, ctx: OpContext) => void | Promise<void>;
	/** Shapes the answer into output items. Default: arrays split, objects kept, empty → `{ success: true }`. */
	output?: (answer: unknown, ctx: OpContext, req: BuiltRequest) => Output | Promise<Output>;
	/** A fully custom operation (composites such as Create or Update). */
	run?: (ctx: OpContext) => Promise<Output>;
}

export interface ResourceMethods {
	listSearch?: Record<string, (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) => Promise<INodeListSearchResult>>;
	loadOptions?: Record<string, (this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>>;
	resourceMapping?: Record<string, (this: ILoadOptionsFunctions) => Promise<ResourceMapperFields>>;
}

export interface Resource {
	value: string;
	name: string;
	description?: string;
	operations: Operation[];
	/** Pickers this resource's fields use; the node merges them from all its resources. */
	methods?: ResourceMethods;
}

/** The node's `methods`: every resource's pickers in one object. */
export function mergeMethods(resources: Resource[]): Required<ResourceMethods> {
	const out: Required<ResourceMethods> = { listSearch: {}, loadOptions: {}, resourceMapping: {} };
	for (const r of resources) {
		Object.assign(out.listSearch, r.methods?.listSearch);
		Object.assign(out.loadOptions, r.methods?.loadOptions);
		Object.assign(out.resourceMapping, r.methods?.resourceMapping);
	}
	return out;
}

// ---------------------------------------------------------------- UI ------

const withShow = (p: INodeProperties, resource: string, operations: string[]): INodeProperties => ({
	...p,
	displayOptions: {
		...(p.displayOptions ?? {}),
		show: { ...(p.displayOptions?.show ?? {}), resource: [resource], operation: operations },
	},
});

function fieldProperty(f: Field): INodeProperties {
	if (!f.children) return f.property;
	if (f.property.type === 'fixedCollection') return f.property; // options given as written
	return { ...f.property, options: f.children.map((c) => fieldProperty(c)) };
}

export const CONCURRENCY_PARAMETER = 'requestOptions';

/** Return All and Limit, as every list shows them (also for lists an operation pages itself). */
export const RETURN_ALL_PROPERTY: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};
export const LIMIT_PROPERTY: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { returnAll: [false] } },
};

/** The node's properties: resource, one operation list per resource, every field, paging and simplify. */
export function buildProperties(resources: Resource[], defaultResource?: string): INodeProperties[] {
	const props: INodeProperties[] = [
		// eslint-disable-next-line n8n-nodes-base/node-param-default-missing -- the default is computed from the resources
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: resources.map((r) => ({ name: r.name, value: r.value, description: r.description })).sort((a, b) => a.name.localeCompare(b.name)),
			default: defaultResource ?? resources[0]?.value ?? '',
		},
	];
	for (const r of resources) {
		const ops: INodePropertyOptions[] = r.operations
			.map((o) => ({ name: o.name, value: o.value, action: o.action, description: o.description }))
			.sort((a, b) => a.name.localeCompare(b.name));
		// eslint-disable-next-line n8n-nodes-base/node-param-default-missing -- the default is the resource's first operation
		props.push({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [r.value] } },
			options: ops,
			default: r.operations[0].value,
		});
	}
	for (const r of resources) {
		// Each operation gets its own copies, so every operation shows its fields in its own order:
		// its plain fields (ids, required values), then Return All and Limit, then its collections
		// (filters, options, additional fields), then Simplify — n8n's usual layout.
		for (const o of r.operations) {
			const show = (p: INodeProperties) => props.push(withShow(p, r.value, [o.value]));
			const fields = (o.fields ?? []).map(fieldProperty);
			const isCollection = (p: INodeProperties) => p.type === 'collection' || p.type === 'fixedCollection';
			fields.filter((p) => !isCollection(p)).forEach(show);
			if (o.paginate) {
				show(RETURN_ALL_PROPERTY);
				show(LIMIT_PROPERTY);
			}
			fields.filter(isCollection).forEach(show);
			if (o.simplify) {
				show({
					displayName: 'Simplify',
					name: 'simplify',
					type: 'boolean',
					default: true,
					description: 'Whether to return a simplified version of the response instead of the raw data',
				});
			}
		}
	}
	props.push({
		displayName: 'Request Options',
		name: CONCURRENCY_PARAMETER,
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Parallel Requests',
				name: 'concurrency',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 20 },
				default: 5,
				description: 'How many items are sent to the platform at the same time. Output order always follows input order. Use 1 to send items one after another.',
			},
		],
	});
	return props;
}

// ----------------------------------------------------------- requests -----

const isEmpty = (v: unknown) =>
	v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

function setPath(target: IDataObject, key: string, value: unknown): void {
	const parts = key.split('.');
	let cur = target;
	for (const p of parts.slice(0, -1)) {
		if (typeof cur[p] !== 'object' || cur[p] === null) cur[p] = {};
		cur = cur[p] as IDataObject;
	}
	cur[parts[parts.length - 1]] = value as IDataObject[string];
}

function applyField(f: Field, value: unknown, req: BuiltRequest, ctx: OpContext, pathParams: Record<string, string>): void {
	if (f.children && f.property.type === 'collection') {
		const obj = (value ?? {}) as IDataObject;
		for (const child of f.children) if (child.property.name in obj) applyField(child, obj[child.property.name], req, ctx, pathParams);
		return;
	}
	if (!f.send) return;
	const wire = f.send.map ? f.send.map(value, ctx) : value;
	if (wire === undefined || (!f.send.keepEmpty && isEmpty(wire) && typeof wire !== 'boolean' && typeof wire !== 'number')) return;
	const key = f.send.key ?? f.property.name;
	if (f.send.in === 'path') pathParams[key] = String(wire);
	else if (f.send.in === 'query') req.qs[key] = wire as IDataObject[string];
	else setPath(req.body, key, wire);
}

/** Collects an item's request from the operation's fields, then runs its `prepare`. */
export async function buildRequest(op: Operation, ctx: OpContext): Promise<BuiltRequest> {
	const req: BuiltRequest = { method: op.method, path: op.path, qs: {}, body: {} };
	const pathParams: Record<string, string> = {};
	for (const f of op.fields ?? []) {
		// Fields hidden by displayOptions of other fields are not set for this item: skip them.
		let value: unknown;
		try {
			value = ctx.param(f.property.name);
		} catch {
			continue;
		}
		applyField(f, value, req, ctx, pathParams);
	}
	req.path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
		const v = pathParams[name];
		if (v === undefined || v === '') throw ctx.fail(`The ${name} is missing`, 'Fill in the field that identifies the record.');
		return encodeURIComponent(v);
	});
	await op.prepare?.(req, ctx);
	return req;
}

function defaultOutput(answer: unknown): Output {
	if (answer === undefined || answer === null || answer === '') return { success: true };
	if (Array.isArray(answer)) return answer.map((a) => (a !== null && typeof a === 'object' ? (a as IDataObject) : { value: a as string }));
	if (typeof answer === 'object') return answer as IDataObject;
	return { value: answer as string };
}

async function runOperation(op: Operation, ctx: OpContext): Promise<Output> {
	const out = await answerOf(op, ctx);
	if (op.simplify && out !== undefined && ctx.param<boolean>('simplify', true)) {
		return Array.isArray(out) ? out.map(op.simplify) : op.simplify(out);
	}
	return out;
}

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

function findOperation(resources: Resource[], resource: string, operation: string): Operation | undefined {
	return resources.find((r) => r.value === resource)?.operations.find((o) => o.value === operation);
}

/** The shared execute(): every item through its operation, in parallel up to the configured limit, in order, paired. */
export async function executeOperations(fn: IExecuteFunctions, resources: Resource[]): Promise<INodeExecutionData[][]> {
	const items = fn.getInputData();
	const node = fn.getNode();
	const continueOnFail = fn.continueOnFail();
	let concurrency = 5;
	try {
		concurrency = Number((fn.getNodeParameter(CONCURRENCY_PARAMETER, 0, {}) as IDataObject).concurrency ?? 5) || 5;
	} catch {
		// not shown: default
	}

	const contextFor = (itemIndex: number, op: Operation): OpContext => {
		const ctx: OpContext = {
			fn,
			itemIndex,
			operation: op,
			param: <T>(name: string, fallback?: T) => fn.getNodeParameter(name, itemIndex, fallback, { extractValue: true }) as T,
			request: async <T>(req: ApiRequest) => await apiRequest<T>(fn, { ...req, itemIndex }),
			paginate: async (req, style, limit) => await paginate(fn, { ...req, itemIndex }, { style, limit }),
			fail: (message, description) => new NodeOperationError(node, message, { itemIndex, description }),
		};
		return ctx;
	};

	const results = await mapConcurrent(
		items,
		concurrency,
		async (_item, itemIndex) => {
			const resource = fn.getNodeParameter('resource', itemIndex) as string;
			const operation = fn.getNodeParameter('operation', itemIndex) as string;
			const op = findOperation(resources, resource, operation);
			if (!op) throw new NodeOperationError(node, `The operation "${operation}" of "${resource}" is not known`, { itemIndex });
			return await runOperation(op, contextFor(itemIndex, op));
		},
		!continueOnFail,
	);

	const out: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		const r = results[i];
		if (!r) continue; // not started after an earlier failure
		if (r.ok) {
			const list = r.value === undefined ? [] : Array.isArray(r.value) ? r.value : [r.value];
			for (const json of list) out.push(BINARY.has(json) ? { json, binary: BINARY.get(json), pairedItem: { item: i } } : { json, pairedItem: { item: i } });
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
		throw new NodeOperationError(node, error, { itemIndex: i });
	}
	return [out];
}
