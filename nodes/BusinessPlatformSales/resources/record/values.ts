/** Record: reading values users give for cells and conditions (lists, dates, booleans, select options). */

import type { OpContext } from '../../../shared/engine/model';
import { echo, readDateTime, type Read } from '../../../shared/text-readers';
import { type ColumnOption, type TableColumn } from '../../common/tables';

export const isBlank = (v: unknown) =>
	v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** A value as an error shows it: cut at 80 characters, so a huge value cannot flood the message. */
export const shown = (v: unknown) => echo(v);

/** A column's options that have a name (an answer not of the contract's shape gives fewer, or none). */
const optionsOf = (col: TableColumn): ColumnOption[] =>
	Array.isArray(col.options)
		? col.options.filter(
				(o: unknown) =>
					o !== null && typeof o === 'object' && typeof (o as ColumnOption).name === 'string',
			)
		: [];

export function findOption(col: TableColumn, v: unknown): ColumnOption | undefined {
	const opts = optionsOf(col);
	if (typeof v === 'number') return opts.find((o) => o.id === v);
	const s = String(v ?? '').trim();
	return (
		opts.find((o) => o.name === s) ??
		opts.find((o) => o.name.toLowerCase() === s.toLowerCase()) ??
		(/^\d+$/.test(s) ? opts.find((o) => o.id === Number(s)) : undefined)
	);
}

export const optionNames = (col: TableColumn) =>
	optionsOf(col)
		.map((o) => o.name)
		.join(', ') || 'none';

/** A list from an array, or from comma-separated text (unless the whole text is one value). */
export function listOf(
	value: unknown,
	isOneValue: (s: string) => boolean = () => false,
): unknown[] {
	if (Array.isArray(value)) return value.filter((v) => !isBlank(v));
	if (typeof value === 'string') {
		if (isOneValue(value)) return [value];
		return value
			.split(',')
			.map((s) => s.trim())
			.filter((s) => s !== '');
	}
	return [value];
}

/**
 * A date cell or condition value as UTC ISO (shared/text-readers.ts, strictly: ISO text, read in the
 * workflow's time zone when it has none, a Date or a DateTime), or what is wrong with it.
 */
export function dateValue(value: unknown, ctx: OpContext): Read<string> {
	const read = readDateTime(value, ctx.fn.getTimezone());
	return 'ok' in read ? { ok: new Date(read.ok).toISOString() } : read;
}

/** A Date or a Luxon DateTime (what expressions give), as UTC ISO; undefined for anything else. */
export function instantIso(value: unknown): string | undefined {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
	const read = readDateTime(value, 'UTC');
	return 'ok' in read ? new Date(read.ok).toISOString() : undefined;
}

export function toBoolean(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	const s = String(value ?? '')
		.trim()
		.toLowerCase();
	if (['true', 'yes', '1'].includes(s)) return true;
	if (['false', 'no', '0'].includes(s)) return false;
	return undefined;
}
