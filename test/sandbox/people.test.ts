/* eslint-disable @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
import {
	call,
	type CallResult,
	expectGateway,
	otherTenantToken,
	useSandbox,
} from '../helpers/sandbox';

const ctx = useSandbox();

const USERS = '/v1/people/users';
const GROUPS = '/v1/people/tenants/component-group';

const tenant1 = () => ctx.sb.store.tenant(1);
const other = () => otherTenantToken(ctx.sb);

/** gatewayruntimeError whose message also names the field. */
function expectGatewayNaming(res: CallResult, status: number, field?: string): void {
	expectGateway(res, status, field);
	if (field) expect(res.body.message).toContain(field);
}

function expectFilterConfig(fc: any, expected?: Partial<Record<string, string>>): void {
	for (const k of ['page', 'numberOfElements', 'sizePerPage', 'totalPage', 'numberOfRecords']) {
		expect(typeof fc[k]).toBe('string');
		expect(fc[k]).toMatch(/^\d+$/);
	}
	if (expected) expect(fc).toMatchObject(expected);
}

function expectUsersEnvelope(body: any): void {
	expect(body.status).toBe('success');
	expect(Array.isArray(body.users)).toBe(true);
	expectFilterConfig(body.filterConfig);
	expect(typeof body.beneficiariesToAdd).toBe('string');
	for (const u of body.users) {
		expect(typeof u.userId).toBe('string');
		expect(typeof u.iamUserId).toBe('string');
		for (const a of u.approvers) expect(typeof a.iamUserId).toBe('string');
	}
}

async function createUser(body: Record<string, unknown>, token?: string): Promise<any> {
	const res = await call(ctx.sb, 'POST', USERS, { body, token });
	expect(res.status).toBe(200);
	return res.body.user;
}

const byUserIds = (ids: string[], token?: string) =>
	call(ctx.sb, 'GET', USERS, { query: { userIds: ids, limit: 100 }, token });

describe('sandbox people: GET /v1/people/users', () => {
	it('answers v1GetUsersResponse with int64 fields as strings', async () => {
		const res = await call(ctx.sb, 'GET', USERS, { query: { limit: '5', currentPage: '1' } });
		expect(res.status).toBe(200);
		expectUsersEnvelope(res.body);
		expect(res.body.users).toHaveLength(5);
		expect(res.body.filterConfig).toEqual({
			page: '1',
			numberOfElements: '5',
			sizePerPage: '5',
			totalPage: '6',
			numberOfRecords: '30',
		});
		const u = res.body.users[0];
		expect(u.status).toBe('active');
		expect(u.address).toEqual(
			expect.objectContaining({
				addressLine1: expect.any(String),
				city: expect.any(String),
				zipCode: expect.any(String),
			}),
		);
		expect(u.paymentDetails).toEqual(
			expect.objectContaining({ bank: expect.any(String), paymentMethod: expect.any(String) }),
		);
		expect(Number.isNaN(Date.parse(u.dateOfJoining))).toBe(false);
		expect(typeof u.compensation).toBe('number');
	});
	it('pages with currentPage and sorts with order/field (sample: desc by _id)', async () => {
		const p1 = await call(ctx.sb, 'GET', USERS, {
			query: { limit: 10, currentPage: 1, order: 'desc', field: '_id' },
		});
		const p2 = await call(ctx.sb, 'GET', USERS, {
			query: { limit: 10, currentPage: 2, order: 'desc', field: '_id' },
		});
		const ids = [...p1.body.users, ...p2.body.users].map((u: any) => u.userId);
		expect(new Set(ids).size).toBe(20);
		expect(ids).toEqual([...ids].sort().reverse());
		const asc = await call(ctx.sb, 'GET', USERS, {
			query: { limit: 100, 'orderBy.field': 'address.city', 'orderBy.order': 'asc' },
		});
		const cities = asc.body.users.map((u: any) => u.address.city);
		expect(cities).toEqual([...cities].sort((a: string, b: string) => a.localeCompare(b)));
	});
	it('filters by searchString/searchField, userIds (repeated or comma) and userType', async () => {
		const all = tenant1().peopleUsers.values();
		const target = all[3];
		const res = await call(ctx.sb, 'GET', USERS, {
			query: { searchString: String(target.emailId).toUpperCase(), searchField: 'emailId' },
		});
		expect(res.body.users.map((u: any) => u.userId)).toEqual([target.userId]);
		const ids = [all[0].userId as string, all[1].userId as string];
		expect((await byUserIds(ids)).body.users.map((u: any) => u.userId).sort()).toEqual(
			[...ids].sort(),
		);
		const comma = await call(ctx.sb, 'GET', USERS, { query: { userIds: ids.join(',') } });
		expect(comma.body.users).toHaveLength(2);
		const contractors = await call(ctx.sb, 'GET', USERS, {
			query: { userType: 'CONTRACTOR', limit: 100 },
		});
		expect(contractors.body.users.length).toBe(all.filter((u) => u.type === 'CONTRACTOR').length);
		const noRoles = await call(ctx.sb, 'GET', USERS, {
			query: { limit: 1, ignRoles: true, ignTeamData: 'true' },
		});
		expect(noRoles.body.users[0].roles).toEqual([]);
		expect(noRoles.body.users[0].teams).toEqual([]);
	});
	it('needs a token', async () => {
		const res = await call(ctx.sb, 'GET', USERS, { token: null });
		expectGatewayNaming(res, 401);
		expect(res.body.code).toBe(16);
	});
	it('refuses wrong types with a gateway error naming the field', async () => {
		expectGatewayNaming(
			await call(ctx.sb, 'GET', USERS, { query: { limit: 'ten' } }),
			400,
			'limit',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'GET', USERS, { query: { includeDraft: 'maybe' } }),
			400,
			'includeDraft',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'GET', USERS, { query: { order: 'sideways' } }),
			400,
			'order',
		);
	});
	it('shows only the caller tenant', async () => {
		const res = await call(ctx.sb, 'GET', USERS, { query: { limit: 100 }, token: other() });
		expect(res.status).toBe(200);
		const mine = new Set(
			tenant1()
				.peopleUsers.values()
				.map((u) => u.userId),
		);
		expect(res.body.users.length).toBeGreaterThan(0);
		expect(res.body.users.some((u: any) => mine.has(u.userId))).toBe(false);
	});
});

