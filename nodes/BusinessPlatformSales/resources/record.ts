/**
 * Records of a dynamic table — /v1/crm/core/table/{tableId}/record…
 *
 * On the wire, cells are keyed by short column ids and select cells hold option
 * ids. Users work with column names and option names instead: the node reads the
 * table's columns once per execution to translate both ways, and checks every
 * value against its column before anything is written.
 */
import type { IDataObject, INodeProperties, ResourceMapperField } from 'n8n-workflow';

import { bodyField, locator, options, queryField, toUtcIsoInZone } from '../../shared/fields';
import type { Field, OpContext, Operation, Resource } from '../../shared/engine/model';
import { getFilterColumns, getRecordColumnsForCreate, getRecordColumnsForUpdate, getRefColumns, getSortColumns, searchRecords, searchTables } from '../methods/tables';
import { columnKeys, columnsOf, DATE_FIELDS, findColumn, tableFor, TABLES_PATH, type ColumnOption, type PlatformTable, type TableColumn } from './table/model';
import { tableIdValue, tableLocator } from './table';

// ------------------------------------------------------------- fields -----

const recordLocator: INodeProperties = {
	...locator({ name: 'recordId', displayName: 'Record', search: 'searchRecords', numeric: false, placeholder: 'e.g. 65f1c0ffee0123456789abcd', description: 'The record to use' }),
	typeOptions: { loadOptionsDependsOn: ['tableId.value'] },
};

function recordIdValue(value: unknown, ctx: OpContext): string {
	const id = String(value ?? '').trim();
	if (!id) throw ctx.fail('Record is empty', 'Pick a record from the list, or give its ID.');
	return id;
}

const tableField: Field = { property: tableLocator, send: { in: 'path', key: 'tableId', map: tableIdValue } };
const recordField: Field = { property: recordLocator, send: { in: 'path', key: 'recordId', map: recordIdValue } };

/**
 * The output switch. Each operation has its own wording, which also keeps it last in
 * that operation's fields (identical fields of several operations are shown once, at
 * the place of their first use).
 */
const byNameField = (whose: string): Field => ({
	property: {
		displayName: 'Cells by Column Name',
		name: 'cellsByName',
		type: 'boolean',
		default: true,
		description: `Whether to add each cell of ${whose} under its column name, with select options as names, next to the raw cells keyed by column ID`,
	},
});

function columnsField(forCreate: boolean): Field {
	return {
		property: {
			displayName: 'Columns',
			name: 'columns',
			type: 'resourceMapper',
			noDataExpression: true,
			default: { mappingMode: 'defineBelow', value: null },
			required: true,
			typeOptions: {
				loadOptionsDependsOn: ['tableId.value'],
				resourceMapper: {
					resourceMapperMethod: forCreate ? 'getRecordColumnsForCreate' : 'getRecordColumnsForUpdate',
					mode: forCreate ? 'add' : 'map',
					fieldWords: { singular: 'column', plural: 'columns' },
					addAllFields: forCreate,
					multiKeyMatch: false,
					supportAutoMap: true,
				},
			},
		},
	};
}

/** The 14 operators of a FilterCondition, in plain words. */
export const OPERATORS: Array<[string, string]> = [
	['Contains', 'c'],
	['Does Not Contain', 'nc'],
	['Ends With', 'ew'],
	['Equals', 'eq'],
	['Greater Than', 'gt'],
	['Greater Than or Equal To', 'gte'],
	['Is Empty', 'emp'],
	['Is Not Empty', 'nemp'],
	['Is Not One Of', 'nin'],
	['Is One Of', 'in'],
	['Less Than', 'lt'],
	['Less Than or Equal To', 'lte'],
	['Not Equals', 'neq'],
	['Starts With', 'sw'],
];
const OPERATOR_VALUES = new Set(OPERATORS.map(([, v]) => v));
const NO_VALUE = new Set(['emp', 'nemp']);
const LIST_OPS = new Set(['in', 'nin']);
const EXACT_OPS = new Set(['eq', 'neq', 'lt', 'lte', 'gt', 'gte']);

