/**
 * Dynamic tables and their records — /v1/crm/core/table…
 *
 * Every tenant gets four tables (CONTACT, DEAL, STAGE, PIPELINE) in the database
 * "crm". Records are stored per table in `tenant.records` (table id → Collection).
 * Statuses as documented: create 201 RecordCUResponse, update 200 RecordCUResponse,
 * delete 200 RecordDeleteResponse, count 200, paged-record 200.
 *
 * Choices where the spec says "not shown":
 *  - Cells are keyed by column id. select and multi-select hold arrays of option
 *    ids (integers), user columns arrays of CRM user ids (integers), ref columns
 *    arrays of record ids (strings) of the referenced table, date columns ISO
 *    timestamps (normalised with toISOString on write), json any JSON value,
 *    json_array a JSON array.
 *  - PUT merges: only the cells in the body change; a cell sent as null is cleared.
 *  - `permissions.owners` is present on CONTACT and DEAL records only (the spec
 *    says it applies to contact, deal and activity tables): the ids of the "Owner"
 *    user column, or the creator when that column is empty.
 *  - With fetchAllRef / colIdsToFetchRef, ref cells keep their ids and the record
 *    gets a sibling key `refData`: { [colId]: [{ _id, cells, createdAt, updatedAt, createdBy }] }
 *    (records that no longer exist are left out).
 *  - Filters: besides column ids, conditions and sortCol may name createdAt and
 *    updatedAt (dates) and _id (text). The negative operators (neq, nemp, nin, nc)
 *    are the exact complements of eq, emp, in, c, so they also match empty cells.
 *  - The record tables are not linked to the sales resources (/v1/crm/contacts…):
 *    writes to one do not show in the other.
 */
import type { Session } from '../auth';
import { tenantOf, type Env } from '../env';
import { badRequest, json, notFound, objectBody, type Ctx, type FieldError } from '../http';
import { COMPANIES, FIRST_NAMES, LAST_NAMES, pickOne, type Module } from '../module';
import { Collection, nowIso, type Doc, type Tenant } from '../state';
import { validate, validateEach, type Schema } from '../validate';

export const OBJECT_TYPES = ['CONTACT', 'DEAL', 'STAGE', 'PIPELINE'] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];

export type ColumnType = 'text' | 'string' | 'email' | 'phone' | 'select' | 'multi-select' | 'number' | 'boolean' | 'date' | 'json' | 'json_array' | 'ref' | 'user';

export interface ColumnOption extends Doc {
	id: number;
	name: string;
	color: string;
	systemField: boolean;
}

export interface Column extends Doc {
	id: string;
	name: string;
	columnCode: string;
	type: ColumnType;
	index: number;
	options: ColumnOption[] | null;
	required: boolean;
	editable: boolean;
	hidden: boolean;
	systemField: boolean;
	uiVisible: boolean;
	width: number;
	datasource: unknown[] | null;
	allowAddOption?: boolean;
	refTable?: { _id: string; objectType: string };
}

export interface Table extends Doc {
	_id: string;
	name: string;
	objectType: ObjectType;
	databaseId: string;
	databaseName: string;
	columnsMetaData: Column[];
	createdAt: string;
	updatedAt: string;
	createdBy: number;
}

export interface TableRecord extends Doc {
	_id: string;
	cells: Record<string, unknown>;
	permissions?: { owners: number[] };
	createdAt: string;
	updatedAt: string;
	createdBy: number;
}

// ---------- table definitions ----------

interface ColumnDef {
	name: string;
	type: ColumnType;
	code?: string;
	required?: boolean;
	system?: boolean;
	hidden?: boolean;
	options?: string[];
	allowAdd?: boolean;
	ref?: ObjectType;
}

