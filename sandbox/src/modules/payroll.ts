/**
 * Payruns, journal entries and paystubs — /v1/people-pay-run/…
 *
 * Every success is 200; errors use the gatewayruntimeError body. Choices where
 * the spec says "not shown":
 * - Pay: a yearly compensation is split over the periods of the pay period
 *   (monthly 12, semimonthly 24, biweekly 26, weekly 52); an hourly one is paid
 *   per hour worked (8 h per working day). The fixed components of the user's
 *   component group are added (percentages of basic pay, else the amount);
 *   employee tax is a flat 15 % (US) / 10 % (elsewhere) of earnings less pre-tax
 *   deductions, employer tax 7.65 % (US) / 12 %; contractors pay neither.
 * - A created payrun is a draft (stage "draft", processed false) and gets no
 *   paystubs; seeded payruns are "completed" and have one paystub per payroll.
 * - isForAllUsers takes every active user with makePayroll who joined by the
 *   end of the work period, contractors only when isForContractors is true;
 *   otherwise employees must be user ids of the tenant.
 * - workWeek day numbers: 1 Monday … 6 Saturday, 0 or 7 Sunday.
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
import type { Session } from '../auth';
import { tenantOf, type Env } from '../env';
import { arrayBody, badRequest, json, notFound, objectBody, text, type Ctx, type RouteOptions } from '../http';
import { pickOne, type Module } from '../module';
import { nowIso, payrunFilterResponse, slice, textMatch, type Doc, type Tenant } from '../state';
import { validate, validateEach, type Schema } from '../validate';
import { componentGroupOf, isObj, pathValues, peoplePage, sortDir } from './people';

const GW: RouteOptions = { errorStyle: 'gateway' };
const ZERO_TIME = '0001-01-01T00:00:00Z';
const DAY = 86400000;
const PERIODS: Record<string, number> = { weekly: 52, biweekly: 26, semimonthly: 24, monthly: 12 };
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const TIME_FIELDS = ['createdAt', 'updatedAt', 'processedAt', 'paymentDoneAt', 'revertedAt', 'jePostedOn'];

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

const fieldError = (field: string, error: string) => badRequest(`Validation failed: ${field} ${error}`, [{ field, error }]);
const round2 = (n: number) => Math.round(n * 100) / 100;
const pad = (n: number) => String(n).padStart(2, '0');
const sum = (docs: Doc[], key: string) => round2(docs.reduce((a, d) => a + (Number(d[key]) || 0), 0));
const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : '');

// ---------- dates ----------

const MDY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const RANGE = /^\s*(\d{1,2}\/\d{1,2}\/\d{4})\s*-\s*(\d{1,2}\/\d{1,2}\/\d{4})\s*$/;

/** month/day/year text → UTC midnight in ms; undefined when not a real date. */
function parseMdy(s: string): number | undefined {
	const m = MDY.exec(s.trim());
	if (!m) return undefined;
	const [mo, d, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
	const t = Date.UTC(y, mo - 1, d);
	const dt = new Date(t);
	return dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d ? t : undefined;
}

/** month/day/year or ISO 8601; 400 naming `field` otherwise. */
function parseDate(v: string, field: string): number {
	const t = MDY.test(v.trim()) ? parseMdy(v) : /^\d{4}-\d{2}-\d{2}/.test(v) ? Date.parse(v) : undefined;
	if (t === undefined || Number.isNaN(t)) throw fieldError(field, 'must be a date as MM/DD/YYYY or YYYY-MM-DD');
	return t;
}

const mdy = (t: number) => {
	const d = new Date(t);
	return `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()}`;
};
const startOfDay = (t: number) => t - (t % DAY);

/** Sort keys: month/day/year text sorts as a date; workPeriod by its start. */
function sortKey(d: Doc, field: string): unknown {
	const v = pathValues(d, field === 'workPeriod' ? 'workPeriod.from' : field)[0];
	if (typeof v === 'string' && MDY.test(v)) return new Date(parseMdy(v) ?? 0).toISOString();
	return v;
}

function sortDocs(items: Doc[], field: string, dir: 'asc' | 'desc'): Doc[] {
	const sign = dir === 'desc' ? -1 : 1;
	const cmp = (a: unknown, b: unknown) => {
		if (a === b) return 0;
		if (a === undefined || a === null || a === '') return -1;
		if (b === undefined || b === null || b === '') return 1;
		if (typeof a === 'number' && typeof b === 'number') return a - b;
		return String(a) < String(b) ? -1 : 1;
	};
	return [...items].sort((x, y) => sign * cmp(sortKey(x, field), sortKey(y, field)) || cmp(x._id, y._id));
}

// ---------- pay computation ----------

interface PayrunInput {
	payrunType: number;
	location: number;
	countryCode: string;
	paySchedule: Doc;
	payPeriod: string;
	workWeek: number[];
	payDay: string;
	firstPayDate: number;
	payDate: number;
	from: number;
	to: number;
	isForAllUsers: boolean;
	isForContractors: boolean;
	customFields: Doc[];
}

const isWorkDay = (workWeek: number[], t: number) => {
	const day = new Date(t).getUTCDay();
	return workWeek.includes(day) || (day === 0 && workWeek.includes(7));
};

function workingDays(workWeek: number[], from: number, to: number): number {
	let n = 0;
	for (let t = from; t <= to; t += DAY) if (isWorkDay(workWeek, t)) n++;
	return n;
}

/** Year-to-date sums of a user's earlier payrolls in the same year. */
function ytd(tenant: Tenant, userId: string, year: number, from: number): Record<string, number> {
	const out: Record<string, number> = { basicPayrun: 0, netPayrun: 0, earnings: 0, deductions: 0, netTaxes: 0 };
	for (const p of tenant.payruns.values()) {
		if (p.year !== year || (parseMdy(String((p.workPeriod as Doc).from)) ?? 0) >= from) continue;
		for (const pr of p.payrolls as Doc[]) {
			if (pr.userId !== userId) continue;
			for (const k of Object.keys(out)) out[k] += Number(pr[k]) || 0;
		}
	}
	return out;
}

function computePayroll(env: Env, tenant: Tenant, payrunId: string, input: PayrunInput, u: Doc, daysOff: number, companyDays: number): Doc {
	const us = (u.countryCode ?? input.countryCode) === 'US';
	const contractor = u.type === 'CONTRACTOR';
	const periods = PERIODS[input.payPeriod] ?? 12;
	const comp = Number(u.compensation) || 0;
	const cp = lower(u.compensationPeriod);
	const daysWorked = Math.max(0, companyDays - daysOff);
	const hoursWorked = daysWorked * 8;
	const annual = cp === 'monthly' ? comp * 12 : cp === 'weekly' ? comp * 52 : cp === 'hourly' ? comp * 2080 : comp;
	const basic = round2(cp === 'hourly' ? comp * hoursWorked : annual / periods);
	const group = componentGroupOf(tenant, u);
	const year = new Date(input.from).getUTCFullYear();
	const before = ytd(tenant, u.userId as string, year, input.from);
	const components = ((group?.fixedComponents as Doc[] | undefined) ?? []).map((c) => {
		const cfg = isObj(c.componentConfig) ? c.componentConfig : {};
		const pct = Number(cfg.componentPercent) || 0;
		const amount = round2(pct > 0 && cfg.configureAmountBasis !== 'fixed' ? (basic * pct) / 100 : Number(c.amount) || 0);
		return {
			componentId: c.componentId,
			employeeId: u.userId,
			name: c.name,
			amount,
			type: c.type,
			modified: false,
			YTD: amount,
			status: c.status ?? 'active',
			isVariable: false,
			componentConfig: c.componentConfig ?? null,
			frequency: c.frequency ?? null,
			isHidden: c.isHidden ?? false,
			subType: c.subType ?? '',
			includeInCTC: c.includeInCTC ?? true,
			includeInOTCalc: c.includeInOTCalc ?? false,
			isUnpaidIncluded: c.isUnpaidIncluded ?? false,
			defaultAmount: c.amount ?? 0,
			formulaConfig: c.formulaConfig ?? [],
			formula: c.formula ?? '',
		};
	});
	// Component YTD: earlier payrolls of the year carrying the same component.
	for (const p of tenant.payruns.values()) {
		if (p.year !== year || (parseMdy(String((p.workPeriod as Doc).from)) ?? 0) >= input.from) continue;
		for (const pr of (p.payrolls as Doc[]).filter((x) => x.userId === u.userId)) {
			for (const pc of pr.components as Doc[]) {
				const c = components.find((x) => x.componentId === pc.componentId);
				if (c) c.YTD = round2(c.YTD + (Number(pc.amount) || 0));
			}
		}
	}
	const earningsExtra = components.filter((c) => c.type === 'EARNING').reduce((a, c) => a + c.amount, 0);
	const deductionsOf = (pre: boolean) =>
		components.filter((c) => c.type === 'DEDUCTION' && (isObj(c.componentConfig) && c.componentConfig.deductionType === 'pretaxdeduction') === pre).reduce((a, c) => a + c.amount, 0);
	const earnings = round2(basic + earningsExtra);
	const pretax = deductionsOf(true);
	const deductions = round2(pretax + deductionsOf(false));
	const netTaxes = contractor ? 0 : round2(Math.max(0, earnings - pretax) * (us ? 0.15 : 0.1));
	const employerTaxes = contractor ? 0 : round2(earnings * (us ? 0.0765 : 0.12));
	const netPay = round2(earnings - deductions - netTaxes);
	const pd = isObj(u.paymentDetails) ? u.paymentDetails : {};
	const benefits = ((group?.benefits as Doc[] | undefined) ?? []).map((b) => ({
		id: b.benefitId,
		name: 'Health plan',
		employerContribution: us ? 250 : 2000,
		employeeContribution: 0,
		employerYTD: 0,
		employeeYTD: 0,
		compliance: null,
	}));
	return {
		_id: env.store.nextOid(),
		payrunId,
		employeeId: u.userId,
		empId: u.employeeId,
		userId: u.userId,
		iamUserId: u.iamUserId,
		firstName: u.firstName,
		lastName: u.lastName,
		daysOff,
		daysWorked,
		hoursWorked,
		overtime: 0,
		otPayRate: 0,
		compensationCurrency: u.compensationCurrency,
		compensationPeriod: u.compensationPeriod,
		compensation: comp,
		hourlyPay: round2(annual / 2080),
		basicPayrun: basic,
		netPayrun: netPay,
		netPay,
		earnings,
		deductions,
		netTaxes,
		employerTaxes,
		basicPayrunYTD: round2(before.basicPayrun + basic),
		netPayrunYTD: round2(before.netPayrun + netPay),
		earningsYTD: round2(before.earnings + earnings),
		deductionsYTD: round2(before.deductions + deductions),
		netTaxesYTD: round2(before.netTaxes + netTaxes),
		components,
		benefits,
		benefitsMeta: [],
		compliance: u.compliance ?? null,
		bank: pd.bank ?? '',
		paymentMethod: pd.paymentMethod ?? '',
		accountType: pd.accountType ?? '',
		accountNumber: pd.accountNumber ?? '',
		routingNumber: pd.routingNumber ?? '',
		paymentStatus: '',
		processed: false,
		isPaymentDone: false,
		lossOfPay: 0,
		overtimePay: 0,
		ctc: u.ctc ?? 0,
		terminationInitiated: false,
		terminationDate: '',
	};
}

function buildPayrun(env: Env, tenant: Tenant, input: PayrunInput, users: Doc[], daysOff: (u: Doc) => number): Doc {
	const id = env.store.nextOid();
	const companyDays = workingDays(input.workWeek, input.from, input.to);
	const payrolls = users.map((u) => computePayroll(env, tenant, id, input, u, daysOff(u), companyDays));
	const byMethod = (m: string) => sum(payrolls.filter((p) => p.paymentMethod === m), 'netPay');
	const totalEarnings = sum(payrolls, 'earnings');
	const totalEmployerTaxes = sum(payrolls, 'employerTaxes');
	const employerBenefits = round2(payrolls.reduce((a, p) => a + (p.benefits as Doc[]).reduce((b, x) => b + (Number(x.employerContribution) || 0), 0), 0));
	const totalEmployerCost = round2(totalEarnings + totalEmployerTaxes + employerBenefits);
	const negative = payrolls.some((p) => (p.netPay as number) < 0);
	const now = nowIso();
	const from = new Date(input.from);
	return {
		_id: id,
		payrunType: input.payrunType,
		paySchedule: input.paySchedule,
		payPeriod: input.payPeriod,
		workWeek: input.workWeek,
		payDay: input.payDay,
		firstPayDate: mdy(input.firstPayDate),
		payDate: mdy(input.payDate),
		workPeriod: { from: mdy(input.from), to: mdy(input.to) },
		isForAllUsers: input.isForAllUsers,
		isForContractors: input.isForContractors,
		employees: users.map((u) => u.userId),
		totalCost: totalEmployerCost,
		totalTaxes: sum(payrolls, 'netTaxes'),
		totalEarnings,
		totalDeductions: sum(payrolls, 'deductions'),
		netPay: sum(payrolls, 'netPay'),
		totalEmployerTaxes,
		totalEmployerCost,
		totalEmployeeCost: totalEarnings,
		totalDirectDepositNetPay: byMethod('directDeposit'),
		totalCashNetPay: byMethod('cash'),
		totalCheckNetPay: byMethod('check'),
		year: from.getUTCFullYear(),
		month: from.getUTCMonth() + 1,
		hasDirectPayment: payrolls.some((p) => p.paymentMethod === 'directDeposit'),
		directDepositConsent: users.filter((u) => isObj(u.paymentDetails) && u.paymentDetails.paymentMethod === 'directDeposit').every((u) => u.directDepositConsent === true),
		isNetPayNegative: negative,
		isValid: !negative && payrolls.length > 0,
		tenantWorkWeek: [1, 2, 3, 4, 5, 6, 0].map((d) => {
			const on = isWorkDay(input.workWeek, Date.UTC(2023, 0, 1 + d));
			return { day: WEEKDAYS[d], isWorkingDay: on, startTime: on ? '09:00' : '', endTime: on ? '17:00' : '', duration: on ? 8 : 0 };
		}),
		holidays: null,
		unpaidLeaves: null,
		createdAt: now,
		updatedAt: now,
		processedAt: ZERO_TIME,
		paymentDoneAt: ZERO_TIME,
		revertedAt: ZERO_TIME,
		jePostedOn: ZERO_TIME,
		stage: 'draft',
		paymentVendor: '',
		paymentFailureReason: '',
		processed: false,
		isPaymentDone: false,
		isPayrunReverted: false,
		jeStatus: '',
		jeId: '',
		jeEntryNumber: '',
		jeDetails: [],
		employeeCount: payrolls.length,
		paymentCount: 0,
		paymentFailureCount: 0,
		companyDaysBetweenPeriod: companyDays,
		location: input.location,
		shiftsInvolved: [],
		otInvolved: [],
		customFields: input.customFields,
		payrolls,
	};
}

/** Payruns in lists carry no payrolls. */
const listView = (p: Doc): Doc => Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'payrolls'));

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

