/* eslint-disable @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
import { call, expectGateway, otherTenantToken, useSandbox } from '../helpers/sandbox';

const ctx = useSandbox();

const PAYRUNS = '/v1/people-pay-run/payruns';
const ZERO_TIME = '0001-01-01T00:00:00Z';

const tenant1 = () => ctx.sb.store.tenant(1);
const other = () => otherTenantToken(ctx.sb);

const mdyToTime = (s: string) => {
	const [m, d, y] = s.split('/').map(Number);
	return Date.UTC(y, m - 1, d);
};

/** A seeded payrun of tenant 1 without a journal entry. */
const unposted = () =>
	tenant1()
		.payruns.values()
		.filter((p) => p.jeStatus === '');
const users1 = () => tenant1().peopleUsers.values();

describe('sandbox payroll: GET /v1/people-pay-run/payruns', () => {
	it('lists payruns with filterResponse (integers)', async () => {
		const res = await call(ctx.sb, 'GET', PAYRUNS, {
			query: { limit: 5, currentPage: 1, sortOrder: 'desc', sortField: 'createdAt' },
		});
		expect(res.status).toBe(200);
		expect(Object.keys(res.body).sort()).toEqual(['filterResponse', 'payruns']);
		expect(res.body.filterResponse).toEqual({
			currentPage: 1,
			count: 5,
			limit: 5,
			totalPages: 3,
			totalCount: 12,
		});
		const p = res.body.payruns[0];
		expect(p.payrolls).toBeUndefined();
		expect(p).toEqual(
			expect.objectContaining({
				_id: expect.any(String),
				payrunType: 1,
				paySchedule: { id: expect.any(String), name: expect.any(String) },
				payPeriod: 'monthly',
				firstPayDate: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}$/),
				payDate: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}$/),
				workPeriod: {
					from: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}$/),
					to: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}$/),
				},
				totalCost: expect.any(Number),
				netPay: expect.any(Number),
				year: expect.any(Number),
				month: expect.any(Number),
				jeDetails: expect.any(Array),
			}),
		);
		const created = res.body.payruns.map((x: any) => x.createdAt);
		expect(created).toEqual([...created].sort().reverse());
		// The newest seeded payrun is the June 2024 draft: its unset timestamps are the zero time.
		expect(p).toMatchObject({
			stage: 'draft',
			processed: false,
			processedAt: ZERO_TIME,
			revertedAt: ZERO_TIME,
			jePostedOn: ZERO_TIME,
		});
	});
	it('sorts by pay date as a date', async () => {
		const res = await call(ctx.sb, 'GET', PAYRUNS, {
			query: { limit: 100, sortOrder: 'asc', sortField: 'payDate' },
		});
		const times = res.body.payruns.map((p: any) => mdyToTime(p.payDate));
		expect(times).toEqual([...times].sort((a: number, b: number) => a - b));
	});
	it('searches by pay period: two dates return exactly the payruns in range', async () => {
		const start = mdyToTime('01/01/2024');
		const end = mdyToTime('03/31/2024');
		const expected = tenant1()
			.payruns.values()
			.filter(
				(p: any) => mdyToTime(p.workPeriod.from) >= start && mdyToTime(p.workPeriod.to) <= end,
			)
			.map((p) => p._id)
			.sort();
		expect(expected).toHaveLength(3);
		for (const searchField of ['nonSyncedPayPeriod', 'payPeriod', undefined]) {
			const res = await call(ctx.sb, 'GET', PAYRUNS, {
				query: { searchString: '01/01/2024-03/31/2024', searchField, limit: 100 },
			});
			expect(res.status).toBe(200);
			expect(res.body.payruns.map((p: any) => p._id).sort()).toEqual(expected);
			expect(res.body.filterResponse.totalCount).toBe(3);
		}
		// A range cutting a month in half leaves that month out.
		const partial = await call(ctx.sb, 'GET', PAYRUNS, {
			query: { searchString: '01/15/2024 - 03/31/2024', limit: 100 },
		});
		expect(partial.body.payruns).toHaveLength(2);
	});
	it('searches text in payPeriod and the schedule name', async () => {
		const res = await call(ctx.sb, 'GET', PAYRUNS, {
			query: { searchString: 'payroll (us)', limit: 100 },
		});
		expect(res.body.payruns).toHaveLength(12);
		expect(
			(await call(ctx.sb, 'GET', PAYRUNS, { query: { searchString: 'weekly' } })).body.payruns,
		).toHaveLength(0);
	});
	it('refuses wrong types and bad ranges', async () => {
		expectGateway(await call(ctx.sb, 'GET', PAYRUNS, { query: { limit: 'ten' } }), 400, 'limit');
		expectGateway(
			await call(ctx.sb, 'GET', PAYRUNS, { query: { sortOrder: 'up' } }),
			400,
			'sortOrder',
		);
		expectGateway(
			await call(ctx.sb, 'GET', PAYRUNS, { query: { searchString: '13/01/2024-03/31/2024' } }),
			400,
			'searchString',
		);
		expectGateway(
			await call(ctx.sb, 'GET', PAYRUNS, { query: { searchString: '03/31/2024-01/01/2024' } }),
			400,
			'searchString',
		);
	});
	it('needs a token and stays in the tenant', async () => {
		expectGateway(await call(ctx.sb, 'GET', PAYRUNS, { token: null }), 401);
		const theirs = await call(ctx.sb, 'GET', PAYRUNS, { query: { limit: 100 }, token: other() });
		expect(theirs.body.payruns.length).toBeGreaterThan(0);
		expect(theirs.body.payruns.some((p: any) => tenant1().payruns.has(p._id))).toBe(false);
	});
});

