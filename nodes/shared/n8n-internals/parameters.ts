/**
 * Shortcuts 1, 2 and 5 of n8n-internals (index.ts): how n8n saves and reads a node's
 * parameters.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import * as workflow from 'n8n-workflow';

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
// real n8n under each (test/e2e/expression-shortcut.ts).
// Buys: n8n 2.x evaluates every expression in an isolate and looks the property up twice among
// the node's properties on every read (docs/performance.md, "Expressions", has the costs).
// When it does not hold: only these shapes are read so, and only after n8n itself has read the
// parameter once in the execution (so its display conditions and type were checked by n8n); any
// other expression, a key the item does not own, a value of another kind (null, an object, a list)
// is read through getNodeParameter, for that item. Keys n8n's expression sandbox refuses
// ("Cannot access … due to security concerns": n8n-workflow isSafeObjectProperty, where this n8n
// has it, and every name of Object, Object.prototype, Function.prototype and Reflect, and any key
// starting "__") always go through n8n, which refuses them as before.

const JSON_KEY = /^=\{\{\s*\$json\.([A-Za-z_$][\w$]*)\s*\}\}$/;

type Plain = string | number | boolean;
const isPlain = (v: unknown): v is Plain =>
	typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** Data keys every function object also has: n8n reads them from an item like any key (pinned by the property of 5). */
const DATA_NAMES: ReadonlySet<string> = new Set(['name', 'length']);

const BUILT_IN_NAMES: ReadonlySet<string> = new Set(
	[
		'prototype',
		'caller',
		'callee',
		'arguments',
		'mainModule',
		'binding',
		'dlopen',
		'execve',
		'loadEnvFile',
		'getBuiltinModule',
		'prepareStackTrace',
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
