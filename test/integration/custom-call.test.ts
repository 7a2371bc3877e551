/**
 * Custom API Call (the last option of every Resource and Operation list, nodes/shared/engine/custom-call.ts):
 * any endpoint through the pack's transport — the platform token in x-access-token, the
 * refresh on an expired token — with method, path below the base URL, query and body.
 */
import type { IDataObject } from 'n8n-workflow';

import { sortBy } from '../../sandbox/src/state';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { allowOffContract } from '../helpers/contract';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox({ rows: 10 });
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb, ctx.sb.issueTokens());
});
const t = () => ctx.sb.store.tenant(1);
const custom = (node: string, params: IDataObject) =>
	h.run(node, { resource: 'customApiCall', operation: 'customApiCall', ...params });

describe('Custom API Call', () => {
	it('GET with a query: the contacts of the sandbox, one item each, sent with the platform token', async () => {
		ctx.sb.resetStats();
		const r = await custom('businessPlatformSales', {
			customMethod: 'GET',
			customPath: '/v1/crm/contacts',
			customQuery: '{"page": 1, "limit": 3}',
		});
		expect(r.error).toBeUndefined();
		const req = ctx.sb.requests().find((x) => x.route === 'GET /v1/crm/contacts')!;
		expect(new URLSearchParams(req.query).get('limit')).toBe('3');
		// Answered for the token's tenant: the sandbox answers 401 without x-access-token.
		expect([req.status, req.tenantId, req.host]).toEqual([200, 1, 'main']);
		// The sandbox's first page: the newest three (created_at descending, then id). The seed can
		// cross a millisecond, so the first page is not always the first three created.
		const page = ((r.json as IDataObject[])[0].data as IDataObject[]).map((c) => c.name);
		expect(page).toEqual(
			sortBy(t().contacts.values(), 'created_at', 'desc')
				.slice(0, 3)
				.map((c) => c.name),
		);
	});

	it('POST with a JSON body creates the record; the path may carry its query', async () => {
		const before = t().contacts.size;
		allowOffContract(
			ctx.sb,
			/query source is not a parameter/,
			'a Custom API Call sends the query its user writes',
		);
		const r = await custom('businessPlatformSales', {
			customMethod: 'POST',
			customPath: '/v1/crm/contacts?source=n8n',
			customBody: '{"name": "Made by a custom call", "type": "person"}',
		});
		expect(r.error).toBeUndefined();
		expect(t().contacts.size).toBe(before + 1);
		expect(
			t()
				.contacts.values()
				.find((c) => c.name === 'Made by a custom call'),
		).toMatchObject({ type: 'person' });
	});

	it('the Custom API Call of a resource (Operation list) is the same call, from the People node', async () => {
		const r = await h.run('businessPlatformPeople', {
			resource: 'user',
			operation: 'customApiCall',
			customMethod: 'GET',
			customPath: '/v1/people/users',
			customRegional: true,
		});
		expect(r.error).toBeUndefined();
		expect(r.json.length).toBeGreaterThan(0);
		expect(ctx.sb.requests().at(-1)).toMatchObject({ path: '/v1/people/users', status: 200 });
	});

	it('an expired token is refreshed and the call succeeds', async () => {
		ctx.sb.auth.expireAll();
		ctx.sb.auth.resetStats();
		const r = await custom('businessPlatformCampaigns', {
			customPath: '/v1/crm/campaign/category',
		});
		expect(r.error).toBeUndefined();
		expect(ctx.sb.auth.stats.refreshGrant).toBe(1);
	});

	it('refuses another host (the token would go there), bad JSON, and names what the platform rejected', async () => {
		for (const customPath of [
			'https://elsewhere.example/v1',
			'//elsewhere.example/v1',
			'v1/crm/contacts',
		]) {
			const r = await custom('businessPlatformSales', { customPath });
			expect([customPath, r.error?.message]).toEqual([
				customPath,
				expect.stringMatching(/is not a path of the API/),
			]);
		}
		const bad = await custom('businessPlatformSales', {
			customMethod: 'POST',
			customPath: '/v1/crm/contacts',
			customBody: '{"name": ',
		});
		expect(bad.error?.message).toMatch(/Body \(JSON\) is not valid JSON/);
		allowOffContract(
			ctx.sb,
			/body\/(type|visibility_type) must be equal/,
			'bodies the platform refuses, on purpose',
		);
		const refused = await custom('businessPlatformSales', {
			customMethod: 'POST',
			customPath: '/v1/crm/contacts',
			customBody: '{"name": "X", "type": "robot"}',
		});
		expect(refused.error?.message).toMatch(/answered 400: type must be person or organization/);
	});
});

describe('errors name the node field the platform rejected (an AI agent reads only the message)', () => {
	it('Contact → Create with a label that does not exist: the message names the wire field and the parameter', async () => {
		const r = await h.run('businessPlatformSales', {
			resource: 'contact',
			operation: 'create',
			name: 'Wrong',
			type: 'person',
			additionalFields: { labelId: '999999' },
		});
		expect(r.error?.message).toMatch(
			/answered 400: label_id 999999 does not exist \(label_id is the node's "Label Name or ID"\)/,
		);
	});

	it('Contact → Create with a visibility that is not one of the options: refused before sending, naming the field and its options (issue 40)', async () => {
		const before = ctx.sb.requests().length;
		const r = await h.run('businessPlatformSales', {
			resource: 'contact',
			operation: 'create',
			name: 'Wrong',
			type: 'person',
			additionalFields: { visibilityType: '={{ "nobody" }}' },
		});
		expect(r.error?.message).toBe('Visibility has no option "nobody"');
		expect((r.error as { description?: string }).description).toMatch(/public/);
		expect(ctx.sb.requests().length).toBe(before);
	});
});

describe('Form → Get Many: Include Markup', () => {
	it('off: each form is its ID and name only; on (the default): with its markup', async () => {
		const small = await h.run('businessPlatformCampaigns', {
			resource: 'form',
			operation: 'getAll',
			returnAll: true,
			options: { includeMarkup: false },
			simplify: false,
		});
		expect(small.error).toBeUndefined();
		expect(small.json).toHaveLength(t().forms.size);
		for (const f of small.json)
			expect(Object.keys(f).sort()).toEqual(expect.not.arrayContaining(['raw', 'template']));
		const full = await h.run('businessPlatformCampaigns', {
			resource: 'form',
			operation: 'getAll',
			returnAll: true,
			simplify: false,
		});
		expect(full.json[0]).toHaveProperty('template');
		expect(JSON.stringify(small.json).length * 3).toBeLessThan(JSON.stringify(full.json).length);
	});
});
