/** Demo payroll data: component groups, twelve monthly payruns (with journal entries) and their paystubs. */
import type { Env } from '../../env';
import { pickOne } from '../../module';
import type { Doc, Tenant } from '../../state';
import { DAY } from './common';
import { saveGroup } from './componentGroups';
import { buildPayrun, isWorkDay, type PayrunInput } from './pay';
import { journalEntry, payable } from './payruns';
import { paystubFor } from './paystubs';

export function seedGroups(env: Env, tenant: Tenant, users: Doc[], index: number): void {
	const us = index === 0;
	const frequency = { period: 'everyPayrun', occurrence: [], when: '' };
	const config = (basis: string, pct: number, deductionType = '') => ({
		configureAmountBasis: basis,
		basisComponentId: basis === 'percentOfBasic' ? 'basic' : '',
		componentPercent: pct,
		amountPerDay: 0,
		deductionType,
		applicableValues: { metro: 50, nonMetro: 40 },
	});
	const component = (name: string, type: string, amount: number, cfg: Doc, extra: Doc = {}) => ({
		componentId: env.store.nextOid(),
		name,
		amount,
		type,
		status: 'active',
		componentConfig: cfg,
		subType: type === 'EARNING' ? 'allowance' : 'deduction',
		frequency,
		includeInOTCalc: false,
		formula: '',
		formulaConfig: [],
		...extra,
	});
	const employees = users.filter((u) => u.type === 'EMPLOYEE');
	const groups: [string, Doc[], Doc[], Doc[], string[]][] = [
		[
			us ? 'Standard US package' : 'Standard India package',
			[
				component(
					us ? 'Housing allowance' : 'House rent allowance',
					'EARNING',
					0,
					config('percentOfBasic', 20),
					{
						formula: 'basic * 0.20',
						formulaConfig: [{ index: 0, componentId: 'basic', type: 'component', percentage: 20 }],
					},
				),
				component(
					us ? '401(k) contribution' : 'Provident fund',
					'DEDUCTION',
					0,
					config('percentOfBasic', 5, 'pretaxdeduction'),
				),
				component(
					'Health insurance',
					'DEDUCTION',
					us ? 120 : 1500,
					config('fixed', 0, 'posttaxdeduction'),
				),
			],
			[{ componentId: env.store.nextOid() }],
			[{ benefitId: env.store.nextOid() }],
			employees.filter((_, k) => k % 2 === 0).map((u) => u.userId as string),
		],
		[
			'Engineering allowances',
			[
				component('Internet allowance', 'EARNING', us ? 50 : 1000, config('fixed', 0)),
				component('Learning budget', 'EARNING', us ? 100 : 2000, config('fixed', 0)),
			],
			[],
			[],
			employees
				.filter((u, k) => k % 2 === 1 && u.department === 'Engineering')
				.map((u) => u.userId as string),
		],
		[
			'Interns',
			[component('Stipend', 'EARNING', us ? 800 : 15000, config('fixed', 0))],
			[],
			[],
			[],
		],
	];
	for (const [name, fixed, variable, benefits, members] of groups) {
		saveGroup(tenant, env.store.nextOid(), {
			name,
			hasFixedComponents: fixed.length > 0,
			fixedComponents: fixed,
			hasVarComponents: variable.length > 0,
			variableComponents: variable,
			hasBenefits: benefits.length > 0,
			benefits,
			applyToAll: false,
			users: members,
			deleted: false,
			error: null,
		});
	}
}

function lastWorkingDay(year: number, month: number): number {
	let t = Date.UTC(year, month + 1, 0);
	while (!isWorkDay([1, 2, 3, 4, 5], t)) t -= DAY;
	return t;
}

export function seedPayruns(env: Env, tenant: Tenant, rnd: () => number, index: number): void {
	const all = tenant.peopleUsers.values().filter((u) => u.type !== 'CONTRACTOR');
	const schedule = {
		id: env.store.nextOid(),
		name: index === 0 ? 'Monthly payroll (US)' : 'Monthly payroll (India)',
	};
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
			customFields: [
				{
					fieldId: 'cf-cost-center',
					fieldName: 'Cost center',
					fieldValue: [pickOne(rnd, ['CC-100', 'CC-200'])],
				},
			],
		};
		const users = all.filter((u) => payable(u, input.to));
		if (!users.length) continue;
		const p = buildPayrun(env, tenant, input, users, () => Math.floor(rnd() * 3));
		const iso = (t: number, h: number) => new Date(t + h * 3600000).toISOString();
		p.createdAt = iso(payDate - 5 * DAY, 9);
		p.updatedAt = p.createdAt;
		if (k < 11) {
			Object.assign(p, {
				stage: 'completed',
				processed: true,
				isPaymentDone: true,
				processedAt: iso(payDate - 3 * DAY, 10),
				paymentDoneAt: iso(payDate, 9),
				paymentCount: p.employeeCount,
				paymentVendor: 'sandbox-pay',
				updatedAt: iso(payDate, 9),
			});
			for (const pr of p.payrolls as Doc[])
				Object.assign(pr, { processed: true, isPaymentDone: true, paymentStatus: 'PAID' });
		}
		if (k < 6) {
			const jeId = String(env.store.nextInt('je'));
			const postedOn = iso(payDate + 2 * DAY, 11);
			Object.assign(p, {
				jeStatus: 'POSTED',
				jeId,
				jeEntryNumber: `JE-${jeId}`,
				jePostedOn: postedOn,
				updatedAt: postedOn,
			});
			p.jeDetails = [journalEntry('POSTED', jeId, postedOn)];
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
