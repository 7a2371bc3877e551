/** Dynamic tables (metadata of the sales data's tables) — /v1/crm/core/table. */
import type { IDataObject } from 'n8n-workflow';

import { compact, locator, options, queryField } from '../../shared/fields';
import type { Field, OpContext, Operation, Resource } from '../../shared/engine/model';
import { searchTables } from '../methods/tables';
import { columnsOf, TABLES_PATH, type PlatformTable } from './table/model';

export const tableLocator = locator({ name: 'tableId', displayName: 'Table', search: 'searchTables', numeric: false, placeholder: 'e.g. 65f1c0ffee0123456789abcd', description: 'The table to use' });

export function tableIdValue(value: unknown, ctx: OpContext): string {
	const id = String(value ?? '').trim();
	if (!id) throw ctx.fail('Table is empty', 'Pick a table from the list, or give its ID.');
	return id;
}

const tableField: Field = { property: tableLocator, send: { in: 'path', key: 'tableId', map: tableIdValue } };

const OBJECT_TYPES = options([
	['Contact', 'CONTACT'],
	['Deal', 'DEAL'],
	['Pipeline', 'PIPELINE'],
	['Stage', 'STAGE'],
]);

/** objectTypes and databaseName, shared by Get Many and Get by Object Type. */
const tableFilters = (): Field[] => [
	queryField(
		{
			displayName: 'Object Types',
			name: 'objectTypes',
			type: 'multiOptions',
			options: OBJECT_TYPES,
			default: [],
			description: 'Only tables of these object types (all when empty)',
		},
		'objectTypes',
		(v) => (Array.isArray(v) && v.length ? v.map((t) => String(t).trim().toUpperCase()).filter(Boolean).join(',') : typeof v === 'string' && v.trim() ? v.trim().toUpperCase() : undefined),
	),
	queryField({ displayName: 'Database Name', name: 'databaseName', type: 'string', default: '', placeholder: 'e.g. crm', description: 'Only tables of this database' }, 'databaseName', (v) =>
		typeof v === 'string' && v.trim() ? v.trim() : undefined,
	),
];

/** The useful part of a table: what it is, and its columns in short. */
export function simplifyTable(t: IDataObject): IDataObject {
	const table = t as unknown as PlatformTable;
	return compact({
		_id: table._id,
		name: table.name,
		objectType: table.objectType,
		databaseName: table.databaseName,
		databaseId: table.databaseId,
		columns: columnsOf(table).map((c) =>
			compact({
				id: c.id,
				name: c.name,
				type: c.type,
				required: c.required ? true : undefined,
				hidden: c.hidden ? true : undefined,
				options: Array.isArray(c.options) && c.options.length ? c.options.map((o) => o.name) : undefined,
				refObjectType: c.refTable?.objectType,
			}),
		) as unknown as IDataObject[],
		createdAt: table.createdAt,
		updatedAt: table.updatedAt,
		createdBy: table.createdBy,
	});
}

const isObject = (v: unknown): v is IDataObject => v !== null && typeof v === 'object' && !Array.isArray(v);

const ops: Operation[] = [
	{
		value: 'get',
		name: 'Get',
		action: 'Get a table',
		description: 'Get one table with its columns',
		method: 'GET',
		path: `${TABLES_PATH}/{tableId}`,
		regional: true,
		fields: [tableField],
		simplify: simplifyTable,
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many tables',
		description: 'List the tables, by object type or database',
		method: 'GET',
		path: TABLES_PATH,
		regional: true,
		fields: [
			...tableFilters(),
		],
		// The list is not paged ({ data, totalCount } in one answer): one request, the limit applied by the node.
		paginate: 'dataOnce',
		simplify: simplifyTable,
	},
	{
		value: 'getByObjectType',
		name: 'Get by Object Type',
		action: 'Get tables by object type',
		description: 'Get the table of each object type (one item per table)',
		method: 'GET',
		path: `${TABLES_PATH}/by-object-type`,
		regional: true,
		fields: tableFilters(),
		simplify: simplifyTable,
		output: (answer) => {
			if (!isObject(answer)) return [];
			return Object.entries(answer)
				.filter(([, t]) => isObject(t))
				.map(([objectType, t]) => ({ ...(t as IDataObject), objectType: (t as IDataObject).objectType ?? objectType }));
		},
	},
];

export const tableResource: Resource = {
	value: 'table',
	name: 'Table',
	description: 'Tables of the sales data and their columns',
	operations: ops,
	methods: { listSearch: { searchTables } },
};
