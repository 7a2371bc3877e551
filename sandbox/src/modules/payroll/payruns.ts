/**
 * Payruns and their journal entries — /v1/people-pay-run/payruns…
 *
 * Every success is 200; errors use the gatewayruntimeError body. Choices where
 * the spec says "not shown":
 * - A created payrun is a draft (stage "draft", processed false) and gets no
 *   paystubs; seeded payruns are "completed" and have one paystub per payroll.
 * - isForAllUsers takes every active user with makePayroll who joined by the
 *   end of the work period, contractors only when isForContractors is true;
 *   otherwise employees must be user ids of the tenant.
 * - Dates in requests may be month/day/year or ISO (YYYY-MM-DD…); stored as
 *   month/day/year text (workPeriod, payDate, firstPayDate).
 * - sync-je: from no journal entry or REVERTED; a payrun already POSTED is 400
 *   and nothing of the request is applied. revert-je: only POSTED with the
 *   matching jeId and a revert date not before the posting date; the reversal
 *   gets its own journal id (jeDetails entry with isRevertJE true) while the
 *   payrun's jeId keeps the posted entry.
 * - DELETE also removes the payruns' paystubs; any unknown id is 404 and
 *   nothing is deleted.
 * - searchString "MM/DD/YYYY-MM/DD/YYYY" keeps payruns whose workPeriod lies
 *   within the range (whatever searchField says); other text matches payPeriod
 *   and paySchedule.name (or searchField when it names a payrun field).
 */
import type { Session } from '../../auth';
import { tenantOf, type Env } from '../../env';
import { arrayBody, json, notFound, objectBody, text, type Ctx, type Reply } from '../../http';
import { nowIso, payrunFilterResponse, slice, textMatch, type Doc, type Tenant } from '../../state';
import { validate, validateEach, type Schema } from '../../validate';
import { fieldError, isObj, lower, pathValues, peoplePage, sortDir } from '../gateway';
import {
	DAY,
	pageOf,
	parseDate,
	parseMdy,
	PERIODS,
	RANGE,
	sortDocs,
	startOfDay,
	ZERO_TIME,
} from './common';
import { buildPayrun, type PayrunInput } from './pay';

const TIME_FIELDS = [
	'createdAt',
	'updatedAt',
	'processedAt',
	'paymentDoneAt',
	'revertedAt',
	'jePostedOn',
];

const PAYRUN_SCHEMA: Schema = {
	countryCode: 'string',
	tenantId: 'string',
	deleted: 'boolean',
	payrunType: 'integer',
	location: 'integer',
	paySchedule: 'object',
	payPeriod: 'string',
	workWeek: 'integer[]',
	payDay: 'string',
	firstPayDate: 'string',
	payDate: 'string',
	workPeriod: 'object',
	isForAllUsers: 'boolean',
	isForContractors: 'boolean',
	employees: 'string[]',
	customFields: 'object[]',
};

/** Payruns in lists carry no payrolls. */
const listView = (p: Doc): Doc =>
	Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'payrolls'));

/** The DELETE answer: a Payrun-shaped object with zero values. */
function emptyPayrun(sample: Doc): Doc {
	const out: Doc = {};
	for (const [k, v] of Object.entries(sample)) {
		if (TIME_FIELDS.includes(k)) out[k] = ZERO_TIME;
		else if (typeof v === 'string') out[k] = '';
		else if (typeof v === 'number') out[k] = 0;
		else if (typeof v === 'boolean') out[k] = false;
		else if (Array.isArray(v)) out[k] = [];
		else if (k === 'paySchedule') out[k] = { id: '', name: '' };
		else if (k === 'workPeriod') out[k] = { from: '', to: '' };
		else out[k] = null;
	}
	return out;
}

// ---------- request parsing ----------

/** Who an all-users payrun pays: active users with makePayroll who joined by the end of the work period. */
export function payable(u: Doc, periodEnd: number): boolean {
	const joined = Date.parse(String(u.dateOfJoining));
	return (
		u.status === 'active' &&
		u.makePayroll !== false &&
		(Number.isNaN(joined) || joined <= periodEnd + DAY - 1)
	);
}

