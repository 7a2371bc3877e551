/**
 * The table model: a dynamic table's metadata (columns and their options), how users
 * name its columns, and reading it once per execution. Table and record endpoints are
 * served by the regional base URL when the credential has one.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OpContext } from '../../shared/engine/model';
import type { RunScope } from '../../shared/run-scope';
import { echo } from '../../shared/text-readers';
import { apiRequest } from '../../shared/transport';

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

/** A table's columns: those of its list that have an ID (an answer not of the contract's shape gives fewer, or none). */
export const columnsOf = (table: PlatformTable): TableColumn[] =>
	Array.isArray(table.columnsMetaData)
		? table.columnsMetaData.filter(
				(c: unknown) =>
					c !== null && typeof c === 'object' && typeof (c as TableColumn).id === 'string',
			)
		: [];

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
		cols.find(
			(c) =>
				String(c.name ?? '')
					.trim()
					.toLowerCase() === wanted.toLowerCase(),
		)
	);
}

const tablePath = (tableId: string) => `${TABLES_PATH}/${encodeURIComponent(tableId)}`;

/**
 * A table's metadata only if the platform answered with a table (a JSON object): any other 200
 * (`null`, a list, a text) is the caller's error, before anything is read from it or sent with it.
 */
function asTable(
	answer: unknown,
	tableId: string,
	fail: (message: string, description: string) => Error,
): PlatformTable {
	if (answer !== null && typeof answer === 'object' && !Array.isArray(answer)) {
		const table = answer as PlatformTable;
		// An error names the table: by its ID where the answer gives it no name.
		return typeof table.name === 'string' && table.name ? table : { ...table, name: tableId };
	}
	throw fail(
		`The platform answered the request for table ${echo(tableId, 40)} with ${echo(answer, 40)}, not a table`,
		'Nothing was read from that answer and nothing was sent with it. Check the table ID (the list of tables shows it); if it is right, try again later: the platform did not answer as documented.',
	);
}

/** One table's metadata. */
export async function fetchTable(
	scope: RunScope,
	tableId: string,
	itemIndex?: number,
): Promise<PlatformTable> {
	const answer = await apiRequest<unknown>(scope, {
		method: 'GET',
		path: tablePath(tableId),
		regional: true,
		itemIndex,
	});
	return asTable(
		answer,
		tableId,
		(message, description) =>
			new NodeOperationError(scope.node, message, { description, itemIndex }),
	);
}

/** A table's metadata, read once per execution and table (items share it; a failed read is tried again). */
export async function tableFor(ctx: OpContext, tableId: string): Promise<PlatformTable> {
	return await ctx.scope.once(`table:${tableId}`, async () =>
		asTable(
			await ctx.request<unknown>({ method: 'GET', path: tablePath(tableId), regional: true }),
			tableId,
			(message, description) => ctx.fail(message, description),
		),
	);
}

/** A table's metadata, read once per run scope with the scope's requests (the Table Trigger: once per poll). */
export async function scopeTable(scope: RunScope, tableId: string): Promise<PlatformTable> {
	return await scope.once(`table:${tableId}`, async () => await fetchTable(scope, tableId));
}

/** The text that names a record: its NAME column, else its first text cell, else its id. */
export function recordTitle(table: PlatformTable, record: IDataObject): string {
	const cells = (record.cells as IDataObject | undefined) ?? {};
	const cols = columnsOf(table);
	const named =
		cols.find((c) => c.columnCode === 'NAME') ??
		cols.find(
			(c) =>
				['text', 'string', 'email'].includes(c.type) &&
				typeof cells[c.id] === 'string' &&
				cells[c.id] !== '',
		);
	const title = named ? cells[named.id] : undefined;
	return typeof title === 'string' && title.trim() ? title : String(record._id);
}
