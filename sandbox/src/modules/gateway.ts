/**
 * Helpers shared by the people and payroll modules: the gateway error style,
 * field errors, int64 values, dotted paths, sorting and the people paging
 * parameters (limit/currentPage).
 */
import type { Env } from '../env';
import { ApiError, badRequest, notFound, type Query, type RouteOptions } from '../http';
import { compareValues, type Doc, type Tenant } from '../state';
import { requireStringArray, validate, type Schema } from '../validate';

/** People and payroll errors use the gatewayruntimeError body. */
export const GW: RouteOptions = { errorStyle: 'gateway' };

export const isObj = (v: unknown): v is Doc =>
	v !== null && typeof v === 'object' && !Array.isArray(v);
export const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : '');
export const fieldError = (field: string, error: string) =>
	badRequest(`Validation failed: ${field} ${error}`, [{ field, error }]);
export const conflict = (field: string, message: string) =>
	new ApiError(409, message, [{ field, error: 'already exists' }]);

/** int64 in gRPC-gateway JSON: a number or a digit string; stored as a string. */
export function int64(v: unknown, field: string): string | null {
	if (v === null || v === undefined) return null;
	if (typeof v === 'number' && Number.isInteger(v)) return String(v);
	if (typeof v === 'string' && /^-?\d+$/.test(v)) return v;
	throw fieldError(field, 'must be an int64 (an integer or a string of digits)');
}

/** Every value at a dotted path; arrays along the way are walked element by element. */
export function pathValues(doc: unknown, path: string): unknown[] {
	let cur: unknown[] = [doc];
	for (const part of path.split('.')) {
		cur = cur
			.flatMap((v) => (Array.isArray(v) ? v : [v]))
			.flatMap((v) => (isObj(v) && part in v ? [v[part]] : []));
	}
	return cur.flatMap((v) => (Array.isArray(v) ? v : [v]));
}

export function sortDocs<T extends Doc>(
	items: T[],
	path: string,
	dir: 'asc' | 'desc',
	tieBreak: string,
): T[] {
	const sign = dir === 'desc' ? -1 : 1;
	const key = (d: T) => (path.includes('.') ? pathValues(d, path)[0] : d[path]);
	return [...items].sort(
		(x, y) => sign * compareValues(key(x), key(y)) || compareValues(x[tieBreak], y[tieBreak]),
	);
}

/** limit/currentPage (int64 as strings; 0 means "not set"). */
export function peoplePage(env: Env, q: Query): { page: number; size: number } {
	const page = q.int('currentPage', { min: 0 }) || 1;
	const limit = q.int('limit', { min: 0 }) || env.config.defaultPageSize;
	return { page, size: Math.min(limit, env.config.maxPageSize) };
}

export function sortDir(
	raw: string | undefined,
	fallback: 'asc' | 'desc',
	field = 'order',
): 'asc' | 'desc' {
	if (raw === undefined) return fallback;
	const v = raw.toLowerCase();
	if (v === 'asc' || v === 'ascending' || v === '1') return 'asc';
	if (v === 'desc' || v === 'descending' || v === '-1') return 'desc';
	throw fieldError(field, 'must be asc or desc');
}

/** orderBy.field/orderBy.order win over field/order; `_id` names the resource id. */
export function orderOf(
	q: Query,
	idField: string,
	fallback: string,
	fallbackDir: 'asc' | 'desc',
): { field: string; dir: 'asc' | 'desc' } {
	const raw = q.str('orderBy.field') ?? q.str('field');
	const field = !raw ? fallback : raw === '_id' || raw === 'id' ? idField : raw;
	return { field, dir: sortDir(q.str('orderBy.order') ?? q.str('order'), fallbackDir) };
}

const BULK_ID_SCHEMA: Schema = { ids: 'string[]', forcedDelete: 'boolean' };

/** A v1BulkIdRequest: the ids (a non-empty list) and forcedDelete. */
export function bulkIds(body: Record<string, unknown>): { ids: string[]; forced: boolean } {
	const input = validate(body, BULK_ID_SCHEMA);
	return { ids: requireStringArray(input.ids, 'ids'), forced: input.forcedDelete === true };
}

export function findUserBy(tenant: Tenant, pred: (u: Doc) => boolean): Doc | undefined {
	return tenant.peopleUsers.values().find(pred);
}

export function getUser(tenant: Tenant, id: string): Doc {
	const u = tenant.peopleUsers.get(id);
	if (!u) throw notFound('User', id);
	return u;
}
