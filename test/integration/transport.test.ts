/**
 * The transport through n8n-core: every paging envelope walked to the end, limits
 * that stop early, retries that never duplicate a create, and the regional host.
 */
import type { IDataObject } from 'n8n-workflow';

import { startSandbox } from '../../sandbox/src/server';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { eventually } from '../../testbed/eventually';
import { expectDeleted } from '../helpers/outcomes';
import { allowOffContract } from '../helpers/contract';
import { call, useSandbox } from '../helpers/sandbox';
import { fileTuning } from '../helpers/tuning';

/** This file's tunables and clocks (test/helpers/tuning.ts): the harness's nodes run with them. */
const tuning = fileTuning();

const ctx = useSandbox({ rows: 25 });
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb);
	// Keep the backoff short in tests; Retry-After is still honoured as sent.
	tuning.retry.baseDelayMs = 20;
});
afterEach(async () => {
	ctx.sb.faults.clear();
});

const transport = (params: IDataObject, input?: IDataObject[]) =>
	h.run(
		'testTransport',
		params,
		input?.map((json) => ({ json })),
	);
const countRoute = (key: string) => (ctx.sb.stats().byRoute as Record<string, number>)[key] ?? 0;

describe('Return All walks every envelope to the end', () => {
	const t = () => ctx.sb.store.tenant(1);
	const table = () =>
		t()
			.tables.values()
			.find((x) => x.objectType === 'CONTACT')!;
	const someUser = () =>
		t()
			.peopleUsers.values()
			.find((u) =>
				t()
					.paystubs.values()
					.some((p) => p.employeeId === u.userId || p.userId === u.userId),
			)!;
	const cases: Array<[string, () => IDataObject, () => number]> = [
		[
			'contacts (paginationInfo)',
			() => ({ path: '/v1/crm/contacts', style: 'contacts' }),
			() => t().contacts.size,
		],
		[
			'activities (paginationInfo + isZeroState)',
			() => ({ path: '/v1/crm/activities', style: 'activities' }),
			() => t().activities.size,
		],
		[
			'deals (page envelope)',
			() => ({ path: '/v1/crm/deals', style: 'pageEnvelope', qs: { show_closed_deals: true } }),
			() => t().deals.size,
		],
		[
			'campaign categories (page envelope)',
			() => ({ path: '/v1/crm/campaign/category', style: 'pageEnvelope' }),
			() => t().categories.size,
		],
		[
			'email templates (page envelope)',
			() => ({ path: '/v1/crm/campaign/email-templates', style: 'pageEnvelope' }),
			() => t().emailTemplates.size,
		],
		[
			'forms ({ data } only)',
			() => ({ path: '/v1/crm/campaign/assets/forms', style: 'dataOnly' }),
			() => t().forms.size,
		],
		[
			'records (PagedRecordResponse)',
			() => ({
				method: 'POST',
				path: `/v1/crm/core/table/${String(table()._id)}/paged-record`,
				style: 'records',
				body: { logicalOperator: 'and', conditions: [] },
				regional: true,
			}),
			() => t().records.get(String(table()._id))!.size,
		],
		[
			'people users (v1FilterConfig, int64 strings)',
			() => ({ path: '/v1/people/users', style: 'peopleUsers', regional: true }),
			() =>
				t()
					.peopleUsers.values()
					.filter((u) => u.status !== 'draft').length,
		],
		[
			'tax declarations (v1FilterConfig)',
			() => ({
				path: '/v1/people/users/in/tax-declaration-info/list',
				style: 'taxDeclarations',
				regional: true,
			}),
			() => t().taxDeclarations.size,
		],
		[
			'component groups (v1FilterConfig)',
			() => ({
				path: '/v1/people/tenants/component-group',
				style: 'componentGroups',
				regional: true,
			}),
			() => t().componentGroups.size,
		],
		[
			'payruns (filterResponse)',
			() => ({ path: '/v1/people-pay-run/payruns', style: 'payruns', regional: true }),
			() => t().payruns.size,
		],
		[
			'payruns of a year ({ payruns } only)',
			() => ({
				path: '/v1/people-pay-run/payruns/year/2024',
				style: 'payrunsOfYear',
				regional: true,
			}),
			() =>
				t()
					.payruns.values()
					.filter((p) => p.year === 2024).length,
		],
		[
			'paystubs ({ paystubs } only)',
			() => ({
				path: `/v1/people-pay-run/paystubs/employee/${String(someUser().userId)}`,
				style: 'paystubs',
				regional: true,
			}),
			() =>
				t()
					.paystubs.values()
					.filter((p) => p.employeeId === someUser().userId || p.userId === someUser().userId)
					.length,
		],
		[
			'contact labels (plain array)',
			() => ({ path: '/v1/crm/contacts/labels', style: 'array' }),
			() => t().labels.size,
		],
	];
	it.each(cases)('%s', async (_name, params, expected) => {
		const total = expected();
		// A small page size forces several pages everywhere.
		const run = await transport({ ...params(), pageSize: 7 });
		expect(run.error).toBeUndefined();
		expect(run.json.length).toBe(total);
		const ids = run.json.map((x) => JSON.stringify(x._id ?? x.id ?? x.userId ?? x.payrollId ?? x));
		expect(new Set(ids).size).toBe(total);
	});
});

