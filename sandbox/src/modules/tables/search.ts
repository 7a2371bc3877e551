/**
 * POST /v1/crm/core/table/:tableId/paged-record: filter (conditions joined by
 * logicalOperator, plus `q` over the text columns), sort by one column, page.
 * With fetchAllRef / colIdsToFetchRef, ref cells keep their ids and the record
 * gets a sibling key `refData`: { [colId]: [{ _id, cells, createdAt, updatedAt, createdBy }] }
 * (records that no longer exist are left out).
 */
import type { Session } from '../../auth';
import { tenantOf, type Env } from '../../env';
import { badRequest, json, objectBody, type Ctx, type Reply } from '../../http';
import type { Doc, Tenant } from '../../state';
import { validate, validateEach, type Schema } from '../../validate';
import { accessor, compileCondition, labelsOf, lower, timestamp } from './filters';
import { columnMap, isEmpty, TEXT_TYPES, type Column, type Table, type TableRecord } from './model';
import { getTable, recordsOf } from './tables';

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
function sortRecords(
	tenant: Tenant,
	table: Table,
	items: TableRecord[],
	colId: string,
	dir: 1 | -1,
): TableRecord[] {
	const key = sortKeyOf(tenant, table, colId);
	const keyed = items.map((r) => ({ k: key(r), id: r._id, r }));
	keyed.sort((x, y) => dir * (compareKeys(x.k, y.k) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)));
	return keyed.map((x) => x.r);
}

const CONDITION_SCHEMA: Schema = { colId: 'string', opr: 'string', value: 'string' };

export function pagedRecords(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const table = getTable(tenant, ctx.params.tableId);
	const records = recordsOf(tenant, table);
	const body = validate(objectBody(ctx), { logicalOperator: 'string', conditions: 'object[]' }, [
		'logicalOperator',
	]);
	const logical = String(body.logicalOperator).toLowerCase();
	if (logical !== 'and' && logical !== 'or')
		throw badRequest('logicalOperator must be and or or', [
			{ field: 'logicalOperator', error: 'must be and or or' },
		]);
	const conditions = validateEach(
		(body.conditions as unknown[] | null) ?? [],
		CONDITION_SCHEMA,
		'conditions',
		['colId', 'opr'],
	);
	const preds = conditions.map((c, i) => compileCondition(tenant, table, c, i));

	const q = ctx.query;
	const search = q.str('q')?.toLowerCase();
	const pageNo = q.int('pageNo', { min: 1 }) ?? 1;
	const pageSize = Math.min(q.int('pageSize', { min: 1 }) ?? 30, env.config.maxPageSize);
	const sortCol = q.str('sortCol') ?? 'createdAt';
	if (!accessor(table, sortCol))
		throw badRequest(`Unknown sort column ${sortCol}`, [
			{ field: 'sortCol', error: `unknown column ${sortCol}` },
		]);
	const sortDirRaw = q.str('sortDir') ?? '-1';
	if (sortDirRaw !== '1' && sortDirRaw !== '-1')
		throw badRequest('sortDir must be 1 or -1', [{ field: 'sortDir', error: 'must be 1 or -1' }]);
	const sortDir = Number(sortDirRaw) as 1 | -1;
	const fetchAllRef = q.bool('fetchAllRef') ?? false;
	const refColIds = fetchAllRef
		? table.columnsMetaData.filter((c) => c.type === 'ref').map((c) => c.id)
		: (q.list('colIdsToFetchRef') ?? []);
	const cols = columnMap(table);
	const refCols = refColIds.map((id) => {
		const col = cols.get(id);
		if (!col || col.type !== 'ref')
			throw badRequest(`colIdsToFetchRef: ${id} is not a ref column`, [
				{ field: 'colIdsToFetchRef', error: `${id} is not a ref column of this table` },
			]);
		return col;
	});

	const textCols = table.columnsMetaData.filter((c) => TEXT_TYPES.has(c.type)).map((c) => c.id);
	const key = JSON.stringify([logical, conditions, search, sortCol, sortDir]);
	const all = records.query(key, (items) => {
		const recs = items as TableRecord[];
		const matched = recs.filter((r) => {
			if (
				search &&
				!textCols.some(
					(id) =>
						typeof r.cells[id] === 'string' &&
						(r.cells[id] as string).toLowerCase().includes(search),
				)
			)
				return false;
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
			.map((r) => ({
				_id: r._id,
				cells: r.cells,
				createdAt: r.createdAt,
				updatedAt: r.updatedAt,
				createdBy: r.createdBy,
			}));
	}
	return { ...rec, refData };
}