describe('sandbox payroll: POST /v1/people-pay-run/payruns', () => {
	const request = (employees: string[]) => ({
		countryCode: 'US',
		tenantId: '1',
		deleted: false,
		payrunType: 1,
		location: 0,
		paySchedule: { id: 'sched-test', name: 'Test schedule' },
		payPeriod: 'monthly',
		workWeek: [1, 2, 3, 4, 5],
		payDay: 'last working day of the month',
		firstPayDate: '07/31/2024',
		payDate: '07/31/2024',
		workPeriod: { from: '07/01/2024', to: '07/31/2024' },
		isForAllUsers: false,
		employees,
		customFields: [{ fieldId: 'f1', fieldName: 'Note', fieldValue: ['test'] }],
	});

	it('creates a payrun with one payroll per employee and totals from the payrolls', async () => {
		const [a, b] = users1().filter((u) => u.type === 'EMPLOYEE');
		const res = await call(ctx.sb, 'POST', PAYRUNS, {
			body: request([a.userId as string, b.userId as string]),
		});
		expect(res.status).toBe(200);
		const p = res.body;
		expect(p).toMatchObject({
			payPeriod: 'monthly',
			workPeriod: { from: '07/01/2024', to: '07/31/2024' },
			payDate: '07/31/2024',
			year: 2024,
			month: 7,
			employeeCount: 2,
			companyDaysBetweenPeriod: 23,
			stage: 'draft',
			jeStatus: '',
			processedAt: ZERO_TIME,
		});
		expect(p.employees).toEqual([a.userId, b.userId]);
		expect(p.payrolls).toHaveLength(2);
		const sum = (k: string) =>
			Math.round(p.payrolls.reduce((s: number, x: any) => s + x[k], 0) * 100) / 100;
		expect(p.totalEarnings).toBeCloseTo(sum('earnings'), 2);
		expect(p.totalDeductions).toBeCloseTo(sum('deductions'), 2);
		expect(p.totalTaxes).toBeCloseTo(sum('netTaxes'), 2);
		expect(p.netPay).toBeCloseTo(sum('netPay'), 2);
		for (const pr of p.payrolls) {
			expect(pr).toMatchObject({
				payrunId: p._id,
				userId: expect.any(String),
				employeeId: pr.userId,
				daysWorked: 23,
			});
			expect(pr.netPay).toBeCloseTo(pr.earnings - pr.deductions - pr.netTaxes, 2);
			for (const c of pr.components) expect(['EARNING', 'DEDUCTION']).toContain(c.type);
		}
		expect(p.payrolls[0].basicPayrun).toBeCloseTo((a.compensation as number) / 12, 2);
		// Listed afterwards (without payrolls) and stored.
		const listed = await call(ctx.sb, 'GET', PAYRUNS, {
			query: { searchString: '07/01/2024-07/31/2024' },
		});
		expect(listed.body.payruns.map((x: any) => x._id)).toEqual([p._id]);
		expect(tenant1().payruns.get(p._id)).toBeDefined();
	});
	it('takes every payable user with isForAllUsers', async () => {
		const res = await call(ctx.sb, 'POST', PAYRUNS, {
			body: {
				...request([]),
				employees: undefined,
				isForAllUsers: true,
				workPeriod: { from: '2024-08-01', to: '2024-08-31' },
			},
		});
		expect(res.status).toBe(200);
		const expected = users1().filter(
			(u) => u.status === 'active' && u.makePayroll !== false && u.type !== 'CONTRACTOR',
		).length;
		expect(res.body.payrolls).toHaveLength(expected);
		expect(res.body.workPeriod).toEqual({ from: '08/01/2024', to: '08/31/2024' });
	});
	it('refuses unknown employees and wrong types', async () => {
		expectGateway(
			await call(ctx.sb, 'POST', PAYRUNS, { body: request(['000000000000000000000000']) }),
			400,
			'employees[0]',
		);
		expectGateway(await call(ctx.sb, 'POST', PAYRUNS, { body: request([]) }), 400, 'employees');
		const id = users1()[0].userId as string;
		expectGateway(
			await call(ctx.sb, 'POST', PAYRUNS, { body: { ...request([id]), payrunType: 'regular' } }),
			400,
			'payrunType',
		);
		expectGateway(
			await call(ctx.sb, 'POST', PAYRUNS, { body: { ...request([id]), workWeek: ['Mon'] } }),
			400,
			'workWeek',
		);
		expectGateway(
			await call(ctx.sb, 'POST', PAYRUNS, { body: { ...request([id]), workPeriod: undefined } }),
			400,
			'workPeriod',
		);
		expectGateway(
			await call(ctx.sb, 'POST', PAYRUNS, {
				body: { ...request([id]), workPeriod: { from: '07/32/2024', to: '07/31/2024' } },
			}),
			400,
			'workPeriod.from',
		);
		expectGateway(
			await call(ctx.sb, 'POST', PAYRUNS, { body: { ...request([id]), isForAllUsers: 'no' } }),
			400,
			'isForAllUsers',
		);
	});
	it('needs a token and only pays users of the caller tenant', async () => {
		const id = users1()[0].userId as string;
		expectGateway(await call(ctx.sb, 'POST', PAYRUNS, { body: request([id]), token: null }), 401);
		expectGateway(
			await call(ctx.sb, 'POST', PAYRUNS, { body: request([id]), token: other() }),
			400,
			'employees[0]',
		);
	});
});