describe('sandbox people: POST /v1/people/users', () => {
	it('creates a user and answers v1GetUserResponse', async () => {
		const approver = tenant1().peopleUsers.values()[0];
		const res = await call(ctx.sb, 'POST', USERS, {
			body: {
				firstName: 'Zoë',
				lastName: 'Created',
				emailId: 'zoe.created@acme.example',
				designation: 'Chief Sandbox Officer',
				compensation: 90000,
				compensationPeriod: 'yearly',
				compensationCurrency: 'USD',
				dateOfJoining: '2024-02-01T00:00:00Z',
				address: { addressLine1: '1 Test Way', city: 'Testville', country: 'US' },
				paymentDetails: { bank: 'Test Bank', paymentMethod: 'directDeposit', accountNumber: '123' },
				approvers: [{ iamUserId: Number(approver.iamUserId) }],
				customFieldData: [{ customFieldId: 'cf-tshirt-size', value: ['L'], iamUserId: 7 }],
			},
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			status: 'success',
			user: expect.any(Object),
			errors: [],
			httpStatusCode: '200',
			error: null,
		});
		const u = res.body.user;
		expect(u.userId).toMatch(/^[0-9a-f]{24}$/);
		expect(u.name).toBe('Zoë Created');
		expect(typeof u.iamUserId).toBe('string');
		expect(u.employeeId).toMatch(/^EMP-\d{4}$/);
		expect(u.approvers).toEqual([
			{
				firstName: approver.firstName,
				lastName: approver.lastName,
				designation: approver.designation,
				emailId: approver.emailId,
				iamUserId: approver.iamUserId,
			},
		]);
		expect(u.customFieldData[0].iamUserId).toBe('7');
		// Readable through the list and the search.
		expect((await byUserIds([u.userId])).body.users[0]).toMatchObject({
			firstName: 'Zoë',
			address: { city: 'Testville' },
		});
		const found = await call(ctx.sb, 'GET', USERS, { query: { searchString: 'zoe.created' } });
		expect(found.body.users.map((x: any) => x.userId)).toEqual([u.userId]);
	});
	it('requires firstName and refuses wrong types', async () => {
		expectGatewayNaming(
			await call(ctx.sb, 'POST', USERS, { body: { lastName: 'Nobody' } }),
			400,
			'firstName',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'POST', USERS, { body: { firstName: 'A', compensation: 'lots' } }),
			400,
			'compensation',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'POST', USERS, { body: { firstName: 'A', address: { city: 5 } } }),
			400,
			'address.city',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'POST', USERS, { body: { firstName: 'A', iamUserId: 'abc' } }),
			400,
			'iamUserId',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'POST', USERS, { body: { firstName: 'A', dateOfBirth: 'yesterday' } }),
			400,
			'dateOfBirth',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'POST', USERS, {
				body: { firstName: 'A', approvers: [{ iamUserId: '999999999' }] },
			}),
			400,
			'approvers[0]',
		);
		expectGatewayNaming(await call(ctx.sb, 'POST', USERS, { body: [] }), 400, 'body');
	});
	it('refuses a duplicate emailId with 409', async () => {
		const email = tenant1().peopleUsers.values()[2].emailId;
		const res = await call(ctx.sb, 'POST', USERS, { body: { firstName: 'Dup', emailId: email } });
		expectGatewayNaming(res, 409, 'emailId');
		expect(res.body.code).toBe(6);
	});
	it('needs a token', async () => {
		expectGatewayNaming(
			await call(ctx.sb, 'POST', USERS, { body: { firstName: 'X' }, token: null }),
			401,
		);
	});
	it('keeps users in their tenant', async () => {
		const u = await createUser({
			firstName: 'Tenant',
			lastName: 'One',
			emailId: 'tenant.one@acme.example',
		});
		expect((await byUserIds([u.userId], other())).body.users).toEqual([]);
		// The same email is free in the other tenant.
		const u2 = await createUser(
			{ firstName: 'Tenant', lastName: 'Two', emailId: 'tenant.one@acme.example' },
			other(),
		);
		expect(ctx.sb.store.tenant(2).peopleUsers.has(u2.userId)).toBe(true);
		expect(tenant1().peopleUsers.has(u2.userId)).toBe(false);
	});
});

