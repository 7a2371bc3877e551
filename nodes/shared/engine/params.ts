/**
 * Reading a node parameter for an item. A parameter not shown for the node's current
 * settings (displayOptions) has no value: that, and only that, means "absent" (how n8n
 * says so: `isNotShown`, n8n-internals 2). Any other error — an expression that fails, a
 * value n8n cannot validate — fails the item and names the parameter, instead of silently
 * sending the request without it. What this relies on in how n8n saves and reads
 * parameters (n8n-internals 1, 2 and 5 of the registry, ../n8n-internals/index.ts) is at the
 * end of the file.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import * as workflow from 'n8n-workflow';
import { NodeHelpers, NodeOperationError } from 'n8n-workflow';

import type { RunScope } from '../run-scope';
import type { Field } from './model';

/** The display name of a parameter among an operation's fields (children included), else its name. */
function labelOf(name: string, fields: Field[] | undefined): string {
	const find = (list: Field[] | undefined): INodeProperties | undefined => {
		for (const f of list ?? []) {
			if (f.property.name === name) return f.property;
			const inner = find(f.children);
			if (inner) return inner;
		}
		return undefined;
	};
	const property = find(fields);
	return property ? `"${property.displayName}" (${name})` : `"${name}"`;
}

/** The error for a parameter that could not be read: its name, n8n's reason, and what to check. */
export function parameterError(
	fn: IExecuteFunctions,
	name: string,
	itemIndex: number,
	error: unknown,
	fields?: Field[],
): NodeOperationError {
	const e = error as { message?: unknown; description?: unknown } | null;
	const reason = typeof e?.message === 'string' ? e.message : String(error);
	const detail = typeof e?.description === 'string' && e.description ? `${e.description} ` : '';
	return new NodeOperationError(
		fn.getNode(),
		`Could not read the parameter ${labelOf(name, fields)}: ${reason}`,
		{
			itemIndex,
			description: `${detail}Check the expression or value of this parameter for item ${itemIndex}.`,
		},
	);
}

export type ShownValue<T> = { shown: true; value: T } | { shown: false };

/** A parameter of one item (resource locators give their value), or `shown: false` when it is not shown for the node's settings. */
export function readShownParameter<T>(
	fn: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback?: T,
	fields?: Field[],
): ShownValue<T> {
	try {
		return {
			shown: true,
			value: fn.getNodeParameter(name, itemIndex, fallback as never, { extractValue: true }) as T,
		};
	} catch (error) {
		if (isNotShown(error, name, fn.getNode())) return { shown: false };
		throw parameterError(fn, name, itemIndex, error, fields);
	}
}

/** Property types whose values n8n's getNodeParameter gives as evaluated (no extraction, no validation). */
const PLAIN_TYPES: ReadonlySet<string> = new Set([
	'string',
	'number',
	'boolean',
	'options',
	'collection',
]);

/** Whether every field of this name (versions may differ) is of a plain type, and so is each option a saved collection holds. */
function plainProperty(name: string, fields: Field[] | undefined, saved: unknown): boolean {
	const plain = (p: INodeProperties): boolean =>
		PLAIN_TYPES.has(p.type) && !p.extractValue && !p.validateType;
	// A collection's options are its field's children (the description generator fills `options` from them).
	const heldOptions = (f: Field): boolean => {
		const options = f.children ? f.children.map((c) => c.property) : (f.property.options ?? []);
		return Object.keys(saved as IDataObject).every((key) =>
			options.some((o) => 'type' in o && o.name === key && o.type !== 'collection' && plain(o)),
		);
	};
	const named = (fields ?? []).filter((f) => f.property.name === name);
	return (
		named.length > 0 &&
		named.every((f) => plain(f.property) && (f.property.type !== 'collection' || heldOptions(f)))
	);
}

/**
 * `readShownParameter` for an item of an execution. A parameter whose saved value holds no
 * expression has the same value for every item: when that value is not an object (a text,
 * number or boolean, or "not shown"), it is read once per execution instead of once per
 * item. Objects (collections) are read for each item, so no item gets another's copy. A value
 * saved as "={{ $json.key }}" (or a collection of such) is read by n8n for the first item and
 * then from each item's own JSON (n8n-internals, 5), where that gives a text, number or boolean.
 */