describe('sandbox payroll: DELETE /v1/people-pay-run/payruns', () => {
	it('deletes payruns with their paystubs and answers an empty Payrun', async () => {
		const t = tenant1();
		const p = t.payruns.values().find((x) => x.processed === true)!;
		const id = p._id as string;
		expect(t.paystubs.values().some((s) => s.payrunId === id)).toBe(true);
		const res = await call(ctx.sb, 'DELETE', PAYRUNS, { body: [{ payrunId: id }] });
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			_id: '',
			totalCost: 0,
			netPay: 0,
			employees: [],
			payrolls: [],
			processed: false,
			createdAt: ZERO_TIME,
			jePostedOn: ZERO_TIME,
			paySchedule: { id: '', name: '' },
			workPeriod: { from: '', to: '' },
		});
		expect(t.payruns.has(id)).toBe(false);
		expect(t.paystubs.values().some((s) => s.payrunId === id)).toBe(false);
		const listed = await call(ctx.sb, 'GET', PAYRUNS, { query: { limit: 100 } });
		expect(listed.body.payruns.some((x: any) => x._id === id)).toBe(false);
	});
	it('refuses unknown ids (deleting nothing), wrong types and missing tokens', async () => {
		const id = tenant1().payruns.values()[0]._id as string;
		expectGateway(
			await call(ctx.sb, 'DELETE', PAYRUNS, {
				body: [{ payrunId: id }, { payrunId: '000000000000000000000000' }],
			}),
			404,
		);
		expect(tenant1().payruns.has(id)).toBe(true);
		expectGateway(
			await call(ctx.sb, 'DELETE', PAYRUNS, { body: [{ payrunId: 5 }] }),
			400,
			'body[0].payrunId',
		);
		expectGateway(await call(ctx.sb, 'DELETE', PAYRUNS, { body: { payrunId: id } }), 400, 'body');
		expectGateway(
			await call(ctx.sb, 'DELETE', PAYRUNS, { body: [{ payrunId: id }], token: null }),
			401,
		);
	});
	it('cannot delete a payrun of another tenant', async () => {
		const id = tenant1().payruns.values()[0]._id as string;
		expectGateway(
			await call(ctx.sb, 'DELETE', PAYRUNS, { body: [{ payrunId: id }], token: other() }),
			404,
		);
		expect(tenant1().payruns.has(id)).toBe(true);
	});
});