describe('sandbox people: PUT and PATCH /v1/people/users', () => {
	it('PUT replaces every writable field', async () => {
		const u = await createUser({
			firstName: 'Put',
			lastName: 'Me',
			designation: 'Designer',
			address: { city: 'Old Town' },
			compensation: 5,
		});
		const res = await call(ctx.sb, 'PUT', USERS, {
			body: { userId: u.userId, firstName: 'Putt', lastName: 'Replaced', compensation: 10 },
		});
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			status: 'success',
			errors: [],
			httpStatusCode: '200',
			error: null,
		});
		const after = (await byUserIds([u.userId])).body.users[0];
		expect(after).toMatchObject({
			userId: u.userId,
			firstName: 'Putt',
			lastName: 'Replaced',
			name: 'Putt Replaced',
			designation: '',
			address: null,
			compensation: 10,
			iamUserId: u.iamUserId,
			createdAt: u.createdAt,
			employeeId: u.employeeId,
		});
	});
	it('PATCH merges fields and nested objects', async () => {
		const u = await createUser({
			firstName: 'Patch',
			lastName: 'Me',
			designation: 'Designer',
			address: { addressLine1: '9 Elm', city: 'Old Town' },
		});
		const res = await call(ctx.sb, 'PATCH', USERS, {
			body: { userId: u.userId, designation: 'Accountant', address: { city: 'New Town' } },
		});
		expect(res.status).toBe(200);
		expect(res.body.user).toMatchObject({
			firstName: 'Patch',
			designation: 'Accountant',
			address: { addressLine1: '9 Elm', city: 'New Town' },
		});
		expect((await byUserIds([u.userId])).body.users[0].designation).toBe('Accountant');
		// Renaming a user renames its copies held as approver.
		const approved = await createUser({
			firstName: 'Approved',
			approvers: [{ iamUserId: u.iamUserId }],
		});
		await call(ctx.sb, 'PATCH', USERS, { body: { userId: u.userId, firstName: 'Renamed' } });
		expect((await byUserIds([approved.userId])).body.users[0].approvers[0].firstName).toBe(
			'Renamed',
		);
	});
	it('needs userId, knows the user and checks types', async () => {
		for (const method of ['PUT', 'PATCH']) {
			expectGatewayNaming(
				await call(ctx.sb, method, USERS, { body: { firstName: 'X' } }),
				400,
				'userId',
			);
			expectGatewayNaming(
				await call(ctx.sb, method, USERS, { body: { userId: 42, firstName: 'X' } }),
				400,
				'userId',
			);
			const missing = await call(ctx.sb, method, USERS, {
				body: { userId: '000000000000000000000000', firstName: 'X' },
			});
			expectGatewayNaming(missing, 404);
			expect(missing.body.code).toBe(5);
		}
		const u = tenant1().peopleUsers.values()[4];
		expectGatewayNaming(
			await call(ctx.sb, 'PATCH', USERS, { body: { userId: u.userId, isTerminated: 'yes' } }),
			400,
			'isTerminated',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'PUT', USERS, { body: { userId: u.userId } }),
			400,
			'firstName',
		);
	});
	it('needs a token and stays in the tenant', async () => {
		const u = tenant1().peopleUsers.values()[4];
		expectGatewayNaming(
			await call(ctx.sb, 'PUT', USERS, { body: { userId: u.userId, firstName: 'X' }, token: null }),
			401,
		);
		expectGatewayNaming(
			await call(ctx.sb, 'PATCH', USERS, {
				body: { userId: u.userId, firstName: 'X' },
				token: null,
			}),
			401,
		);
		expectGatewayNaming(
			await call(ctx.sb, 'PUT', USERS, {
				body: { userId: u.userId, firstName: 'X' },
				token: other(),
			}),
			404,
		);
		expectGatewayNaming(
			await call(ctx.sb, 'PATCH', USERS, {
				body: { userId: u.userId, firstName: 'X' },
				token: other(),
			}),
			404,
		);
		expect(tenant1().peopleUsers.get(u.userId as string)!.firstName).not.toBe('X');
	});
});