const filtersField: Field = {
	property: {
		displayName: 'Conditions',
		name: 'filters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Condition',
		default: {},
		options: [
			{
				displayName: 'Condition',
				name: 'conditions',
				values: [
					{
						displayName: 'Column Name or ID',
						name: 'column',
						type: 'options',
						typeOptions: { loadOptionsMethod: 'getFilterColumns', loadOptionsDependsOn: ['tableId.value'] },
						default: '',
						description: 'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
					},
					{
						displayName: 'Operator',
						name: 'operator',
						type: 'options',
						options: options(OPERATORS),
						default: 'eq',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						displayOptions: { hide: { operator: ['emp', 'nemp'] } },
						description:
							'Value to compare with. For Is One Of and Is Not One Of: values separated by commas. Select columns take option names, user columns user IDs, date columns dates such as 2026-03-01.',
					},
				],
			},
		],
	},
};

// --------------------------------------------------------------- cells -----

const isBlank = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

const shown = (v: unknown) => (typeof v === 'string' ? `"${v}"` : v !== null && typeof v === 'object' ? JSON.stringify(v).slice(0, 80) : String(v));

function findOption(col: TableColumn, v: unknown): ColumnOption | undefined {
	const opts = col.options ?? [];
	if (typeof v === 'number') return opts.find((o) => o.id === v);
	const s = String(v ?? '').trim();
	return opts.find((o) => o.name === s) ?? opts.find((o) => o.name.toLowerCase() === s.toLowerCase()) ?? (/^\d+$/.test(s) ? opts.find((o) => o.id === Number(s)) : undefined);
}

const optionNames = (col: TableColumn) => (col.options ?? []).map((o) => o.name).join(', ') || 'none';

