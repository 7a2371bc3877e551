/**
 * The FilterConditions of paged-record, compiled to predicates on records.
 * Besides column ids, conditions (and sortCol) may name createdAt and updatedAt
 * (dates) and _id (text). The negative operators (neq, nemp, nin, nc) are the
 * exact complements of eq, emp, in, c, so they also match empty cells.
 */
import { badRequest, type ApiError } from '../../http';
import type { Tenant } from '../../state';
import {
	ARRAY_TYPES,
	isEmpty,
	PSEUDO_COLUMNS,
	TEXT_TYPES,
	type Column,
	type Table,
	type TableRecord,
} from './model';

export const FILTER_OPERATORS = [
	'eq',
	'neq',
	'emp',
	'nemp',
	'lt',
	'lte',
	'gt',
	'gte',
	'in',
	'nin',
	'sw',
	'ew',
	'c',
	'nc',
] as const;
type Operator = (typeof FILTER_OPERATORS)[number];
export type Predicate = (r: TableRecord) => boolean;
type Kind = 'text' | 'number' | 'date' | 'boolean' | 'json' | 'array';

export interface Accessor {
	kind: Kind;
	get: (r: TableRecord) => unknown;
	col?: Column;
}

export function accessor(table: Table, colId: string): Accessor | undefined {
	const pseudo = PSEUDO_COLUMNS[colId];
	if (pseudo) return { kind: pseudo, get: (r) => r[colId] };
	const col = table.columnsMetaData.find((c) => c.id === colId);
	if (!col) return undefined;
	const kind: Kind = TEXT_TYPES.has(col.type)
		? 'text'
		: ARRAY_TYPES.has(col.type)
			? 'array'
			: col.type === 'number' || col.type === 'date' || col.type === 'boolean'
				? col.type
				: 'json';
	return { kind, get: (r) => r.cells[colId], col };
}

export const lower = (v: unknown) =>
	(v === undefined || v === null
		? ''
		: typeof v === 'string'
			? v
			: JSON.stringify(v)
	).toLowerCase();
export const timestamp = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : NaN);

/** Text labels of an array cell's elements, for sw/ew/c: option names, user names and emails, record ids. */
export function labelsOf(tenant: Tenant, col: Column | undefined): (id: unknown) => string[] {
	if (col?.type === 'select' || col?.type === 'multi-select') {
		const names = new Map((col.options ?? []).map((o) => [o.id, o.name.toLowerCase()]));
		return (id) => [names.get(id as number) ?? String(id)];
	}
	if (col?.type === 'user') {
		const users = new Map(
			tenant.crmUsers.map((u) => [
				u.id,
				[`${u.first_name} ${u.last_name}`.toLowerCase(), u.email.toLowerCase()],
			]),
		);
		return (id) => users.get(id as number) ?? [String(id)];
	}
	return (id) => [String(id).toLowerCase()];
}

/** The cell element an array-column condition value names: an option id or name, a user id, a record id. */
function resolveElement(col: Column | undefined, value: string): number | string | undefined {
	const v = value.trim();
	if (col?.type === 'select' || col?.type === 'multi-select') {
		if (/^\d+$/.test(v)) return Number(v);
		return (col.options ?? []).find((o) => o.name.toLowerCase() === v.toLowerCase())?.id;
	}
	if (col?.type === 'user') return /^\d+$/.test(v) ? Number(v) : undefined;
	return v;
}

function textOp(op: Operator, cell: string, v: string): boolean {
	switch (op) {
		case 'eq':
			return cell === v;
		case 'lt':
			return cell !== '' && cell < v;
		case 'lte':
			return cell !== '' && cell <= v;
		case 'gt':
			return cell !== '' && cell > v;
		case 'gte':
			return cell !== '' && cell >= v;
		case 'sw':
			return cell.startsWith(v);
		case 'ew':
			return cell.endsWith(v);
		default:
			return cell.includes(v);
	}
}

function numOp(op: Operator, cell: number, v: number): boolean {
	switch (op) {
		case 'eq':
			return cell === v;
		case 'lt':
			return cell < v;
		case 'lte':
			return cell <= v;
		case 'gt':
			return cell > v;
		default:
			return cell >= v;
	}
}

/** A condition's positive operator (neq → eq, nin → in, nc → c), its value, and the 400 for a value the column cannot compare with. */
interface Operand {
	acc: Accessor;
	positive: Operator;
	value: string;
	/** The value as a comma-separated list (for in). */
	list: string[];
	bad: (what: string) => ApiError;
}

const isOrdering = (op: Operator) => op === 'lt' || op === 'lte' || op === 'gt' || op === 'gte';

