/** Table: what its operations share. */

import type { IDataObject } from 'n8n-workflow';

import type { Field, OpContext } from '../../../shared/engine/model';
import { compact, locator, options, queryField } from '../../../shared/fields';
import { columnsOf, type PlatformTable } from '../table/model';

export const tableLocator = locator({ name: 'tableId', displayName: 'Table', search: 'searchTables', numeric: false, placeholder: 'e.g. 65f1c0ffee0123456789abcd', description: 'The table to use' });

export function tableIdValue(value: unknown, ctx: OpContext): string {
	const id = String(value ?? '').trim();
	if (!id) throw ctx.fail('Table is empty', 'Pick a table from the list, or give its ID.');
	return id;
}

const OBJECT_TYPES = options([
	['Contact', 'CONTACT'],
	['Deal', 'DEAL'],
	['Pipeline', 'PIPELINE'],
	['Stage', 'STAGE'],
]);

/** objectTypes and databaseName, shared by Get Many and Get by Object Type. */
export const tableFilters = (): Field[] => [
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

/** What a model reads that Table → Get and Get Many return: the columns to write records with. */
export const COLUMNS_RETURNED = (what: string) =>
	`${what} with its ID, name and columns: each column’s name, type (text, number, boolean, date, select, multi-select, user, ref, json …), whether it is required, and the allowed options of select columns. Use them to give a record’s cells by column name`;

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
