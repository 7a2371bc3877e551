/**
 * The pickers' bounds, each crossed against the sandbox over real HTTP: the searchable
 * list's page (PICKER_PAGE), the dropdown's cap (MAX_OPTIONS), the deal search's
 * pages per call (DEAL_SEARCH_PAGES × DEAL_SEARCH_PAGE_SIZE) and the owner picker's
 * first 100 deals. Each test says what the code does at and past its bound.
 */
import type { IDataObject, INodeListSearchResult } from 'n8n-workflow';

import { getCategories } from '../../nodes/BusinessPlatformCampaigns/methods/categories';
import { getOwners, searchContacts } from '../../nodes/BusinessPlatformSales/methods/contacts';
import { searchDeals } from '../../nodes/BusinessPlatformSales/methods/deals';
import { MAX_OPTIONS, PICKER_PAGE } from '../../nodes/shared/pickers';
import type { Doc } from '../../sandbox/src/state';
import { pickerContext } from '../../testbed/harness/pickers';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { call, useSandbox } from '../helpers/sandbox';

const ROWS = 20;
const ctx = useSandbox({ rows: ROWS });
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb);
});

const tenant = () => ctx.sb.store.tenant(1);
const byId = (docs: Doc[]) => [...docs].sort((a, b) => Number(a.id) - Number(b.id));
const lastSeq = () => ctx.sb.requests().at(-1)?.seq ?? 0;
/** The GETs the nodes sent to `path` since `before`, with their query. */
const sentSince = (before: number, path: string) =>
	ctx.sb
		.requests()
		.filter((r) => r.seq > before && r.method === 'GET' && r.path === path)
		.map((r) => new URLSearchParams(r.query));

async function ok(method: string, path: string, body: unknown): Promise<IDataObject> {
	const res = await call(ctx.sb, method, path, { body });
	expect(res.status).toBeLessThan(300);
	return (res.body ?? {}) as IDataObject;
}
const seed = async (kind: 'contacts' | 'deals', count: number) =>
	expect(await ok('POST', '/__admin/seed', { kind, count, tenantId: 1 })).toEqual({
		kind,
		added: count,
	});

const contactPicker = () =>
	pickerContext(
		h,
		'businessPlatformSales',
		{ resource: 'contact', operation: 'get' },
		'parameters.contactId',
	);
const dealPicker = () =>
	pickerContext(
		h,
		'businessPlatformSales',
		{ resource: 'deal', operation: 'get' },
		'parameters.dealId',
	);

describe('PICKER_PAGE (50, nodes/shared/pickers.ts): contacts searchable list', () => {
	it('PICKER_PAGE (50, nodes/shared/pickers.ts): exactly 50 contacts fill one page and give no token', async () => {
		expect(PICKER_PAGE).toBe(50);
		await seed('contacts', 50 - ROWS);
		expect(tenant().contacts.size).toBe(50);
		const before = lastSeq();
		const page = await searchContacts.call(contactPicker());
		expect(page.results).toHaveLength(50);
		expect(page.paginationToken).toBeUndefined();
		expect(
			sentSince(before, '/v1/crm/contacts').map((q) => [q.get('page'), q.get('limit')]),
		).toEqual([['1', '50']]);
	});

	it('PICKER_PAGE (50, nodes/shared/pickers.ts): 70 contacts give 50, then the other 20 (every contact once)', async () => {
		await seed('contacts', 20);
		const all = tenant().contacts.values();
		expect(all).toHaveLength(70);
		const first = await searchContacts.call(contactPicker());
		expect(first.results).toHaveLength(50);
		expect(first.paginationToken).toBeDefined();
		const second = await searchContacts.call(contactPicker(), undefined, first.paginationToken);
		expect(second.results).toHaveLength(20);
		const values = [...first.results, ...second.results].map((r) => r.value);
		expect(new Set(values).size).toBe(70);
		expect([...values].sort()).toEqual(all.map((c) => String(c.id)).sort());
		// The token carries the page size served (50): the short page of 20 is the last, no empty third page.
		expect(second.paginationToken).toBeUndefined();
	});
});

describe('MAX_OPTIONS (500, nodes/shared/pickers.ts): campaign category dropdown', () => {
	it('MAX_OPTIONS (500, nodes/shared/pickers.ts): 510 categories → exactly the first 500 (by ID) in 5 pages, nothing about the other 10', async () => {
		expect(MAX_OPTIONS).toBe(500);
		const missing = 510 - tenant().categories.size;
		for (let i = 0; i < missing; i += 10) {
			await Promise.all(
				Array.from(
					{ length: Math.min(10, missing - i) },
					async (_, j) =>
						await ok('POST', '/v1/crm/campaign/category', {
							name: `Bound category ${String(i + j).padStart(3, '0')}`,
						}),
				),
			);
		}
		// The newest category sorts first by name, but is past the cut.
		await ok(
			'PATCH',
			`/v1/crm/campaign/category/${String(byId(tenant().categories.values()).at(-1)!.id)}`,
			{ name: 'AAA newest category' },
		);
		const categories = byId(tenant().categories.values());
		expect(categories).toHaveLength(510);

		const before = lastSeq();
		const dropdown = await getCategories.call(
			pickerContext(
				h,
				'businessPlatformCampaigns',
				{ resource: 'emailTemplate', operation: 'create' },
				'parameters.categoryId',
			),
		);
		expect(dropdown).toHaveLength(500);
		expect(dropdown.map((o) => o.value).sort((a, b) => Number(a) - Number(b))).toEqual(
			categories.slice(0, 500).map((c) => c.id),
		);
		expect(dropdown.map((o) => o.name)).not.toContain('AAA newest category');
		// No extra entry tells the user that more exist (only the field's description: "or specify an ID using an expression").
		expect(
			dropdown.every(
				(o) => typeof o.value === 'number' && categories.some((c) => c.id === o.value),
			),
		).toBe(true);
		expect(
			sentSince(before, '/v1/crm/campaign/category').map((q) => [q.get('page'), q.get('limit')]),
		).toEqual([1, 2, 3, 4, 5].map((p) => [String(p), '100']));
	});
});

