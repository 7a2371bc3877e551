/**
 * The People node's User resource through n8n-core against the sandbox: each
 * operation asserted on the sandbox's state and on the wire.
 */
import type { IDataObject } from 'n8n-workflow';

import { getPayruns, searchPayruns } from '../../nodes/BusinessPlatformPeople/methods/payruns';
import {
	getPeopleUsers,
	searchPeopleUsers,
} from '../../nodes/BusinessPlatformPeople/methods/users';
import { pickerContext } from '../../testbed/harness/pickers';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox({ rows: 25 });
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb);
});

const t = () => ctx.sb.store.tenant(1);
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const run = async (
	params: IDataObject,
	input?: Array<{ json: IDataObject }>,
	options?: { continueOnFail?: boolean },
) => await h.run('businessPlatformPeople', { resource: 'user', ...params }, input, options);
const lastBody = (method: string, path: string) =>
	JSON.parse(
		ctx.sb
			.requests()
			.filter((r) => r.method === method && r.path === path)
			.pop()!.body!,
	) as IDataObject;
const lastQuery = (method: string, path: string) =>
	new URLSearchParams(
		ctx.sb
			.requests()
			.filter((r) => r.method === method && r.path === path)
			.pop()!.query,
	);

const newUser = async (firstName: string, extra: IDataObject = {}) => {
	const res = await run({
		operation: 'create',
		firstName,
		lastName: 'Tester',
		emailId: `${firstName.toLowerCase()}@acme.example`,
		...extra,
	});
	expect(res.error).toBeUndefined();
	return res.json[0];
};

