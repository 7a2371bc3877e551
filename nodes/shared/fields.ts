/**
 * Field builders shared by the nodes: ids (typed or picked), JSON input, dates,
 * and the checks that run before any request is sent.
 */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Field, OpContext, Send } from './engine/model';
import {
	type CalendarDate,
	DATE_FORMS,
	DATE_TIME_FORMS,
	echo,
	readDate,
	readDateTime,
} from './readers';

/** Text of a parameter that may be a number, a text or a resource locator object (`{ __rl, mode, value }`). */
export function plainValue(value: unknown): string {
	if (value !== null && typeof value === 'object' && 'value' in (value as IDataObject))
		return String((value as IDataObject).value ?? '').trim();
	if (value === undefined || value === null) return '';
	return String(value).trim();
}

/**
 * A text with its percent-encodings undone, as often as a server or proxy on the way might undo
 * them (each layer one more time), until it no longer changes or is not valid encoding. Each
 * round that changes it makes it shorter, so this ends, however many layers an attacker stacks.
 */
export function fullyDecoded(text: string): string {
	let out = text;
	for (;;) {
		let next: string;
		try {
			next = decodeURIComponent(out);
		} catch {
			return out;
		}
		if (next === out) return out;
		out = next;
	}
}

/**
 * An ID as one segment of a request path, encoded. "." and ".." (which URL parsers resolve,
 * climbing to another endpoint), their percent-encodings ("%2e%2e", "%252e", which a server
 * or proxy may decode into dots) and empty or blank IDs are refused before any request,
 * naming the field.
 */
export function pathSegment(value: unknown, label: string, ctx: Pick<OpContext, 'fail'>): string {
	const text = String(value ?? '');
	if (!text.trim() || /^\.{1,2}$/.test(fullyDecoded(text.trim()).trim())) {
		throw ctx.fail(
			`The ${label} "${text.slice(0, 40)}" is not an ID`,
			`Give the ID of the record in "${label}": "." and ".." and blank values would point at another endpoint, so nothing was sent.`,
		);
	}
	return encodeURIComponent(text);
}

/** A positive integer id from a number, a numeric string or a resource locator value. */
export function toIntegerId(value: unknown, label: string, ctx: OpContext): number {
	const text = plainValue(value);
	if (!/^\d+$/.test(text) || Number(text) <= 0) {
		throw ctx.fail(
			`${label} must be a whole number, got ${echo(text, 40)}`,
			`Pick the record from the list, or type its numeric ID (for example 1024).`,
		);
	}
	return Number(text);
}

/** A list of integer ids from a comma-separated text, an array or a number. */
export function toIntegerIds(value: unknown, label: string, ctx: OpContext): number[] {
	const parts = Array.isArray(value) ? value.map(plainValue) : plainValue(value).split(/[\s,]+/);
	const ids = parts.map((p) => String(p).trim()).filter((p) => p !== '');
	if (ids.length === 0)
		throw ctx.fail(`${label} is empty`, 'Give at least one ID, separated by commas.');
	return ids.map((p) => toIntegerId(p, label, ctx));
}

/** A string id (people, payroll, tables) from a resource locator or a typed value. */
export function toStringId(value: unknown, label: string, ctx: OpContext): string {
	const id = String(value ?? '').trim();
	if (!id) throw ctx.fail(`${label} is empty`, 'Pick it from the list, or give its ID.');
	return id;
}

export function toStringIds(value: unknown, label: string, ctx: OpContext): string[] {
	const parts = Array.isArray(value) ? value.map(plainValue) : plainValue(value).split(/[\s,]+/);
	const ids = parts.map((p) => String(p).trim()).filter((p) => p !== '');
	if (ids.length === 0)
		throw ctx.fail(`${label} is empty`, 'Give at least one ID, separated by commas.');
	return ids;
}

/** JSON typed in a field: an object or array, or an error that names the field and the item. */
export function parseJson(value: unknown, label: string, ctx: OpContext): unknown {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'object') return value;
	try {
		return JSON.parse(String(value)) as unknown;
	} catch (e) {
		throw ctx.fail(
			`${label} is not valid JSON`,
			`${(e as Error).message}. Write JSON such as {"key": "value"}, or use an expression that returns an object.`,
		);
	}
}

/** JSON text as its value; text that is not JSON, and anything else, as it came (for answers that embed JSON as text). */
export function jsonOrText(value: unknown): unknown {
	if (typeof value !== 'string' || value === '') return value;
	try {
		return JSON.parse(value) as unknown;
	} catch {
		return value;
	}
}

/**
 * A date-time as UTC ISO 8601, read strictly (readers.ts): ISO text (without a zone: in
 * `timeZone`, by default the workflow's, as n8n's date picker writes it), a Date or a Luxon
 * DateTime. Anything else (an impossible date, free text, a number) fails naming the field.
 */
export function toUtcIso(
	value: unknown,
	label: string,
	ctx: Pick<OpContext, 'fail' | 'fn'>,
	timeZone = ctx.fn.getTimezone(),
): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const read = readDateTime(value, timeZone);
	if ('problem' in read)
		throw ctx.fail(
			`${label} is not a date: ${echo(value)} (${read.problem})`,
			`Write it as ${DATE_TIME_FORMS}.`,
		);
	return new Date(read.ok).toISOString();
}