describe('DEAL_SEARCH_PAGES (10) × DEAL_SEARCH_PAGE_SIZE (100), nodes/BusinessPlatformSales/methods/deals.ts: deal search', () => {
	let deals: Doc[];
	beforeAll(async () => {
		await seed('deals', 1050);
		deals = byId(tenant().deals.values());
		expect(deals).toHaveLength(ROWS + 1050);
	});

	/** The deal pages the search read since `before`: [page, limit]. */
	const pagesRead = (before: number) =>
		sentSince(before, '/v1/crm/deals').map((q) => [Number(q.get('page')), Number(q.get('limit'))]);
	const pages = (from: number, to: number) =>
		Array.from({ length: to - from + 1 }, (_, i) => [from + i, 100]);

	it('DEAL_SEARCH_PAGES (10, nodes/BusinessPlatformSales/methods/deals.ts): a deal past the first 1,000 → 10 pages read, no result, token 11; the token finds it', async () => {
		const target = deals[1060];
		const needle = /deal #\d+$/.exec(String(target.name))![0];
		expect(deals.filter((d) => String(d.name).toLowerCase().includes(needle))).toEqual([target]);

		let before = lastSeq();
		const first = await searchDeals.call(dealPicker(), needle);
		expect(first).toEqual({ results: [], paginationToken: '11' });
		expect(pagesRead(before)).toEqual(pages(1, 10));

		before = lastSeq();
		const next = await searchDeals.call(dealPicker(), needle, first.paginationToken);
		expect(next.results.map((r) => r.value)).toEqual([String(target.id)]);
		expect(next.paginationToken).toBeUndefined(); // page 11 is the last
		expect(pagesRead(before)).toEqual(pages(11, 11));
	});

	it('DEAL_SEARCH_PAGE_SIZE (100, nodes/BusinessPlatformSales/methods/deals.ts): a needle matching no deal → 10 pages, token 11, then the rest and no token', async () => {
		let before = lastSeq();
		const first = await searchDeals.call(dealPicker(), 'no such deal anywhere');
		expect(first).toEqual({ results: [], paginationToken: '11' });
		expect(pagesRead(before)).toEqual(pages(1, 10));
		before = lastSeq();
		expect(await searchDeals.call(dealPicker(), 'no such deal anywhere', '11')).toEqual({
			results: [],
		});
		expect(pagesRead(before)).toEqual(pages(11, 11));
	});

	it('PICKER_PAGE (50, nodes/shared/pickers.ts) in deals.ts: a needle matching every deal stops after 1 page, with all 100 matches of it (not 50) and token 2; paging on gives every deal once', async () => {
		const seen: string[] = [];
		let token: string | undefined;
		let calls = 0;
		do {
			const before = lastSeq();
			const res: INodeListSearchResult = await searchDeals.call(dealPicker(), 'deal #', token);
			calls++;
			expect(pagesRead(before)).toEqual(pages(calls, calls)); // one page per call: ≥ 50 matches at once
			expect(res.results).toHaveLength(Math.min(100, deals.length - seen.length));
			seen.push(...res.results.map((r) => String(r.value)));
			token = res.paginationToken;
			if (calls === 1) expect(token).toBe('2');
		} while (token !== undefined && calls < 20);
		expect(calls).toBe(11);
		expect(seen).toEqual(deals.map((d) => String(d.id)));
	});
});

describe('getOwners (limit 100, nodes/BusinessPlatformSales/methods/contacts.ts): owner dropdown', () => {
	it('getOwners (limit 100 deals, nodes/BusinessPlatformSales/methods/contacts.ts): an owner only of deals past the first 100 is not offered', async () => {
		const [a, c, b] = tenant().crmUsers;
		const deals = byId(tenant().deals.values());
		expect(deals.length).toBeGreaterThan(100);
		// Everything owned by A, then one deal inside the first 100 (by ID) for C and one just past them for B.
		await ok('PATCH', '/v1/crm/contacts', {
			ids: tenant()
				.contacts.values()
				.map((x) => x.id),
			owner_id: a.id,
		});
		await ok('PATCH', '/v1/crm/deals', { ids: deals.map((d) => d.id), owner_id: a.id });
		await ok('PATCH', '/v1/crm/deals', { ids: [deals[99].id], owner_id: c.id });
		await ok('PATCH', '/v1/crm/deals', { ids: [deals[100].id], owner_id: b.id });

		const before = lastSeq();
		const owners = await getOwners.call(
			pickerContext(
				h,
				'businessPlatformSales',
				{ resource: 'deal', operation: 'create' },
				'parameters.ownerId',
			),
		);
		expect(owners.map((o) => o.value).sort((x, y) => Number(x) - Number(y))).toEqual(
			[a.id, c.id].sort((x, y) => x - y),
		);
		expect(owners.map((o) => o.value)).not.toContain(b.id); // lost: B owns deal #101 by ID
		expect(sentSince(before, '/v1/crm/deals').map((q) => [q.get('page'), q.get('limit')])).toEqual([
			['1', '100'],
		]);
	});
});