describe('User', () => {
	it('Create sends the grouped fields as nested objects and returns the user with int64 numbers', async () => {
		const res = await run({
			operation: 'create',
			firstName: 'Ada',
			lastName: 'Lovelace',
			emailId: 'ada.lovelace@acme.example',
			identity: {
				designation: 'Analyst',
				department: 'Engineering',
				employeeType: 'fullTime',
				gender: 'female',
				countryCode: 'US',
			},
			dates: { dateOfJoining: '2024-03-15T00:00:00', dateOfBirth: '1990-12-10' },
			personal: { maritalStatus: 'single' },
			address: {
				addressLine1: '1 Analytical Way',
				city: 'Austin',
				state: 'TX',
				zipCode: '73301',
				country: 'US',
			},
			paymentDetails: {
				paymentMethod: 'directDeposit',
				bank: 'Pioneer Savings',
				accountNumber: '1234567890',
				routingNumber: '021000021',
			},
			compensation: {
				compensation: 96000,
				compensationPeriod: 'yearly',
				compensationCurrency: 'USD',
				effectiveCompensations: {
					compensation: [
						{
							effectiveDate: '2024-03-15',
							compensation: 96000,
							basicCompensation: 48000,
							period: 'yearly',
							isVisible: true,
						},
					],
				},
			},
			otherFields: { makePayroll: true },
		});
		expect(res.error).toBeUndefined();
		const out = res.json[0];
		expect(typeof out.iamUserId).toBe('number');
		const stored = t().peopleUsers.get(out.userId as string)!;
		expect(stored).toMatchObject({
			firstName: 'Ada',
			lastName: 'Lovelace',
			name: 'Ada Lovelace',
			emailId: 'ada.lovelace@acme.example',
			designation: 'Analyst',
			dateOfJoining: '2024-03-15T00:00:00.000Z',
			dateOfBirth: '1990-12-10T00:00:00.000Z',
			address: {
				addressLine1: '1 Analytical Way',
				city: 'Austin',
				state: 'TX',
				zipCode: '73301',
				country: 'US',
			},
			paymentDetails: {
				paymentMethod: 'directDeposit',
				bank: 'Pioneer Savings',
				accountNumber: '1234567890',
				routingNumber: '021000021',
			},
			compensation: 96000,
			effectiveCompensations: [
				{
					effectiveDate: '2024-03-15T00:00:00.000Z',
					compensation: 96000,
					basicCompensation: 48000,
					period: 'yearly',
					isVisible: true,
				},
			],
		});
		expect(out.iamUserId).toBe(Number(stored.iamUserId));
		const body = lastBody('POST', '/v1/people/users');
		expect(body.address).toEqual({
			addressLine1: '1 Analytical Way',
			city: 'Austin',
			state: 'TX',
			zipCode: '73301',
			country: 'US',
		});
		expect(body).not.toHaveProperty('identity');
	});

	it('Update replaces the whole user: fields left out are cleared', async () => {
		const u = await newUser('Grace', {
			identity: { designation: 'Admiral', department: 'Navy' },
			address: { city: 'Arlington' },
		});
		const res = await run({
			operation: 'update',
			userId: byId(u.userId as string),
			firstName: 'Grace',
			lastName: 'Hopper',
			identity: { designation: 'Rear Admiral' },
		});
		expect(res.error).toBeUndefined();
		const stored = t().peopleUsers.get(u.userId as string)!;
		expect(stored).toMatchObject({
			firstName: 'Grace',
			lastName: 'Hopper',
			designation: 'Rear Admiral',
			department: '',
			emailId: '',
		});
		expect(lastBody('PUT', '/v1/people/users').userId).toBe(u.userId);
		expect(res.json[0]).toMatchObject({
			userId: u.userId,
			designation: 'Rear Admiral',
			iamUserId: Number(stored.iamUserId),
		});
	});

	it('Update Fields changes only what is given and merges the address', async () => {
		const u = await newUser('Alan', {
			identity: { designation: 'Mathematician' },
			address: { addressLine1: 'Bletchley Park', city: 'Milton Keynes' },
		});
		const res = await run({
			operation: 'updateFields',
			userId: byId(u.userId as string),
			identity: { department: 'Codebreaking' },
			address: { city: 'Bletchley' },
		});
		expect(res.error).toBeUndefined();
		expect(lastBody('PATCH', '/v1/people/users')).toEqual({
			userId: u.userId,
			department: 'Codebreaking',
			address: { city: 'Bletchley' },
		});
		expect(t().peopleUsers.get(u.userId as string)).toMatchObject({
			firstName: 'Alan',
			designation: 'Mathematician',
			department: 'Codebreaking',
			address: { addressLine1: 'Bletchley Park', city: 'Bletchley' },
		});
		ctx.sb.resetStats();
		const nothing = await run({ operation: 'updateFields', userId: byId(u.userId as string) });
		expect(nothing.error?.message).toBe('Nothing to update');
		expect(ctx.sb.requests()).toHaveLength(0);
	});

	it('Delete deletes users in bulk, one item per user; users on a payrun need Force Delete', async () => {
		const a = await newUser('Delia');
		const onPayrun = (t().payruns.values()[0].employees as string[])[0];
		const refused = await run({ operation: 'delete', userIds: [a.userId, onPayrun] }, undefined, {
			continueOnFail: true,
		});
		expect(refused.json[0]).toMatchObject({
			error: expect.stringMatching(/did not delete the users.*USER_IN_PAYRUN/),
			itemIndex: 0,
		});
		expect(t().peopleUsers.has(a.userId as string)).toBe(true);
		expect(t().peopleUsers.has(onPayrun)).toBe(true);

		const res = await run({
			operation: 'delete',
			userIds: `${String(a.userId)}, ${onPayrun}`,
			forcedDelete: true,
		});
		expect(res.error).toBeUndefined();
		expect(res.json).toEqual([
			{ deleted: true, id: a.userId },
			{ deleted: true, id: onPayrun },
		]);
		expect(lastBody('POST', '/v1/people/users/delete/bulk')).toEqual({
			ids: [a.userId, onPayrun],
			forcedDelete: true,
		});
		expect(t().peopleUsers.has(a.userId as string)).toBe(false);
		expect(t().peopleUsers.has(onPayrun)).toBe(false);
	});

	it('Get Many pages through every user with the shared options; numbers come back as numbers', async () => {
		const all = await run({
			operation: 'getAll',
			returnAll: true,
			simplify: false,
			options: { sortField: 'name', sortOrder: 'asc' },
		});
		expect(all.error).toBeUndefined();
		const visible = t()
			.peopleUsers.values()
			.filter((u) => u.status !== 'draft');
		expect(all.json).toHaveLength(visible.length);
		expect(all.json.every((u) => typeof u.iamUserId === 'number')).toBe(true);
		const names = all.json.map((u) => String(u.name).toLowerCase());
		expect(names).toEqual([...names].sort());

		const engineering = visible.filter((u) => u.department === 'Engineering');
		const filtered = await run({
			operation: 'getAll',
			returnAll: false,
			limit: 100,
			options: { searchString: 'Engineering', searchField: 'department' },
		});
		expect(filtered.json.map((u) => u.userId).sort()).toEqual(
			engineering.map((u) => u.userId).sort(),
		);
		expect(Object.keys(filtered.json[0]).length).toBeLessThanOrEqual(10);
		const q = lastQuery('GET', '/v1/people/users');
		expect([
			q.get('searchString'),
			q.get('searchField'),
			q.get('limit'),
			q.get('currentPage'),
		]).toEqual(['Engineering', 'department', '100', '1']);
	});

	it('Search sends the conditions and returns the matching users', async () => {
		const res = await run({
			operation: 'search',
			returnAll: true,
			conditions: {
				condition: [
					{ colId: 'department', opr: 'eq', value: 'Engineering' },
					{ colId: 'address.country', opr: 'eq', value: 'US' },
				],
			},
		});
		expect(res.error).toBeUndefined();
		const expected = t()
			.peopleUsers.values()
			.filter((u) => u.department === 'Engineering' && (u.address as IDataObject).country === 'US');
		expect(expected.length).toBeGreaterThan(0);
		expect(res.json.map((u) => u.userId).sort()).toEqual(expected.map((u) => u.userId).sort());
		expect(lastBody('POST', '/v1/people/users/filtered-users')).toEqual({
			conditions: [
				{ colId: 'department', opr: 'eq', value: 'Engineering' },
				{ colId: 'address.country', opr: 'eq', value: 'US' },
			],
		});
	});

	it('Get Approvers lists the users who approve a user', async () => {
		const u = t()
			.peopleUsers.values()
			.find((x) => (x.approvers as IDataObject[]).length >= 2)!;
		const res = await run({
			operation: 'getApprovers',
			userId: byId(u.userId as string),
			simplify: false,
			approverOptions: { getRolesAndTeams: false },
		});
		expect(res.error).toBeUndefined();
		const iams = (u.approvers as IDataObject[]).map((a) => Number(a.iamUserId));
		expect(res.json.map((x) => x.iamUserId)).toEqual(iams);
		expect(lastQuery('GET', '/v1/people/users/approvers/list').get('id')).toBe(u.userId);
	});

	it('Get Designations returns one item per designation in use', async () => {
		const res = await run({ operation: 'getDesignations' });
		const expected = [
			...new Set(
				t()
					.peopleUsers.values()
					.map((u) => u.designation as string)
					.filter(Boolean),
			),
		].sort();
		expect(res.json).toEqual(expected.map((designation) => ({ designation })));
	});

	it('Update Beneficiary Status sets status, reason and beneficiary ID of each user', async () => {
		const [a, b] = t().peopleUsers.values().slice(2, 4);
		const res = await run({
			operation: 'updateBeneficiaryStatus',
			beneficiaryStatus: 'REJECTED',
			beneficiaries: {
				user: [
					{ userId: a.userId, reason: 'Account closed', beneId: 'BENE-0001' },
					{ userId: b.userId, reason: 'Name mismatch' },
				],
			},
		});
		expect(res.error).toBeUndefined();
		expect(res.json).toEqual([
			{
				userId: a.userId,
				beneficiaryStatus: 'REJECTED',
				beneficiaryReason: 'Account closed',
				beneficiaryId: 'BENE-0001',
				status: 'success',
			},
			{
				userId: b.userId,
				beneficiaryStatus: 'REJECTED',
				beneficiaryReason: 'Name mismatch',
				status: 'success',
			},
		]);
		expect(t().peopleUsers.get(a.userId as string)).toMatchObject({
			beneficiaryStatus: 'REJECTED',
			beneficiaryReason: 'Account closed',
			beneficiaryId: 'BENE-0001',
		});
		expect(t().peopleUsers.get(b.userId as string)).toMatchObject({
			beneficiaryStatus: 'REJECTED',
			beneficiaryReason: 'Name mismatch',
		});
	});

	it('Sync Beneficiaries marks users without a beneficiary as pending', async () => {
		const waiting = t()
			.peopleUsers.values()
			.filter((u) => !u.beneficiaryId && u.beneficiaryStatus !== 'PENDING');
		expect(waiting.length).toBeGreaterThan(0);
		const res = await run({ operation: 'syncBeneficiaries' });
		expect(res.error).toBeUndefined();
		expect(res.json[0].status).toBe(`Beneficiary sync initiated for ${waiting.length} user(s)`);
		for (const u of waiting)
			expect(t().peopleUsers.get(u.userId as string)!.beneficiaryStatus).toBe('PENDING');
	});

	it('Get Tax Declarations filters by stage and pages to the end', async () => {
		const res = await run({
			operation: 'getTaxDeclarations',
			returnAll: true,
			options: { stage: 'APPROVED' },
		});
		expect(res.error).toBeUndefined();
		const expected = t()
			.taxDeclarations.values()
			.filter((x) => x.status === 'APPROVED');
		expect(expected.length).toBeGreaterThan(0);
		expect(res.json.map((x) => x.userId).sort()).toEqual(expected.map((x) => x.userId).sort());
		expect(res.json.every((x) => x.status === 'APPROVED')).toBe(true);
	});
});