function paystubFor(env: Env, tenant: Tenant, p: Doc, pr: Doc, u: Doc | undefined): Doc {
	const id = env.store.nextOid();
	return {
		_id: id,
		payrollId: pr._id,
		payrunId: p._id,
		employeeId: pr.userId,
		iamUserId: pr.iamUserId,
		firstName: pr.firstName,
		lastName: pr.lastName,
		daysOff: pr.daysOff,
		days: pr.daysWorked,
		compensationCurrency: pr.compensationCurrency,
		compensationPeriod: pr.compensationPeriod,
		basicPay: pr.basicPayrun,
		netPay: pr.netPay,
		basicPayrun: pr.basicPayrun,
		netPayrun: pr.netPayrun,
		basicPayrunYTD: pr.basicPayrunYTD,
		netPayrunYTD: pr.netPayrunYTD,
		deductions: pr.deductions,
		earnings: pr.earnings,
		netTaxes: pr.netTaxes,
		payPeriod: p.payPeriod,
		payDate: p.payDate,
		workPeriod: { ...(p.workPeriod as Doc) },
		components: pr.components,
		benefits: pr.benefits,
		compliance: pr.compliance,
		createdAt: p.processedAt,
		filepath: `paystubs/${tenant.id}/${String(p.year)}/${id}.pdf`,
		overtime: [],
		countryCode: u?.countryCode ?? '',
		paymentMethod: pr.paymentMethod,
	};
}