describe('a server that gives smaller pages than asked for loses nothing', () => {
	it.each([
		[
			'contacts (total records)',
			'/v1/crm/contacts',
			'contacts',
			{},
			(t: ReturnType<typeof ctx.sb.store.tenant>) => t.contacts.size,
		],
		[
			'deals (total pages)',
			'/v1/crm/deals',
			'pageEnvelope',
			{ show_closed_deals: true },
			(t: ReturnType<typeof ctx.sb.store.tenant>) => t.deals.size,
		],
		[
			'forms (no totals)',
			'/v1/crm/campaign/assets/forms',
			'dataOnly',
			{},
			(t: ReturnType<typeof ctx.sb.store.tenant>) => t.forms.size,
		],
	])('%s', async (_n, path, style, qs, expected) => {
		const small = await startSandbox({ rows: 25, maxPageSize: 7 });
		try {
			const run = await createHarness(small).run('testTransport', {
				path,
				style,
				qs: JSON.stringify(qs),
				pageSize: 10,
			});
			expect(run.error).toBeUndefined();
			const total = expected(small.store.tenant(1));
			expect(run.json).toHaveLength(total);
			expect(new Set(run.json.map((x) => x.id)).size).toBe(total);
		} finally {
			await small.stop();
		}
	});
});

describe('Limit stops fetching as soon as it has enough', () => {
	it('Limit 5 over 1,000 contacts fetches one page of 5', async () => {
		await call(ctx.sb, 'POST', '/__admin/seed', {
			token: null,
			body: { kind: 'contacts', count: 1000 },
		});
		ctx.sb.resetStats();
		const run = await h.run('businessPlatformSales', {
			resource: 'contact',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
		});
		expect(run.json).toHaveLength(5);
		expect(countRoute('GET /v1/crm/contacts')).toBe(1);
		expect(ctx.sb.requests()[0].query).toContain('limit=5');
	});

	it('Return All over 1,000+ contacts reads pages of 100 and stops on the last', async () => {
		ctx.sb.resetStats();
		const total = ctx.sb.store.tenant(1).contacts.size;
		const run = await h.run('businessPlatformSales', {
			resource: 'contact',
			operation: 'getAll',
			returnAll: true,
			simplify: false,
		});
		expect(run.json).toHaveLength(total);
		expect(countRoute('GET /v1/crm/contacts')).toBe(Math.ceil(total / 100));
	});
});