export function readItemParameter<T>(
	scope: RunScope<IExecuteFunctions>,
	name: string,
	itemIndex: number,
	fields?: Field[],
): ShownValue<T> {
	const cached = scope.fixedParameters.get(name) as ShownValue<T> | undefined;
	if (cached) return cached;
	if (scope.quickParameters.has(name)) {
		const quick = readWithoutN8n(
			scope.quickParameters.get(name),
			scope.ctx.getInputData()[itemIndex]?.json,
		);
		if (quick) return { shown: true, value: quick.value as T };
	}
	const read = readShownParameter<T>(scope.ctx, name, itemIndex, undefined, fields);
	if (sameForEveryItem(scope.node, name, read)) scope.fixedParameters.set(name, read);
	else if (
		read.shown &&
		readableWithoutN8n(scope.node.parameters[name]) &&
		plainProperty(name, fields, scope.node.parameters[name])
	)
		scope.quickParameters.set(name, scope.node.parameters[name]);
	return read;
}

const notShownError = (fn: IExecuteFunctions, name: string, itemIndex: number) =>
	new NodeOperationError(fn.getNode(), `Could not get parameter "${name}"`, {
		itemIndex,
		description: 'The parameter is not shown for the node’s current settings, so it has no value.',
	});

/** A parameter of one item; one that is not shown (and has no fallback) fails the item like any other unreadable one. */
export function readParameter<T>(
	fn: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback?: T,
	fields?: Field[],
): T {
	const read = readShownParameter<T>(fn, name, itemIndex, fallback, fields);
	if (read.shown) return read.value;
	throw notShownError(fn, name, itemIndex);
}

/** `readParameter` for an item of an execution, through `readItemParameter` (values without an expression read once). */
export function readItemValue<T>(
	scope: RunScope<IExecuteFunctions>,
	name: string,
	itemIndex: number,
	fallback?: T,
	fields?: Field[],
): T {
	const read = readItemParameter<T>(scope, name, itemIndex, fields);
	if (read.shown) return read.value;
	if (fallback !== undefined) return fallback;
	throw notShownError(scope.ctx, name, itemIndex);
}

/** A field's value as this node version has it: a collection keeps only the options its version shows, at every depth. */
function inVersion(field: Field, value: unknown, version: number): unknown {
	if (
		!field.children ||
		field.property.type !== 'collection' ||
		!value ||
		typeof value !== 'object'
	)
		return value;
	const out: IDataObject = {};
	for (const child of field.children) {
		const name = child.property.name;
		if (
			Object.prototype.hasOwnProperty.call(value, name) &&
			shownInVersion(child.property, version)
		)
			out[name] = inVersion(child, (value as IDataObject)[name], version) as IDataObject[string];
	}
	return out;
}

/**
 * One item's values of an operation's fields: those the node's version shows (two versions may
 * each have a field of one name; the other's is not read) and its settings show (a field hidden
 * by another field's value has no value, and sends nothing), each as n8n reads it for the item.
 */
export function readFields(
	scope: RunScope<IExecuteFunctions>,
	fields: Field[] | undefined,
	itemIndex: number,
): Array<{ field: Field; value: unknown }> {
	const version = scope.node.typeVersion;
	const values: Array<{ field: Field; value: unknown }> = [];
	for (const field of fields ?? []) {
		if (!shownInVersion(field.property, version)) continue;
		const read = readItemParameter(scope, field.property.name, itemIndex, fields);
		if (read.shown) values.push({ field, value: inVersion(field, read.value, version) });
	}
	return values;
}

/** A node-level setting read from the first item (such as Request Options). */
export function readSetting(
	fn: IExecuteFunctions,
	name: string,
	fallback: IDataObject,
): IDataObject {
	return (readParameter<IDataObject>(fn, name, 0, fallback) ?? fallback) as IDataObject;
}

type Conditions = NonNullable<INodeProperties['displayOptions']>['show'];

const versionOnly = (c: Conditions) =>
	c && c['@version'] !== undefined ? { '@version': c['@version'] } : undefined;

