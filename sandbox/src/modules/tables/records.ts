/**
 * Records of a table — /v1/crm/core/table/:tableId/record… and /count.
 * Statuses as documented: create 201 RecordCUResponse, update 200
 * RecordCUResponse, delete 200 RecordDeleteResponse, count 200.
 * - PUT merges: only the cells in the body change; a cell sent as null is cleared.
 * - `permissions.owners` is present on CONTACT and DEAL records only (the spec
 *   says it applies to contact, deal and activity tables): the ids of the "Owner"
 *   user column, or the creator when that column is empty.
 */
import type { Session } from '../../auth';
import { tenantOf, type Env } from '../../env';
import { json, notFound, objectBody, type Ctx, type Reply } from '../../http';
import { nowIso, type Collection, type Doc } from '../../state';
import { validate } from '../../validate';
import { cleanCells } from './cells';
import type { Table, TableRecord } from './model';
import { getTable, recordsOf } from './tables';

function getRecord(records: Collection<string, Doc>, id: string): TableRecord {
	const r = records.get(id);
	if (!r) throw notFound('Record', id);
	return r as TableRecord;
}

const ownerColumn = (table: Table) =>
	table.columnsMetaData.find((c) => c.type === 'user' && c.columnCode === 'OWNER');
const hasPermissions = (table: Table) =>
	table.objectType === 'CONTACT' || table.objectType === 'DEAL';

export function setPermissions(table: Table, rec: TableRecord): void {
	if (!hasPermissions(table)) return;
	const col = ownerColumn(table);
	const owners = col && Array.isArray(rec.cells[col.id]) ? (rec.cells[col.id] as number[]) : [];
	rec.permissions = { owners: owners.length ? [...owners] : [rec.createdBy] };
}

export function postRecord(env: Env, ctx: Ctx<Session>): Reply {
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
}

export function countRecords(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	return json(200, { count: recordsOf(tenant, getTable(tenant, ctx.params.tableId)).size });
}

export function getRecordRoute(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	return json(
		200,
		getRecord(recordsOf(tenant, getTable(tenant, ctx.params.tableId)), ctx.params.recordId),
	);
}

export function putRecord(env: Env, ctx: Ctx<Session>): Reply {
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
}

export function deleteRecord(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const records = recordsOf(tenant, getTable(tenant, ctx.params.tableId));
	const rec = getRecord(records, ctx.params.recordId);
	records.delete(rec._id);
	return json(200, { success: true, id: rec._id });
}
