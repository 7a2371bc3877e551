/**
 * The People node's payroll resources through n8n-core against the sandbox:
 * payruns and their journal entries, paystubs, component groups; the regional
 * host; journal postings that are never repeated.
 */
import type { IDataObject } from 'n8n-workflow';

import { startSandbox } from '../../sandbox/src/server';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { useSandbox } from '../helpers/sandbox';
import { fileTuning } from '../helpers/tuning';

/** This file's tunables and clocks (test/helpers/tuning.ts): the harness's nodes run with them. */
const tuning = fileTuning();

const ctx = useSandbox({ rows: 25 });
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb);
	tuning.retry.baseDelayMs = 20;
});
afterEach(() => {
	ctx.sb.faults.clear();
});

const t = () => ctx.sb.store.tenant(1);
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const run = async (resource: string, params: IDataObject, options?: { continueOnFail?: boolean }) =>
	await h.run('businessPlatformPeople', { resource, ...params }, undefined, options);
const sent = (method: string, path: string) =>
	ctx.sb.requests().filter((r) => r.method === method && r.path === path);
const lastBody = (method: string, path: string) =>
	JSON.parse(sent(method, path).pop()!.body!) as unknown;
const countRoute = (key: string) => (ctx.sb.stats().byRoute as Record<string, number>)[key] ?? 0;
const mdyTime = (s: string) => {
	const [m, d, y] = s.split('/').map(Number);
	return Date.UTC(y, m - 1, d);
};
const unposted = () =>
	t()
		.payruns.values()
		.filter((p) => p.jeStatus === '');
const postedOnce = () =>
	t()
		.payruns.values()
		.filter((p) => p.jeStatus === 'POSTED' && (p.jeDetails as IDataObject[]).length === 1);

