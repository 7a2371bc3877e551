/**
 * Pickers of the Sales node for tables and records: the table and record lists,
 * column dropdowns, and the resource mapper that lets users fill cells by column name.
 */
import type {
	FieldType,
	IDataObject,
	INodePropertyOptions,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';

import {
	listSearch,
	loadOptions,
	resourceMapping,
	searchPage,
	type PickerScope,
} from '../../shared/pickers';
import { apiRequest } from '../../shared/transport';
import {
	columnKeys,
	columnsOf,
	fetchTable,
	recordTitle,
	TABLES_PATH,
	type PlatformTable,
	type TableColumn,
} from '../common/tables';

/** The table chosen in the node's "Table" field. */
function currentTableId(scope: PickerScope): string {
	try {
		const v = scope.ctx.getNodeParameter('tableId', undefined, { extractValue: true });
		return typeof v === 'string' ? v.trim() : '';
	} catch {
		return '';
	}
}

async function currentTable(scope: PickerScope): Promise<PlatformTable | undefined> {
	const id = currentTableId(scope);
	return id ? await fetchTable(scope, id) : undefined;
}

export const searchTables = listSearch(async (scope, filter) => {
	const body = await apiRequest<IDataObject>(scope, {
		method: 'GET',
		path: TABLES_PATH,
		regional: true,
	});
	const tables = ((body?.data as PlatformTable[] | undefined) ?? []).filter(
		(t) => t && typeof t === 'object',
	);
	const f = (filter ?? '').trim().toLowerCase();
	return {
		results: tables
			.filter(
				(t) =>
					!f ||
					String(t.name ?? '')
						.toLowerCase()
						.includes(f) ||
					String(t.objectType ?? '')
						.toLowerCase()
						.includes(f) ||
					String(t._id) === f,
			)
			.map((t) => ({
				name: `${String(t.name ?? t._id)}${t.objectType ? ` (${t.objectType})` : ''}`,
				value: String(t._id),
			}))
			.sort((a, b) => a.name.localeCompare(b.name)),
	};
});

export const searchRecords = listSearch(async (scope, filter, paginationToken) => {
	const tableId = currentTableId(scope);
	if (!tableId) return { results: [] };
	const table = await fetchTable(scope, tableId);
	return await searchPage(
		scope,
		{
			method: 'POST',
			path: `${TABLES_PATH}/${encodeURIComponent(tableId)}/paged-record`,
			qs: { q: filter?.trim() || undefined },
			body: { logicalOperator: 'and', conditions: [] },
			regional: true,
		},
		'records',
		paginationToken,
		(r) => ({ name: recordTitle(table, r), value: String(r._id) }),
	);
});

const columnOption = (col: TableColumn): INodePropertyOptions => ({
	name: col.name || col.id,
	value: col.id,
	description: `${col.type} column (ID ${col.id})`,
});
const DATE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Created At', value: 'createdAt', description: 'When the record was created' },
	{ name: 'Updated At', value: 'updatedAt', description: 'When the record was last changed' },
];

/** Columns of the chosen table, for filter conditions (plus the record's creation and update dates). */
export const getFilterColumns = loadOptions(async (scope) => {
	const table = await currentTable(scope);
	return table ? [...columnsOf(table).map(columnOption), ...DATE_OPTIONS] : [];
});

/** Columns to sort by: the record's dates first (the platform sorts by creation date by default). */
export const getSortColumns = loadOptions(async (scope) => {
	const table = await currentTable(scope);
	return table ? [...DATE_OPTIONS, ...columnsOf(table).map(columnOption)] : DATE_OPTIONS;
});

/** Ref columns of the chosen table (whose referenced records can be fetched along). */
export const getRefColumns = loadOptions(async (scope) => {
	const table = await currentTable(scope);
	return table
		? columnsOf(table)
				.filter((c) => c.type === 'ref')
				.map(columnOption)
		: [];
});

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
			if (type === 'options')
				field.options = (col.options ?? []).map((o) => ({ name: o.name, value: o.name }));
			// n8n's mapper starts a boolean without a default at false, which would be sent: a switch
			// left untouched stays empty (null), and an empty cell is not sent.
			if (type === 'boolean') field.defaultValue = null;
			return field;
		});
}

async function mapperFields(scope: PickerScope, forCreate: boolean): Promise<ResourceMapperFields> {
	const table = await currentTable(scope);
	if (!table) return { fields: [], emptyFieldsNotice: 'Choose a table first' };
	const fields = columnFields(table, forCreate);
	return fields.length
		? { fields }
		: { fields, emptyFieldsNotice: 'This table has no editable columns' };
}

export const getRecordColumnsForCreate = resourceMapping(
	async (scope) => await mapperFields(scope, true),
);
export const getRecordColumnsForUpdate = resourceMapping(
	async (scope) => await mapperFields(scope, false),
);
