/**
 * Pay computation: the payrolls of a payrun and the payrun's totals.
 *
 * A yearly compensation is split over the periods of the pay period (monthly
 * 12, semimonthly 24, biweekly 26, weekly 52); an hourly one is paid per hour
 * worked (8 h per working day). The fixed components of the user's component
 * group are added (percentages of basic pay, else the amount); employee tax is
 * a flat 15 % (US) / 10 % (elsewhere) of earnings less pre-tax deductions,
 * employer tax 7.65 % (US) / 12 %; contractors pay neither.
 * workWeek day numbers: 1 Monday … 6 Saturday, 0 or 7 Sunday.
 */
import type { Env } from '../../env';
import { nowIso, type Doc, type Tenant } from '../../state';
import { isObj, lower } from '../gateway';
import { DAY, mdy, parseMdy, PERIODS, round2, ZERO_TIME } from './common';
import { componentGroupOf } from './componentGroups';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const sum = (docs: Doc[], key: string) =>
	round2(docs.reduce((a, d) => a + (Number(d[key]) || 0), 0));

export interface PayrunInput {
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

export const isWorkDay = (workWeek: number[], t: number) => {
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
	const out: Record<string, number> = {
		basicPayrun: 0,
		netPayrun: 0,
		earnings: 0,
		deductions: 0,
		netTaxes: 0,
	};
	for (const p of tenant.payruns.values()) {
		if (p.year !== year || (parseMdy(String((p.workPeriod as Doc).from)) ?? 0) >= from) continue;
		for (const pr of p.payrolls as Doc[]) {
			if (pr.userId !== userId) continue;
			for (const k of Object.keys(out)) out[k] += Number(pr[k]) || 0;
		}
	}
	return out;
}

/** The fixed components of the user's group, with their amounts and year-to-date sums. */
function payComponents(
	tenant: Tenant,
	u: Doc,
	group: Doc | undefined,
	basic: number,
	year: number,
	from: number,
) {
	const components = ((group?.fixedComponents as Doc[] | undefined) ?? []).map((c) => {
		const cfg = isObj(c.componentConfig) ? c.componentConfig : {};
		const pct = Number(cfg.componentPercent) || 0;
		const amount = round2(
			pct > 0 && cfg.configureAmountBasis !== 'fixed' ? (basic * pct) / 100 : Number(c.amount) || 0,
		);
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
		if (p.year !== year || (parseMdy(String((p.workPeriod as Doc).from)) ?? 0) >= from) continue;
		for (const pr of (p.payrolls as Doc[]).filter((x) => x.userId === u.userId)) {
			for (const pc of pr.components as Doc[]) {
				const c = components.find((x) => x.componentId === pc.componentId);
				if (c) c.YTD = round2(c.YTD + (Number(pc.amount) || 0));
			}
		}
	}
	return components;
}

/** Basic pay, components, taxes and net pay of one user for one payrun. */
function payOf(tenant: Tenant, input: PayrunInput, u: Doc, daysOff: number, companyDays: number) {
	const us = (u.countryCode ?? input.countryCode) === 'US';
	const contractor = u.type === 'CONTRACTOR';
	const periods = PERIODS[input.payPeriod] ?? 12;
	const comp = Number(u.compensation) || 0;
	const cp = lower(u.compensationPeriod);
	const daysWorked = Math.max(0, companyDays - daysOff);
	const hoursWorked = daysWorked * 8;
	const annual =
		cp === 'monthly'
			? comp * 12
			: cp === 'weekly'
				? comp * 52
				: cp === 'hourly'
					? comp * 2080
					: comp;
	const basic = round2(cp === 'hourly' ? comp * hoursWorked : annual / periods);
	const group = componentGroupOf(tenant, u);
	const year = new Date(input.from).getUTCFullYear();
	const before = ytd(tenant, u.userId as string, year, input.from);
	const components = payComponents(tenant, u, group, basic, year, input.from);
	const earningsExtra = components
		.filter((c) => c.type === 'EARNING')
		.reduce((a, c) => a + c.amount, 0);
	const deductionsOf = (pre: boolean) =>
		components
			.filter(
				(c) =>
					c.type === 'DEDUCTION' &&
					(isObj(c.componentConfig) && c.componentConfig.deductionType === 'pretaxdeduction') ===
						pre,
			)
			.reduce((a, c) => a + c.amount, 0);
	const earnings = round2(basic + earningsExtra);
	const pretax = deductionsOf(true);
	const deductions = round2(pretax + deductionsOf(false));
	const netTaxes = contractor ? 0 : round2(Math.max(0, earnings - pretax) * (us ? 0.15 : 0.1));
	const employerTaxes = contractor ? 0 : round2(earnings * (us ? 0.0765 : 0.12));
	const netPay = round2(earnings - deductions - netTaxes);
	return {
		us,
		comp,
		annual,
		basic,
		daysWorked,
		hoursWorked,
		group,
		before,
		components,
		earnings,
		deductions,
		netTaxes,
		employerTaxes,
		netPay,
	};
}

function computePayroll(
	env: Env,
	tenant: Tenant,
	payrunId: string,
	input: PayrunInput,
	u: Doc,
	daysOff: number,
	companyDays: number,
): Doc {
	const {
		us,
		comp,
		annual,
		basic,
		daysWorked,
		hoursWorked,
		group,
		before,
		components,
		earnings,
		deductions,
		netTaxes,
		employerTaxes,
		netPay,
	} = payOf(tenant, input, u, daysOff, companyDays);
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

export function buildPayrun(
	env: Env,
	tenant: Tenant,
	input: PayrunInput,
	users: Doc[],
	daysOff: (u: Doc) => number,
): Doc {
	const id = env.store.nextOid();
	const companyDays = workingDays(input.workWeek, input.from, input.to);
	const payrolls = users.map((u) =>
		computePayroll(env, tenant, id, input, u, daysOff(u), companyDays),
	);
	const byMethod = (m: string) =>
		sum(
			payrolls.filter((p) => p.paymentMethod === m),
			'netPay',
		);
	const totalEarnings = sum(payrolls, 'earnings');
	const totalEmployerTaxes = sum(payrolls, 'employerTaxes');
	const employerBenefits = round2(
		payrolls.reduce(
			(a, p) =>
				a + (p.benefits as Doc[]).reduce((b, x) => b + (Number(x.employerContribution) || 0), 0),
			0,
		),
	);
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
		directDepositConsent: users
			.filter((u) => isObj(u.paymentDetails) && u.paymentDetails.paymentMethod === 'directDeposit')
			.every((u) => u.directDepositConsent === true),
		isNetPayNegative: negative,
		isValid: !negative && payrolls.length > 0,
		tenantWorkWeek: [1, 2, 3, 4, 5, 6, 0].map((d) => {
			const on = isWorkDay(input.workWeek, Date.UTC(2023, 0, 1 + d));
			return {
				day: WEEKDAYS[d],
				isWorkingDay: on,
				startTime: on ? '09:00' : '',
				endTime: on ? '17:00' : '',
				duration: on ? 8 : 0,
			};
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
