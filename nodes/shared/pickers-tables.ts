/**
 * Dynamic tables: the table's metadata (columns, options) and the pickers built
 * from it — the table and record lists, column dropdowns and the resource mapper
 * that lets users fill cells by column name. Table and record endpoints are
 * served by the regional base URL when the credential has one.
 */
import type {
	FieldType,
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';

import type { OpContext } from './operations';
import { apiRequest, type RequestContext } from './transport';

export const TABLES_PATH = '/v1/crm/core/table';

export interface ColumnOption {
	id: number;
	name: string;
	color?: string;
	systemField?: boolean;
}

export interface TableColumn {
	/** Short column id: the key of the cell in a record. */
	id: string;
	name: string;
	columnCode?: string;
	type: string;
	index?: number;
	options?: ColumnOption[] | null;
	required?: boolean;
	editable?: boolean;
	hidden?: boolean;
	systemField?: boolean;
	refTable?: { _id: string; objectType: string };
}

export interface PlatformTable {
	_id: string;
	name: string;
	objectType?: string;
	databaseId?: string;
	databaseName?: string;
	columnsMetaData?: TableColumn[];
	createdAt?: string;
	updatedAt?: string;
	createdBy?: number;
}

/** Record fields that are not columns; sorting and filtering also accept createdAt and updatedAt. */
export const DATE_FIELDS = ['createdAt', 'updatedAt'];

export const columnsOf = (table: PlatformTable): TableColumn[] => (Array.isArray(table.columnsMetaData) ? table.columnsMetaData : []);

/**
 * The name under which users see and address a column: its display name, or
 * "name (id)" for a second column with the same name.
 */
export function columnKeys(table: PlatformTable): Map<TableColumn, string> {
	const keys = new Map<TableColumn, string>();
	const seen = new Set<string>();
	for (const col of columnsOf(table)) {
		const name = String(col.name ?? '').trim() || col.id;
		const key = seen.has(name.toLowerCase()) ? `${name} (${col.id})` : name;
		seen.add(name.toLowerCase());
		keys.set(col, key);
	}
	return keys;
}

/**
 * Finds a column by its name (exactly, then ignoring case) or by its id. Returns
 * undefined when the table has no such column.
 */
export function findColumn(table: PlatformTable, nameOrId: string): TableColumn | undefined {
	const wanted = String(nameOrId ?? '').trim();
	if (!wanted) return undefined;
	const keys = columnKeys(table);
	const cols = columnsOf(table);
	return (
		cols.find((c) => keys.get(c) === wanted) ??
		cols.find((c) => keys.get(c)!.toLowerCase() === wanted.toLowerCase()) ??
		cols.find((c) => c.id === wanted) ??
		cols.find((c) => String(c.name ?? '').trim().toLowerCase() === wanted.toLowerCase())
	);
}

/** One table's metadata. */
export async function fetchTable(ctx: RequestContext, tableId: string, itemIndex?: number): Promise<PlatformTable> {
	return await apiRequest<PlatformTable>(ctx, { method: 'GET', path: `${TABLES_PATH}/${encodeURIComponent(tableId)}`, regional: true, itemIndex });
}

const executionTables = new WeakMap<object, Map<string, Promise<PlatformTable>>>();

/** A table's metadata, read once per execution and table (items share it). */
export async function tableFor(ctx: OpContext, tableId: string): Promise<PlatformTable> {
	let cache = executionTables.get(ctx.fn);
	if (!cache) {
		cache = new Map();
		executionTables.set(ctx.fn, cache);
	}
	let pending = cache.get(tableId);
	if (!pending) {
		pending = ctx.request<PlatformTable>({ method: 'GET', path: `${TABLES_PATH}/${encodeURIComponent(tableId)}`, regional: true });
		cache.set(tableId, pending);
		// A failed read is not kept: the next item tries again.
		pending.catch(() => cache!.delete(tableId));
	}
	return await pending;
}

/** The table chosen in the node's "Table" field, from a picker's context. */
function currentTableId(ctx: ILoadOptionsFunctions): string {
	try {
		const v = ctx.getNodeParameter('tableId', undefined, { extractValue: true });
		return typeof v === 'string' ? v.trim() : '';
	} catch {
		return '';
	}
}

async function currentTable(ctx: ILoadOptionsFunctions): Promise<PlatformTable | undefined> {
	const id = currentTableId(ctx);
	return id ? await fetchTable(ctx, id) : undefined;
}

// ----------------------------------------------------------- pickers -----

export async function searchTables(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const body = await apiRequest<IDataObject>(this, { method: 'GET', path: TABLES_PATH, regional: true });
	const tables = ((body?.data as PlatformTable[] | undefined) ?? []).filter((t) => t && typeof t === 'object');
	const f = (filter ?? '').trim().toLowerCase();
	return {
		results: tables
			.filter((t) => !f || String(t.name ?? '').toLowerCase().includes(f) || String(t.objectType ?? '').toLowerCase().includes(f) || String(t._id) === f)
			.map((t) => ({ name: `${String(t.name ?? t._id)}${t.objectType ? ` (${t.objectType})` : ''}`, value: String(t._id) }))
			.sort((a, b) => a.name.localeCompare(b.name)),
	};
}

const RECORD_PAGE = 50;

/** The text that names a record: its NAME column, else its first text cell, else its id. */
export function recordTitle(table: PlatformTable, record: IDataObject): string {
	const cells = (record.cells as IDataObject | undefined) ?? {};
	const cols = columnsOf(table);
	const named = cols.find((c) => c.columnCode === 'NAME') ?? cols.find((c) => ['text', 'string', 'email'].includes(c.type) && typeof cells[c.id] === 'string' && cells[c.id] !== '');
	const title = named ? cells[named.id] : undefined;
	return typeof title === 'string' && title.trim() ? title : String(record._id);
}

export async function searchRecords(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const tableId = currentTableId(this);
	if (!tableId) return { results: [] };
	const table = await fetchTable(this, tableId);
	const pageNo = Number(paginationToken ?? 1) || 1;
	const body = await apiRequest<IDataObject>(this, {
		method: 'POST',
		path: `${TABLES_PATH}/${encodeURIComponent(tableId)}/paged-record`,
		qs: { pageNo, pageSize: RECORD_PAGE, q: filter?.trim() || undefined },
		body: { logicalOperator: 'and', conditions: [] },
		regional: true,
	});
	const data = (body?.data as IDataObject[] | undefined) ?? [];
	const total = Number(body?.totalCount ?? 0);
	return {
		results: data.map((r) => ({ name: recordTitle(table, r), value: String(r._id) })),
		paginationToken: pageNo * RECORD_PAGE < total ? String(pageNo + 1) : undefined,
	};
}

const columnOption = (col: TableColumn): INodePropertyOptions => ({ name: col.name || col.id, value: col.id, description: `${col.type} column (ID ${col.id})` });

/** Columns of the chosen table, for filter conditions (plus the record's creation and update dates). */
export async function getFilterColumns(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const table = await currentTable(this);
	if (!table) return [];
	return [...columnsOf(table).map(columnOption), { name: 'Created At', value: 'createdAt', description: 'When the record was created' }, { name: 'Updated At', value: 'updatedAt', description: 'When the record was last changed' }];
}

/** Columns to sort by: the record's dates first (the platform sorts by creation date by default). */
export async function getSortColumns(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const table = await currentTable(this);
	const dates: INodePropertyOptions[] = [
		{ name: 'Created At', value: 'createdAt', description: 'When the record was created' },
		{ name: 'Updated At', value: 'updatedAt', description: 'When the record was last changed' },
	];
	return table ? [...dates, ...columnsOf(table).map(columnOption)] : dates;
}

/** Ref columns of the chosen table (whose referenced records can be fetched along). */
export async function getRefColumns(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const table = await currentTable(this);
	return table ? columnsOf(table).filter((c) => c.type === 'ref').map(columnOption) : [];
}

// ------------------------------------------------------ resource mapper ---

const FIELD_TYPES: Record<string, FieldType> = {
	text: 'string',
	string: 'string',
	email: 'string',
	phone: 'string',
	number: 'number',
	boolean: 'boolean',
	date: 'dateTime',
	select: 'options',
	json: 'object',
	json_array: 'array',
	// multi-select (option names, comma-separated), user (user IDs) and ref (record IDs) are typed as text
};

/**
 * The resource mapper's fields for a table: one per editable column, keyed by the
 * column's name. Select options are offered by name; multi-select columns take
 * option names separated by commas, user columns user IDs, ref columns record IDs.
 */
export function columnFields(table: PlatformTable, forCreate: boolean): ResourceMapperField[] {
	const keys = columnKeys(table);
	return columnsOf(table)
		.filter((c) => c.editable !== false)
		.map((col) => {
			const type = FIELD_TYPES[col.type] ?? 'string';
			const field: ResourceMapperField = {
				id: keys.get(col)!,
				displayName: keys.get(col)!,
				required: forCreate && col.required === true,
				defaultMatch: false,
				canBeUsedToMatch: false,
				display: true,
				type,
				// Hidden columns can still be written: the user adds them when needed.
				removed: col.hidden === true && !(forCreate && col.required === true),
			};
			if (type === 'options') field.options = (col.options ?? []).map((o) => ({ name: o.name, value: o.name }));
			return field;
		});
}

async function mapperFields(ctx: ILoadOptionsFunctions, forCreate: boolean): Promise<ResourceMapperFields> {
	const table = await currentTable(ctx);
	if (!table) return { fields: [], emptyFieldsNotice: 'Choose a table first' };
	const fields = columnFields(table, forCreate);
	return fields.length ? { fields } : { fields, emptyFieldsNotice: 'This table has no editable columns' };
}

export async function getRecordColumnsForCreate(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	return await mapperFields(this, true);
}

export async function getRecordColumnsForUpdate(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	return await mapperFields(this, false);
}