// ---------- request parsing ----------

/** Who an all-users payrun pays: active users with makePayroll who joined by the end of the work period. */
function payable(u: Doc, periodEnd: number): boolean {
	const joined = Date.parse(String(u.dateOfJoining));
	return u.status === 'active' && u.makePayroll !== false && (Number.isNaN(joined) || joined <= periodEnd + DAY - 1);
}

function payrunInput(tenant: Tenant, body: Record<string, unknown>): { input: PayrunInput; users: Doc[] } {
	const v = validate(body, PAYRUN_SCHEMA, ['workPeriod']);
	const wp = validate(v.workPeriod as Doc, { from: 'string', to: 'string' }, ['from', 'to'], 'workPeriod.');
	const from = startOfDay(parseDate(wp.from as string, 'workPeriod.from'));
	const to = startOfDay(parseDate(wp.to as string, 'workPeriod.to'));
	if (to < from) throw fieldError('workPeriod.to', 'must not be before workPeriod.from');
	if (to - from > 366 * DAY) throw fieldError('workPeriod', 'must not span more than a year');
	const payDate = v.payDate ? parseDate(v.payDate as string, 'payDate') : to;
	const firstPayDate = v.firstPayDate ? parseDate(v.firstPayDate as string, 'firstPayDate') : payDate;
	const payPeriod = lower(v.payPeriod ?? 'monthly') || 'monthly';
	if (!(payPeriod in PERIODS)) throw fieldError('payPeriod', `must be one of ${Object.keys(PERIODS).join(', ')}`);
	const workWeek = (v.workWeek as number[] | null) ?? [1, 2, 3, 4, 5];
	workWeek.forEach((d, i) => {
		if (d < 0 || d > 7) throw fieldError(`workWeek[${i}]`, 'must be a day number from 0 to 7');
	});
	const schedule = isObj(v.paySchedule) ? validate(v.paySchedule, { id: 'string', name: 'string' }, [], 'paySchedule.') : {};
	const customFields = Array.isArray(v.customFields) ? validateEach(v.customFields, { fieldId: 'string', fieldName: 'string', fieldValue: 'string[]' }, 'customFields') : [];
	const isForAllUsers = v.isForAllUsers === true;
	const isForContractors = v.isForContractors === true;
	let users: Doc[];
	if (isForAllUsers) {
		users = tenant.peopleUsers.values().filter((u) => payable(u, to) && (isForContractors || u.type !== 'CONTRACTOR'));
	} else {
		const ids = (v.employees as string[] | null) ?? [];
		if (!ids.length) throw fieldError('employees', 'must name at least one user unless isForAllUsers is true');
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
			paySchedule: { id: (schedule.id as string | null) ?? '', name: (schedule.name as string | null) ?? '' },
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
function jeItems(tenant: Tenant, body: Record<string, unknown>, field: string, schema: Schema): { item: Doc; payrun: Doc; at: string }[] {
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
		return { item, payrun, at: new Date(parseDate(item[dateField] as string, `${field}[${i}].${dateField}`)).toISOString() };
	});
}