const TABLE_DEFS: Record<ObjectType, { name: string; prefix: string; columns: ColumnDef[] }> = {
	CONTACT: {
		name: 'Contacts',
		prefix: 'c',
		columns: [
			{ name: 'Name', type: 'text', code: 'NAME', required: true, system: true },
			{ name: 'Email', type: 'email', code: 'EMAIL', system: true },
			{ name: 'Phone', type: 'phone', code: 'PHONE', system: true },
			{ name: 'Type', type: 'select', code: 'TYPE', system: true, options: ['Person', 'Organization'] },
			{ name: 'Label', type: 'select', code: 'LABEL', options: ['Hot lead', 'Customer', 'Partner'], allowAdd: true },
			{ name: 'Owner', type: 'user', code: 'OWNER', system: true },
			{ name: 'Tags', type: 'multi-select', options: ['VIP', 'Newsletter', 'Trade show', 'Inbound'], allowAdd: true },
			{ name: 'Score', type: 'number' },
			{ name: 'Subscribed', type: 'boolean' },
			{ name: 'Last contacted', type: 'date' },
			{ name: 'Address', type: 'string', code: 'ADDRESS' },
			{ name: 'Extra', type: 'json', hidden: true },
		],
	},
	DEAL: {
		name: 'Deals',
		prefix: 'd',
		columns: [
			{ name: 'Name', type: 'text', code: 'NAME', required: true, system: true },
			{ name: 'Amount', type: 'number', code: 'AMOUNT', system: true },
			{ name: 'Currency', type: 'string', code: 'CURRENCY' },
			{ name: 'Status', type: 'select', code: 'STATUS', system: true, options: ['Open', 'Won', 'Lost'] },
			{ name: 'Contact', type: 'ref', code: 'CONTACT', system: true, ref: 'CONTACT' },
			{ name: 'Stage', type: 'ref', code: 'STAGE', system: true, ref: 'STAGE' },
			{ name: 'Owner', type: 'user', code: 'OWNER', system: true },
			{ name: 'Closing date', type: 'date', code: 'CLOSING_DATE' },
			{ name: 'Sources', type: 'multi-select', options: ['Web', 'Referral', 'Event', 'Cold call'], allowAdd: true },
			{ name: 'Products', type: 'json_array' },
			{ name: 'Notes', type: 'text' },
			{ name: 'Hot', type: 'boolean' },
		],
	},
	STAGE: {
		name: 'Stages',
		prefix: 's',
		columns: [
			{ name: 'Name', type: 'text', code: 'NAME', required: true, system: true },
			{ name: 'Pipeline', type: 'ref', code: 'PIPELINE', system: true, ref: 'PIPELINE' },
			{ name: 'Order', type: 'number', code: 'ORDER' },
			{ name: 'Deal probability', type: 'number', code: 'PROBABILITY' },
			{ name: 'Won/lost status', type: 'select', code: 'WON_LOST', system: true, options: ['open', 'won', 'lost'] },
			{ name: 'System generated', type: 'boolean' },
		],
	},
	PIPELINE: {
		name: 'Pipelines',
		prefix: 'p',
		columns: [
			{ name: 'Name', type: 'text', code: 'NAME', required: true, system: true },
			{ name: 'Default', type: 'boolean' },
			{ name: 'Settings', type: 'json' },
			{ name: 'Started on', type: 'date' },
		],
	},
};

const COLORS = ['#e53935', '#43a047', '#1e88e5', '#fb8c00', '#8e24aa', '#00897b'];
const TEXT_TYPES: ReadonlySet<ColumnType> = new Set(['text', 'string', 'email', 'phone']);
const ARRAY_TYPES: ReadonlySet<ColumnType> = new Set(['select', 'multi-select', 'user', 'ref']);
/** createdAt/updatedAt sort and filter as dates, _id as text. */
const PSEUDO_COLUMNS: Record<string, 'date' | 'text'> = { createdAt: 'date', updatedAt: 'date', _id: 'text' };

function buildColumns(def: { prefix: string; columns: ColumnDef[] }, tableIds: Record<ObjectType, string>): Column[] {
	return def.columns.map((c, i) => {
		const isSelect = c.type === 'select' || c.type === 'multi-select';
		const col: Column = {
			id: `${def.prefix}${Math.floor(i / 26) + 1}${String.fromCharCode(97 + (i % 26))}`,
			name: c.name,
			columnCode: c.code ?? '',
			type: c.type,
			index: i,
			options: isSelect ? (c.options ?? []).map((name, k) => ({ id: k + 1, name, color: COLORS[k % COLORS.length], systemField: Boolean(c.system) })) : null,
			required: Boolean(c.required),
			editable: true,
			hidden: Boolean(c.hidden),
			systemField: Boolean(c.system),
			uiVisible: !c.hidden,
			width: c.type === 'text' ? 240 : isSelect || c.type === 'user' || c.type === 'ref' ? 180 : 150,
			datasource: null,
		};
		if (isSelect) col.allowAddOption = Boolean(c.allowAdd);
		if (c.ref) col.refTable = { _id: tableIds[c.ref], objectType: c.ref };
		return col;
	});
}

// ---------- lookups ----------

