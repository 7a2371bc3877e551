/** Table: what its operations share. */

import type { IDataObject } from 'n8n-workflow';

import type { Field, OpContext } from '../../../shared/engine/model';
import { locator, options, queryField } from '../../../shared/engine/fields';
import { compact } from '../../../shared/field-values';
import { columnsOf, type PlatformTable, TABLES_PATH } from '../../common/tables';

export const tableLocator = locator({
	name: 'tableId',
	displayName: 'Table',
	search: 'searchTables',
	numeric: false,
	placeholder: 'e.g. 65f1c0ffee0123456789abcd',
	description: 'The table to use',
});

export function tableIdValue(value: unknown, ctx: OpContext): string {
	const id = String(value ?? '').trim();
	if (!id) throw ctx.fail('Table is empty', 'Pick a table from the list, or give its ID.');
	return id;
}

/** The table as given in the node's Table field (the ID or, for a model, the name). */
export const tableIdOf = (ctx: OpContext) => tableIdValue(ctx.param('tableId'), ctx);

const cut = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** A platform table ID (a 24-digit hex object ID); anything else given as the table is read as its name. */
const TABLE_ID = /^[0-9a-f]{24}$/i;

/** The ID of the table named `name` (exactly, else ignoring case), from the list of tables. */
async function tableIdByName(ctx: OpContext, name: string): Promise<string> {
	const answer = await ctx.request<{ data?: Array<{ _id?: unknown; name?: unknown }> }>({
		method: 'GET',
		path: TABLES_PATH,
		regional: true,
	});
	const tables = (Array.isArray(answer?.data) ? answer.data : []).filter(
		(t) => typeof t?._id === 'string' && typeof t.name === 'string',
	) as Array<{ _id: string; name: string }>;
	const exact = tables.filter((t) => t.name === name);
	const found = exact.length
		? exact
		: tables.filter((t) => t.name.trim().toLowerCase() === name.toLowerCase());
	const names =
		tables
			.map((t) => `${t.name} (${t._id})`)
			.slice(0, 50)
			.join(', ') || 'none';
	if (found.length === 1) return found[0]._id;
	if (found.length > 1)
		throw ctx.fail(
			`More than one table is named "${cut(name)}": ${found.map((t) => t._id).join(', ')}`,
			'Give the table by its ID.',
		);
	throw ctx.fail(
		`No table is named "${cut(name)}" and it is not a table ID. Tables: ${names}`,
		'Give a table’s name or ID from this list (Table → Get Many lists them).',
	);
}

/**
 * The record's table: its ID as given, or, when what was given is no table ID, the ID
 * of the table of that name (so a model can name the table). Read once per execution.
 */
export async function tableIdFor(ctx: OpContext): Promise<string> {
	const given = tableIdOf(ctx);
	if (TABLE_ID.test(given)) return given;
	return await ctx.scope.once(`table-named:${given}`, async () => await tableIdByName(ctx, given));
}

/** The request's table path with the table's ID when the table was given by name. */
export async function withTableId(req: { path: string }, ctx: OpContext): Promise<void> {
	const given = tableIdOf(ctx);
	const id = await tableIdFor(ctx);
	const from = `${TABLES_PATH}/${encodeURIComponent(given)}`;
	if (id !== given && (req.path === from || req.path.startsWith(`${from}/`)))
		req.path = `${TABLES_PATH}/${encodeURIComponent(id)}${req.path.slice(from.length)}`;
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
		(v) =>
			Array.isArray(v) && v.length
				? v
						.map((t) => String(t).trim().toUpperCase())
						.filter(Boolean)
						.join(',')
				: typeof v === 'string' && v.trim()
					? v.trim().toUpperCase()
					: undefined,
	),
	queryField(
		{
			displayName: 'Database Name',
			name: 'databaseName',
			type: 'string',
			default: '',
			placeholder: 'e.g. crm',
			description: 'Only tables of this database',
		},
		'databaseName',
		(v) => (typeof v === 'string' && v.trim() ? v.trim() : undefined),
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
				options:
					Array.isArray(c.options) && c.options.length ? c.options.map((o) => o.name) : undefined,
				refObjectType: c.refTable?.objectType,
			}),
		) as unknown as IDataObject[],
		createdAt: table.createdAt,
		updatedAt: table.updatedAt,
		createdBy: table.createdBy,
	});
}