describe('Payrun', () => {
	it('Create makes a draft payrun for the chosen employees, with month/day/year dates on the wire', async () => {
		const employees = t()
			.peopleUsers.values()
			.filter((u) => u.type === 'EMPLOYEE')
			.slice(0, 2)
			.map((u) => u.userId as string);
		const res = await run('payrun', {
			operation: 'create',
			workPeriodFrom: '2024-07-01T00:00:00',
			workPeriodTo: '2024-07-31',
			isForAllUsers: false,
			employees,
			additionalFields: {
				payPeriod: 'monthly',
				payDate: '2024-07-31',
				workWeek: [1, 2, 3, 4, 5],
				payScheduleName: 'Monthly payroll (US)',
			},
		});
		expect(res.error).toBeUndefined();
		const body = lastBody('POST', '/v1/people-pay-run/payruns') as IDataObject;
		expect(body).toMatchObject({
			workPeriod: { from: '07/01/2024', to: '07/31/2024' },
			payDate: '07/31/2024',
			isForAllUsers: false,
			employees,
			paySchedule: { name: 'Monthly payroll (US)' },
		});
		const stored = t().payruns.get(res.json[0]._id as string)!;
		expect(stored).toMatchObject({
			stage: 'draft',
			employees,
			workPeriod: { from: '07/01/2024', to: '07/31/2024' },
		});
		expect((res.json[0].payrolls as IDataObject[]).map((p) => p.userId)).toEqual(employees);

		ctx.sb.resetStats();
		const backwards = await run('payrun', {
			operation: 'create',
			workPeriodFrom: '2024-07-31',
			workPeriodTo: '2024-07-01',
			isForAllUsers: true,
		});
		expect(backwards.error?.message).toBe('Work Period End is before Work Period Start');
		expect(ctx.sb.requests()).toHaveLength(0);
	});

	it('Get Many by pay period sends MM/DD/YYYY-MM/DD/YYYY and returns the payruns in it', async () => {
		const res = await run('payrun', {
			operation: 'getAll',
			returnAll: true,
			simplify: false,
			filters: { periodFrom: '2024-01-01', periodTo: '2024-03-31T00:00:00' },
		});
		expect(res.error).toBeUndefined();
		const query = new URLSearchParams(sent('GET', '/v1/people-pay-run/payruns').pop()!.query);
		expect(query.get('searchString')).toBe('01/01/2024-03/31/2024');
		const expected = t()
			.payruns.values()
			.filter((p) => {
				const wp = p.workPeriod as IDataObject;
				return (
					mdyTime(String(wp.from)) >= Date.UTC(2024, 0, 1) &&
					mdyTime(String(wp.to)) <= Date.UTC(2024, 2, 31)
				);
			});
		expect(expected).toHaveLength(3);
		expect(res.json.map((p) => p._id).sort()).toEqual(expected.map((p) => p._id).sort());

		const simple = await run('payrun', { operation: 'getAll', returnAll: false, limit: 4 });
		expect(simple.json).toHaveLength(4);
		expect(Object.keys(simple.json[0]).length).toBeLessThanOrEqual(10);
		const half = await run('payrun', {
			operation: 'getAll',
			returnAll: true,
			filters: { periodFrom: '2024-01-01' },
		});
		expect(half.error?.message).toBe('A pay period needs a start and an end');
		ctx.sb.resetStats();
		const impossible = await run(
			'payrun',
			{
				operation: 'getAll',
				returnAll: true,
				filters: { periodFrom: '02/30/2024', periodTo: '2024-03-31' },
			},
			{ continueOnFail: true },
		);
		expect(impossible.json).toEqual([
			{
				error: 'Pay Period Start is not a date: "02/30/2024" (month 2 of 2024 has no day 30)',
				description: expect.any(String),
				itemIndex: 0,
			},
		]);
		expect(ctx.sb.requests()).toHaveLength(0);
	});

	it('Get Many by Year returns every payrun of the year', async () => {
		const res = await run('payrun', {
			operation: 'getAllByYear',
			year: 2023,
			returnAll: true,
			simplify: false,
		});
		expect(res.error).toBeUndefined();
		const expected = t()
			.payruns.values()
			.filter((p) => p.year === 2023);
		expect(expected.length).toBeGreaterThan(0);
		expect(res.json.map((p) => p._id).sort()).toEqual(expected.map((p) => p._id).sort());
		expect(res.json.map((p) => p.month)).toEqual(
			[...res.json.map((p) => p.month as number)].sort((a, b) => a - b),
		);
	});

	it('Delete sends an array of { payrunId } and removes the payruns and their paystubs', async () => {
		const [a, b] = t()
			.payruns.values()
			.filter((p) => p.stage === 'completed')
			.slice(-2);
		expect(
			t()
				.paystubs.values()
				.some((s) => s.payrunId === a._id),
		).toBe(true);
		const res = await run('payrun', { operation: 'delete', payrunIds: [a._id, b._id] });
		expect(res.error).toBeUndefined();
		expect(lastBody('DELETE', '/v1/people-pay-run/payruns')).toEqual([
			{ payrunId: a._id },
			{ payrunId: b._id },
		]);
		expect(res.json).toEqual([
			{ deleted: true, id: a._id },
			{ deleted: true, id: b._id },
		]);
		expect(t().payruns.has(a._id as string)).toBe(false);
		expect(t().payruns.has(b._id as string)).toBe(false);
		expect(
			t()
				.paystubs.values()
				.some((s) => s.payrunId === a._id || s.payrunId === b._id),
		).toBe(false);
	});

	it('Post Journal Entry posts the payrun: jeStatus POSTED with a jeDetails entry', async () => {
		const p = unposted()[0];
		const res = await run('payrun', {
			operation: 'postJournalEntry',
			payrunId: byId(p._id as string),
			jeDate: '2024-08-02T00:00:00',
		});
		expect(res.error).toBeUndefined();
		expect(lastBody('POST', '/v1/people-pay-run/payruns/sync-je')).toEqual({
			payrun: [{ jeDate: '08/02/2024', payrunId: p._id }],
		});
		const stored = t().payruns.get(p._id as string)!;
		expect(stored.jeStatus).toBe('POSTED');
		expect(stored.jeDetails).toEqual([
			expect.objectContaining({ jeStatus: 'POSTED', jeId: stored.jeId, isRevertJE: false }),
		]);
		expect(res.json[0]).toMatchObject({
			payrunId: p._id,
			jeDate: '08/02/2024',
			posted: true,
			message: expect.stringContaining('posted successfully'),
		});
	});

	it('Revert Journal Entry moves the payrun to REVERTED with a second jeDetails entry flagged isRevertJE', async () => {
		const [p, q] = postedOnce();
		// The journal entry ID left empty: the node reads the payrun's posted entry.
		const res = await run('payrun', {
			operation: 'revertJournalEntry',
			payrunId: byId(p._id as string),
			jeRevertDate: '2025-01-10',
		});
		expect(res.error).toBeUndefined();
		expect(lastBody('POST', '/v1/people-pay-run/payruns/revert-je')).toEqual({
			revertPayrun: [{ jeId: Number(p.jeId), jeRevertDate: '01/10/2025', payrunId: p._id }],
		});
		const stored = t().payruns.get(p._id as string)!;
		expect(stored).toMatchObject({ jeStatus: 'REVERTED', isPayrunReverted: true });
		const details = stored.jeDetails as IDataObject[];
		expect(details).toHaveLength(2);
		expect(details[0]).toMatchObject({ jeStatus: 'POSTED', isRevertJE: false });
		expect(details[1]).toMatchObject({ jeStatus: 'REVERTED', isRevertJE: true });
		expect(res.json[0]).toMatchObject({
			payrunId: p._id,
			jeId: Number(p.jeId),
			reverted: true,
			message: expect.stringContaining('reverted successfully'),
		});

		// With the ID given, the node sends it as an integer without looking the payrun up.
		ctx.sb.resetStats();
		const direct = await run('payrun', {
			operation: 'revertJournalEntry',
			payrunId: byId(q._id as string),
			jeId: String(q.jeId),
			jeRevertDate: '2025-01-11',
		});
		expect(direct.error).toBeUndefined();
		expect(ctx.sb.requests().map((r) => `${r.method} ${r.path}`)).toEqual([
			'POST /v1/people-pay-run/payruns/revert-je',
		]);
		expect(t().payruns.get(q._id as string)!.jeStatus).toBe('REVERTED');

		const notPosted = await run('payrun', {
			operation: 'revertJournalEntry',
			payrunId: byId(unposted()[0]._id as string),
			jeRevertDate: '2025-01-11',
		});
		expect(notPosted.error?.message).toMatch(/has no posted journal entry to revert/);
	});

	it('Post Journal Entry is sent exactly once under a 503 or a 429, and the error says so', async () => {
		const [a, b] = unposted();
		ctx.sb.faults.add({
			kind: 'status',
			status: 503,
			count: 1,
			phase: 'after',
			method: 'POST',
			path: '/v1/people-pay-run/payruns/sync-je',
		});
		ctx.sb.resetStats();
		const failed = await run('payrun', {
			operation: 'postJournalEntry',
			payrunId: byId(a._id as string),
			jeDate: '2024-08-02',
		});
		expect(failed.error?.message).toMatch(/503/);
		expect(failed.error?.description).toMatch(
			/not repeated automatically|never retried automatically/,
		);
		expect(countRoute('POST /v1/people-pay-run/payruns/sync-je')).toBe(1);
		// The platform did post it (the fault came after): one journal entry, not two.
		expect(t().payruns.get(a._id as string)!.jeDetails).toHaveLength(1);

		ctx.sb.faults.clear();
		ctx.sb.faults.add({
			kind: 'status',
			status: 429,
			retryAfter: 0,
			count: 1,
			method: 'POST',
			path: '/v1/people-pay-run/payruns/sync-je',
		});
		ctx.sb.resetStats();
		const throttled = await run('payrun', {
			operation: 'postJournalEntry',
			payrunId: byId(b._id as string),
			jeDate: '2024-08-02',
		});
		expect(throttled.error?.message).toMatch(/429/);
		expect(throttled.error?.description).toMatch(/never retried automatically/);
		expect(ctx.sb.requests()).toHaveLength(1);
		expect(t().payruns.get(b._id as string)!.jeStatus).toBe('');
	});
});