function pageOf(env: Env, ctx: Ctx<Session>): { page: number; size: number; sortField: string; dir: 'asc' | 'desc' } {
	return { ...peoplePage(env, ctx.query), sortField: ctx.query.str('sortField') ?? 'createdAt', dir: sortDir(ctx.query.str('sortOrder'), 'desc', 'sortOrder') };
}

// ---------- seed ----------

function lastWorkingDay(year: number, month: number): number {
	let t = Date.UTC(year, month + 1, 0);
	while (!isWorkDay([1, 2, 3, 4, 5], t)) t -= DAY;
	return t;
}

function seedPayruns(env: Env, tenant: Tenant, rnd: () => number, index: number): void {
	const all = tenant.peopleUsers.values().filter((u) => u.type !== 'CONTRACTOR');
	const schedule = { id: env.store.nextOid(), name: index === 0 ? 'Monthly payroll (US)' : 'Monthly payroll (India)' };
	const firstPayDate = lastWorkingDay(2023, 6);
	// Twelve monthly payruns, July 2023 to June 2024; the last one is still a draft.
	for (let k = 0; k < 12; k++) {
		const year = 2023 + Math.floor((6 + k) / 12);
		const month = (6 + k) % 12;
		const payDate = lastWorkingDay(year, month);
		const input: PayrunInput = {
			payrunType: 1,
			location: 0,
			countryCode: index === 0 ? 'US' : 'IN',
			paySchedule: schedule,
			payPeriod: 'monthly',
			workWeek: [1, 2, 3, 4, 5],
			payDay: 'last working day of the month',
			firstPayDate,
			payDate,
			from: Date.UTC(year, month, 1),
			to: Date.UTC(year, month + 1, 0),
			isForAllUsers: true,
			isForContractors: false,
			customFields: [{ fieldId: 'cf-cost-center', fieldName: 'Cost center', fieldValue: [pickOne(rnd, ['CC-100', 'CC-200'])] }],
		};
		const users = all.filter((u) => payable(u, input.to));
		if (!users.length) continue;
		const p = buildPayrun(env, tenant, input, users, () => Math.floor(rnd() * 3));
		const iso = (t: number, h: number) => new Date(t + h * 3600000).toISOString();
		p.createdAt = iso(payDate - 5 * DAY, 9);
		p.updatedAt = p.createdAt;
		if (k < 11) {
			Object.assign(p, { stage: 'completed', processed: true, isPaymentDone: true, processedAt: iso(payDate - 3 * DAY, 10), paymentDoneAt: iso(payDate, 9), paymentCount: p.employeeCount, paymentVendor: 'sandbox-pay', updatedAt: iso(payDate, 9) });
			for (const pr of p.payrolls as Doc[]) Object.assign(pr, { processed: true, isPaymentDone: true, paymentStatus: 'PAID' });
		}
		if (k < 6) {
			const jeId = String(env.store.nextInt('je'));
			const postedOn = iso(payDate + 2 * DAY, 11);
			Object.assign(p, { jeStatus: 'POSTED', jeId, jeEntryNumber: `JE-${jeId}`, jePostedOn: postedOn, updatedAt: postedOn });
			p.jeDetails = [{ jeStatus: 'POSTED', jeId, jePostedOn: postedOn, jeEntryNumber: `JE-${jeId}`, isRevertJE: false }];
		}
		tenant.payruns.set(p._id as string, p);
		if (p.processed) {
			for (const pr of p.payrolls as Doc[]) {
				const stub = paystubFor(env, tenant, p, pr, tenant.peopleUsers.get(pr.userId as string));
				tenant.paystubs.set(stub._id as string, stub);
			}
		}
	}
}