/** A calendar date, read strictly (readers.ts): ISO text, MM/DD/YYYY where `mdy`, a Date or DateTime (its date in the workflow's zone). */
export function toCalendarDate(
	value: unknown,
	label: string,
	ctx: Pick<OpContext, 'fail' | 'fn'>,
	mdy = false,
): CalendarDate | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const read = readDate(value, ctx.fn.getTimezone(), mdy);
	if ('problem' in read)
		throw ctx.fail(
			`${label} is not a date: ${echo(value)} (${read.problem})`,
			`Write it as ${DATE_FORMS}${mdy ? ', or as MM/DD/YYYY' : ''}.`,
		);
	return read.ok;
}

/** A resource locator: "From List" (searchable) first, then "By ID". */
export function locator(options: {
	name: string;
	displayName: string;
	description?: string;
	search: string;
	placeholder?: string;
	numeric?: boolean;
	required?: boolean;
}): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: options.required ?? true,
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${options.displayName.replace(/ ID$/, '').toLowerCase()}...`,
				typeOptions: {
					searchListMethod: options.search,
					searchable: true,
					searchFilterRequired: false,
				},
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder:
					options.placeholder ?? (options.numeric === false ? 'e.g. 65f1c0ffee' : 'e.g. 1024'),
				validation:
					options.numeric === false
						? []
						: [
								{
									type: 'regex',
									properties: { regex: '^\\s*\\d+\\s*$', errorMessage: 'An ID is a whole number' },
								},
							],
			},
		],
	};
}

/** A field (locator, dropdown or number) that becomes an integer path parameter; `label` names it in errors. */
export function idPath(property: INodeProperties, label: string, key = 'id'): Field {
	return { property, send: { in: 'path', key, map: (v, ctx) => toIntegerId(v, label, ctx) } };
}

export function field(property: INodeProperties, send?: Send): Field {
	return { property, send };
}

/** A body field sent under `key` (defaults to the property name). */
export function bodyField(property: INodeProperties, key?: string, map?: Send['map']): Field {
	return { property, send: { in: 'body', key, map } };
}

export function queryField(property: INodeProperties, key?: string, map?: Send['map']): Field {
	return { property, send: { in: 'query', key, map } };
}

export function collection(
	property: Omit<INodeProperties, 'options' | 'type'> & { type?: 'collection' },
	children: Field[],
): Field {
	return {
		property: { ...property, type: 'collection', options: [] } as INodeProperties,
		children,
	};
}

/** A collection whose fields are listed in alphabetical order, as n8n's guidelines ask. */
export const sortedCollection = (
	property: Parameters<typeof collection>[0],
	children: Field[],
): Field =>
	collection(
		property,
		[...children].sort((a, b) => a.property.displayName.localeCompare(b.property.displayName)),
	);

/** An update with nothing to change is refused before sending. */
export function requireSomeFields(
	body: IDataObject,
	ctx: OpContext,
	where = 'Update Fields',
): void {
	if (Object.keys(body).length === 0)
		throw ctx.fail('Nothing to update', `Add at least one field under "${where}".`);
}

/** The numeric id at the end of a request path (after the path was filled in). */
export const idFromPath = (path: string) => Number(path.split('/').pop());

export const options = (values: Array<[string, string | number]>): INodePropertyOptions[] =>
	values.map(([name, value]) => ({ name, value }));

/** The object under `key` in a record the platform sent, when it holds one (not null, a list or a text). */
export function objectAt(record: IDataObject, key: string): IDataObject | undefined {
	const value = record[key];
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

/** Drops keys whose values are undefined, null or '' (for simplified outputs). */
export function compact(o: IDataObject): IDataObject {
	return Object.fromEntries(
		Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== ''),
	);
}

/** A "Custom Fields" list: a fixed collection of "Field" entries with these values each. */
export function customFieldsProperty(values: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Custom Fields',
		name: 'customFields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Custom Field',
		default: {},
		options: [{ displayName: 'Field', name: 'field', values }],
	};
}

/**
 * Custom fields (CustomField: code, label, module, shortName, value) as a fixed
 * collection, sent as the list `custom_field`. Each entry needs a code or a short name.
 */
export function customFieldsField(module: 'contact' | 'deal'): Field {
	return {
		property: customFieldsProperty([
			{
				displayName: 'Code',
				name: 'code',
				type: 'string',
				default: '',
				description: 'System code of the custom field',
			},
			{
				displayName: 'Label',
				name: 'label',
				type: 'string',
				default: '',
				description: 'Display name of the custom field',
			},
			{
				displayName: 'Short Name',
				name: 'shortName',
				type: 'string',
				default: '',
				description: `Key of the field in the ${module}’s c_field map`,
			},
			{ displayName: 'Value', name: 'value', type: 'string', default: '' },
		]),
		send: {
			in: 'body',
			key: 'custom_field',
			map: (v, ctx) => {
				const list = ((v as IDataObject | undefined)?.field as IDataObject[] | undefined) ?? [];
				if (!list.length) return undefined;
				return list.map((f, i) => {
					const key = String(f.shortName || f.code || '').trim();
					if (!key)
						throw ctx.fail(
							`Custom Fields: field ${i + 1} has neither a code nor a short name`,
							'Give each custom field its code or short name.',
						);
					return {
						code: String(f.code || key),
						label: String(f.label || key),
						module,
						shortName: String(f.shortName || f.code),
						value: String(f.value ?? ''),
					};
				});
			},
		},
	};
}