describe('retries', () => {
	const contact = () => ctx.sb.store.tenant(1).contacts.values()[0];

	it('GET succeeds after a 503 burst and after a dropped connection', async () => {
		ctx.sb.faults.add({
			kind: 'status',
			status: 503,
			count: 3,
			method: 'GET',
			path: '/v1/crm/contacts',
		});
		ctx.sb.faults.add({ kind: 'drop', count: 1, method: 'GET', path: '/v1/crm/contacts' });
		ctx.sb.resetStats();
		const run = await h.run('businessPlatformSales', {
			resource: 'contact',
			operation: 'get',
			contactId: { __rl: true, mode: 'id', value: String(contact().id) },
		});
		expect(run.error).toBeUndefined();
		expect(run.json[0].id).toBe(contact().id);
		expect(countRoute('GET /v1/crm/contacts/:id')).toBe(5);
	});

	// The one real-time check of Retry-After (elsewhere the transport's waits are virtual: test/helpers/retry-clock.ts).
	it('PUT and DELETE succeed after 429s with Retry-After', async () => {
		const id = contact().id as number;
		ctx.sb.faults.add({ kind: 'status', status: 429, retryAfter: 1, count: 1, method: 'PUT' });
		ctx.sb.faults.add({ kind: 'status', status: 503, count: 2, method: 'PUT' });
		const t0 = Date.now();
		const put = await h.run('businessPlatformSales', {
			resource: 'contact',
			operation: 'replace',
			contactId: { __rl: true, mode: 'id', value: String(id) },
			name: 'Replaced After 429',
			type: 'person',
		});
		expect(put.error).toBeUndefined();
		expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
		expect(ctx.sb.store.tenant(1).contacts.get(id)!.name).toBe('Replaced After 429');

		ctx.sb.faults.add({ kind: 'status', status: 429, retryAfter: 0, count: 2, method: 'DELETE' });
		expectDeleted(
			await h.run('businessPlatformSales', {
				resource: 'contact',
				operation: 'delete',
				contactId: { __rl: true, mode: 'id', value: String(id) },
			}),
			id,
			ctx.sb.store.tenant(1).contacts,
		);
	});

	it.each([
		['its connection dropped', { kind: 'drop' as const }],
		['it got a 502', { kind: 'status' as const, status: 502 }],
	])(
		"a DELETE whose first attempt deleted the record but %s succeeds: the retry's 404 means it is gone",
		async (_, fault) => {
			const id = ctx.sb.store.tenant(1).contacts.values().at(-1)!.id as number;
			ctx.sb.faults.add({
				...fault,
				count: 1,
				phase: 'after',
				method: 'DELETE',
				path: `/v1/crm/contacts/${id}`,
			});
			ctx.sb.resetStats();
			expectDeleted(
				await h.run('businessPlatformSales', {
					resource: 'contact',
					operation: 'delete',
					contactId: { __rl: true, mode: 'id', value: String(id) },
				}),
				id,
				ctx.sb.store.tenant(1).contacts,
			);
			expect(countRoute('DELETE /v1/crm/contacts/:id')).toBe(2);
		},
	);

	it('a DELETE of a record that does not exist still fails with 404 (no earlier attempt)', async () => {
		const run = await h.run('businessPlatformSales', {
			resource: 'contact',
			operation: 'delete',
			contactId: { __rl: true, mode: 'id', value: '987654' },
		});
		expect(run.error?.message).toMatch(/answered 404/);
	});

	it('Timeout: a GET that gets no answer in time is tried again; a create is not, and the error says so', async () => {
		const id = contact().id as number;
		ctx.sb.faults.add({
			kind: 'latency',
			ms: 1500,
			count: 1,
			method: 'GET',
			path: `/v1/crm/contacts/${id}`,
		});
		ctx.sb.resetStats();
		const get = await h.run('businessPlatformSales', {
			resource: 'contact',
			operation: 'get',
			contactId: { __rl: true, mode: 'id', value: String(id) },
			requestOptions: { timeout: 1000 },
		});
		expect(get.error).toBeUndefined();
		expect(get.json[0].id).toBe(id);
		// The retry answered: the slow first attempt's client had left when the sandbox was done holding it.
		const gets = () =>
			ctx.sb.requests().filter((r) => r.method === 'GET' && r.path === `/v1/crm/contacts/${id}`);
		await eventually(() =>
			expect(
				gets()
					.map((r) => r.fault ?? r.status)
					.sort(),
			).toEqual([200, 'client left']),
		);

		ctx.sb.faults.add({
			kind: 'latency',
			ms: 1500,
			count: 1,
			method: 'POST',
			path: '/v1/crm/contacts',
		});
		ctx.sb.resetStats();
		const post = await h.run('businessPlatformSales', {
			resource: 'contact',
			operation: 'create',
			name: 'Slow Create',
			type: 'person',
			requestOptions: { timeout: 1000 },
		});
		expect(post.error?.message).toMatch(/no answer within the timeout/);
		expect(post.error?.description).toMatch(/not repeated automatically/);
		// Once the sandbox is done with the slow attempt (it logs each request when it has answered or refused it): at
		// most one record (the sandbox drops a request whose client left), never two.
		await eventually(() =>
			expect(
				ctx.sb
					.requests()
					.filter((r) => r.method === 'POST' && r.path === '/v1/crm/contacts')
					.map((r) => r.fault),
			).toEqual(['client left']),
		);
		expect(countRoute('POST /v1/crm/contacts')).toBeLessThanOrEqual(1);
		expect(
			ctx.sb.store
				.tenant(1)
				.contacts.values()
				.filter((c) => c.name === 'Slow Create').length,
		).toBeLessThanOrEqual(1);
	});

	it('a POST succeeds after 429s (the platform refused it, so it is sent again) and exists once', async () => {
		ctx.sb.faults.add({
			kind: 'status',
			status: 429,
			retryAfter: 0,
			count: 2,
			method: 'POST',
			path: '/v1/crm/contacts',
		});
		const run = await h.run('businessPlatformSales', {
			resource: 'contact',
			operation: 'create',
			name: 'Throttled Once',
			type: 'person',
		});
		expect(run.error).toBeUndefined();
		expect(
			ctx.sb.store
				.tenant(1)
				.contacts.values()
				.filter((c) => c.name === 'Throttled Once'),
		).toHaveLength(1);
	});

	it('a POST that got a 503 is not repeated: the sandbox holds exactly one record and the error says why', async () => {
		ctx.sb.faults.add({
			kind: 'status',
			status: 503,
			count: 1,
			phase: 'after',
			method: 'POST',
			path: '/v1/crm/contacts',
		});
		ctx.sb.resetStats();
		const run = await h.run('businessPlatformSales', {
			resource: 'contact',
			operation: 'create',
			name: 'Maybe Created',
			type: 'person',
		});
		expect(run.error).toBeDefined();
		expect(run.error!.message).toContain('503');
		expect(run.error!.description).toMatch(/not repeated automatically/);
		expect(countRoute('POST /v1/crm/contacts')).toBe(1);
		expect(
			ctx.sb.store
				.tenant(1)
				.contacts.values()
				.filter((c) => c.name === 'Maybe Created'),
		).toHaveLength(1);
	});

	it('a POST whose connection dropped is not repeated either', async () => {
		ctx.sb.faults.add({
			kind: 'drop',
			count: 1,
			phase: 'after',
			method: 'POST',
			path: '/v1/crm/contacts',
		});
		ctx.sb.resetStats();
		const run = await h.run('businessPlatformSales', {
			resource: 'contact',
			operation: 'create',
			name: 'Dropped Create',
			type: 'person',
		});
		expect(run.error?.description).toMatch(/not repeated automatically/);
		expect(countRoute('POST /v1/crm/contacts')).toBe(1);
	});

	it('retry "never" sends once even on 429', async () => {
		ctx.sb.faults.add({
			kind: 'status',
			status: 429,
			count: 1,
			method: 'POST',
			path: '/v1/people-pay-run',
		});
		ctx.sb.resetStats();
		const run = await transport({
			method: 'POST',
			path: '/v1/people-pay-run/payruns/sync-je',
			body: { payrun: [] },
			retry: 'never',
			regional: true,
		});
		expect(run.error?.description).toMatch(/never retried automatically/);
		expect(ctx.sb.stats().requests).toBe(1);
	});

	it('gives up after the attempts, saying so', async () => {
		ctx.sb.faults.add({
			kind: 'status',
			status: 500,
			method: 'GET',
			path: '/v1/crm/contacts/labels',
		});
		const run = await transport({ path: '/v1/crm/contacts/labels' });
		expect(run.error!.message).toMatch(/answered 500/);
		expect(run.error!.description).toMatch(/5 attempts/);
	});
});