describe('sandbox people: POST /v1/people/users/delete/bulk', () => {
	const DELETE = `${USERS}/delete/bulk`;
	it('deletes users and answers v1DeleteResponse', async () => {
		const a = await createUser({ firstName: 'Gone', lastName: 'A' });
		const b = await createUser({ firstName: 'Gone', lastName: 'B' });
		const res = await call(ctx.sb, 'POST', DELETE, { body: { ids: [a.userId, b.userId] } });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ status: 'success', message: expect.any(String), errCode: '' });
		expect((await byUserIds([a.userId, b.userId])).body.users).toEqual([]);
	});
	it('deletes users of a payrun only with forcedDelete', async () => {
		const t = tenant1();
		const approverIams = new Set(
			t.peopleUsers.values().flatMap((u) => (u.approvers as any[]).map((a) => a.iamUserId)),
		);
		const inPayrun = t.peopleUsers
			.values()
			.find(
				(u) =>
					!approverIams.has(u.iamUserId) &&
					t.payruns.values().some((p) => (p.employees as string[]).includes(u.userId as string)),
			)!;
		const id = inPayrun.userId as string;
		const refused = await call(ctx.sb, 'POST', DELETE, {
			body: { ids: [id], forcedDelete: false },
		});
		expect(refused.status).toBe(200);
		expect(refused.body).toEqual({
			status: 'failed',
			message: expect.stringContaining(id),
			errCode: 'USER_IN_PAYRUN',
		});
		expect(t.peopleUsers.has(id)).toBe(true);
		const forced = await call(ctx.sb, 'POST', DELETE, { body: { ids: [id], forcedDelete: true } });
		expect(forced.body.status).toBe('success');
		expect(t.peopleUsers.has(id)).toBe(false);
		expect(t.componentGroups.values().some((g) => (g.users as string[]).includes(id))).toBe(false);
		expect(
			t.peopleUsers
				.values()
				.some((u) =>
					(u.teams as any[]).some((team) => team.members.some((m: any) => m.userId === id)),
				),
		).toBe(false);
	});
	it('refuses unknown ids, wrong types and missing tokens; stays in the tenant', async () => {
		const u = await createUser({ firstName: 'Kept' });
		expectGatewayNaming(
			await call(ctx.sb, 'POST', DELETE, { body: { ids: ['000000000000000000000000'] } }),
			404,
		);
		expectGatewayNaming(await call(ctx.sb, 'POST', DELETE, { body: { ids: 'abc' } }), 400, 'ids');
		expectGatewayNaming(
			await call(ctx.sb, 'POST', DELETE, { body: { ids: [u.userId], forcedDelete: 'yes' } }),
			400,
			'forcedDelete',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'POST', DELETE, { body: { ids: [u.userId] }, token: null }),
			401,
		);
		expectGatewayNaming(
			await call(ctx.sb, 'POST', DELETE, { body: { ids: [u.userId] }, token: other() }),
			404,
		);
		expect(tenant1().peopleUsers.has(u.userId)).toBe(true);
	});
});

describe('sandbox people: POST /v1/people/users/filtered-users', () => {
	const FILTER = `${USERS}/filtered-users`;
	const filtered = async (conditions: unknown[], token?: string) => {
		const res = await call(ctx.sb, 'POST', FILTER, {
			query: { limit: 500 },
			body: { conditions },
			token,
		});
		expect(res.status).toBe(200);
		expectUsersEnvelope(res.body);
		return (res.body.users as any[]).map((u) => u.userId).sort();
	};
	/** The ids the store says match; never empty, so every operator is really exercised. */
	const expected = (pred: (u: any) => boolean) => {
		const ids = tenant1()
			.peopleUsers.values()
			.filter(pred)
			.map((u) => u.userId)
			.sort();
		expect(ids.length).toBeGreaterThan(0);
		return ids;
	};

	it('supports eq, neq, c, nc, sw, ew, in, gt, lt and dotted paths', async () => {
		const sample = tenant1().peopleUsers.values()[5] as any;
		const city = sample.address.city;
		const lc = (v: unknown) => String(v).toLowerCase();
		expect(await filtered([{ colId: 'address.city', opr: 'eq', value: city }])).toEqual(
			expected((u) => u.address?.city === city),
		);
		expect(await filtered([{ colId: 'address.city', opr: 'neq', value: city }])).toEqual(
			expected((u) => u.address?.city !== city),
		);
		expect(await filtered([{ colId: 'firstName', opr: 'c', value: 'a' }])).toEqual(
			expected((u) => lc(u.firstName).includes('a')),
		);
		expect(await filtered([{ colId: 'firstName', opr: 'nc', value: 'a' }])).toEqual(
			expected((u) => !lc(u.firstName).includes('a')),
		);
		expect(await filtered([{ colId: 'emailId', opr: 'sw', value: 'ada' }])).toEqual(
			expected((u) => lc(u.emailId).startsWith('ada')),
		);
		expect(await filtered([{ colId: 'emailId', opr: 'ew', value: '1@acme.example' }])).toEqual(
			expected((u) => lc(u.emailId).endsWith('1@acme.example')),
		);
		expect(
			await filtered([{ colId: 'designation', opr: 'in', value: 'Accountant,Designer' }]),
		).toEqual(expected((u) => ['Accountant', 'Designer'].includes(u.designation)));
		expect(await filtered([{ colId: 'compensation', opr: 'gt', value: '100000' }])).toEqual(
			expected((u) => u.compensation > 100000),
		);
		expect(await filtered([{ colId: 'compensation', opr: 'lt', value: '100000' }])).toEqual(
			expected((u) => u.compensation < 100000),
		);
		expect(await filtered([{ colId: 'roles.name', opr: 'eq', value: 'admin' }])).toEqual(
			expected((u) => u.roles.some((r: any) => r.name === 'Admin')),
		);
		expect(
			await filtered([{ colId: 'customFields', key: 'tShirtSize', opr: 'eq', value: 'M' }]),
		).toEqual(expected((u) => u.customFields.tShirtSize === 'M'));
		// Conditions combine with AND.
		expect(
			await filtered([
				{ colId: 'address.city', opr: 'eq', value: city },
				{ colId: 'compensation', opr: 'gt', value: '100000' },
			]),
		).toEqual(expected((u) => u.address?.city === city && u.compensation > 100000));
		expect(await filtered([])).toHaveLength(tenant1().peopleUsers.size);
	});
	it('uses the shared pagination query', async () => {
		const res = await call(ctx.sb, 'POST', FILTER, {
			query: { limit: '3', currentPage: '2' },
			body: { conditions: [{ colId: 'status', opr: 'eq', value: 'active' }] },
		});
		expect(res.body.users).toHaveLength(3);
		expect(res.body.filterConfig).toMatchObject({
			page: '2',
			numberOfElements: '3',
			sizePerPage: '3',
		});
	});
	it('refuses wrong types and unknown operators', async () => {
		expectGatewayNaming(
			await call(ctx.sb, 'POST', FILTER, {
				body: { conditions: [{ colId: 'firstName', opr: 'eq', value: 5 }] },
			}),
			400,
			'conditions[0].value',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'POST', FILTER, {
				body: { conditions: [{ colId: 'firstName', opr: 'like', value: 'a' }] },
			}),
			400,
			'conditions[0].opr',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'POST', FILTER, { body: { conditions: 'firstName=a' } }),
			400,
			'conditions',
		);
	});
	it('needs a token and stays in the tenant', async () => {
		expectGatewayNaming(
			await call(ctx.sb, 'POST', FILTER, { body: { conditions: [] }, token: null }),
			401,
		);
		const email = tenant1().peopleUsers.values()[0].emailId;
		expect(await filtered([{ colId: 'emailId', opr: 'eq', value: email }], other())).toEqual([]);
	});
});