// ---------- the module ----------

export const payroll: Module = {
	name: 'payroll',
	seed(env, tenant, s) {
		seedPayruns(env, tenant, s.rnd, s.index);
	},
	routes(r, env) {
		const BASE = '/v1/people-pay-run/payruns';
		r.add(
			'GET',
			BASE,
			(ctx) => {
				const tenant = tenantOf(env, ctx);
				const { page, size, sortField, dir } = pageOf(env, ctx);
				const search = ctx.query.str('searchString');
				const searchField = ctx.query.str('searchField');
				let range: [number, number] | undefined;
				const m = search ? RANGE.exec(search) : null;
				if (m) {
					const start = parseMdy(m[1]);
					const end = parseMdy(m[2]);
					if (start === undefined || end === undefined) throw fieldError('searchString', 'holds an invalid date');
					if (end < start) throw fieldError('searchString', 'ends before it starts');
					range = [start, end];
				}
				const all = tenant.payruns.query(JSON.stringify(['payruns', search, searchField, sortField, dir]), (items) =>
					sortDocs(
						items.filter((p) => {
							if (range) {
								const wp = p.workPeriod as Doc;
								const from = parseMdy(String(wp.from));
								const to = parseMdy(String(wp.to));
								return from !== undefined && to !== undefined && from >= range[0] && to <= range[1];
							}
							if (!search) return true;
							const fields = searchField && pathValues(p, searchField).length ? [searchField] : ['payPeriod', 'paySchedule.name'];
							return fields.some((f) => pathValues(p, f).some((v) => textMatch(typeof v === 'number' ? String(v) : v, search)));
						}),
						sortField,
						dir,
					),
				);
				const s = slice(all, page, size);
				return json(200, { payruns: s.items.map(listView), filterResponse: payrunFilterResponse(s) });
			},
			GW,
		);
		r.add(
			'POST',
			BASE,
			(ctx) => {
				const tenant = tenantOf(env, ctx);
				const { input, users } = payrunInput(tenant, objectBody(ctx));
				const p = buildPayrun(env, tenant, input, users, () => 0);
				tenant.payruns.set(p._id as string, p);
				return json(200, p);
			},
			GW,
		);
		r.add(
			'DELETE',
			BASE,
			(ctx) => {
				const tenant = tenantOf(env, ctx);
				const list = arrayBody(ctx);
				if (!list.length) throw fieldError('body', 'must name at least one payrun');
				const ids = validateEach(list, { payrunId: 'string' }, 'body', ['payrunId']).map((x) => x.payrunId as string);
				const missing = ids.filter((id) => !tenant.payruns.has(id));
				if (missing.length) throw notFound('Payrun', missing.join(', '));
				const sample = tenant.payruns.get(ids[0])!;
				const gone = new Set(ids);
				for (const id of gone) tenant.payruns.delete(id);
				for (const stub of tenant.paystubs.values()) if (gone.has(stub.payrunId as string)) tenant.paystubs.delete(stub._id as string);
				return json(200, emptyPayrun(sample));
			},
			GW,
		);
		r.add(
			'GET',
			`${BASE}/year/:year`,
			(ctx) => {
				const tenant = tenantOf(env, ctx);
				const raw = ctx.params.year;
				if (!/^\d{4}$/.test(raw)) throw fieldError('year', 'must be a four-digit year');
				const year = Number(raw);
				const { page, size } = peoplePage(env, ctx.query);
				const sortField = ctx.query.str('sortField') ?? 'month';
				const dir = sortDir(ctx.query.str('sortOrder'), 'asc', 'sortOrder');
				const all = tenant.payruns.query(JSON.stringify(['year', year, sortField, dir]), (items) => sortDocs(items.filter((p) => p.year === year), sortField, dir));
				return json(200, { payruns: slice(all, page, size).items.map(listView) });
			},
			GW,
		);
		r.add(
			'POST',
			`${BASE}/sync-je`,
			(ctx) => {
				const tenant = tenantOf(env, ctx);
				const items = jeItems(tenant, objectBody(ctx), 'payrun', { jeDate: 'string', payrunId: 'string' });
				items.forEach(({ payrun }, i) => {
					if (payrun.jeStatus === 'POSTED') throw fieldError(`payrun[${i}].payrunId`, `payrun ${String(payrun._id)} already has the posted journal entry ${String(payrun.jeId)}`);
				});
				const done: string[] = [];
				for (const { payrun, at } of items) {
					const jeId = String(env.store.nextInt('je'));
					const entry = `JE-${jeId}`;
					Object.assign(payrun, { jeStatus: 'POSTED', jeId, jeEntryNumber: entry, jePostedOn: at, isPayrunReverted: false, updatedAt: nowIso() });
					payrun.jeDetails = [...(payrun.jeDetails as Doc[]), { jeStatus: 'POSTED', jeId, jePostedOn: at, jeEntryNumber: entry, isRevertJE: false }];
					done.push(`${String(payrun._id)} (journal entry ${jeId})`);
				}
				tenant.payruns.touch();
				return text(200, `Journal entries posted successfully for ${done.length} payrun(s): ${done.join(', ')}`);
			},
			GW,
		);
		r.add(
			'POST',
			`${BASE}/revert-je`,
			(ctx) => {
				const tenant = tenantOf(env, ctx);
				const items = jeItems(tenant, objectBody(ctx), 'revertPayrun', { jeId: 'integer', jeRevertDate: 'string', payrunId: 'string' });
				items.forEach(({ item, payrun, at }, i) => {
					if (payrun.jeStatus !== 'POSTED') throw fieldError(`revertPayrun[${i}].payrunId`, `payrun ${String(payrun._id)} has no posted journal entry to revert`);
					if (String(item.jeId) !== payrun.jeId) throw fieldError(`revertPayrun[${i}].jeId`, `does not match the payrun's posted journal entry ${String(payrun.jeId)}`);
					if (at < String(payrun.jePostedOn).slice(0, 10)) throw fieldError(`revertPayrun[${i}].jeRevertDate`, 'must not be before the posting date');
				});
				const done: string[] = [];
				for (const { payrun, at } of items) {
					const jeId = String(env.store.nextInt('je'));
					Object.assign(payrun, { jeStatus: 'REVERTED', isPayrunReverted: true, revertedAt: at, updatedAt: nowIso() });
					payrun.jeDetails = [...(payrun.jeDetails as Doc[]), { jeStatus: 'REVERTED', jeId, jePostedOn: at, jeEntryNumber: `JE-${jeId}`, isRevertJE: true }];
					done.push(`${String(payrun._id)} (reversing journal entry ${jeId})`);
				}
				tenant.payruns.touch();
				return text(200, `Journal entries reverted successfully for ${done.length} payrun(s): ${done.join(', ')}`);
			},
			GW,
		);
		r.add(
			'GET',
			'/v1/people-pay-run/paystubs/employee/:employeeId',
			(ctx) => {
				const tenant = tenantOf(env, ctx);
				const employeeId = ctx.params.employeeId;
				const { page, size, sortField, dir } = pageOf(env, ctx);
				const search = ctx.query.str('searchString');
				const m = search ? RANGE.exec(search) : null;
				const range = m ? [parseMdy(m[1]), parseMdy(m[2])] : undefined;
				if (range && (range[0] === undefined || range[1] === undefined)) throw fieldError('searchString', 'holds an invalid date');
				const mine = tenant.paystubs.values().filter((p) => p.employeeId === employeeId);
				if (!mine.length && !tenant.peopleUsers.has(employeeId)) throw notFound('Employee', employeeId);
				const matched = mine.filter((p) => {
					const wp = p.workPeriod as Doc;
					if (range) {
						const from = parseMdy(String(wp.from)) ?? 0;
						const to = parseMdy(String(wp.to)) ?? 0;
						return from >= range[0]! && to <= range[1]!;
					}
					return !search || [p.payPeriod, p.payDate, wp.from, wp.to, p.firstName, p.lastName].some((v) => textMatch(v, search));
				});
				return json(200, { paystubs: slice(sortDocs(matched, sortField, dir), page, size).items });
			},
			GW,
		);
	},
};