function getTable(tenant: Tenant, id: string): Table {
	const t = tenant.tables.get(id);
	if (!t) throw notFound('Table', id);
	return t as Table;
}

function recordsOf(tenant: Tenant, table: Table): Collection<string, Doc> {
	const c = tenant.records.get(table._id);
	if (!c) throw notFound('Table', table._id);
	return c;
}

function getRecord(records: Collection<string, Doc>, id: string): TableRecord {
	const r = records.get(id);
	if (!r) throw notFound('Record', id);
	return r as TableRecord;
}

const columnMap = (table: Table) => new Map(table.columnsMetaData.map((c) => [c.id, c]));
const ownerColumn = (table: Table) => table.columnsMetaData.find((c) => c.type === 'user' && c.columnCode === 'OWNER');
const hasPermissions = (table: Table) => table.objectType === 'CONTACT' || table.objectType === 'DEAL';

function setPermissions(table: Table, rec: TableRecord): void {
	if (!hasPermissions(table)) return;
	const col = ownerColumn(table);
	const owners = col && Array.isArray(rec.cells[col.id]) ? (rec.cells[col.id] as number[]) : [];
	rec.permissions = { owners: owners.length ? [...owners] : [rec.createdBy] };
}

// ---------- cell validation ----------

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);
/** Integer ids may also come as numeric strings (form inputs); they are stored as numbers. */
const toIntId = (v: unknown): number | undefined => (isInt(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined);

/**
 * Checks the `cells` of a RecordRequest against the table's columns and returns
 * them normalised. Every problem becomes one field error named `cells.<colId>`.
 */
function cleanCells(tenant: Tenant, table: Table, raw: Record<string, unknown>, creating: boolean): Record<string, unknown> {
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
		if (col.id in out ? isEmpty(out[col.id]) : creating) errors.push({ field: `cells.${col.id}`, error: 'is required' });
	}
	if (errors.length) throw badRequest(`Validation failed: ${errors.map((e) => `${e.field} ${e.error}`).join('; ')}`, errors);
	return out;
}

/** Stores the normalised value in `out[col.id]` or returns the problem. */
function cleanCell(tenant: Tenant, col: Column, value: unknown, out: Record<string, unknown>): string | undefined {
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
			if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) return 'must be an ISO date-time string';
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
			if (!ids.every((id) => typeof id === 'string' && id !== '')) return 'must be an array of record ids (strings)';
			const target = col.refTable ? tenant.records.get(col.refTable._id) : undefined;
			const unknown = (ids as string[]).filter((id) => !target?.has(id));
			if (unknown.length) return `unknown ${col.refTable?.objectType ?? ''} record id ${unknown.join(', ')}`;
			out[col.id] = [...new Set(ids as string[])];
			return undefined;
		}
	}
}

// ---------- filtering and sorting ----------

export const FILTER_OPERATORS = ['eq', 'neq', 'emp', 'nemp', 'lt', 'lte', 'gt', 'gte', 'in', 'nin', 'sw', 'ew', 'c', 'nc'] as const;
type Operator = (typeof FILTER_OPERATORS)[number];
type Predicate = (r: TableRecord) => boolean;
type Kind = 'text' | 'number' | 'date' | 'boolean' | 'json' | 'array';

interface Accessor {
	kind: Kind;
	get: (r: TableRecord) => unknown;
	col?: Column;
}

function accessor(table: Table, colId: string): Accessor | undefined {
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

function isEmpty(v: unknown): boolean {
	if (v === undefined || v === null || v === '') return true;
	if (Array.isArray(v)) return v.length === 0;
	return typeof v === 'object' && Object.keys(v as object).length === 0;
}

const lower = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v)).toLowerCase();
const timestamp = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : NaN);

