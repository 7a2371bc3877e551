/**
 * One item, read ahead of its turn: its operation found from Resource and Operation, its
 * request built from the operation's fields (path, query and body, each field mapped to its
 * wire form; n8n evaluates the parameters' expressions here, nothing is sent), and the
 * context its operation runs with (`OpContext`: its parameters, its request, and the way to
 * send it through the transport).
 */
import type { IDataObject, IExecuteFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { paginate } from '../pagination';
import { echo } from '../text-readers';
import type { RunScope } from '../run-scope';
import { apiRequest, type ApiRequest } from '../transport';
import { pathSegment } from '../field-values';
import { CUSTOM_CALL, CUSTOM_CALL_OPERATION } from './custom-call';
import type { BuiltRequest, Field, OpContext, Operation, Resource } from './model';
import { readFields, readItemValue } from './params';

const isEmpty = (v: unknown) =>
	v === undefined ||
	v === null ||
	v === '' ||
	(Array.isArray(v) && v.length === 0) ||
	(typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

function setPath(target: IDataObject, key: string, value: unknown, merge = false): void {
	const parts = key.split('.');
	let cur = target;
	for (const p of parts.slice(0, -1)) {
		if (typeof cur[p] !== 'object' || cur[p] === null) cur[p] = {};
		cur = cur[p] as IDataObject;
	}
	const last = parts[parts.length - 1];
	const before = cur[last];
	cur[last] = (
		merge && Array.isArray(before) && Array.isArray(value)
			? [...new Set([...before, ...value])]
			: value
	) as IDataObject[string];
}

/**
 * A text field's value as text. An expression may give a number or a boolean (`{{ $json.phone }}`
 * of a number); the platform refuses those where its schema says string, so `12345` is sent
 * as `"12345"`. Anything else (objects, lists) is sent as it came and the platform's error says why.
 */
function asText(f: Field, value: unknown): unknown {
	const scalar = ['number', 'boolean', 'bigint'].includes(typeof value);
	return f.property.type === 'string' && scalar ? String(value) : value;
}

/**
 * A dropdown's value as one of its options: a model or an expression may give any text, and a
 * value the list does not have is refused naming the field (the platform would store it, or
 * answer an error that does not say which field). Dropdowns filled from the platform are left
 * to it.
 */
function optionOf(f: Field, value: unknown, ctx: OpContext): unknown {
	const p = f.property;
	if (
		(p.type !== 'options' && p.type !== 'multiOptions') ||
		!Array.isArray(p.options) ||
		p.typeOptions?.loadOptionsMethod ||
		isEmpty(value)
	)
		return value;
	const allowed = (p.options as INodePropertyOptions[]).filter((o) => 'value' in o);
	const one = (v: unknown) => {
		const hit =
			allowed.find((o) => o.value === v) ??
			allowed.find((o) => typeof v !== 'object' && String(o.value) === String(v).trim());
		if (hit) return hit.value;
		throw ctx.fail(
			`${p.displayName} has no option ${echo(v, 60)}`,
			`Choose one of: ${allowed.map((o) => `${String(o.value)} (${o.name})`).join(', ')}.`,
		);
	};
	if (p.type === 'options') return one(value);
	const list = Array.isArray(value) ? value : String(value).split(',');
	return list.map(one);
}

function applyField(
	f: Field,
	value: unknown,
	req: BuiltRequest,
	ctx: OpContext,
	pathParams: Record<string, string>,
): void {
	if (f.children && f.property.type === 'collection') {
		// Only the options the node's version shows (readFields kept those).
		const obj = (value ?? {}) as IDataObject;
		for (const child of f.children)
			if (Object.prototype.hasOwnProperty.call(obj, child.property.name))
				applyField(child, obj[child.property.name], req, ctx, pathParams);
		return;
	}
	if (!f.send) return;
	const given = optionOf(f, value, ctx);
	const wire = f.send.map ? f.send.map(given, ctx) : asText(f, given);
	if (
		wire === undefined ||
		(!f.send.keepEmpty && isEmpty(wire) && typeof wire !== 'boolean' && typeof wire !== 'number')
	)
		return;
	const key = f.send.key ?? f.property.name;
	if (f.send.in === 'path') pathParams[key] = String(wire);
	else if (f.send.in === 'query') req.qs[key] = wire as IDataObject[string];
	else setPath(req.body, key, wire, f.send.merge);
}

/**
 * An item's request from the operation's fields: reading the
 * parameters (n8n evaluates their expressions here) and mapping them to the wire. No
 * request goes out, so the executor runs it ahead of the item's turn with the platform.
 */
export function collectRequest(op: Operation, ctx: OpContext): BuiltRequest {
	const req: BuiltRequest = { method: op.method, path: op.path, qs: {}, body: {} };
	const pathParams: Record<string, string> = {};
	for (const { field, value } of readFields(ctx.scope, op.fields, ctx.itemIndex))
		applyField(field, value, req, ctx, pathParams);
	req.path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
		const v = pathParams[name];
		if (v === undefined || v === '')
			throw ctx.fail(`The ${name} is missing`, 'Fill in the field that identifies the record.');
		return pathSegment(v, wireLabels(op.fields)(name) ?? name, ctx);
	});
	return req;
}

/**
 * The parameter a wire field name comes from, for errors that name the fields the platform
 * rejected: `visibility_type` → "Visibility"; `stages[0].name` is looked up as `stages`.
 */
export function wireLabels(fields: Field[] | undefined): (field: string) => string | undefined {
	return (field) => {
		const keys = [field, field.replace(/\[\d+\].*$/, ''), field.split('.')[0]];
		const find = (list: Field[] | undefined): string | undefined => {
			for (const f of list ?? []) {
				const wire = f.send?.key ?? f.property.name;
				if (f.send && keys.includes(wire)) return f.property.displayName;
				const inner = find(f.children);
				if (inner) return inner;
			}
			return undefined;
		};
		return find(fields);
	};
}

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

/** An item ready for its turn: its operation and context, its request read from its fields. */
export interface ReadItem {
	op: Operation;
	ctx: OpContext;
	/** Its request as its fields give it (what `ctx.fromFields()` gives). */
	req: BuiltRequest;
	/** Whether its `check` ran already (before the first request of the run). */
	checked?: boolean;
}

/** Reads an item's parameters into its request (n8n evaluates their expressions here); nothing is sent. */
export function readItem(
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
	return { op, ctx, req: ctx.fromFields() };
}