/** Compiles one FilterCondition; throws 400 for an unknown column, operator or a value the column cannot compare with. */
export function compileCondition(
	tenant: Tenant,
	table: Table,
	cond: Record<string, unknown>,
	i: number,
): Predicate {
	const colId = cond.colId as string;
	const op = cond.opr as Operator;
	const acc = accessor(table, colId);
	if (!acc)
		throw badRequest(`Unknown column ${colId} in table ${table._id}`, [
			{ field: `conditions[${i}].colId`, error: `unknown column ${colId}` },
		]);
	if (!(FILTER_OPERATORS as readonly string[]).includes(op)) {
		throw badRequest(`Unknown filter operator ${String(op)}`, [
			{ field: `conditions[${i}].opr`, error: `must be one of ${FILTER_OPERATORS.join(', ')}` },
		]);
	}
	if (op === 'emp') return (r) => isEmpty(acc.get(r));
	if (op === 'nemp') return (r) => !isEmpty(acc.get(r));
	if (typeof cond.value !== 'string')
		throw badRequest(`conditions[${i}].value is required`, [
			{ field: `conditions[${i}].value`, error: 'is required (a string)' },
		]);
	const value = cond.value;
	const bad = (what: string) =>
		badRequest(`conditions[${i}].value must be ${what}`, [
			{ field: `conditions[${i}].value`, error: `must be ${what}` },
		]);
	const positive: Operator = op === 'neq' ? 'eq' : op === 'nin' ? 'in' : op === 'nc' ? 'c' : op;
	const list = value
		.split(',')
		.map((v) => v.trim())
		.filter((v) => v !== '');
	const operand: Operand = { acc, positive, value, list, bad };
	const pred =
		acc.kind === 'number' || acc.kind === 'date' || acc.kind === 'boolean'
			? scalarPredicate(operand)
			: acc.kind === 'array'
				? arrayPredicate(tenant, operand)
				: textPredicate(operand);
	return positive !== op ? (r) => !pred(r) : pred;
}

/** number, date and boolean columns: compared as numbers (eq, in, ordering) or as their stored text (sw, ew, c). */
function scalarPredicate({ acc, positive, value, list, bad }: Operand): Predicate {
	const parse = (v: string): number =>
		acc.kind === 'number'
			? v.trim() === ''
				? NaN
				: Number(v)
			: acc.kind === 'date'
				? Date.parse(v)
				: v.trim().toLowerCase() === 'true'
					? 1
					: v.trim().toLowerCase() === 'false'
						? 0
						: NaN;
	const cellNum = (r: TableRecord): number | undefined => {
		const c = acc.get(r);
		if (acc.kind === 'number') return typeof c === 'number' ? c : undefined;
		if (acc.kind === 'date') {
			const t = timestamp(c);
			return Number.isNaN(t) ? undefined : t;
		}
		return typeof c === 'boolean' ? Number(c) : undefined;
	};
	const what =
		acc.kind === 'number' ? 'a number' : acc.kind === 'date' ? 'a date' : 'true or false';
	if (positive === 'in') {
		const set = new Set(
			list.map((v) => {
				const n = parse(v);
				if (Number.isNaN(n))
					throw bad(
						`a comma-separated list of ${acc.kind === 'boolean' ? 'booleans' : `${acc.kind}s`}`,
					);
				return n;
			}),
		);
		return (r) => {
			const c = cellNum(r);
			return c !== undefined && set.has(c);
		};
	}
	if (positive === 'eq' || isOrdering(positive)) {
		const n = parse(value);
		if (Number.isNaN(n)) throw bad(what);
		return (r) => {
			const c = cellNum(r);
			return c !== undefined && numOp(positive, c, n);
		};
	}
	// sw, ew, c on the stored text (a number's digits, a date's ISO text).
	const v = value.toLowerCase();
	return (r) => {
		const c = acc.get(r);
		return c !== undefined && c !== null && textOp(positive, String(c).toLowerCase(), v);
	};
}

/** select, multi-select, user and ref columns: a record matches when one of its elements does. */
function arrayPredicate(tenant: Tenant, { acc, positive, value, list, bad }: Operand): Predicate {
	const labels = labelsOf(tenant, acc.col);
	const elems = (r: TableRecord): unknown[] => {
		const c = acc.get(r);
		return Array.isArray(c) ? c : [];
	};
	if (positive === 'eq' || positive === 'in') {
		const wanted = new Set(
			(positive === 'eq' ? [value] : list)
				.map((v) => resolveElement(acc.col, v))
				.filter((v) => v !== undefined),
		);
		return (r) => elems(r).some((e) => wanted.has(e as number | string));
	}
	if (isOrdering(positive)) {
		const numeric = acc.col?.type !== 'ref';
		const n = numeric ? Number(value) : NaN;
		if (numeric && (value.trim() === '' || Number.isNaN(n))) throw bad('an id (integer)');
		return numeric
			? (r) => elems(r).some((e) => numOp(positive, e as number, n))
			: (r) => elems(r).some((e) => textOp(positive, String(e), value));
	}
	const v = value.toLowerCase();
	return (r) => elems(r).some((e) => labels(e).some((l) => textOp(positive, l, v)));
}

/** text columns and json cells (as their JSON text), case-insensitive. */
function textPredicate({ acc, positive, value, list }: Operand): Predicate {
	if (positive === 'in') {
		const set = new Set(list.map((x) => x.toLowerCase()));
		return (r) => set.has(lower(acc.get(r)));
	}
	const v = value.toLowerCase();
	return (r) => textOp(positive, lower(acc.get(r)), v);
}