describe('Paystub', () => {
	it('Get Many returns the paystubs of the chosen employee', async () => {
		const employeeId = t().paystubs.values()[0].employeeId as string;
		const expected = t()
			.paystubs.values()
			.filter((s) => s.employeeId === employeeId);
		const res = await run('paystub', {
			operation: 'getAll',
			employeeId: byId(employeeId),
			returnAll: true,
			simplify: false,
		});
		expect(res.error).toBeUndefined();
		expect(res.json.map((s) => s._id).sort()).toEqual(expected.map((s) => s._id).sort());
		expect(res.json.every((s) => typeof s.iamUserId === 'number')).toBe(true);
		const simple = await run('paystub', {
			operation: 'getAll',
			employeeId: byId(employeeId),
			returnAll: false,
			limit: 2,
		});
		expect(simple.json).toHaveLength(2);
		expect(simple.json[0]).toMatchObject({ employeeId, netPay: expect.any(Number) });
		expect(Object.keys(simple.json[0]).length).toBeLessThanOrEqual(10);
	});
});

describe('Component Group', () => {
	let created: IDataObject;
	const member = () =>
		t()
			.peopleUsers.values()
			.find((u) => !u.componentGroup && u.type === 'EMPLOYEE')!;

	it('Create stores the group with its fixed components, variable components, benefits and users', async () => {
		const user = member();
		const res = await run('componentGroup', {
			operation: 'create',
			name: 'Sales incentives',
			users: [user.userId],
			fixedComponents: {
				item: [
					{ name: 'Car allowance', type: 'EARNING', configureAmountBasis: 'fixed', amount: 300 },
					{
						name: 'Pension',
						type: 'DEDUCTION',
						configureAmountBasis: 'percentOfBasic',
						componentPercent: 4,
						deductionType: 'pretaxdeduction',
					},
				],
			},
			variableComponents: { item: [{ componentId: 'var-commission' }] },
			benefits: { item: [{ benefitId: 'benefit-dental' }] },
		});
		expect(res.error).toBeUndefined();
		created = res.json[0];
		const stored = t().componentGroups.get(created.id as string)!;
		expect(stored).toMatchObject({
			name: 'Sales incentives',
			hasFixedComponents: true,
			hasVarComponents: true,
			hasBenefits: true,
			users: [user.userId],
			variableComponents: [{ componentId: 'var-commission' }],
			benefits: [{ benefitId: 'benefit-dental' }],
		});
		expect(stored.fixedComponents).toEqual([
			expect.objectContaining({
				name: 'Car allowance',
				type: 'EARNING',
				amount: 300,
				componentConfig: expect.objectContaining({ configureAmountBasis: 'fixed' }),
			}),
			expect.objectContaining({
				name: 'Pension',
				type: 'DEDUCTION',
				componentConfig: expect.objectContaining({
					configureAmountBasis: 'percentOfBasic',
					componentPercent: 4,
					deductionType: 'pretaxdeduction',
				}),
			}),
		]);
		expect(t().peopleUsers.get(user.userId as string)!.componentGroup).toBe(created.id);
	});

	it('Get returns the group by its ID', async () => {
		const res = await run('componentGroup', { operation: 'get', componentGroupId: created.id });
		expect(res.error).toBeUndefined();
		expect(res.json).toEqual([t().componentGroups.get(created.id as string)]);
		const missing = await run('componentGroup', {
			operation: 'get',
			componentGroupId: '000000000000000000000000',
		});
		expect(missing.error?.message).toMatch(/404/);
	});

	it('Update replaces the group (PUT)', async () => {
		const res = await run('componentGroup', {
			operation: 'update',
			componentGroupId: created.id,
			name: 'Sales incentives 2025',
			applyToAll: false,
			fixedComponents: {
				item: [
					{ name: 'Car allowance', type: 'EARNING', configureAmountBasis: 'fixed', amount: 350 },
				],
			},
		});
		expect(res.error).toBeUndefined();
		expect(lastBody('PUT', '/v1/people/tenants/component-group')).toMatchObject({
			id: created.id,
			name: 'Sales incentives 2025',
			users: [],
			variableComponents: [],
			benefits: [],
			hasBenefits: false,
		});
		const stored = t().componentGroups.get(created.id as string)!;
		expect(stored).toMatchObject({
			name: 'Sales incentives 2025',
			users: [],
			variableComponents: [],
			benefits: [],
			hasVarComponents: false,
		});
		expect((stored.fixedComponents as IDataObject[]).map((c) => [c.name, c.amount])).toEqual([
			['Car allowance', 350],
		]);
	});

	it('Delete removes groups, one item per ID; groups in use need Force Delete', async () => {
		const inUse = t()
			.componentGroups.values()
			.find((g) => (g.users as string[]).length > 0)!;
		const refused = await run('componentGroup', {
			operation: 'delete',
			componentGroupIds: String(inUse.id),
		});
		expect(refused.error?.message).toMatch(/COMPONENT_GROUP_IN_USE/);
		expect(t().componentGroups.has(inUse.id as string)).toBe(true);

		const res = await run('componentGroup', {
			operation: 'delete',
			componentGroupIds: `${String(created.id)},${String(inUse.id)}`,
			forcedDelete: true,
		});
		expect(res.error).toBeUndefined();
		expect(res.json).toEqual([
			{ deleted: true, id: created.id },
			{ deleted: true, id: inUse.id },
		]);
		expect(t().componentGroups.has(created.id as string)).toBe(false);
		expect(t().componentGroups.has(inUse.id as string)).toBe(false);
	});
});

describe('Regional host', () => {
	it('people and payroll requests go to the regional host; campaign requests do not', async () => {
		const sb = await startSandbox({ rows: 5, regional: true });
		try {
			const r = createHarness(sb, sb.demo.tokenResponse as IDataObject, {
				regionalBaseUrl: sb.regionalBaseUrl,
			});
			const users = await r.run('businessPlatformPeople', {
				resource: 'user',
				operation: 'getAll',
				returnAll: false,
				limit: 2,
			});
			const payruns = await r.run('businessPlatformPeople', {
				resource: 'payrun',
				operation: 'getAllByYear',
				year: 2024,
				returnAll: false,
				limit: 1,
			});
			const categories = await r.run('businessPlatformCampaigns', {
				resource: 'category',
				operation: 'getAll',
				returnAll: false,
				limit: 1,
			});
			expect([users.error, payruns.error, categories.error]).toEqual([
				undefined,
				undefined,
				undefined,
			]);
			expect(sb.requests().map((x) => [x.host, x.path])).toEqual([
				['regional', '/v1/people/users'],
				['regional', '/v1/people-pay-run/payruns/year/2024'],
				['main', '/v1/crm/campaign/category'],
			]);
		} finally {
			await sb.stop();
		}
	});
});