describe('sandbox people: GET /v1/people/users/approvers/list', () => {
	const APPROVERS = `${USERS}/approvers/list`;
	it('lists the users who approve a user', async () => {
		const t = tenant1();
		const u = t.peopleUsers.values().find((x) => (x.approvers as any[]).length === 2)!;
		const res = await call(ctx.sb, 'GET', APPROVERS, {
			query: {
				id: u.userId as string,
				getCompliance: false,
				getComponents: true,
				getBenefits: true,
				getRolesAndTeams: true,
				customFieldModule: 'people',
			},
		});
		expect(res.status).toBe(200);
		expectUsersEnvelope(res.body);
		expect(res.body.users.map((x: any) => x.iamUserId).sort()).toEqual(
			(u.approvers as any[]).map((a) => a.iamUserId).sort(),
		);
		expect(res.body.filterConfig.numberOfRecords).toBe('2');
	});
	it('refuses a missing id, an unknown id and wrong types', async () => {
		expectGatewayNaming(await call(ctx.sb, 'GET', APPROVERS), 400, 'id');
		expectGatewayNaming(
			await call(ctx.sb, 'GET', APPROVERS, { query: { id: '000000000000000000000000' } }),
			404,
		);
		const id = tenant1().peopleUsers.values()[3].userId as string;
		expectGatewayNaming(
			await call(ctx.sb, 'GET', APPROVERS, { query: { id, getCompliance: 'perhaps' } }),
			400,
			'getCompliance',
		);
	});
	it('needs a token and stays in the tenant', async () => {
		const id = tenant1().peopleUsers.values()[3].userId as string;
		expectGatewayNaming(await call(ctx.sb, 'GET', APPROVERS, { query: { id }, token: null }), 401);
		expectGatewayNaming(
			await call(ctx.sb, 'GET', APPROVERS, { query: { id }, token: other() }),
			404,
		);
	});
});

describe('sandbox people: GET /v1/people/users/designations', () => {
	const DESIGNATIONS = `${USERS}/designations`;
	it('lists the distinct designations of the tenant', async () => {
		await createUser({ firstName: 'Des', designation: 'Sandbox Cartographer' });
		const res = await call(ctx.sb, 'GET', DESIGNATIONS);
		expect(res.status).toBe(200);
		expect(res.body.status).toBe('success');
		const list: string[] = res.body.designations;
		expect(new Set(list).size).toBe(list.length);
		expect(list).toContain('Sandbox Cartographer');
		expect(list).toContain('Software Engineer');
		const theirs = await call(ctx.sb, 'GET', DESIGNATIONS, { token: other() });
		expect(theirs.body.designations).not.toContain('Sandbox Cartographer');
	});
	it('needs a token and refuses a malformed token', async () => {
		expectGatewayNaming(await call(ctx.sb, 'GET', DESIGNATIONS, { token: null }), 401);
		expectGatewayNaming(await call(ctx.sb, 'GET', DESIGNATIONS, { token: 'not-a-token' }), 401);
	});
});