describe('errors and base URLs', () => {
	it('maps the platform error body: status, message, field errors, what to check', async () => {
		allowOffContract(ctx.sb, /body\/(name|type) must/, 'a body the platform refuses, on purpose');
		const run = await transport({
			method: 'POST',
			path: '/v1/crm/contacts',
			body: { name: 5, type: 'robot' },
		});
		expect(run.error!.message).toMatch(/answered 400: Validation failed/);
		expect(run.error!.description).toMatch(/Fields: name: must be a string/);
		expect(run.error!.description).toMatch(/POST \/v1\/crm\/contacts/);
		const missing = await transport({ path: '/v1/crm/contacts/999999' });
		expect(missing.error!.message).toMatch(/answered 404/);
		expect(missing.error!.description).toMatch(/check the ID/);
	});

	it('refuses a non-https base URL to a public host before sending anything', async () => {
		const bad = createHarness(ctx.sb, ctx.sb.demo.tokenResponse as IDataObject, {
			baseUrl: 'http://api.example.com',
		});
		ctx.sb.resetStats();
		const run = await bad.run('businessPlatformSales', {
			resource: 'contact',
			operation: 'getAll',
			returnAll: false,
			limit: 1,
		});
		expect(run.error!.message).toMatch(/must start with https:\/\//);
		expect(ctx.sb.stats().requests).toBe(0);
	});

	it('sends people, payroll, table and record requests to the regional base URL, and only those', async () => {
		const sb = await startSandbox({ rows: 5, regional: true });
		try {
			const r = createHarness(sb, sb.demo.tokenResponse as IDataObject, {
				regionalBaseUrl: sb.regionalBaseUrl,
			});
			await r.run('testTransport', { path: '/v1/people/users', regional: true });
			await r.run('testTransport', { path: '/v1/crm/contacts/labels' });
			expect(sb.requests().map((x) => [x.host, x.path])).toEqual([
				['regional', '/v1/people/users'],
				['main', '/v1/crm/contacts/labels'],
			]);
		} finally {
			await sb.stop();
		}
	});
});
