/**
 * The request builder: one item's request from its operation's fields (path, query
 * and body, each field mapped to its wire form). An operation's `execute` takes it
 * from there (`ctx.fromFields()`).
 */
import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import type { BuiltRequest, Field, OpContext, Operation } from './model';
import { pathSegment } from '../values';
import { echo } from '../readers';
import { readItemParameter, wireLabels } from './params';
import { shownInVersion } from './versions';

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
		const obj = (value ?? {}) as IDataObject;
		const version = ctx.scope.node.typeVersion;
		for (const child of f.children)
			if (child.property.name in obj && shownInVersion(child.property, version))
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
	const version = ctx.scope.node.typeVersion;
	for (const f of op.fields ?? []) {
		// A field of another node version (two versions may each have a field of this name) is not read.
		if (!shownInVersion(f.property, version)) continue;
		// A field hidden by another field's value (displayOptions) has no value for this node: nothing is sent.
		const read = readItemParameter(ctx.scope, f.property.name, ctx.itemIndex, op.fields);
		if (read.shown) applyField(f, read.value, req, ctx, pathParams);
	}
	req.path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
		const v = pathParams[name];
		if (v === undefined || v === '')
			throw ctx.fail(`The ${name} is missing`, 'Fill in the field that identifies the record.');
		return pathSegment(v, wireLabels(op.fields)(name) ?? name, ctx);
	});
	return req;
}