function payrunInput(
	tenant: Tenant,
	body: Record<string, unknown>,
): { input: PayrunInput; users: Doc[] } {
	const v = validate(body, PAYRUN_SCHEMA, ['workPeriod']);
	const wp = validate(
		v.workPeriod as Doc,
		{ from: 'string', to: 'string' },
		['from', 'to'],
		'workPeriod.',
	);
	const from = startOfDay(parseDate(wp.from as string, 'workPeriod.from'));
	const to = startOfDay(parseDate(wp.to as string, 'workPeriod.to'));
	if (to < from) throw fieldError('workPeriod.to', 'must not be before workPeriod.from');
	if (to - from > 366 * DAY) throw fieldError('workPeriod', 'must not span more than a year');
	const payDate = v.payDate ? parseDate(v.payDate as string, 'payDate') : to;
	const firstPayDate = v.firstPayDate
		? parseDate(v.firstPayDate as string, 'firstPayDate')
		: payDate;
	const payPeriod = lower(v.payPeriod ?? 'monthly') || 'monthly';
	if (!(payPeriod in PERIODS))
		throw fieldError('payPeriod', `must be one of ${Object.keys(PERIODS).join(', ')}`);
	const workWeek = (v.workWeek as number[] | null) ?? [1, 2, 3, 4, 5];
	workWeek.forEach((d, i) => {
		if (d < 0 || d > 7) throw fieldError(`workWeek[${i}]`, 'must be a day number from 0 to 7');
	});
	const schedule = isObj(v.paySchedule)
		? validate(v.paySchedule, { id: 'string', name: 'string' }, [], 'paySchedule.')
		: {};
	const customFields = Array.isArray(v.customFields)
		? validateEach(
				v.customFields,
				{ fieldId: 'string', fieldName: 'string', fieldValue: 'string[]' },
				'customFields',
			)
		: [];
	const isForAllUsers = v.isForAllUsers === true;
	const isForContractors = v.isForContractors === true;
	let users: Doc[];
	if (isForAllUsers) {
		users = tenant.peopleUsers
			.values()
			.filter((u) => payable(u, to) && (isForContractors || u.type !== 'CONTRACTOR'));
	} else {
		const ids = (v.employees as string[] | null) ?? [];
		if (!ids.length)
			throw fieldError('employees', 'must name at least one user unless isForAllUsers is true');
		users = [...new Set(ids)].map((id, i) => {
			const u = tenant.peopleUsers.get(id);
			if (!u) throw fieldError(`employees[${i}]`, `${id} is not a user of this tenant`);
			return u;
		});
	}
	if (!users.length) throw fieldError('employees', 'no user qualifies for this payrun');
	return {
		input: {
			payrunType: (v.payrunType as number | null) ?? 1,
			location: (v.location as number | null) ?? 0,
			countryCode: (v.countryCode as string | null) ?? '',
			paySchedule: {
				id: (schedule.id as string | null) ?? '',
				name: (schedule.name as string | null) ?? '',
			},
			payPeriod,
			workWeek,
			payDay: (v.payDay as string | null) ?? '',
			firstPayDate,
			payDate,
			from,
			to,
			isForAllUsers,
			isForContractors,
			customFields,
		},
		users,
	};
}

/** The items of a JE request body; payrun ids must be known and distinct. */
function jeItems(
	tenant: Tenant,
	body: Record<string, unknown>,
	field: string,
	schema: Schema,
): { item: Doc; payrun: Doc; at: string }[] {
	const list = validate(body, { [field]: 'object[]' }, [field])[field] as unknown[];
	if (!list.length) throw fieldError(field, 'must not be empty');
	const items = validateEach(list, schema, field, Object.keys(schema));
	const seen = new Set<string>();
	return items.map((item, i) => {
		const id = item.payrunId as string;
		if (seen.has(id)) throw fieldError(`${field}[${i}].payrunId`, 'appears twice');
		seen.add(id);
		const payrun = tenant.payruns.get(id);
		if (!payrun) throw notFound('Payrun', id);
		const dateField = 'jeDate' in schema ? 'jeDate' : 'jeRevertDate';
		return {
			item,
			payrun,
			at: new Date(
				parseDate(item[dateField] as string, `${field}[${i}].${dateField}`),
			).toISOString(),
		};
	});
}

/** One jeDetails entry: a posting, or the reversal of one (which gets its own journal id). */
export const journalEntry = (jeStatus: 'POSTED' | 'REVERTED', jeId: string, at: string): Doc => ({
	jeStatus,
	jeId,
	jePostedOn: at,
	jeEntryNumber: `JE-${jeId}`,
	isRevertJE: jeStatus === 'REVERTED',
});

export function listPayruns(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const { page, size, sortField, dir } = pageOf(env, ctx);
	const search = ctx.query.str('searchString');
	const searchField = ctx.query.str('searchField');
	let range: [number, number] | undefined;
	const m = search ? RANGE.exec(search) : null;
	if (m) {
		const start = parseMdy(m[1]);
		const end = parseMdy(m[2]);
		if (start === undefined || end === undefined)
			throw fieldError('searchString', 'holds an invalid date');
		if (end < start) throw fieldError('searchString', 'ends before it starts');
		range = [start, end];
	}
	const all = tenant.payruns.query(
		JSON.stringify(['payruns', search, searchField, sortField, dir]),
		(items) =>
			sortDocs(
				items.filter((p) => {
					if (range) {
						const wp = p.workPeriod as Doc;
						const from = parseMdy(String(wp.from));
						const to = parseMdy(String(wp.to));
						return from !== undefined && to !== undefined && from >= range[0] && to <= range[1];
					}
					if (!search) return true;
					const fields =
						searchField && pathValues(p, searchField).length
							? [searchField]
							: ['payPeriod', 'paySchedule.name'];
					return fields.some((f) =>
						pathValues(p, f).some((v) => textMatch(typeof v === 'number' ? String(v) : v, search)),
					);
				}),
				sortField,
				dir,
			),
	);
	const s = slice(all, page, size);
	return json(200, { payruns: s.items.map(listView), filterResponse: payrunFilterResponse(s) });
}