/** Text labels of an array cell's elements, for sw/ew/c: option names, user names and emails, record ids. */
function labelsOf(tenant: Tenant, col: Column | undefined): (id: unknown) => string[] {
	if (col?.type === 'select' || col?.type === 'multi-select') {
		const names = new Map((col.options ?? []).map((o) => [o.id, o.name.toLowerCase()]));
		return (id) => [names.get(id as number) ?? String(id)];
	}
	if (col?.type === 'user') {
		const users = new Map(tenant.crmUsers.map((u) => [u.id, [`${u.first_name} ${u.last_name}`.toLowerCase(), u.email.toLowerCase()]]));
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

/** Compiles one FilterCondition; throws 400 for an unknown column, operator or a value the column cannot compare with. */
function compileCondition(tenant: Tenant, table: Table, cond: Record<string, unknown>, i: number): Predicate {
	const colId = cond.colId as string;
	const op = cond.opr as Operator;
	const acc = accessor(table, colId);
	if (!acc) throw badRequest(`Unknown column ${colId} in table ${table._id}`, [{ field: `conditions[${i}].colId`, error: `unknown column ${colId}` }]);
	if (!(FILTER_OPERATORS as readonly string[]).includes(op)) {
		throw badRequest(`Unknown filter operator ${String(op)}`, [{ field: `conditions[${i}].opr`, error: `must be one of ${FILTER_OPERATORS.join(', ')}` }]);
	}
	if (op === 'emp') return (r) => isEmpty(acc.get(r));
	if (op === 'nemp') return (r) => !isEmpty(acc.get(r));
	if (typeof cond.value !== 'string') throw badRequest(`conditions[${i}].value is required`, [{ field: `conditions[${i}].value`, error: 'is required (a string)' }]);
	const value = cond.value;
	const bad = (what: string) => badRequest(`conditions[${i}].value must be ${what}`, [{ field: `conditions[${i}].value`, error: `must be ${what}` }]);
	const positive: Operator = op === 'neq' ? 'eq' : op === 'nin' ? 'in' : op === 'nc' ? 'c' : op;
	const negate = positive !== op;
	const list = value.split(',').map((v) => v.trim()).filter((v) => v !== '');
	const ordering = positive === 'lt' || positive === 'lte' || positive === 'gt' || positive === 'gte';
	let pred: Predicate;

	switch (acc.kind) {
		case 'number':
		case 'date':
		case 'boolean': {
			const parse = (v: string): number =>
				acc.kind === 'number' ? (v.trim() === '' ? NaN : Number(v)) : acc.kind === 'date' ? Date.parse(v) : v.trim().toLowerCase() === 'true' ? 1 : v.trim().toLowerCase() === 'false' ? 0 : NaN;
			const cellNum = (r: TableRecord): number | undefined => {
				const c = acc.get(r);
				if (acc.kind === 'number') return typeof c === 'number' ? c : undefined;
				if (acc.kind === 'date') {
					const t = timestamp(c);
					return Number.isNaN(t) ? undefined : t;
				}
				return typeof c === 'boolean' ? Number(c) : undefined;
			};
			const what = acc.kind === 'number' ? 'a number' : acc.kind === 'date' ? 'a date' : 'true or false';
			if (positive === 'in') {
				const set = new Set(list.map((v) => {
					const n = parse(v);
					if (Number.isNaN(n)) throw bad(`a comma-separated list of ${acc.kind === 'boolean' ? 'booleans' : `${acc.kind}s`}`);
					return n;
				}));
				pred = (r) => {
					const c = cellNum(r);
					return c !== undefined && set.has(c);
				};
			} else if (positive === 'eq' || ordering) {
				const n = parse(value);
				if (Number.isNaN(n)) throw bad(what);
				pred = (r) => {
					const c = cellNum(r);
					return c !== undefined && numOp(positive, c, n);
				};
			} else {
				// sw, ew, c on the stored text (a number's digits, a date's ISO text).
				const v = value.toLowerCase();
				pred = (r) => {
					const c = acc.get(r);
					return c !== undefined && c !== null && textOp(positive, String(c).toLowerCase(), v);
				};
			}
			break;
		}
		case 'array': {
			const labels = labelsOf(tenant, acc.col);
			const elems = (r: TableRecord): unknown[] => {
				const c = acc.get(r);
				return Array.isArray(c) ? c : [];
			};
			if (positive === 'eq' || positive === 'in') {
				const wanted = new Set((positive === 'eq' ? [value] : list).map((v) => resolveElement(acc.col, v)).filter((v) => v !== undefined));
				pred = (r) => elems(r).some((e) => wanted.has(e as number | string));
			} else if (ordering) {
				const numeric = acc.col?.type !== 'ref';
				const n = numeric ? Number(value) : NaN;
				if (numeric && (value.trim() === '' || Number.isNaN(n))) throw bad('an id (integer)');
				pred = numeric ? (r) => elems(r).some((e) => numOp(positive, e as number, n)) : (r) => elems(r).some((e) => textOp(positive, String(e), value));
			} else {
				const v = value.toLowerCase();
				pred = (r) => elems(r).some((e) => labels(e).some((l) => textOp(positive, l, v)));
			}
			break;
		}
		default: {
			const v = value.toLowerCase();
			if (positive === 'in') {
				const set = new Set(list.map((x) => x.toLowerCase()));
				pred = (r) => set.has(lower(acc.get(r)));
			} else pred = (r) => textOp(positive, lower(acc.get(r)), v);
		}
	}
	return negate ? (r) => !pred(r) : pred;
}

type SortKey = number | string | null;

function sortKeyOf(tenant: Tenant, table: Table, colId: string): (r: TableRecord) => SortKey {
	const acc = accessor(table, colId)!;
	switch (acc.kind) {
		case 'number':
			return (r) => {
				const c = acc.get(r);
				return typeof c === 'number' ? c : null;
			};
		case 'date':
			return (r) => {
				const t = timestamp(acc.get(r));
				return Number.isNaN(t) ? null : t;
			};
		case 'boolean':
			return (r) => {
				const c = acc.get(r);
				return typeof c === 'boolean' ? Number(c) : null;
			};
		case 'array': {
			const labels = labelsOf(tenant, acc.col);
			return (r) => {
				const c = acc.get(r);
				return Array.isArray(c) && c.length ? labels(c[0])[0] : null;
			};
		}
		default:
			return (r) => {
				const c = acc.get(r);
				return isEmpty(c) ? null : lower(c);
			};
	}
}

function compareKeys(a: SortKey, b: SortKey): number {
	if (a === b) return 0;
	if (a === null) return -1;
	if (b === null) return 1;
	return a < b ? -1 : 1;
}

/** Sorts by one column; empty cells come first in ascending order; ties by _id in the same direction. */
function sortRecords(tenant: Tenant, table: Table, items: TableRecord[], colId: string, dir: 1 | -1): TableRecord[] {
	const key = sortKeyOf(tenant, table, colId);
	const keyed = items.map((r) => ({ k: key(r), id: r._id, r }));
	keyed.sort((x, y) => dir * (compareKeys(x.k, y.k) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)));
	return keyed.map((x) => x.r);
}

// ---------- paged-record ----------

const CONDITION_SCHEMA: Schema = { colId: 'string', opr: 'string', value: 'string' };

function pagedRecords(env: Env, ctx: Ctx<Session>) {
	const tenant = tenantOf(env, ctx);
	const table = getTable(tenant, ctx.params.tableId);
	const records = recordsOf(tenant, table);
	const body = validate(objectBody(ctx), { logicalOperator: 'string', conditions: 'object[]' }, ['logicalOperator']);
	const logical = String(body.logicalOperator).toLowerCase();
	if (logical !== 'and' && logical !== 'or') throw badRequest('logicalOperator must be and or or', [{ field: 'logicalOperator', error: 'must be and or or' }]);
	const conditions = validateEach((body.conditions as unknown[] | null) ?? [], CONDITION_SCHEMA, 'conditions', ['colId', 'opr']);
	const preds = conditions.map((c, i) => compileCondition(tenant, table, c, i));

	const q = ctx.query;
	const search = q.str('q')?.toLowerCase();
	const pageNo = q.int('pageNo', { min: 1 }) ?? 1;
	const pageSize = Math.min(q.int('pageSize', { min: 1 }) ?? 30, env.config.maxPageSize);
	const sortCol = q.str('sortCol') ?? 'createdAt';
	if (!accessor(table, sortCol)) throw badRequest(`Unknown sort column ${sortCol}`, [{ field: 'sortCol', error: `unknown column ${sortCol}` }]);
	const sortDirRaw = q.str('sortDir') ?? '-1';
	if (sortDirRaw !== '1' && sortDirRaw !== '-1') throw badRequest('sortDir must be 1 or -1', [{ field: 'sortDir', error: 'must be 1 or -1' }]);
	const sortDir = Number(sortDirRaw) as 1 | -1;
	const fetchAllRef = q.bool('fetchAllRef') ?? false;
	const refColIds = fetchAllRef ? table.columnsMetaData.filter((c) => c.type === 'ref').map((c) => c.id) : (q.list('colIdsToFetchRef') ?? []);
	const cols = columnMap(table);
	const refCols = refColIds.map((id) => {
		const col = cols.get(id);
		if (!col || col.type !== 'ref') throw badRequest(`colIdsToFetchRef: ${id} is not a ref column`, [{ field: 'colIdsToFetchRef', error: `${id} is not a ref column of this table` }]);
		return col;
	});

	const textCols = table.columnsMetaData.filter((c) => TEXT_TYPES.has(c.type)).map((c) => c.id);
	const key = JSON.stringify([logical, conditions, search, sortCol, sortDir]);
	const all = records.query(key, (items) => {
		const recs = items as TableRecord[];
		const matched = recs.filter((r) => {
			if (search && !textCols.some((id) => typeof r.cells[id] === 'string' && (r.cells[id] as string).toLowerCase().includes(search))) return false;
			if (!preds.length) return true;
			return logical === 'and' ? preds.every((p) => p(r)) : preds.some((p) => p(r));
		});
		return sortRecords(tenant, table, matched, sortCol, sortDir);
	}) as TableRecord[];
	const page = all.slice((pageNo - 1) * pageSize, pageNo * pageSize);
	return json(200, {
		totalCount: all.length,
		sortCol,
		sortDir,
		pageNo,
		pageSize,
		data: page.map((r) => withRefs(tenant, r, refCols)),
	});
}

/** Adds `refData` with the referenced records of the given ref columns (the ids stay in the cells). */
function withRefs(tenant: Tenant, rec: TableRecord, refCols: Column[]): Doc {
	if (!refCols.length) return rec;
	const refData: Record<string, Doc[]> = {};
	for (const col of refCols) {
		const target = col.refTable ? tenant.records.get(col.refTable._id) : undefined;
		const ids = Array.isArray(rec.cells[col.id]) ? (rec.cells[col.id] as string[]) : [];
		refData[col.id] = ids
			.map((id) => target?.get(id) as TableRecord | undefined)
			.filter((r): r is TableRecord => !!r)
			.map((r) => ({ _id: r._id, cells: r.cells, createdAt: r.createdAt, updatedAt: r.updatedAt, createdBy: r.createdBy }));
	}
	return { ...rec, refData };
}

// ---------- generated data ----------

const STAGE_NAMES = ['Qualified', 'Contact made', 'Demo scheduled', 'Proposal made', 'Negotiation', 'Won', 'Lost'];
const PIPELINE_NAMES = ['Sales', 'Partnerships', 'Renewals', 'Enterprise', 'SMB'];
const SEED_BASE = Date.UTC(2024, 0, 1, 8, 0, 0);

interface GenCtx {
	rnd: () => number;
	users: number[];
	/** Record ids per ref table id. */
	refIds: Map<string, string[]>;
	n: number;
}

function nameCell(objectType: ObjectType, g: GenCtx): string {
	const { rnd, n } = g;
	switch (objectType) {
		case 'CONTACT':
			return rnd() < 0.25 ? `${pickOne(rnd, COMPANIES)} ${n}` : `${pickOne(rnd, FIRST_NAMES)} ${pickOne(rnd, LAST_NAMES)}`;
		case 'DEAL':
			return `${pickOne(rnd, COMPANIES)} deal ${n}`;
		case 'STAGE':
			return `${STAGE_NAMES[(n - 1) % STAGE_NAMES.length]} ${n}`;
		case 'PIPELINE':
			return `${PIPELINE_NAMES[(n - 1) % PIPELINE_NAMES.length]} pipeline ${n}`;
	}
}

/** Cells for one generated record; about one optional cell in eight stays empty. */
function generateCells(table: Table, g: GenCtx): Record<string, unknown> {
	const { rnd } = g;
	const cells: Record<string, unknown> = {};
	let name = '';
	for (const col of table.columnsMetaData) {
		if (!col.required && rnd() < 0.125) continue;
		switch (col.type) {
			case 'text':
				if (col.columnCode === 'NAME') cells[col.id] = name = nameCell(table.objectType, g);
				else cells[col.id] = pickOne(rnd, ['Call back next week', 'Sent the proposal', 'Asked for a discount', 'Met at the fair']);
				break;
			case 'email':
				cells[col.id] = `${(name || 'user').toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '.')}.${g.n}@${rnd() < 0.5 ? 'mail' : 'corp'}.example`;
				break;
			case 'phone':
				cells[col.id] = `+1555${String(Math.floor(rnd() * 1e7)).padStart(7, '0')}`;
				break;
			case 'string':
				cells[col.id] = col.columnCode === 'CURRENCY' ? pickOne(rnd, ['USD', 'EUR', 'GBP']) : `${Math.floor(rnd() * 900) + 100} Market Street, Springfield`;
				break;
			case 'number':
				cells[col.id] = col.columnCode === 'AMOUNT' ? Math.round(rnd() * 100000) / 10 : col.columnCode === 'ORDER' ? g.n : Math.floor(rnd() * 101);
				break;
			case 'boolean':
				cells[col.id] = rnd() < 0.5;
				break;
			case 'date':
				cells[col.id] = new Date(SEED_BASE + Math.floor(rnd() * 400) * 86_400_000 + Math.floor(rnd() * 24) * 3_600_000).toISOString();
				break;
			case 'json':
				cells[col.id] = { source: pickOne(rnd, ['import', 'web', 'api']), rank: Math.floor(rnd() * 10) };
				break;
			case 'json_array':
				cells[col.id] = [{ sku: `SKU-${Math.floor(rnd() * 900) + 100}`, qty: Math.floor(rnd() * 5) + 1 }];
				break;
			case 'select':
				cells[col.id] = [pickOne(rnd, col.options ?? [])?.id].filter((x) => x !== undefined);
				break;
			case 'multi-select': {
				const opts = (col.options ?? []).filter(() => rnd() < 0.4).map((o) => o.id);
				cells[col.id] = opts;
				break;
			}
			case 'user':
				cells[col.id] = [pickOne(rnd, g.users)];
				break;
			case 'ref': {
				const ids = col.refTable ? (g.refIds.get(col.refTable._id) ?? []) : [];
				if (ids.length) cells[col.id] = [pickOne(rnd, ids)];
				break;
			}
		}
	}
	return cells;
}

/**
 * Record ids for a batch, in the store's 24-hex-digit format: the first 18 digits
 * of one `store.nextOid()` (time plus 40 random bits) and a 6-digit counter. One
 * nextOid per 16M ids instead of one per record keeps bulk seeding fast.
 */
function oidBatch(env: Env): () => string {
	let prefix = '';
	let n = 0;
	return () => {
		if (n % 0x1000000 === 0) prefix = env.store.nextOid().slice(0, 18);
		return prefix + (n++ % 0x1000000).toString(16).padStart(6, '0');
	};
}

function addRecords(env: Env, tenant: Tenant, table: Table, count: number, rnd: () => number, createdAt: (i: number) => number): number {
	const records = recordsOf(tenant, table);
	const refIds = new Map<string, string[]>();
	for (const col of table.columnsMetaData) {
		if (col.refTable) refIds.set(col.refTable._id, [...(tenant.records.get(col.refTable._id)?.values() ?? [])].map((r) => r._id as string));
	}
	const users = tenant.crmUsers.map((u) => u.id);
	const start = records.size;
	const nextId = oidBatch(env);
	for (let i = 0; i < count; i++) {
		const at = createdAt(i);
		const rec: TableRecord = {
			_id: nextId(),
			cells: generateCells(table, { rnd, users, refIds, n: start + i + 1 }),
			createdAt: new Date(at).toISOString(),
			updatedAt: new Date(at + Math.floor(rnd() * 3) * 86_400_000).toISOString(),
			createdBy: pickOne(rnd, users),
		};
		setPermissions(table, rec);
		records.set(rec._id, rec);
	}
	return count;
}

function bulkRecords(env: Env, tenant: Tenant, count: number, options: Record<string, unknown>): number {
	let table: Table | undefined;
	if (typeof options.tableId === 'string') table = getTable(tenant, options.tableId);
	else {
		const objectType = typeof options.objectType === 'string' ? options.objectType : 'CONTACT';
		table = tenant.tables.values().find((t) => t.objectType === objectType) as Table | undefined;
		if (!table) throw badRequest(`No table with objectType ${objectType}`, [{ field: 'objectType', error: 'unknown object type' }]);
	}
	if (!Number.isInteger(count) || count < 0) throw badRequest('count must be a non-negative integer', [{ field: 'count', error: 'must be a non-negative integer' }]);
	// Distinct, increasing creation times ending now.
	const t0 = Date.now() - count;
	return addRecords(env, tenant, table, count, Math.random, (i) => t0 + i);
}

// ---------- routes ----------

function listTables(env: Env, ctx: Ctx<Session>): Table[] {
	const types = ctx.query.list('objectTypes')?.map((t) => t.toUpperCase());
	const db = ctx.query.str('databaseName');
	return (tenantOf(env, ctx).tables.values() as Table[]).filter((t) => (!types || types.includes(t.objectType)) && (!db || t.databaseName === db));
}

export const tables: Module = {
	name: 'tables',
	seed(env, tenant, s) {
		const createdBy = tenant.crmUsers[0].id;
		const databaseId = env.store.nextOid();
		const ids = Object.fromEntries(OBJECT_TYPES.map((t) => [t, env.store.nextOid()])) as Record<ObjectType, string>;
		OBJECT_TYPES.forEach((objectType, k) => {
			const def = TABLE_DEFS[objectType];
			const at = new Date(SEED_BASE - (OBJECT_TYPES.length - k) * 86_400_000).toISOString();
			const table: Table = {
				_id: ids[objectType],
				name: def.name,
				objectType,
				databaseId,
				databaseName: 'crm',
				columnsMetaData: buildColumns(def, ids),
				createdAt: at,
				updatedAt: at,
				createdBy,
			};
			tenant.tables.set(table._id, table);
			tenant.records.set(table._id, new Collection<string, Doc>());
		});
		// Referenced tables first, so ref cells point at existing records.
		(['PIPELINE', 'STAGE', 'CONTACT', 'DEAL'] as const).forEach((objectType, k) => {
			const table = tenant.tables.get(ids[objectType]) as Table;
			addRecords(env, tenant, table, s.rows, s.rnd, (i) => SEED_BASE + i * 3_600_000 + k * 60_000);
		});
	},
	bulk: {
		records: (env, tenant, count, options) => bulkRecords(env, tenant, count, options),
	},
	routes(r, env) {
		// ----- tables -----
		r.add('GET', '/v1/crm/core/table', (ctx) => {
			const data = listTables(env, ctx);
			return json(200, { data, totalCount: data.length });
		});
		r.add('GET', '/v1/crm/core/table/by-object-type', (ctx) => json(200, Object.fromEntries(listTables(env, ctx).map((t) => [t.objectType, t]))));
		r.add('GET', '/v1/crm/core/table/:tableId', (ctx) => json(200, getTable(tenantOf(env, ctx), ctx.params.tableId)));

		// ----- records -----
		r.add('POST', '/v1/crm/core/table/:tableId/record', (ctx) => {
			const tenant = tenantOf(env, ctx);
			const table = getTable(tenant, ctx.params.tableId);
			const input = validate(objectBody(ctx), { cells: 'object' }, ['cells']);
			const cells = cleanCells(tenant, table, input.cells as Record<string, unknown>, true);
			const now = nowIso();
			const rec: TableRecord = {
				_id: env.store.nextOid(),
				cells: Object.fromEntries(Object.entries(cells).filter(([, v]) => v !== null)),
				createdAt: now,
				updatedAt: now,
				createdBy: ctx.session.userId,
			};
			setPermissions(table, rec);
			recordsOf(tenant, table).set(rec._id, rec);
			return json(201, { success: true, id: rec._id, data: rec });
		});
		r.add('POST', '/v1/crm/core/table/:tableId/paged-record', (ctx) => pagedRecords(env, ctx));
		r.add('GET', '/v1/crm/core/table/:tableId/count', (ctx) => {
			const tenant = tenantOf(env, ctx);
			return json(200, { count: recordsOf(tenant, getTable(tenant, ctx.params.tableId)).size });
		});
		r.add('GET', '/v1/crm/core/table/:tableId/record/:recordId', (ctx) => {
			const tenant = tenantOf(env, ctx);
			return json(200, getRecord(recordsOf(tenant, getTable(tenant, ctx.params.tableId)), ctx.params.recordId));
		});
		r.add('PUT', '/v1/crm/core/table/:tableId/record/:recordId', (ctx) => {
			const tenant = tenantOf(env, ctx);
			const table = getTable(tenant, ctx.params.tableId);
			const records = recordsOf(tenant, table);
			const rec = getRecord(records, ctx.params.recordId);
			const input = validate(objectBody(ctx), { cells: 'object' }, ['cells']);
			const cells = cleanCells(tenant, table, input.cells as Record<string, unknown>, false);
			// Merge: cells not in the request keep their value; null clears a cell.
			for (const [k, v] of Object.entries(cells)) {
				if (v === null) delete rec.cells[k];
				else rec.cells[k] = v;
			}
			rec.updatedAt = nowIso();
			setPermissions(table, rec);
			records.touch();
			return json(200, { success: true, id: rec._id, data: rec });
		});
		r.add('DELETE', '/v1/crm/core/table/:tableId/record/:recordId', (ctx) => {
			const tenant = tenantOf(env, ctx);
			const records = recordsOf(tenant, getTable(tenant, ctx.params.tableId));
			const rec = getRecord(records, ctx.params.recordId);
			records.delete(rec._id);
			return json(200, { success: true, id: rec._id });
		});
	},
};