describe('sandbox payroll: GET /v1/people-pay-run/payruns/year/:year', () => {
	it('lists the payruns of a year, paged', async () => {
		const expected = tenant1()
			.payruns.values()
			.filter((p) => p.year === 2023).length;
		const res = await call(ctx.sb, 'GET', `${PAYRUNS}/year/2023`, { query: { limit: 100 } });
		expect(res.status).toBe(200);
		expect(Object.keys(res.body)).toEqual(['payruns']);
		expect(res.body.payruns).toHaveLength(expected);
		expect(res.body.payruns.every((p: any) => p.year === 2023 && p.payrolls === undefined)).toBe(
			true,
		);
		const months = res.body.payruns.map((p: any) => p.month);
		expect(months).toEqual([...months].sort((a: number, b: number) => a - b));
		const page2 = await call(ctx.sb, 'GET', `${PAYRUNS}/year/2023`, {
			query: { limit: 2, currentPage: 2 },
		});
		expect(page2.body.payruns.map((p: any) => p._id)).toEqual(
			res.body.payruns.slice(2, 4).map((p: any) => p._id),
		);
		expect((await call(ctx.sb, 'GET', `${PAYRUNS}/year/1999`)).body.payruns).toEqual([]);
	});
	it('refuses wrong types, needs a token and stays in the tenant', async () => {
		expectGateway(await call(ctx.sb, 'GET', `${PAYRUNS}/year/twenty`), 400, 'year');
		expectGateway(
			await call(ctx.sb, 'GET', `${PAYRUNS}/year/2023`, { query: { currentPage: 'x' } }),
			400,
			'currentPage',
		);
		expectGateway(await call(ctx.sb, 'GET', `${PAYRUNS}/year/2023`, { token: null }), 401);
		const theirs = await call(ctx.sb, 'GET', `${PAYRUNS}/year/2023`, {
			query: { limit: 100 },
			token: other(),
		});
		expect(theirs.body.payruns.length).toBeGreaterThan(0);
		expect(theirs.body.payruns.some((p: any) => tenant1().payruns.has(p._id))).toBe(false);
	});
});