export function postPayrun(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const { input, users } = payrunInput(tenant, objectBody(ctx));
	const p = buildPayrun(env, tenant, input, users, () => 0);
	tenant.payruns.set(p._id as string, p);
	return json(200, p);
}

export function deletePayruns(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const list = arrayBody(ctx);
	if (!list.length) throw fieldError('body', 'must name at least one payrun');
	const ids = validateEach(list, { payrunId: 'string' }, 'body', ['payrunId']).map(
		(x) => x.payrunId as string,
	);
	const missing = ids.filter((id) => !tenant.payruns.has(id));
	if (missing.length) throw notFound('Payrun', missing.join(', '));
	const sample = tenant.payruns.get(ids[0])!;
	const gone = new Set(ids);
	for (const id of gone) tenant.payruns.delete(id);
	for (const stub of tenant.paystubs.values())
		if (gone.has(stub.payrunId as string)) tenant.paystubs.delete(stub._id as string);
	return json(200, emptyPayrun(sample));
}

/** GET /v1/people-pay-run/payruns/year/:year */
export function listPayrunsOfYear(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const raw = ctx.params.year;
	if (!/^\d{4}$/.test(raw)) throw fieldError('year', 'must be a four-digit year');
	const year = Number(raw);
	const { page, size } = peoplePage(env, ctx.query);
	const sortField = ctx.query.str('sortField') ?? 'month';
	const dir = sortDir(ctx.query.str('sortOrder'), 'asc', 'sortOrder');
	const all = tenant.payruns.query(JSON.stringify(['year', year, sortField, dir]), (items) =>
		sortDocs(
			items.filter((p) => p.year === year),
			sortField,
			dir,
		),
	);
	return json(200, { payruns: slice(all, page, size).items.map(listView) });
}

/** POST /v1/people-pay-run/payruns/sync-je: posts a journal entry for each payrun. */
export function syncJournalEntries(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const items = jeItems(tenant, objectBody(ctx), 'payrun', {
		jeDate: 'string',
		payrunId: 'string',
	});
	items.forEach(({ payrun }, i) => {
		if (payrun.jeStatus === 'POSTED')
			throw fieldError(
				`payrun[${i}].payrunId`,
				`payrun ${String(payrun._id)} already has the posted journal entry ${String(payrun.jeId)}`,
			);
	});
	const done: string[] = [];
	for (const { payrun, at } of items) {
		const jeId = String(env.store.nextInt('je'));
		const entry = `JE-${jeId}`;
		Object.assign(payrun, {
			jeStatus: 'POSTED',
			jeId,
			jeEntryNumber: entry,
			jePostedOn: at,
			isPayrunReverted: false,
			updatedAt: nowIso(),
		});
		payrun.jeDetails = [...(payrun.jeDetails as Doc[]), journalEntry('POSTED', jeId, at)];
		done.push(`${String(payrun._id)} (journal entry ${jeId})`);
	}
	tenant.payruns.touch();
	return text(
		200,
		`Journal entries posted successfully for ${done.length} payrun(s): ${done.join(', ')}`,
	);
}

/** POST /v1/people-pay-run/payruns/revert-je: reverts each payrun's posted journal entry. */
export function revertJournalEntries(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const items = jeItems(tenant, objectBody(ctx), 'revertPayrun', {
		jeId: 'integer',
		jeRevertDate: 'string',
		payrunId: 'string',
	});
	items.forEach(({ item, payrun, at }, i) => {
		if (payrun.jeStatus !== 'POSTED')
			throw fieldError(
				`revertPayrun[${i}].payrunId`,
				`payrun ${String(payrun._id)} has no posted journal entry to revert`,
			);
		if (String(item.jeId) !== payrun.jeId)
			throw fieldError(
				`revertPayrun[${i}].jeId`,
				`does not match the payrun's posted journal entry ${String(payrun.jeId)}`,
			);
		if (at < String(payrun.jePostedOn).slice(0, 10))
			throw fieldError(`revertPayrun[${i}].jeRevertDate`, 'must not be before the posting date');
	});
	const done: string[] = [];
	for (const { payrun, at } of items) {
		const jeId = String(env.store.nextInt('je'));
		Object.assign(payrun, {
			jeStatus: 'REVERTED',
			isPayrunReverted: true,
			revertedAt: at,
			updatedAt: nowIso(),
		});
		payrun.jeDetails = [...(payrun.jeDetails as Doc[]), journalEntry('REVERTED', jeId, at)];
		done.push(`${String(payrun._id)} (reversing journal entry ${jeId})`);
	}
	tenant.payruns.touch();
	return text(
		200,
		`Journal entries reverted successfully for ${done.length} payrun(s): ${done.join(', ')}`,
	);
}
