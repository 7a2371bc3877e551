/** Constants, dates and sorting shared by the payroll resources. */
import type { Session } from '../../auth';
import type { Env } from '../../env';
import type { Ctx } from '../../http';
import type { Doc } from '../../state';
import { fieldError, pathValues, peoplePage, sortDir } from '../gateway';

export const ZERO_TIME = '0001-01-01T00:00:00Z';
export const DAY = 86400000;
/** Pay periods per year. */
export const PERIODS: Record<string, number> = {
	weekly: 52,
	biweekly: 26,
	semimonthly: 24,
	monthly: 12,
};

export const round2 = (n: number) => Math.round(n * 100) / 100;
const pad = (n: number) => String(n).padStart(2, '0');

const MDY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
export const RANGE = /^\s*(\d{1,2}\/\d{1,2}\/\d{4})\s*-\s*(\d{1,2}\/\d{1,2}\/\d{4})\s*$/;

/** parseMdy's answers: a payrun's pay figures read the dates of every earlier payrun, for each of its users. */
const mdyParsed = new Map<string, number | undefined>();

/** month/day/year text → UTC midnight in ms; undefined when not a real date. */
export function parseMdy(s: string): number | undefined {
	if (mdyParsed.has(s)) return mdyParsed.get(s);
	if (mdyParsed.size >= 4096) mdyParsed.clear();
	const t = readMdy(s);
	mdyParsed.set(s, t);
	return t;
}

function readMdy(s: string): number | undefined {
	const m = MDY.exec(s.trim());
	if (!m) return undefined;
	const [mo, d, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
	const t = Date.UTC(y, mo - 1, d);
	const dt = new Date(t);
	return dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d ? t : undefined;
}

/** month/day/year or ISO 8601; 400 naming `field` otherwise. */
export function parseDate(v: string, field: string): number {
	const t = MDY.test(v.trim())
		? parseMdy(v)
		: /^\d{4}-\d{2}-\d{2}/.test(v)
			? Date.parse(v)
			: undefined;
	if (t === undefined || Number.isNaN(t))
		throw fieldError(field, 'must be a date as MM/DD/YYYY or YYYY-MM-DD');
	return t;
}

export const mdy = (t: number) => {
	const d = new Date(t);
	return `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()}`;
};
export const startOfDay = (t: number) => t - (t % DAY);

/** Sort keys: month/day/year text sorts as a date; workPeriod by its start. */
function sortKey(d: Doc, field: string): unknown {
	const v = pathValues(d, field === 'workPeriod' ? 'workPeriod.from' : field)[0];
	if (typeof v === 'string' && MDY.test(v)) return new Date(parseMdy(v) ?? 0).toISOString();
	return v;
}

export function sortDocs(items: Doc[], field: string, dir: 'asc' | 'desc'): Doc[] {
	const sign = dir === 'desc' ? -1 : 1;
	const cmp = (a: unknown, b: unknown) => {
		if (a === b) return 0;
		if (a === undefined || a === null || a === '') return -1;
		if (b === undefined || b === null || b === '') return 1;
		if (typeof a === 'number' && typeof b === 'number') return a - b;
		return String(a) < String(b) ? -1 : 1;
	};
	return [...items].sort(
		(x, y) => sign * cmp(sortKey(x, field), sortKey(y, field)) || cmp(x._id, y._id),
	);
}

/** limit/currentPage paging with sortField/sortOrder (default: newest first). */
export function pageOf(
	env: Env,
	ctx: Ctx<Session>,
): { page: number; size: number; sortField: string; dir: 'asc' | 'desc' } {
	return {
		...peoplePage(env, ctx.query),
		sortField: ctx.query.str('sortField') ?? 'createdAt',
		dir: sortDir(ctx.query.str('sortOrder'), 'desc', 'sortOrder'),
	};
}
