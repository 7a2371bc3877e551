/**
 * Reading a node parameter for an item. A parameter not shown for the node's current
 * settings (displayOptions) has no value: that, and only that, means "absent" (how n8n
 * says so: `isNotShown` in ../n8n-internals). Any other error — an
 * expression that fails, a value n8n cannot validate — fails the item and names the
 * parameter, instead of silently sending the request without it.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isNotShown, readableWithoutN8n, readWithoutN8n, sameForEveryItem } from '../n8n-internals';
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

/** A node-level setting read from the first item (such as Request Options). */
export function readSetting(
	fn: IExecuteFunctions,
	name: string,
	fallback: IDataObject,
): IDataObject {
	return (readParameter<IDataObject>(fn, name, 0, fallback) ?? fallback) as IDataObject;
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
