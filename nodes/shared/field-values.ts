/**
 * A field's value, read for its request: IDs (typed, listed or picked), JSON typed in a field,
 * dates; and small helpers on answers. Each reader gives the value exactly as meant or throws the
 * item's error naming the field (through the item's `fail`); the strict reading of text a date or
 * JSON is written in is text-readers.ts's, which names no field. Nothing is sent from here.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	type CalendarDate,
	DATE_FORMS,
	DATE_TIME_FORMS,
	echo,
	readDate,
	readDateTime,
} from './text-readers';
import { fullyDecoded } from './transport';

/** What a reader needs of an item's context: an error that names the item. */
export interface Failing {
	fail: (message: string, description?: string) => Error;
}

/** What a date reader needs besides: the workflow's time zone. */
export interface Dated extends Failing {
	fn: { getTimezone: () => string };
}

/** Text of a parameter that may be a number, a text or a resource locator object (`{ __rl, mode, value }`). */
export function plainValue(value: unknown): string {
	if (value !== null && typeof value === 'object' && 'value' in (value as IDataObject))
		return String((value as IDataObject).value ?? '').trim();
	if (value === undefined || value === null) return '';
	return String(value).trim();
}

/**
 * An ID as one segment of a request path, encoded. "." and ".." (which URL parsers resolve,
 * climbing to another endpoint), their percent-encodings ("%2e%2e", "%252e", which a server
 * or proxy may decode into dots) and empty or blank IDs are refused before any request,
 * naming the field.
 */
export function pathSegment(value: unknown, label: string, ctx: Failing): string {
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
export function toIntegerId(value: unknown, label: string, ctx: Failing): number {
	const text = plainValue(value);
	if (!/^\d+$/.test(text) || Number(text) <= 0) {
		throw ctx.fail(
			`${label} must be a whole number, got ${echo(text, 40)}`,
			`Pick the record from the list, or type its numeric ID (for example 1024).`,
		);
	}
	// Past 2^53 a number is not the ID written: it would be sent rounded.
	if (!Number.isSafeInteger(Number(text)))
		throw ctx.fail(
			`${label} ${echo(text, 40)} is too large to send exactly`,
			'IDs above 9007199254740991 cannot be sent as numbers: check the ID, or pick the record from the list.',
		);
	return Number(text);
}

/** A list of integer ids from a comma-separated text, an array or a number. */
export function toIntegerIds(value: unknown, label: string, ctx: Failing): number[] {
	const parts = Array.isArray(value) ? value.map(plainValue) : plainValue(value).split(/[\s,]+/);
	const ids = parts.map((p) => String(p).trim()).filter((p) => p !== '');
	if (ids.length === 0)
		throw ctx.fail(`${label} is empty`, 'Give at least one ID, separated by commas.');
	return ids.map((p) => toIntegerId(p, label, ctx));
}

/** A string id (people, payroll, tables) from a resource locator or a typed value. */
export function toStringId(value: unknown, label: string, ctx: Failing): string {
	const id = String(value ?? '').trim();
	if (!id) throw ctx.fail(`${label} is empty`, 'Pick it from the list, or give its ID.');
	return id;
}

export function toStringIds(value: unknown, label: string, ctx: Failing): string[] {
	const parts = Array.isArray(value) ? value.map(plainValue) : plainValue(value).split(/[\s,]+/);
	const ids = parts.map((p) => String(p).trim()).filter((p) => p !== '');
	if (ids.length === 0)
		throw ctx.fail(`${label} is empty`, 'Give at least one ID, separated by commas.');
	return ids;
}

/** JSON typed in a field: an object or array, or an error that names the field and the item. */
export function parseJson(value: unknown, label: string, ctx: Failing): unknown {
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
 * A date-time as UTC ISO 8601, read strictly (text-readers.ts): ISO text (without a zone: in
 * `timeZone`, by default the workflow's, as n8n's date picker writes it), a Date or a Luxon
 * DateTime. Anything else (an impossible date, free text, a number) fails naming the field.
 */
export function toUtcIso(
	value: unknown,
	label: string,
	ctx: Dated,
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

/** A calendar date, read strictly (text-readers.ts): ISO text, MM/DD/YYYY where `mdy`, a Date or DateTime (its date in the workflow's zone). */
export function toCalendarDate(
	value: unknown,
	label: string,
	ctx: Dated,
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

/** The numeric id at the end of a request path (after the path was filled in). */
export const idFromPath = (path: string) => Number(path.split('/').pop());

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

/**
 * Alphabetical order of two labels: letters without case first, then lowercase before
 * uppercase. For letters, digits and spaces it is the order `localeCompare` gives (a property
 * test holds it), without starting ICU's collator while the package loads: its first use is a
 * visible part of the package's load (measured in docs/performance.md, package-load).
 */
export function compareLabels(a: string, b: string): number {
	const x = a.toLowerCase();
	const y = b.toLowerCase();
	if (x !== y) return x < y ? -1 : 1;
	return a < b ? 1 : a > b ? -1 : 0;
}