/** Whether a property is shown for this version of the node (its `@version` display conditions). */
export function shownInVersion(property: INodeProperties, version: number): boolean {
	const show = versionOnly(property.displayOptions?.show);
	const hide = versionOnly(property.displayOptions?.hide);
	if (!show && !hide) return true;
	const reduced: INodeProperties = { ...property, displayOptions: { show, hide } };
	return NodeHelpers.displayParameter(
		{},
		reduced,
		{ typeVersion: version } as Parameters<typeof NodeHelpers.displayParameter>[2],
		null,
	);
}

// ── n8n-internals 1. The expression mark ──────────────────────────────────────────────────────
// Relies on: a parameter value that is an expression is saved as a text starting with "="
// (n8n-workflow `isExpression`, packages/workflow/src/expressions/expression-helpers.ts; the
// editor writes "={{ ... }}"), and INode.parameters holds the saved values.
// Buys: a value without an expression is read once per execution instead of once per item
// (n8n's getNodeParameter is the larger part of a simple node's per-item cost; docs/performance.md,
// "read once", has the measurements).
// When it does not hold (a value that n8n would evaluate without the mark), the pack would
// reuse item 0's value: the pinned test fails first. Objects (collections) are always read
// per item, and a parameter missing from the saved values is read per item too.

export const EXPRESSION_MARK = '=';

/** Whether a parameter's saved value holds an expression anywhere (a text starting with "="). */
export function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith(EXPRESSION_MARK);
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value !== null && typeof value === 'object')
		return Object.values(value as IDataObject).some(holdsExpression);
	return false;
}

/** Whether the value n8n gave for `name` is the same for every item of the execution (so it may be read once). */
export function sameForEveryItem(
	node: INode,
	name: string,
	read: { shown: boolean; value?: unknown },
): boolean {
	if (!read.shown) return !Object.prototype.hasOwnProperty.call(node.parameters, name);
	if (!Object.prototype.hasOwnProperty.call(node.parameters, name)) return false;
	return (
		!holdsExpression(node.parameters[name]) &&
		(read.value === null || typeof read.value !== 'object')
	);
}

// ── n8n-internals 2. "Could not get parameter" ────────────────────────────────────────────────
// Relies on: getNodeParameter without a fallback throws an error whose message starts
// "Could not get parameter" and whose extra.parameterName names it, when the parameter is
// not in the node's parameters (n8n-core, packages/core/src/execution-engine/node-execution-context/
// utils/get-node-parameter or node-execution-context.ts `_getNodeParameter`); n8n keeps only
// the parameters shown for the node's settings (NodeHelpers.getNodeParameters in Workflow).
// Buys: "not shown" (send nothing) is told apart from every other failure (an expression that
// fails names the parameter instead of silently leaving a field out).
// When the text changes: a parameter absent from the node's parameters is still "not shown"
// (the documented INode.parameters); anything else fails the item, naming the parameter.

export const NOT_SHOWN_MESSAGE = 'Could not get parameter';

/** Whether getNodeParameter failed because the parameter is not shown (so not set) for this node. */
export function isNotShown(error: unknown, name: string, node?: INode): boolean {
	const e = error as { message?: unknown; extra?: { parameterName?: unknown } } | null;
	if (
		typeof e?.message === 'string' &&
		e.message.startsWith(NOT_SHOWN_MESSAGE) &&
		(e.extra?.parameterName ?? name) === name
	)
		return true;
	const top = name.split('.')[0];
	return node !== undefined && !Object.prototype.hasOwnProperty.call(node.parameters ?? {}, top);
}