describe('sandbox people: beneficiaries', () => {
	const STATUS = `${USERS}/beneficiary-status`;
	const SYNC = `${USERS}/sync-beneficiaries`;
	it('PUT beneficiary-status sets status, reason and id', async () => {
		const u = tenant1().peopleUsers.values()[6];
		const res = await call(ctx.sb, 'PUT', STATUS, {
			body: {
				beneficiaryStatusInfo: [
					{
						beneficiaryDetails: [
							{ userId: u.userId, reason: 'Bank verified', beneId: 'BENE-TEST-1' },
						],
						operation: 'APPROVED',
					},
				],
			},
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ status: 'success' });
		expect((await byUserIds([u.userId as string])).body.users[0]).toMatchObject({
			beneficiaryStatus: 'APPROVED',
			beneficiaryReason: 'Bank verified',
			beneficiaryId: 'BENE-TEST-1',
		});
	});
	it('PUT beneficiary-status checks types, users, token and tenant', async () => {
		const u = tenant1().peopleUsers.values()[6];
		expectGatewayNaming(
			await call(ctx.sb, 'PUT', STATUS, {
				body: {
					beneficiaryStatusInfo: [{ beneficiaryDetails: [{ userId: u.userId }], operation: 5 }],
				},
			}),
			400,
			'beneficiaryStatusInfo[0].operation',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'PUT', STATUS, { body: { beneficiaryStatusInfo: 'x' } }),
			400,
			'beneficiaryStatusInfo',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'PUT', STATUS, {
				body: {
					beneficiaryStatusInfo: [
						{ beneficiaryDetails: [{ userId: '000000000000000000000000' }], operation: 'APPROVED' },
					],
				},
			}),
			404,
		);
		const body = {
			beneficiaryStatusInfo: [
				{ beneficiaryDetails: [{ userId: u.userId, reason: 'x' }], operation: 'REJECTED' },
			],
		};
		expectGatewayNaming(await call(ctx.sb, 'PUT', STATUS, { body, token: null }), 401);
		expectGatewayNaming(await call(ctx.sb, 'PUT', STATUS, { body, token: other() }), 404);
		expect(tenant1().peopleUsers.get(u.userId as string)!.beneficiaryStatus).toBe('APPROVED');
	});
	it('POST sync-beneficiaries marks users without a beneficiary id as pending', async () => {
		const t = tenant1();
		const before = await call(ctx.sb, 'GET', USERS, { query: { limit: 1 } });
		const waiting = t.peopleUsers
			.values()
			.filter((u) => !u.beneficiaryId && u.beneficiaryStatus !== 'PENDING');
		expect(waiting.length).toBeGreaterThan(0);
		expect(before.body.beneficiariesToAdd).toBe(String(waiting.length));
		const theirs = ctx.sb.store
			.tenant(2)
			.peopleUsers.values()
			.filter((u) => !u.beneficiaryId);
		const res = await call(ctx.sb, 'POST', SYNC, { body: {} });
		expect(res.status).toBe(200);
		expect(res.body.status).toMatch(/initiated/i);
		expect(waiting.every((u) => u.beneficiaryStatus === 'PENDING')).toBe(true);
		expect(theirs.some((u) => u.beneficiaryStatus === 'PENDING')).toBe(false);
		expect(
			(await call(ctx.sb, 'GET', USERS, { query: { limit: 1 } })).body.beneficiariesToAdd,
		).toBe('0');
	});
	it('POST sync-beneficiaries checks the body and the token', async () => {
		expectGatewayNaming(await call(ctx.sb, 'POST', SYNC, { body: ['all'] }), 400, 'body');
		expectGatewayNaming(await call(ctx.sb, 'POST', SYNC, { body: {}, token: null }), 401);
	});
});

describe('sandbox people: GET /v1/people/users/in/tax-declaration-info/list', () => {
	const TAX = `${USERS}/in/tax-declaration-info/list`;
	it('lists entries with filterConfig and filters by stage', async () => {
		const t = tenant1();
		const res = await call(ctx.sb, 'GET', TAX, {
			query: { limit: 2, currentPage: 1, order: 'desc', field: '_id' },
		});
		expect(res.status).toBe(200);
		expect(res.body.status).toBe('success');
		expect(res.body.taxDeclarationInfo).toHaveLength(2);
		expectFilterConfig(res.body.filterConfig, {
			page: '1',
			sizePerPage: '2',
			numberOfRecords: String(t.taxDeclarations.size),
		});
		for (const e of res.body.taxDeclarationInfo)
			expect(Object.keys(e).sort()).toEqual([
				'employeeName',
				'rejectedItems',
				'status',
				'submitOn',
				'userId',
			]);
		const rejected = await call(ctx.sb, 'GET', TAX, { query: { limit: 100, stage: 'REJECTED' } });
		const expected = t.taxDeclarations.values().filter((e) => e.status === 'REJECTED');
		expect(rejected.body.taxDeclarationInfo).toHaveLength(expected.length);
		expect(
			rejected.body.taxDeclarationInfo.every(
				(e: any) => e.status === 'REJECTED' && e.rejectedItems.length > 0,
			),
		).toBe(true);
	});
	it('refuses wrong types and needs a token', async () => {
		expectGatewayNaming(
			await call(ctx.sb, 'GET', TAX, { query: { currentPage: 'first' } }),
			400,
			'currentPage',
		);
		expectGatewayNaming(await call(ctx.sb, 'GET', TAX, { token: null }), 401);
	});
	it('stays in the tenant', async () => {
		const mine = new Set(
			tenant1()
				.peopleUsers.values()
				.map((u) => u.userId),
		);
		const res = await call(ctx.sb, 'GET', TAX, { query: { limit: 100 }, token: other() });
		expect(res.body.taxDeclarationInfo.length).toBeGreaterThan(0);
		expect(res.body.taxDeclarationInfo.some((e: any) => mine.has(e.userId))).toBe(false);
	});
});

