/** Tables — GET /v1/crm/core/table, /by-object-type and /:tableId. */
import type { Session } from '../../auth';
import { tenantOf, type Env } from '../../env';
import { json, notFound, type Ctx, type Reply } from '../../http';
import type { Collection, Doc, Tenant } from '../../state';
import type { Table } from './model';

export function getTable(tenant: Tenant, id: string): Table {
	const t = tenant.tables.get(id);
	if (!t) throw notFound('Table', id);
	return t as Table;
}

export function recordsOf(tenant: Tenant, table: Table): Collection<string, Doc> {
	const c = tenant.records.get(table._id);
	if (!c) throw notFound('Table', table._id);
	return c;
}

function listTables(env: Env, ctx: Ctx<Session>): Table[] {
	const types = ctx.query.list('objectTypes')?.map((t) => t.toUpperCase());
	const db = ctx.query.str('databaseName');
	return (tenantOf(env, ctx).tables.values() as Table[]).filter(
		(t) => (!types || types.includes(t.objectType)) && (!db || t.databaseName === db),
	);
}

export function listTablesRoute(env: Env, ctx: Ctx<Session>): Reply {
	const data = listTables(env, ctx);
	return json(200, { data, totalCount: data.length });
}

export const tablesByObjectType = (env: Env, ctx: Ctx<Session>): Reply =>
	json(200, Object.fromEntries(listTables(env, ctx).map((t) => [t.objectType, t])));

export const getTableRoute = (env: Env, ctx: Ctx<Session>): Reply =>
	json(200, getTable(tenantOf(env, ctx), ctx.params.tableId));