describe('sandbox payroll: journal entries (sync-je, revert-je)', () => {
	const SYNC = `${PAYRUNS}/sync-je`;
	const REVERT = `${PAYRUNS}/revert-je`;

	it('posts, refuses a double post, then reverts to REVERTED with a second jeDetails entry', async () => {
		const id = unposted()[0]._id as string;
		const posted = await call(ctx.sb, 'POST', SYNC, {
			body: { payrun: [{ jeDate: '07/05/2024', payrunId: id }] },
		});
		expect(posted.status).toBe(200);
		expect(String(posted.headers['content-type'])).toContain('text/plain');
		expect(posted.text).toMatch(/posted/i);
		const p = tenant1().payruns.get(id)!;
		expect(p.jeStatus).toBe('POSTED');
		expect(p.jeId).toMatch(/^\d+$/);
		expect(p.jeEntryNumber).toBe(`JE-${String(p.jeId)}`);
		expect(p.jePostedOn).toBe('2024-07-05T00:00:00.000Z');
		expect(p.jeDetails).toEqual([
			{
				jeStatus: 'POSTED',
				jeId: p.jeId,
				jePostedOn: p.jePostedOn,
				jeEntryNumber: p.jeEntryNumber,
				isRevertJE: false,
			},
		]);

		const again = await call(ctx.sb, 'POST', SYNC, {
			body: { payrun: [{ jeDate: '07/06/2024', payrunId: id }] },
		});
		expectGateway(again, 400, 'payrun[0].payrunId');
		expect(p.jeDetails).toHaveLength(1);

		const wrongJe = await call(ctx.sb, 'POST', REVERT, {
			body: {
				revertPayrun: [{ jeId: Number(p.jeId) + 1000, jeRevertDate: '07/10/2024', payrunId: id }],
			},
		});
		expectGateway(wrongJe, 400, 'revertPayrun[0].jeId');
		expect(p.jeStatus).toBe('POSTED');

		const reverted = await call(ctx.sb, 'POST', REVERT, {
			body: { revertPayrun: [{ jeId: Number(p.jeId), jeRevertDate: '07/10/2024', payrunId: id }] },
		});
		expect(reverted.status).toBe(200);
		expect(reverted.text).toMatch(/reverted/i);
		const after = tenant1().payruns.get(id)!;
		expect(after).toMatchObject({
			jeStatus: 'REVERTED',
			isPayrunReverted: true,
			revertedAt: '2024-07-10T00:00:00.000Z',
		});
		const details = after.jeDetails as any[];
		expect(details).toHaveLength(2);
		expect(details[0].isRevertJE).toBe(false);
		expect(details[1]).toMatchObject({
			jeStatus: 'REVERTED',
			isRevertJE: true,
			jePostedOn: '2024-07-10T00:00:00.000Z',
			jeId: expect.stringMatching(/^\d+$/),
		});
		expect(details[1].jeId).not.toBe(details[0].jeId);

		// Reverting again: not POSTED any more.
		expectGateway(
			await call(ctx.sb, 'POST', REVERT, {
				body: {
					revertPayrun: [{ jeId: Number(p.jeId), jeRevertDate: '07/11/2024', payrunId: id }],
				},
			}),
			400,
			'revertPayrun[0].payrunId',
		);

		// A reverted payrun can be posted again, with a new journal entry.
		const reposted = await call(ctx.sb, 'POST', SYNC, {
			body: { payrun: [{ jeDate: '07/12/2024', payrunId: id }] },
		});
		expect(reposted.status).toBe(200);
		expect(after).toMatchObject({ jeStatus: 'POSTED', isPayrunReverted: false });
		expect((after.jeDetails as any[]).map((d) => d.isRevertJE)).toEqual([false, true, false]);
		expect(new Set((after.jeDetails as any[]).map((d) => d.jeId)).size).toBe(3);
	});
	it('applies nothing when one payrun of the request is already posted', async () => {
		const fresh = unposted()[0]._id as string;
		const postedId = tenant1()
			.payruns.values()
			.find((p) => p.jeStatus === 'POSTED')!._id as string;
		const res = await call(ctx.sb, 'POST', SYNC, {
			body: {
				payrun: [
					{ jeDate: '2024-07-05', payrunId: fresh },
					{ jeDate: '2024-07-05', payrunId: postedId },
				],
			},
		});
		expectGateway(res, 400, 'payrun[1].payrunId');
		expect(tenant1().payruns.get(fresh)!.jeStatus).toBe('');
	});
	it('refuses a revert dated before the posting', async () => {
		const p = tenant1()
			.payruns.values()
			.find((x) => x.jeStatus === 'POSTED')!;
		const res = await call(ctx.sb, 'POST', REVERT, {
			body: {
				revertPayrun: [{ jeId: Number(p.jeId), jeRevertDate: '01/01/2020', payrunId: p._id }],
			},
		});
		expectGateway(res, 400, 'revertPayrun[0].jeRevertDate');
	});
	it('refuses wrong types and unknown payruns', async () => {
		const id = unposted()[0]._id as string;
		expectGateway(
			await call(ctx.sb, 'POST', SYNC, { body: { payrun: [{ jeDate: 20240705, payrunId: id }] } }),
			400,
			'payrun[0].jeDate',
		);
		expectGateway(
			await call(ctx.sb, 'POST', SYNC, { body: { payrun: [{ jeDate: 'soon', payrunId: id }] } }),
			400,
			'payrun[0].jeDate',
		);
		expectGateway(
			await call(ctx.sb, 'POST', SYNC, {
				body: { payrun: { jeDate: '07/05/2024', payrunId: id } },
			}),
			400,
			'payrun',
		);
		expectGateway(await call(ctx.sb, 'POST', SYNC, { body: {} }), 400, 'payrun');
		expectGateway(
			await call(ctx.sb, 'POST', SYNC, {
				body: { payrun: [{ jeDate: '07/05/2024', payrunId: '000000000000000000000000' }] },
			}),
			404,
		);
		const p = tenant1()
			.payruns.values()
			.find((x) => x.jeStatus === 'POSTED')!;
		expectGateway(
			await call(ctx.sb, 'POST', REVERT, {
				body: {
					revertPayrun: [{ jeId: String(p.jeId), jeRevertDate: '12/31/2024', payrunId: p._id }],
				},
			}),
			400,
			'revertPayrun[0].jeId',
		);
		expectGateway(
			await call(ctx.sb, 'POST', REVERT, {
				body: { revertPayrun: [{ jeId: Number(p.jeId), payrunId: p._id }] },
			}),
			400,
			'revertPayrun[0].jeRevertDate',
		);
		expectGateway(
			await call(ctx.sb, 'POST', REVERT, {
				body: {
					revertPayrun: [
						{ jeId: 1, jeRevertDate: '12/31/2024', payrunId: '000000000000000000000000' },
					],
				},
			}),
			404,
		);
		expect(p.jeStatus).toBe('POSTED');
	});
	it('needs a token and stays in the tenant', async () => {
		const fresh = unposted()[0]._id as string;
		const p = tenant1()
			.payruns.values()
			.find((x) => x.jeStatus === 'POSTED')!;
		expectGateway(
			await call(ctx.sb, 'POST', SYNC, {
				body: { payrun: [{ jeDate: '07/05/2024', payrunId: fresh }] },
				token: null,
			}),
			401,
		);
		expectGateway(
			await call(ctx.sb, 'POST', REVERT, {
				body: {
					revertPayrun: [{ jeId: Number(p.jeId), jeRevertDate: '12/31/2024', payrunId: p._id }],
				},
				token: null,
			}),
			401,
		);
		expectGateway(
			await call(ctx.sb, 'POST', SYNC, {
				body: { payrun: [{ jeDate: '07/05/2024', payrunId: fresh }] },
				token: other(),
			}),
			404,
		);
		expectGateway(
			await call(ctx.sb, 'POST', REVERT, {
				body: {
					revertPayrun: [{ jeId: Number(p.jeId), jeRevertDate: '12/31/2024', payrunId: p._id }],
				},
				token: other(),
			}),
			404,
		);
		expect(tenant1().payruns.get(fresh)!.jeStatus).toBe('');
		expect(p.jeStatus).toBe('POSTED');
	});
});

