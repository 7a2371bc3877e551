/**
 * Validation of record cells against the table's columns. Integer ids may also
 * come as numeric strings (form inputs); they are stored as numbers. Dates are
 * normalised with toISOString on write.
 */
import { badRequest, type FieldError } from '../../http';
import type { Tenant } from '../../state';
import { columnMap, isEmpty, type Column, type Table } from './model';

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);
/** Integer ids may also come as numeric strings (form inputs); they are stored as numbers. */
const toIntId = (v: unknown): number | undefined =>
	isInt(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined;

/**
 * Checks the `cells` of a RecordRequest against the table's columns and returns
 * them normalised. Every problem becomes one field error named `cells.<colId>`.
 */
export function cleanCells(
	tenant: Tenant,
	table: Table,
	raw: Record<string, unknown>,
	creating: boolean,
): Record<string, unknown> {
	const cols = columnMap(table);
	const errors: FieldError[] = [];
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(raw)) {
		const col = cols.get(key);
		const field = `cells.${key}`;
		if (!col) {
			errors.push({ field, error: 'unknown column' });
			continue;
		}
		if (!col.editable) {
			errors.push({ field, error: 'is not editable' });
			continue;
		}
		if (value === null || value === undefined) {
			if (col.required) errors.push({ field, error: 'is required' });
			else out[key] = null;
			continue;
		}
		const problem = cleanCell(tenant, col, value, out);
		if (problem) errors.push({ field, error: problem });
	}
	// Required columns: must be set on create, and may not be emptied by an update.
	for (const col of table.columnsMetaData) {
		if (!col.required || errors.some((e) => e.field === `cells.${col.id}`)) continue;
		if (col.id in out ? isEmpty(out[col.id]) : creating)
			errors.push({ field: `cells.${col.id}`, error: 'is required' });
	}
	if (errors.length)
		throw badRequest(
			`Validation failed: ${errors.map((e) => `${e.field} ${e.error}`).join('; ')}`,
			errors,
		);
	return out;
}

/** Stores the normalised value in `out[col.id]` or returns the problem. */
function cleanCell(
	tenant: Tenant,
	col: Column,
	value: unknown,
	out: Record<string, unknown>,
): string | undefined {
	switch (col.type) {
		case 'text':
		case 'string':
		case 'email':
		case 'phone':
			if (typeof value !== 'string') return 'must be a string';
			out[col.id] = value;
			return undefined;
		case 'number':
			if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
			out[col.id] = value;
			return undefined;
		case 'boolean':
			if (typeof value !== 'boolean') return 'must be a boolean';
			out[col.id] = value;
			return undefined;
		case 'date': {
			if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
				return 'must be an ISO date-time string';
			out[col.id] = new Date(value).toISOString();
			return undefined;
		}
		case 'json':
			out[col.id] = value;
			return undefined;
		case 'json_array':
			if (!Array.isArray(value)) return 'must be an array';
			out[col.id] = value;
			return undefined;
		case 'select':
		case 'multi-select': {
			const ids = asList(value).map(toIntId);
			if (ids.some((id) => id === undefined)) return 'must be an array of option ids (integers)';
			const known = new Set((col.options ?? []).map((o) => o.id));
			const unknown = ids.filter((id) => !known.has(id!));
			if (unknown.length) return `unknown option id ${unknown.join(', ')}`;
			if (col.type === 'select' && ids.length > 1) return 'accepts at most one option id';
			out[col.id] = [...new Set(ids as number[])];
			return undefined;
		}
		case 'user': {
			const ids = asList(value).map(toIntId);
			if (ids.some((id) => id === undefined)) return 'must be an array of user ids (integers)';
			const unknown = ids.filter((id) => !tenant.crmUsers.some((u) => u.id === id));
			if (unknown.length) return `unknown user id ${unknown.join(', ')}`;
			out[col.id] = [...new Set(ids as number[])];
			return undefined;
		}
		case 'ref': {
			const ids = asList(value);
			if (!ids.every((id) => typeof id === 'string' && id !== ''))
				return 'must be an array of record ids (strings)';
			const target = col.refTable ? tenant.records.get(col.refTable._id) : undefined;
			const unknown = (ids as string[]).filter((id) => !target?.has(id));
			if (unknown.length)
				return `unknown ${col.refTable?.objectType ?? ''} record id ${unknown.join(', ')}`;
			out[col.id] = [...new Set(ids as string[])];
			return undefined;
		}
	}
}