describe('sandbox people: component groups', () => {
	const component = {
		name: 'Meal allowance',
		amount: 0,
		type: 'EARNING',
		status: 'active',
		componentConfig: {
			configureAmountBasis: 'percentOfBasic',
			basisComponentId: 'basic',
			componentPercent: 10,
			amountPerDay: 0,
			deductionType: '',
			applicableValues: { metro: 1, nonMetro: 2 },
		},
		subType: 'allowance',
		frequency: { period: 'everyPayrun', occurrence: [], when: '' },
		includeInOTCalc: false,
		formula: 'basic * 0.1',
		formulaConfig: [{ index: 0, componentId: 'basic', type: 'component', percentage: 10 }],
		isActive: true,
		compliance: { countryCode: 'US', pf: false, esi: false, taxexempt: true },
	};

	it('GET lists groups with the v1GetComponentGroupsResponse envelope', async () => {
		const res = await call(ctx.sb, 'GET', GROUPS, { query: { limit: 2, currentPage: 1 } });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			status: 'success',
			componentGroups: expect.any(Array),
			filterConfig: expect.any(Object),
			error: null,
		});
		expect(res.body.componentGroups).toHaveLength(2);
		expectFilterConfig(res.body.filterConfig, { page: '1', sizePerPage: '2' });
		const g = res.body.componentGroups[0];
		expect(g).toEqual(
			expect.objectContaining({
				id: expect.any(String),
				name: expect.any(String),
				fixedComponents: expect.any(Array),
				applyToAll: false,
				users: expect.any(Array),
				deleted: false,
			}),
		);
		expect(g.fixedComponents[0]).toEqual(
			expect.objectContaining({
				componentId: expect.any(String),
				componentConfig: expect.any(Object),
				frequency: expect.any(Object),
				formulaConfig: expect.any(Array),
			}),
		);
	});
	it('POST creates a group readable by id; its users point at it', async () => {
		const user = await createUser({ firstName: 'Grouped' });
		const res = await call(ctx.sb, 'POST', GROUPS, {
			body: {
				name: 'Sandbox group',
				fixedComponents: [component],
				variableComponents: [{ componentId: 'var-1' }],
				benefits: [{ benefitId: 'ben-1' }],
				applyToAll: false,
				users: [user.userId],
			},
		});
		expect(res.status).toBe(200);
		const g = res.body;
		expect(g).toMatchObject({
			name: 'Sandbox group',
			hasFixedComponents: true,
			hasVarComponents: true,
			hasBenefits: true,
			users: [user.userId],
			deleted: false,
			error: null,
		});
		expect(g.id).toMatch(/^[0-9a-f]{24}$/);
		expect(g.fixedComponents[0]).toMatchObject({ ...component, componentId: expect.any(String) });
		const read = await call(ctx.sb, 'GET', GROUPS, { query: { id: g.id, getComponents: true } });
		expect(read.body.componentGroups).toEqual([g]);
		expect(read.body.filterConfig).toEqual({
			page: '1',
			numberOfElements: '1',
			sizePerPage: '1',
			totalPage: '1',
			numberOfRecords: '1',
		});
		expect((await byUserIds([user.userId])).body.users[0]).toMatchObject({
			componentGroup: g.id,
			hasComponents: true,
		});
	});
	it('POST validates the group', async () => {
		expectGatewayNaming(
			await call(ctx.sb, 'POST', GROUPS, { body: { fixedComponents: [] } }),
			400,
			'name',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'POST', GROUPS, {
				body: { name: 'Bad', fixedComponents: [{ ...component, amount: 'ten' }] },
			}),
			400,
			'fixedComponents[0].amount',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'POST', GROUPS, {
				body: { name: 'Bad', fixedComponents: [{ ...component, type: 'BONUS' }] },
			}),
			400,
			'fixedComponents[0].type',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'POST', GROUPS, {
				body: {
					name: 'Bad',
					fixedComponents: [{ ...component, formulaConfig: [{ index: 'first' }] }],
				},
			}),
			400,
			'fixedComponents[0].formulaConfig[0].index',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'POST', GROUPS, {
				body: { name: 'Bad', users: ['000000000000000000000000'] },
			}),
			400,
			'users[0]',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'POST', GROUPS, { body: { name: 'Interns' } }),
			409,
			'name',
		);
	});
	it('PUT replaces a group and releases dropped users', async () => {
		const user = await createUser({ firstName: 'Released' });
		const g = (
			await call(ctx.sb, 'POST', GROUPS, {
				body: { name: 'Replace me', fixedComponents: [component], users: [user.userId] },
			})
		).body;
		const res = await call(ctx.sb, 'PUT', GROUPS, {
			body: { id: g.id, name: 'Replaced', applyToAll: true },
		});
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			id: g.id,
			name: 'Replaced',
			fixedComponents: [],
			hasFixedComponents: false,
			applyToAll: true,
			users: [],
		});
		expect(
			(await call(ctx.sb, 'GET', GROUPS, { query: { id: g.id } })).body.componentGroups[0].name,
		).toBe('Replaced');
		expect((await byUserIds([user.userId])).body.users[0]).toMatchObject({
			componentGroup: '',
			hasComponents: false,
		});
		expectGatewayNaming(await call(ctx.sb, 'PUT', GROUPS, { body: { name: 'No id' } }), 400, 'id');
		expectGatewayNaming(
			await call(ctx.sb, 'PUT', GROUPS, { body: { id: g.id, name: 'X', applyToAll: 'yes' } }),
			400,
			'applyToAll',
		);
		expectGatewayNaming(
			await call(ctx.sb, 'PUT', GROUPS, { body: { id: '000000000000000000000000', name: 'X' } }),
			404,
		);
	});
	it('POST delete honours forcedDelete for groups in use', async () => {
		const DELETE = `${GROUPS}/delete`;
		const unused = (await call(ctx.sb, 'POST', GROUPS, { body: { name: 'Unused' } })).body;
		const ok = await call(ctx.sb, 'POST', DELETE, { body: { ids: [unused.id] } });
		expect(ok.status).toBe(200);
		expect(ok.body).toEqual({ status: 'success', message: expect.any(String), errCode: '' });
		expectGatewayNaming(await call(ctx.sb, 'GET', GROUPS, { query: { id: unused.id } }), 404);

		const user = await createUser({ firstName: 'InUse' });
		const used = (
			await call(ctx.sb, 'POST', GROUPS, { body: { name: 'Used', users: [user.userId] } })
		).body;
		const refused = await call(ctx.sb, 'POST', DELETE, { body: { ids: [used.id] } });
		expect(refused.body).toEqual({
			status: 'failed',
			message: expect.any(String),
			errCode: 'COMPONENT_GROUP_IN_USE',
		});
		expect(tenant1().componentGroups.has(used.id)).toBe(true);
		const forced = await call(ctx.sb, 'POST', DELETE, {
			body: { ids: [used.id], forcedDelete: true },
		});
		expect(forced.body.status).toBe('success');
		expect(tenant1().componentGroups.has(used.id)).toBe(false);
		expect(tenant1().peopleUsers.get(user.userId)!.componentGroup).toBe('');

		expectGatewayNaming(
			await call(ctx.sb, 'POST', DELETE, { body: { ids: ['000000000000000000000000'] } }),
			404,
		);
		expectGatewayNaming(await call(ctx.sb, 'POST', DELETE, { body: { ids: [1, 2] } }), 400, 'ids');
	});
	it('GET refuses unknown ids and wrong types', async () => {
		expectGatewayNaming(
			await call(ctx.sb, 'GET', GROUPS, { query: { id: '000000000000000000000000' } }),
			404,
		);
		expectGatewayNaming(await call(ctx.sb, 'GET', GROUPS, { query: { limit: 'x' } }), 400, 'limit');
		expectGatewayNaming(
			await call(ctx.sb, 'GET', GROUPS, { query: { getBenefits: 'x' } }),
			400,
			'getBenefits',
		);
	});
	it('needs a token on every group endpoint', async () => {
		expectGatewayNaming(await call(ctx.sb, 'GET', GROUPS, { token: null }), 401);
		expectGatewayNaming(
			await call(ctx.sb, 'POST', GROUPS, { body: { name: 'T' }, token: null }),
			401,
		);
		expectGatewayNaming(
			await call(ctx.sb, 'PUT', GROUPS, { body: { id: 'x', name: 'T' }, token: null }),
			401,
		);
		expectGatewayNaming(
			await call(ctx.sb, 'POST', `${GROUPS}/delete`, { body: { ids: ['x'] }, token: null }),
			401,
		);
	});
	it('keeps groups in their tenant', async () => {
		const g = tenant1().componentGroups.values()[0];
		const id = g.id as string;
		expectGatewayNaming(await call(ctx.sb, 'GET', GROUPS, { query: { id }, token: other() }), 404);
		expectGatewayNaming(
			await call(ctx.sb, 'PUT', GROUPS, { body: { id, name: 'Stolen' }, token: other() }),
			404,
		);
		expectGatewayNaming(
			await call(ctx.sb, 'POST', `${GROUPS}/delete`, {
				body: { ids: [id], forcedDelete: true },
				token: other(),
			}),
			404,
		);
		const theirs = await call(ctx.sb, 'GET', GROUPS, { query: { limit: 100 }, token: other() });
		expect(theirs.body.componentGroups.some((x: any) => x.id === id)).toBe(false);
		expect(tenant1().componentGroups.get(id)!.name).toBe(g.name);
		// A group of tenant 2 cannot list users of tenant 1.
		const u = tenant1().peopleUsers.values()[0];
		expectGatewayNaming(
			await call(ctx.sb, 'POST', GROUPS, {
				body: { name: 'Cross', users: [u.userId] },
				token: other(),
			}),
			400,
			'users[0]',
		);
	});
});