describe('sandbox payroll: GET /v1/people-pay-run/paystubs/employee/:employeeId', () => {
	const stubsOf = (userId: string) =>
		tenant1()
			.paystubs.values()
			.filter((s) => s.employeeId === userId);
	const busiest = () =>
		users1().reduce((best, u) =>
			stubsOf(u.userId as string).length > stubsOf(best.userId as string).length ? u : best,
		);

	it('lists an employee paystubs, paged and sorted', async () => {
		const u = busiest();
		const id = u.userId as string;
		const total = stubsOf(id).length;
		// 11 processed payruns seeded; the DELETE tests above may have removed one.
		expect(total).toBeGreaterThan(6);
		const p1 = await call(ctx.sb, 'GET', `/v1/people-pay-run/paystubs/employee/${id}`, {
			query: { limit: 6, currentPage: 1, sortOrder: 'asc', sortField: 'payDate' },
		});
		expect(p1.status).toBe(200);
		expect(Object.keys(p1.body)).toEqual(['paystubs']);
		expect(p1.body.paystubs).toHaveLength(6);
		const p2 = await call(ctx.sb, 'GET', `/v1/people-pay-run/paystubs/employee/${id}`, {
			query: { limit: 6, currentPage: 2, sortOrder: 'asc', sortField: 'payDate' },
		});
		expect(p2.body.paystubs).toHaveLength(Math.min(6, total - 6));
		const dates = [...p1.body.paystubs, ...p2.body.paystubs].map((s: any) => mdyToTime(s.payDate));
		expect(dates).toEqual([...dates].sort((a, b) => a - b));
		const s = p1.body.paystubs[0];
		expect(s).toEqual(
			expect.objectContaining({
				_id: expect.any(String),
				payrollId: expect.any(String),
				employeeId: id,
				iamUserId: u.iamUserId,
				firstName: u.firstName,
				basicPay: expect.any(Number),
				netPay: expect.any(Number),
				workPeriod: { from: expect.any(String), to: expect.any(String) },
				components: expect.any(Array),
				benefits: expect.any(Array),
				overtime: [],
				filepath: expect.stringMatching(/\.pdf$/),
			}),
		);
	});
	it('searches by a pay-period range', async () => {
		const id = busiest().userId as string;
		const res = await call(ctx.sb, 'GET', `/v1/people-pay-run/paystubs/employee/${id}`, {
			query: { searchString: '01/01/2024-03/31/2024' },
		});
		expect(res.body.paystubs.map((s: any) => s.workPeriod.from).sort()).toEqual([
			'01/01/2024',
			'02/01/2024',
			'03/01/2024',
		]);
	});
	it('refuses unknown employees and wrong types; needs a token; stays in the tenant', async () => {
		const id = busiest().userId as string;
		expectGateway(
			await call(ctx.sb, 'GET', '/v1/people-pay-run/paystubs/employee/000000000000000000000000'),
			404,
		);
		expectGateway(
			await call(ctx.sb, 'GET', `/v1/people-pay-run/paystubs/employee/${id}`, {
				query: { limit: 'all' },
			}),
			400,
			'limit',
		);
		expectGateway(
			await call(ctx.sb, 'GET', `/v1/people-pay-run/paystubs/employee/${id}`, {
				query: { sortOrder: 'random' },
			}),
			400,
			'sortOrder',
		);
		expectGateway(
			await call(ctx.sb, 'GET', `/v1/people-pay-run/paystubs/employee/${id}`, { token: null }),
			401,
		);
		expectGateway(
			await call(ctx.sb, 'GET', `/v1/people-pay-run/paystubs/employee/${id}`, { token: other() }),
			404,
		);
	});
});