describe('Pickers', () => {
	it('users: searchable by name or email, paged; the dropdown lists every user', async () => {
		const picker = pickerContext(
			h,
			'businessPlatformPeople',
			{ resource: 'user', operation: 'getApprovers' },
			'parameters.userId',
		);
		const visible = t()
			.peopleUsers.values()
			.filter((u) => u.status !== 'draft');
		const target = visible[5];
		const found = await searchPeopleUsers.call(picker, String(target.emailId));
		expect(found.results).toEqual([
			{
				name: `${String(target.name)} <${String(target.emailId)}> (${String(target.employeeId)})`,
				value: target.userId,
			},
		]);
		const first = await searchPeopleUsers.call(picker);
		expect(first.results).toHaveLength(Math.min(50, visible.length));
		const dropdown = await getPeopleUsers.call(picker);
		expect(dropdown.map((o) => o.value).sort()).toEqual(visible.map((u) => u.userId).sort());
	});

	it('payruns: searchable list and dropdown over the payrun list', async () => {
		const picker = pickerContext(
			h,
			'businessPlatformPeople',
			{ resource: 'payrun', operation: 'postJournalEntry' },
			'parameters.payrunId',
		);
		const list = await searchPayruns.call(picker);
		expect(list.results.map((r) => r.value).sort()).toEqual(
			t()
				.payruns.values()
				.map((p) => p._id)
				.sort(),
		);
		const p = t().payruns.values()[0];
		const label = list.results.find((r) => r.value === p._id)!.name;
		expect(label).toContain(String((p.workPeriod as IDataObject).from));
		const dropdown = await getPayruns.call(picker);
		expect(dropdown).toHaveLength(t().payruns.size);
	});
});