// ── n8n-internals 5. "={{ $json.key }}" is the item's own value ─────────────────────────────────
// Relies on: n8n evaluates a parameter saved as "={{ $json.key }}" to the own value `key` of the
// item at that index of the node's input ($json is connectionInputData[itemIndex].json,
// packages/workflow/src/workflow-data-proxy.ts), unchanged when it is a text, a finite number or a
// boolean; a collection to its entries, each evaluated so; and getNodeParameter then leaves such
// values as they are for a property without extractValue or validateType that is not a resource
// locator, filter or resource mapper (_getNodeParameter with cleanupParameterData, extractValue and
// validateValueAgainstSchema, packages/core/src/execution-engine/node-execution-context/).
// Whatever engine evaluates expressions (N8N_EXPRESSION_ENGINE: legacy, vm, quickjs in 2.41;
// legacy, vm in 1.123): pinned in n8n-core under legacy (jest cannot start the others), and in a
// real n8n under each (test/helpers/expression-shortcut.ts).
// Buys: n8n 2.x evaluates every expression in an isolate and looks the property up twice among
// the node's properties on every read (docs/performance.md, "Expressions", has the costs).
// When it does not hold: only these shapes are read so, and only after n8n itself has read the
// parameter once in the execution (so its display conditions and type were checked by n8n); any
// other expression, a key the item does not own, a value of another kind (null, an object, a list)
// is read through getNodeParameter, for that item. Keys n8n's expression sandbox refuses
// ("Cannot access … due to security concerns": n8n-workflow isSafeObjectProperty, where this n8n
// has it, and every name of Object, Object.prototype, Function.prototype and Reflect, and any key
// starting "__") always go through n8n, which refuses them.

const JSON_KEY = /^=\{\{\s*\$json\.([A-Za-z_$][\w$]*)\s*\}\}$/;

type Plain = string | number | boolean;
const isPlain = (v: unknown): v is Plain =>
	typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** Data keys every function object also has: n8n reads them from an item like any key (pinned by the property of 5). */
const DATA_NAMES: ReadonlySet<string> = new Set(['name', 'length']);

/** Names n8n's expression sandbox refuses besides those of Object, Object.prototype, Function.prototype and Reflect. */
const SANDBOX_NAMES =
	'prototype caller callee arguments mainModule binding dlopen execve loadEnvFile getBuiltinModule prepareStackTrace';

const BUILT_IN_NAMES: ReadonlySet<string> = new Set(
	[
		...SANDBOX_NAMES.split(' '),
		...[Object, Object.prototype, Function.prototype, Reflect].flatMap((o) =>
			Object.getOwnPropertyNames(o),
		),
	].filter((n) => !DATA_NAMES.has(n)),
);

/** Whether n8n's expression sandbox lets an expression read this key (checked with n8n's own test where this n8n has it). */
function safeKey(key: string): boolean {
	const n8nSays = (workflow as { isSafeObjectProperty?: (k: string) => boolean })
		.isSafeObjectProperty;
	return (
		!key.startsWith('__') &&
		!BUILT_IN_NAMES.has(key) &&
		(typeof n8nSays !== 'function' || n8nSays(key))
	);
}

/** The item's own value that a saved "={{ $json.key }}" gives; undefined when n8n must evaluate it. */
function jsonKeyValue(saved: string, json: IDataObject | undefined): Plain | undefined {
	const key = JSON_KEY.exec(saved)?.[1];
	if (
		key === undefined ||
		!json ||
		!safeKey(key) ||
		!Object.prototype.hasOwnProperty.call(json, key)
	)
		return undefined;
	const value = json[key];
	return isPlain(value) ? value : undefined;
}

/** Whether a saved value may be read without n8n: "={{ $json.key }}", or a collection of such and of fixed texts, numbers and booleans. */
export function readableWithoutN8n(saved: unknown): boolean {
	if (typeof saved === 'string') return JSON_KEY.test(saved);
	if (saved === null || typeof saved !== 'object' || Array.isArray(saved) || '__rl' in saved)
		return false;
	return Object.values(saved).every((v) =>
		typeof v === 'string' ? !v.startsWith(EXPRESSION_MARK) || JSON_KEY.test(v) : isPlain(v),
	);
}

/** One item's value of a saved value that is `readableWithoutN8n` (a new object for a collection); undefined when n8n must read it for this item. */
export function readWithoutN8n(
	saved: unknown,
	json: IDataObject | undefined,
): { value: unknown } | undefined {
	if (typeof saved === 'string') {
		const value = jsonKeyValue(saved, json);
		return value === undefined ? undefined : { value };
	}
	const out: IDataObject = {};
	for (const [key, entry] of Object.entries(saved as IDataObject)) {
		if (typeof entry !== 'string' || !entry.startsWith(EXPRESSION_MARK)) {
			out[key] = entry;
			continue;
		}
		const value = jsonKeyValue(entry, json);
		if (value === undefined) return undefined;
		out[key] = value;
	}
	return { value: out };
}
