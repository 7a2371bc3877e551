/** Record: reading values users give for cells and conditions (lists, dates, booleans, select options). */

import type { OpContext } from '../../../shared/engine/model';
import { toUtcIsoInZone } from '../../../shared/fields';
import { type ColumnOption, type TableColumn } from '../table/model';

export const isBlank = (v: unknown) =>
	v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** A value as an error shows it: cut at 80 characters, so a huge value cannot flood the message. */
export const shown = (v: unknown) => {
	const text =
		typeof v === 'string'
			? v
			: v !== null && typeof v === 'object'
				? (JSON.stringify(v) ?? String(v))
				: String(v);
	const cutText = text.length > 80 ? `${text.slice(0, 80)}…` : text;
	return typeof v === 'string' ? `"${cutText}"` : cutText;
};

export function findOption(col: TableColumn, v: unknown): ColumnOption | undefined {
	const opts = col.options ?? [];
	if (typeof v === 'number') return opts.find((o) => o.id === v);
	const s = String(v ?? '').trim();
	return (
		opts.find((o) => o.name === s) ??
		opts.find((o) => o.name.toLowerCase() === s.toLowerCase()) ??
		(/^\d+$/.test(s) ? opts.find((o) => o.id === Number(s)) : undefined)
	);
}

export const optionNames = (col: TableColumn) =>
	(col.options ?? []).map((o) => o.name).join(', ') || 'none';

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

/** An ISO timestamp from a Date, a luxon DateTime, epoch milliseconds or date text; undefined if it is none. */
export function toIso(value: unknown): string | undefined {
	let date: Date;
	if (value instanceof Date) date = value;
	else if (typeof value === 'number') date = new Date(value);
	else if (
		value !== null &&
		typeof value === 'object' &&
		typeof (value as { toISO?: unknown }).toISO === 'function'
	)
		date = new Date(String((value as { toISO: () => string }).toISO()));
	else if (typeof value === 'string' && value.trim()) date = new Date(value.trim());
	else return undefined;
	return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * A date cell or condition value as UTC ISO. Text without a zone (what n8n's date
 * picker gives) is read in the workflow's time zone, like the pack's other dates.
 */
export function dateValue(value: unknown, ctx: OpContext): string | undefined {
	if (typeof value !== 'string') return toIso(value);
	try {
		return toUtcIsoInZone(value.trim(), 'Date', ctx, ctx.fn.getTimezone());
	} catch {
		return undefined;
	}
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