/** A list from an array, or from comma-separated text (unless the whole text is one value). */
function listOf(value: unknown, isOneValue: (s: string) => boolean = () => false): unknown[] {
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
function toIso(value: unknown): string | undefined {
	let date: Date;
	if (value instanceof Date) date = value;
	else if (typeof value === 'number') date = new Date(value);
	else if (value !== null && typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') date = new Date(String((value as { toISO: () => string }).toISO()));
	else if (typeof value === 'string' && value.trim()) date = new Date(value.trim());
	else return undefined;
	return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * A date cell or condition value as UTC ISO. Text without a zone (what n8n's date
 * picker gives) is read in the workflow's time zone, like the pack's other dates.
 */
function dateValue(value: unknown, ctx: OpContext): string | undefined {
	if (typeof value !== 'string') return toIso(value);
	try {
		return toUtcIsoInZone(value.trim(), 'Date', ctx, ctx.fn.getTimezone());
	} catch {
		return undefined;
	}
}

function toBoolean(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	const s = String(value ?? '').trim().toLowerCase();
	if (['true', 'yes', '1'].includes(s)) return true;
	if (['false', 'no', '0'].includes(s)) return false;
	return undefined;
}

function parseJsonCell(value: unknown, label: string, ctx: OpContext): unknown {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value) as unknown;
	} catch (e) {
		throw ctx.fail(`${label} is not valid JSON`, `${(e as Error).message}. Write JSON such as {"key": "value"}, or use an expression that returns an object.`);
	}
}

/** One cell as the platform stores it, or an error naming the column. */
function encodeCell(col: TableColumn, key: string, value: unknown, ctx: OpContext): unknown {
	const label = `Column "${key}"`;
	switch (col.type) {
		case 'text':
		case 'string':
		case 'email':
		case 'phone':
			if (typeof value === 'string') return value;
			if (typeof value === 'number' || typeof value === 'boolean') return String(value);
			if (value instanceof Date || (value !== null && typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function')) return toIso(value) ?? String(value);
			throw ctx.fail(`${label} takes text, got ${shown(value)}`, 'Give plain text.');
		case 'number': {
			const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : NaN;
			if (!Number.isFinite(n)) throw ctx.fail(`${label} takes a number, got ${shown(value)}`, 'Give a number such as 42 or 3.5.');
			return n;
		}
		case 'boolean': {
			const b = toBoolean(value);
			if (b === undefined) throw ctx.fail(`${label} takes true or false, got ${shown(value)}`);
			return b;
		}
		case 'date': {
			const iso = dateValue(value, ctx);
			if (!iso) throw ctx.fail(`${label} takes a date, got ${shown(value)}`, 'Use a date and time such as 2026-12-01T10:00:00Z, or pick one.');
			return iso;
		}
		case 'select':
		case 'multi-select': {
			const ids = listOf(value, (s) => findOption(col, s) !== undefined).map((v) => {
				const option = findOption(col, v);
				if (!option) throw ctx.fail(`${label} has no option ${shown(v)}`, `Allowed options: ${optionNames(col)}.`);
				return option.id;
			});
			const unique = [...new Set(ids)];
			if (col.type === 'select' && unique.length > 1) throw ctx.fail(`${label} takes one option, got ${unique.length}`, `Choose one of: ${optionNames(col)}.`);
			return unique;
		}
		case 'user':
			return listOf(value).map((v) => {
				const text = String(v).trim();
				if (!/^\d+$/.test(text)) throw ctx.fail(`${label} takes user IDs (whole numbers), got ${shown(v)}`, 'Give user IDs separated by commas, for example 101, 103.');
				return Number(text);
			});
		case 'ref':
			return listOf(value).map((v) => {
				if (typeof v !== 'string' && typeof v !== 'number') throw ctx.fail(`${label} takes record IDs, got ${shown(v)}`, 'Give IDs of records of the referenced table, separated by commas.');
				return String(v).trim();
			});
		case 'json':
			return parseJsonCell(value, label, ctx);
		case 'json_array': {
			const parsed = parseJsonCell(value, label, ctx);
			if (!Array.isArray(parsed)) throw ctx.fail(`${label} takes a JSON array, got ${shown(parsed)}`, 'Write a JSON array such as [{"sku": "A-1"}].');
			return parsed;
		}
		default:
			return value;
	}
}

/** A stored cell for people: option names instead of ids (one name for a select). */
function decodeCell(col: TableColumn, value: unknown): unknown {
	if (value === undefined) return null;
	if (col.type === 'select' || col.type === 'multi-select') {
		const names = (Array.isArray(value) ? value : [value]).map((id) => (col.options ?? []).find((o) => o.id === id)?.name ?? id);
		return col.type === 'select' ? (names[0] ?? null) : names;
	}
	return value;
}

/** Record keys that a column's name never replaces in the output. */
const RECORD_KEYS = new Set(['_id', 'cells', 'createdAt', 'updatedAt', 'createdBy', 'permissions', 'refData']);

/** A record with its cells also under their column names (every column, null when empty). */
export function recordByName(record: IDataObject, table: PlatformTable): IDataObject {
	const cells = record.cells !== null && typeof record.cells === 'object' ? (record.cells as IDataObject) : {};
	const named: IDataObject = {};
	for (const [col, key] of columnKeys(table)) {
		if (RECORD_KEYS.has(key)) continue;
		named[key] = decodeCell(col, cells[col.id]) as IDataObject[string];
	}
	const { _id, ...rest } = record;
	return { _id, ...named, ...rest };
}

const tableIdOf = (ctx: OpContext) => tableIdValue(ctx.param('tableId'), ctx);

async function shape(record: IDataObject, ctx: OpContext): Promise<IDataObject> {
	if (!ctx.param<boolean>('cellsByName', true)) return record;
	return recordByName(record, await tableFor(ctx, tableIdOf(ctx)));
}

interface MapperValue {
	mappingMode?: string;
	value?: IDataObject | null;
	schema?: ResourceMapperField[];
}

/**
 * The cells of a create or update, from the Columns mapper: keyed by column id,
 * select options as ids, every value checked against its column's type.
 */
async function cellsFromMapper(ctx: OpContext, mode: 'create' | 'update'): Promise<IDataObject> {
	const mapper = (ctx.param<MapperValue>('columns', {}) ?? {}) as MapperValue;
	const auto = mapper.mappingMode === 'autoMapInputData';
	const clearEmpty = mode === 'update' && ctx.param<IDataObject>('options', {})?.clearEmpty === true;
	const entries = Object.entries(auto ? (ctx.fn.getInputData()[ctx.itemIndex]?.json ?? {}) : (mapper.value ?? {}));

	// Columns the user set by hand must be in the column list the mapper was built from.
	const schema = Array.isArray(mapper.schema) ? mapper.schema : [];
	if (!auto && schema.length) {
		const known = new Set(schema.map((f) => f.id));
		for (const [key] of entries) {
			if (!known.has(key)) throw ctx.fail(`Column "${key}" is not in the table`, `Columns: ${schema.map((f) => f.id).join(', ')}.`);
		}
	}

	const table = await tableFor(ctx, tableIdOf(ctx));
	const keys = columnKeys(table);
	const cells: IDataObject = {};
	for (const [key, value] of entries) {
		const col = findColumn(table, key);
		if (!col) {
			if (auto) continue; // input fields that are not columns are left out
			throw ctx.fail(`Column "${key}" is not in table "${table.name}"`, `The table's columns are: ${[...keys.values()].join(', ')}. If the table changed, refresh the column list.`);
		}
		const name = keys.get(col)!;
		if (col.editable === false) {
			if (auto) continue;
			throw ctx.fail(`Column "${name}" cannot be changed`, 'The platform marks this column as not editable: remove it from Columns.');
		}
		if (isBlank(value)) {
			if (!clearEmpty) continue;
			if (col.required) throw ctx.fail(`Column "${name}" is required and cannot be cleared`, 'Give it a value, or remove it from Columns.');
			cells[col.id] = null;
			continue;
		}
		cells[col.id] = encodeCell(col, name, value, ctx) as IDataObject[string];
	}
	if (mode === 'create') {
		const missing = columnsOf(table).filter((c) => c.required && c.editable !== false && isBlank(cells[c.id]));
		if (missing.length) throw ctx.fail(`Column${missing.length > 1 ? 's' : ''} ${missing.map((c) => `"${keys.get(c)}"`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} required`, 'Give every required column a value.');
	} else if (Object.keys(cells).length === 0) {
		throw ctx.fail('Nothing to update', 'Add at least one column with a value under "Columns".');
	}
	return cells;
}

// ------------------------------------------------------------- search -----

/** The value of a condition, checked and converted for its column (option names become option ids). */
function conditionValue(col: TableColumn | undefined, colId: string, op: string, raw: unknown, label: string, ctx: OpContext): string {
	const asDate = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? toIso(raw) : undefined;
	const text =
		raw === undefined || raw === null ? '' : Array.isArray(raw) ? raw.map((v) => String(v)).join(',') : asDate !== undefined ? asDate : typeof raw === 'object' ? JSON.stringify(raw) : String(raw);
	if (!LIST_OPS.has(op) && !EXACT_OPS.has(op)) return text; // starts/ends with, contains: text as written
	const type = col ? col.type : DATE_FIELDS.includes(colId) ? 'date' : 'text';
	const name = col ? `"${col.name}"` : colId;
	const parts = LIST_OPS.has(op) ? listOf(text).map(String) : [text];
	if (LIST_OPS.has(op) && parts.length === 0) throw ctx.fail(`${label}: give at least one value`, 'Separate several values with commas.');
	const each = (convert: (p: string) => string | undefined, what: string, hint: string) =>
		parts
			.map((p) => {
				const v = convert(p);
				if (v === undefined) throw ctx.fail(`${label}: ${name} is ${what}, ${shown(p)} is not`, hint);
				return v;
			})
			.join(',');
	switch (type) {
		case 'number':
			return each((p) => (p.trim() !== '' && Number.isFinite(Number(p)) ? String(Number(p)) : undefined), 'a number column', 'Give a number such as 42.');
		case 'date':
			return each((p) => dateValue(p, ctx), 'a date column', 'Give a date such as 2026-03-01 or 2026-03-01T10:00:00Z.');
		case 'boolean':
			return each((p) => (toBoolean(p) === undefined ? undefined : String(toBoolean(p))), 'a true/false column', 'Give true or false.');
		case 'user':
			return op === 'eq' || op === 'neq' || LIST_OPS.has(op) ? each((p) => (/^\d+$/.test(p.trim()) ? p.trim() : undefined), 'a user column', 'Give user IDs (whole numbers).') : text;
		case 'select':
		case 'multi-select':
			if (op !== 'eq' && op !== 'neq' && !LIST_OPS.has(op)) return text;
			return parts
				.map((p) => {
					const option = findOption(col!, p);
					if (!option) throw ctx.fail(`${label}: column ${name} has no option ${shown(p)}`, `Allowed options: ${optionNames(col!)}.`);
					return String(option.id);
				})
				.join(',');
		default:
			return text;
	}
}

interface ConditionInput {
	column?: unknown;
	operator?: unknown;
	value?: unknown;
}

const isRecordField = (id: string) => DATE_FIELDS.includes(id) || id === '_id';

async function prepareSearch(req: { body: IDataObject; qs: IDataObject }, ctx: OpContext): Promise<void> {
	const tableId = tableIdOf(ctx);
	const raw = ((ctx.param<IDataObject>('filters', {}) ?? {}).conditions as ConditionInput[] | undefined) ?? [];
	// Checks that need no table first, so a condition left incomplete fails without any request.
	const parsed = raw.map((c, i) => {
		const label = `Condition ${i + 1}`;
		const column = String(c.column ?? '').trim();
		const op = String(c.operator ?? 'eq').trim();
		if (!column) throw ctx.fail(`${label} has no column`, 'Choose the column to compare.');
		if (!OPERATOR_VALUES.has(op)) throw ctx.fail(`${label} has an unknown operator "${op}"`, `Use one of: ${[...OPERATOR_VALUES].join(', ')}.`);
		return { label, column, op, value: c.value };
	});
	const opts = (ctx.param<IDataObject>('options', {}) ?? {}) as IDataObject;
	const sortCol = String(opts.sortColumn ?? '').trim();
	const refColumns = Array.isArray(opts.refColumns) ? (opts.refColumns as unknown[]).map(String) : typeof opts.refColumns === 'string' ? listOf(opts.refColumns).map(String) : [];

	const needsTable = parsed.some((p) => !isRecordField(p.column)) || (sortCol && !isRecordField(sortCol)) || (refColumns.length > 0 && opts.fetchAllRef !== true);
	const table = needsTable ? await tableFor(ctx, tableId) : undefined;
	const columnIn = (nameOrId: string, label: string): TableColumn => {
		const col = findColumn(table!, nameOrId);
		if (!col) throw ctx.fail(`${label}: column "${nameOrId}" is not in table "${table!.name}"`, `The table's columns are: ${[...columnKeys(table!).values()].join(', ')}.`);
		return col;
	};

	req.body.conditions = parsed.map((p) => {
		const col = isRecordField(p.column) ? undefined : columnIn(p.column, p.label);
		const colId = col ? col.id : p.column;
		return { colId, opr: p.op, value: NO_VALUE.has(p.op) ? '' : conditionValue(col, colId, p.op, p.value, p.label, ctx) };
	});
	if (sortCol) req.qs.sortCol = isRecordField(sortCol) ? sortCol : columnIn(sortCol, 'Sort By').id;
	if (opts.fetchAllRef === true) req.qs.fetchAllRef = true;
	else if (refColumns.length) {
		req.qs.colIdsToFetchRef = refColumns
			.map((r) => {
				const col = columnIn(r, 'Referenced Columns');
				if (col.type !== 'ref') throw ctx.fail(`Referenced Columns: "${col.name}" is not a ref column`, 'Only columns that point at records of another table can be fetched along.');
				return col.id;
			})
			.join(',');
	}
}

// ---------------------------------------------------------- operations ----

const recordPath = `${TABLES_PATH}/{tableId}/record/{recordId}`;
const answerRecord = (answer: unknown): IDataObject | undefined => {
	const a = answer as IDataObject | undefined;
	if (a && typeof a.data === 'object' && a.data !== null && !Array.isArray(a.data)) return a.data as IDataObject;
	return undefined;
};

/** The record after a write: from the answer's data, else read back. */
async function writtenRecord(answer: unknown, ctx: OpContext, fallbackId?: string): Promise<IDataObject> {
	const data = answerRecord(answer);
	if (data) return await shape(data, ctx);
	const id = String((answer as IDataObject | undefined)?.id ?? fallbackId ?? '');
	const record = await ctx.request<IDataObject>({ method: 'GET', path: `${TABLES_PATH}/${encodeURIComponent(tableIdOf(ctx))}/record/${encodeURIComponent(id)}`, regional: true });
	return await shape(record, ctx);
}

const ops: Operation[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Create a record',
		description: 'Add a record to a table',
		method: 'POST',
		path: `${TABLES_PATH}/{tableId}/record`,
		regional: true,
		fields: [tableField, columnsField(true), byNameField('the created record')],
		prepare: async (req, ctx) => {
			req.body.cells = await cellsFromMapper(ctx, 'create');
		},
		output: async (answer, ctx) => await writtenRecord(answer, ctx),
	},
	{
		value: 'count',
		name: 'Count',
		action: 'Count records',
		description: 'Count the records of a table',
		method: 'GET',
		path: `${TABLES_PATH}/{tableId}/count`,
		regional: true,
		fields: [tableField],
		output: (answer, ctx) => ({ tableId: tableIdOf(ctx), count: Number((answer as IDataObject | undefined)?.count ?? 0) }),
	},
	{
		value: 'delete',
		name: 'Delete',
		action: 'Delete a record',
		description: 'Delete a record from a table',
		method: 'DELETE',
		path: recordPath,
		regional: true,
		fields: [tableField, recordField],
		output: (answer, ctx) => ({ deleted: true, id: String((answer as IDataObject | undefined)?.id ?? recordIdValue(ctx.param('recordId'), ctx)), tableId: tableIdOf(ctx) }),
	},
	{
		value: 'get',
		name: 'Get',
		action: 'Get a record',
		description: 'Get one record of a table',
		method: 'GET',
		path: recordPath,
		regional: true,
		fields: [tableField, recordField, byNameField('the record')],
		output: async (answer, ctx) => await shape(answer as IDataObject, ctx),
	},
	{
		value: 'search',
		name: 'Search',
		action: 'Search records',
		description: 'Find the records of a table that match conditions or a text',
		method: 'POST',
		path: `${TABLES_PATH}/{tableId}/paged-record`,
		// Only reads: safe to repeat after a 5xx or a dropped connection.
		idempotent: true,
		regional: true,
		paginate: 'records',
		fields: [
			tableField,
			queryField({ displayName: 'Search Text', name: 'q', type: 'string', default: '', description: 'Text to find in any text column of the record (full-text search)' }, 'q', (v) =>
				typeof v === 'string' && v.trim() ? v.trim() : undefined,
			),
			bodyField(
				{
					displayName: 'Must Match',
					name: 'logicalOperator',
					type: 'options',
					options: options([
						['All Conditions', 'and'],
						['Any Condition', 'or'],
					]),
					default: 'and',
				},
				'logicalOperator',
			),
			filtersField,
			{
				property: {
					displayName: 'Options',
					name: 'options',
					type: 'collection',
					placeholder: 'Add Option',
					default: {},
					options: [
						{
							displayName: 'Fetch All Referenced Records',
							name: 'fetchAllRef',
							type: 'boolean',
							default: false,
							description: 'Whether to add the records that every ref column points at (under refData)',
						},
						{
							displayName: 'Referenced Column Names or IDs',
							name: 'refColumns',
							type: 'multiOptions',
							typeOptions: { loadOptionsMethod: 'getRefColumns', loadOptionsDependsOn: ['tableId.value'] },
							default: [],
							description:
								'Ref columns whose records to add under refData (ignored when Fetch All Referenced Records is on). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
						},
						{
							displayName: 'Sort By Name or ID',
							name: 'sortColumn',
							type: 'options',
							typeOptions: { loadOptionsMethod: 'getSortColumns', loadOptionsDependsOn: ['tableId.value'] },
							default: 'createdAt',
							description: 'Column to sort by. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
						},
						{
							displayName: 'Sort Direction',
							name: 'sortDirection',
							type: 'options',
							options: options([
								['Ascending', 1],
								['Descending', -1],
							]),
							default: -1,
						},
					],
				},
			},
			byNameField('each record'),
		],
		prepare: async (req, ctx) => {
			const opts = (ctx.param<IDataObject>('options', {}) ?? {}) as IDataObject;
			if (opts.sortDirection !== undefined) {
				const dir = Number(opts.sortDirection);
				if (dir !== 1 && dir !== -1) throw ctx.fail(`Sort Direction must be 1 (ascending) or -1 (descending), got "${String(opts.sortDirection)}"`);
				req.qs.sortDir = dir;
			}
			req.body.logicalOperator = String(req.body.logicalOperator ?? 'and').toLowerCase() === 'or' ? 'or' : 'and';
			await prepareSearch(req, ctx);
		},
		output: async (answer, ctx) => {
			const records = Array.isArray(answer) ? (answer as IDataObject[]) : [];
			if (!ctx.param<boolean>('cellsByName', true) || records.length === 0) return records;
			const table = await tableFor(ctx, tableIdOf(ctx));
			return records.map((r) => recordByName(r, table));
		},
	},
	{
		value: 'update',
		name: 'Update',
		action: 'Update a record',
		description: 'Change the given cells of a record; the others keep their values',
		method: 'PUT',
		path: recordPath,
		regional: true,
		fields: [
			tableField,
			recordField,
			columnsField(false),
			{
				property: {
					displayName: 'Options',
					name: 'options',
					type: 'collection',
					placeholder: 'Add Option',
					default: {},
					options: [
						{
							displayName: 'Clear Cells Left Empty',
							name: 'clearEmpty',
							type: 'boolean',
							default: false,
							description: 'Whether columns added under Columns but left empty are cleared. By default they keep their current value.',
						},
					],
				},
			},
			byNameField('the updated record'),
		],
		prepare: async (req, ctx) => {
			req.body.cells = await cellsFromMapper(ctx, 'update');
		},
		output: async (answer, ctx) => await writtenRecord(answer, ctx, recordIdValue(ctx.param('recordId'), ctx)),
	},
];

export const recordResource: Resource = {
	value: 'record',
	name: 'Record',
	description: 'Rows of a table, with cells by column',
	operations: ops,
	methods: {
		listSearch: { searchTables, searchRecords },
		loadOptions: { getFilterColumns, getSortColumns, getRefColumns },
		resourceMapping: { getRecordColumnsForCreate, getRecordColumnsForUpdate },
	},
};
