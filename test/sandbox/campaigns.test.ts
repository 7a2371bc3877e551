/* eslint-disable @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
import { call, expectPlatformError, otherTenantToken, useSandbox } from '../helpers/sandbox';

const ctx = useSandbox();

const FORMS = '/v1/crm/campaign/assets/forms';
const FORM_TEMPLATES = '/v1/crm/campaign/assets/form-templates';
const CATEGORIES = '/v1/crm/campaign/category';
const TEMPLATES = '/v1/crm/campaign/email-templates';

const tenant = (id = 1) => ctx.sb.store.tenant(id);

const CATEGORY_KEYS = [
	'category_type',
	'color',
	'description',
	'id',
	'is_published',
	'name',
	'owner_id',
];

describe('sandbox: campaign forms', () => {
	it('lists forms in pages of `limit` until a short page', async () => {
		const first = await call(ctx.sb, 'GET', FORMS, { query: { limit: 5, page: 1 } });
		expect(first.status).toBe(200);
		expect(Object.keys(first.body)).toEqual(['data']);
		expect(first.body.data).toHaveLength(5);
		for (const f of first.body.data) {
			expect(f).toEqual({
				id: expect.any(Number),
				name: expect.any(String),
				raw: expect.stringContaining('<style>'),
				template: expect.any(String),
			});
			expect(Object.keys(JSON.parse(f.template)).sort()).toEqual([
				'assets',
				'components',
				'css',
				'html',
				'styles',
			]);
		}
		const seen: number[] = [];
		for (let page = 1; ; page++) {
			const res = await call(ctx.sb, 'GET', FORMS, { query: { limit: 7, page } });
			seen.push(...res.body.data.map((f: any) => f.id));
			if (res.body.data.length < 7) break;
		}
		expect(seen.sort()).toEqual(
			tenant()
				.forms.values()
				.map((f) => f.id)
				.sort(),
		);
		expect(new Set(seen).size).toBe(seen.length);
	});
	it('searches forms by name', async () => {
		const res = await call(ctx.sb, 'GET', FORMS, { query: { search: 'DEMO request', limit: 100 } });
		const expected = tenant()
			.forms.values()
			.filter((f) => String(f.name).toLowerCase().includes('demo request'))
			.map((f) => f.id);
		expect(expected.length).toBeGreaterThan(0);
		expect(res.body.data.map((f: any) => f.id)).toEqual(expected);
	});
	it('gets a form and its markup, deletes it, then 404s', async () => {
		const id = tenant().forms.values()[0].id as number;
		const got = await call(ctx.sb, 'GET', `${FORMS}/${id}`);
		expect(got.status).toBe(200);
		expect(got.body).toEqual(tenant().forms.get(id));
		const markup = await call(ctx.sb, 'GET', `${FORM_TEMPLATES}/${id}`);
		expect(markup.status).toBe(200);
		expect(markup.headers['content-type']).toMatch(/^text\/html/);
		expect(markup.text).toContain(JSON.parse(got.body.template).html);
		expect(markup.text).toMatch(/^<!DOCTYPE html>/);

		const deleted = await call(ctx.sb, 'DELETE', `${FORMS}/${id}`);
		expect(deleted.status).toBe(204);
		expect(deleted.text).toBe('');
		expectPlatformError(await call(ctx.sb, 'GET', `${FORMS}/${id}`), 404);
		expectPlatformError(await call(ctx.sb, 'GET', `${FORM_TEMPLATES}/${id}`), 404);
		expectPlatformError(await call(ctx.sb, 'DELETE', `${FORMS}/${id}`), 404);
		const list = await call(ctx.sb, 'GET', FORMS, { query: { limit: 100 } });
		expect(list.body.data.some((f: any) => f.id === id)).toBe(false);
	});
	it('rejects non-integer ids and bad paging with 400', async () => {
		expectPlatformError(await call(ctx.sb, 'GET', `${FORMS}/abc`), 400, 'id');
		expectPlatformError(await call(ctx.sb, 'DELETE', `${FORMS}/1.5`), 400, 'id');
		expectPlatformError(await call(ctx.sb, 'GET', `${FORM_TEMPLATES}/x`), 400, 'id');
		expectPlatformError(
			await call(ctx.sb, 'GET', FORMS, { query: { limit: 'ten' } }),
			400,
			'limit',
		);
		expectPlatformError(await call(ctx.sb, 'GET', FORMS, { query: { page: 0 } }), 400, 'page');
	});
	it('needs a token', async () => {
		const id = tenant().forms.values()[0].id;
		for (const [method, path] of [
			['GET', FORMS],
			['GET', `${FORMS}/${id}`],
			['DELETE', `${FORMS}/${id}`],
			['GET', `${FORM_TEMPLATES}/${id}`],
		]) {
			expectPlatformError(await call(ctx.sb, method, path, { token: null }), 401);
		}
		expect(tenant().forms.has(id as number)).toBe(true);
	});
	it('keeps forms per tenant', async () => {
		const token = otherTenantToken(ctx.sb);
		const id = tenant().forms.values()[0].id as number;
		expect((await call(ctx.sb, 'GET', `${FORMS}/${id}`, { token })).status).toBe(404);
		expect((await call(ctx.sb, 'GET', `${FORM_TEMPLATES}/${id}`, { token })).status).toBe(404);
		expect((await call(ctx.sb, 'DELETE', `${FORMS}/${id}`, { token })).status).toBe(404);
		const theirs = await call(ctx.sb, 'GET', FORMS, { token, query: { limit: 100 } });
		expect(theirs.body.data.length).toBeGreaterThan(0);
		expect(theirs.body.data.some((f: any) => tenant().forms.has(f.id))).toBe(false);
		expect(tenant().forms.has(id)).toBe(true);
	});
});

describe('sandbox: campaign categories', () => {
	it('lists categories in a FilterConfig envelope', async () => {
		const total = tenant().categories.size;
		const res = await call(ctx.sb, 'GET', CATEGORIES, { query: { limit: 5, page: 2 } });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			data: expect.any(Array),
			page: 2,
			number_of_elements: 5,
			size_per_page: 5,
			total_pages: Math.ceil(total / 5),
			number_of_records: total,
		});
		for (const c of res.body.data) expect(Object.keys(c).sort()).toEqual(CATEGORY_KEYS);
		const ids = tenant()
			.categories.values()
			.map((c) => c.id)
			.sort((a: any, b: any) => a - b);
		expect(res.body.data.map((c: any) => c.id)).toEqual(ids.slice(5, 10));
	});
	it('filters categories by search, name and type', async () => {
		const all = tenant().categories.values();
		const bySearch = await call(ctx.sb, 'GET', CATEGORIES, {
			query: { search: 'PROMOTIONS', limit: 100 },
		});
		const expected = all
			.filter(
				(c) => /promotions/i.test(String(c.name)) || /promotions/i.test(String(c.description)),
			)
			.map((c) => c.id);
		expect(expected.length).toBeGreaterThan(0);
		expect(bySearch.body.data.map((c: any) => c.id)).toEqual(expected);
		const byName = await call(ctx.sb, 'GET', CATEGORIES, { query: { name: 'events', limit: 100 } });
		expect(byName.body.data.map((c: any) => c.id)).toEqual(
			all.filter((c) => /events/i.test(String(c.name))).map((c) => c.id),
		);
		expect(
			(await call(ctx.sb, 'GET', CATEGORIES, { query: { type: 'campaign' } })).body
				.number_of_records,
		).toBe(all.length);
		expect(
			(await call(ctx.sb, 'GET', CATEGORIES, { query: { type: 'SMS' } })).body.number_of_records,
		).toBe(0);
	});
	it('round-trips a category: create, get, list, update, delete', async () => {
		const created = await call(ctx.sb, 'POST', CATEGORIES, {
			body: {
				name: 'Round trip',
				description: 'made by a test',
				is_published: true,
				category_type: 'CAMPAIGN',
				campaignCategoryAlias: 'rt',
			},
		});
		expect(created.status).toBe(201);
		expect(created.body).toEqual({ id: expect.any(Number) });
		const id = created.body.id;
		const got = await call(ctx.sb, 'GET', `${CATEGORIES}/${id}`);
		expect(got.status).toBe(200);
		expect(got.body).toEqual({
			id,
			name: 'Round trip',
			description: 'made by a test',
			category_type: 'CAMPAIGN',
			color: expect.any(String),
			is_published: true,
			owner_id: 1,
		});
		const listed = await call(ctx.sb, 'GET', CATEGORIES, { query: { name: 'round trip' } });
		expect(listed.body.data).toEqual([got.body]);

		const patched = await call(ctx.sb, 'PATCH', `${CATEGORIES}/${id}`, {
			body: { name: 'Renamed', is_published: false },
		});
		expect(patched.status).toBe(200);
		expect(patched.text).toBe('');
		expect((await call(ctx.sb, 'GET', `${CATEGORIES}/${id}`)).body).toEqual({
			...got.body,
			name: 'Renamed',
			is_published: false,
		});

		const deleted = await call(ctx.sb, 'DELETE', `${CATEGORIES}/${id}`);
		expect(deleted.status).toBe(204);
		expect(deleted.text).toBe('');
		expectPlatformError(await call(ctx.sb, 'GET', `${CATEGORIES}/${id}`), 404);
		expectPlatformError(
			await call(ctx.sb, 'PATCH', `${CATEGORIES}/${id}`, { body: { name: 'x' } }),
			404,
		);
		expectPlatformError(await call(ctx.sb, 'DELETE', `${CATEGORIES}/${id}`), 404);
		expect(
			(await call(ctx.sb, 'GET', CATEGORIES, { query: { name: 'renamed' } })).body
				.number_of_records,
		).toBe(0);
	});
	it('takes the campaignCategory* aliases and defaults the type', async () => {
		const created = await call(ctx.sb, 'POST', CATEGORIES, {
			body: {
				campaignCategoryTitle: 'Alias title',
				campaignCategoryDescription: 'alias description',
				publish: true,
			},
		});
		expect(created.status).toBe(201);
		const got = await call(ctx.sb, 'GET', `${CATEGORIES}/${created.body.id}`);
		expect(got.body).toMatchObject({
			name: 'Alias title',
			description: 'alias description',
			is_published: true,
			category_type: 'CAMPAIGN',
		});
	});
	it('rejects bad categories with 400', async () => {
		expectPlatformError(
			await call(ctx.sb, 'POST', CATEGORIES, { body: { description: 'no name' } }),
			400,
			'name',
		);
		expectPlatformError(
			await call(ctx.sb, 'POST', CATEGORIES, { body: { name: 12 } }),
			400,
			'name',
		);
		expectPlatformError(
			await call(ctx.sb, 'POST', CATEGORIES, { body: { name: 'x', is_published: 'yes' } }),
			400,
			'is_published',
		);
		expectPlatformError(await call(ctx.sb, 'POST', CATEGORIES, { body: [1] }), 400, 'body');
		const id = tenant().categories.values()[0].id;
		expectPlatformError(
			await call(ctx.sb, 'PATCH', `${CATEGORIES}/${id}`, { body: { description: 5 } }),
			400,
			'description',
		);
		expectPlatformError(
			await call(ctx.sb, 'PATCH', `${CATEGORIES}/${id}`, { body: { name: '' } }),
			400,
			'name',
		);
		expectPlatformError(await call(ctx.sb, 'GET', `${CATEGORIES}/abc`), 400, 'id');
		expectPlatformError(await call(ctx.sb, 'PATCH', `${CATEGORIES}/abc`, { body: {} }), 400, 'id');
		expectPlatformError(await call(ctx.sb, 'DELETE', `${CATEGORIES}/abc`), 400, 'id');
		expectPlatformError(
			await call(ctx.sb, 'GET', CATEGORIES, { query: { limit: 'x' } }),
			400,
			'limit',
		);
	});
	it('needs a token', async () => {
		const id = tenant().categories.values()[0].id;
		for (const [method, path, body] of [
			['GET', CATEGORIES],
			['POST', CATEGORIES, { name: 'x' }],
			['GET', `${CATEGORIES}/${id}`],
			['PATCH', `${CATEGORIES}/${id}`, { name: 'x' }],
			['DELETE', `${CATEGORIES}/${id}`],
		] as [string, string, unknown?][]) {
			expectPlatformError(await call(ctx.sb, method, path, { token: null, body }), 401);
		}
		expect(tenant().categories.get(id as number)!.name).not.toBe('x');
	});
	it('keeps categories per tenant', async () => {
		const token = otherTenantToken(ctx.sb);
		const id = tenant().categories.values()[0].id as number;
		expect((await call(ctx.sb, 'GET', `${CATEGORIES}/${id}`, { token })).status).toBe(404);
		expect(
			(await call(ctx.sb, 'PATCH', `${CATEGORIES}/${id}`, { token, body: { name: 'hijack' } }))
				.status,
		).toBe(404);
		expect((await call(ctx.sb, 'DELETE', `${CATEGORIES}/${id}`, { token })).status).toBe(404);
		const theirs = await call(ctx.sb, 'GET', CATEGORIES, { token, query: { limit: 100 } });
		expect(theirs.body.number_of_records).toBeGreaterThan(0);
		expect(theirs.body.data.some((c: any) => tenant().categories.has(c.id))).toBe(false);
		const created = await call(ctx.sb, 'POST', CATEGORIES, {
			token,
			body: { name: 'Globex only' },
		});
		expect(created.status).toBe(201);
		expect((await call(ctx.sb, 'GET', `${CATEGORIES}/${created.body.id}`)).status).toBe(404);
		expect(tenant().categories.get(id)!.name).not.toBe('hijack');
	});
});

describe('sandbox: campaign email templates', () => {
	const design = {
		counters: { u_row: 1 },
		body: {
			rows: [
				{
					cells: [1],
					columns: [
						{
							contents: [
								{
									type: 'text',
									values: { text: '<p>Hi {{first_name}} & 100% "quoted" — ünïcödé</p>' },
								},
							],
						},
					],
				},
			],
		},
		schemaVersion: 6,
	};

	it('lists templates in a FilterConfig envelope with the category embedded', async () => {
		const total = tenant().emailTemplates.size;
		const res = await call(ctx.sb, 'GET', TEMPLATES, { query: { limit: 4, page: 1 } });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			data: expect.any(Array),
			page: 1,
			number_of_elements: 4,
			size_per_page: 4,
			total_pages: Math.ceil(total / 4),
			number_of_records: total,
		});
		for (const t of res.body.data) {
			expect(t).toMatchObject({
				id: expect.any(Number),
				name: expect.any(String),
				image: expect.any(String),
				template_json: expect.any(String),
				owner_id: expect.any(Number),
				is_deleted: false,
				tenant_id: 1,
				created_by: expect.any(Number),
				created_at: expect.any(String),
				updated_by: expect.any(Number),
				updated_at: expect.any(String),
				is_default: expect.any(Boolean),
			});
			expect(Object.keys(t.category).sort()).toEqual(CATEGORY_KEYS);
			expect(t.category.id).toBe(tenant().emailTemplates.get(t.id)!.category_id);
			expect(() => JSON.parse(decodeURIComponent(t.template_json))).not.toThrow();
		}
	});
	it('filters templates by search, category_id, default, my_template and ownerId', async () => {
		const all = tenant().emailTemplates.values();
		const ids = async (query: Record<string, any>) =>
			(await call(ctx.sb, 'GET', TEMPLATES, { query: { limit: 500, ...query } })).body.data.map(
				(t: any) => t.id,
			);
		const where = (pred: (t: any) => boolean) => all.filter(pred).map((t) => t.id);
		const nonTrivial = (x: unknown[]) => {
			expect(x.length).toBeGreaterThan(0);
			expect(x.length).toBeLessThan(all.length);
			return x;
		};
		expect(await ids({ search: 'WELCOME' })).toEqual(
			nonTrivial(where((t) => /welcome/i.test(t.name))),
		);
		const categoryId = all[0].category_id;
		expect(await ids({ category_id: categoryId })).toEqual(
			nonTrivial(where((t) => t.category_id === categoryId)),
		);
		expect(await ids({ default: true })).toEqual(nonTrivial(where((t) => t.is_default === true)));
		expect(await ids({ default: false })).toEqual(nonTrivial(where((t) => t.is_default === false)));
		// The demo user of tenant 1 has user id 1.
		expect(await ids({ my_template: true })).toEqual(nonTrivial(where((t) => t.owner_id === 1)));
		const other = tenant().crmUsers[2].id;
		expect(await ids({ ownerId: other })).toEqual(nonTrivial(where((t) => t.owner_id === other)));
		expect(await ids({ ownerId: other, default: true, my_template: true })).toEqual([]);
	});
	it('creates a template whose URL-encoded template_json round-trips', async () => {
		const category = tenant().categories.values()[1];
		const wire = encodeURIComponent(JSON.stringify(design));
		const created = await call(ctx.sb, 'POST', TEMPLATES, {
			body: {
				category_id: category.id,
				image: 'https://img.example/t.png',
				name: 'Round trip template',
				template_html: '<p>Hi</p>',
				template_json: wire,
			},
		});
		expect(created.status).toBe(201);
		expect(created.body).toEqual({ id: expect.any(Number) });
		const storedDoc = tenant().emailTemplates.get(created.body.id)!;
		expect(storedDoc.template_json).toBe(wire);
		expect(JSON.parse(decodeURIComponent(storedDoc.template_json as string))).toEqual(design);

		const listed = await call(ctx.sb, 'GET', TEMPLATES, {
			query: { search: 'round trip template', my_template: true },
		});
		expect(listed.body.number_of_records).toBe(1);
		const t = listed.body.data[0];
		expect(t).toMatchObject({
			id: created.body.id,
			name: 'Round trip template',
			image: 'https://img.example/t.png',
			owner_id: 1,
			created_by: 1,
			updated_by: 1,
			is_deleted: false,
			is_default: false,
			tenant_id: 1,
		});
		expect(t.template_json).toBe(wire);
		expect(JSON.parse(decodeURIComponent(t.template_json))).toEqual(design);
		expect(t.category).toEqual((await call(ctx.sb, 'GET', `${CATEGORIES}/${category.id}`)).body);

		// The embedded category follows updates and disappears with the category.
		const own = await call(ctx.sb, 'POST', CATEGORIES, { body: { name: 'Short-lived' } });
		const second = await call(ctx.sb, 'POST', TEMPLATES, {
			body: { category_id: own.body.id, name: 'Orphan', template_json: wire },
		});
		await call(ctx.sb, 'PATCH', `${CATEGORIES}/${own.body.id}`, {
			body: { name: 'Short-lived 2' },
		});
		const viewName = async () =>
			(await call(ctx.sb, 'GET', TEMPLATES, { query: { search: 'orphan' } })).body.data[0].category;
		expect((await viewName()).name).toBe('Short-lived 2');
		await call(ctx.sb, 'DELETE', `${CATEGORIES}/${own.body.id}`);
		expect(await viewName()).toBeNull();
		expect(second.status).toBe(201);
	});
	it('rejects bad templates with 400', async () => {
		const categoryId = tenant().categories.values()[0].id;
		const good = {
			category_id: categoryId,
			name: 'Bad',
			template_json: encodeURIComponent('{"a":1}'),
		};
		const post = (body: unknown) => call(ctx.sb, 'POST', TEMPLATES, { body });
		const before = tenant().emailTemplates.size;
		expectPlatformError(await post({ ...good, template_json: '%E0%A4%A' }), 400, 'template_json');
		expectPlatformError(
			await post({ ...good, template_json: encodeURIComponent('not json') }),
			400,
			'template_json',
		);
		expectPlatformError(
			await post({ ...good, template_json: encodeURIComponent('42') }),
			400,
			'template_json',
		);
		expectPlatformError(await post({ ...good, template_json: { a: 1 } }), 400, 'template_json');
		expectPlatformError(await post({ ...good, template_json: undefined }), 400, 'template_json');
		expectPlatformError(await post({ ...good, category_id: 'x' }), 400, 'category_id');
		expectPlatformError(await post({ ...good, category_id: 999999 }), 400, 'category_id');
		expectPlatformError(await post({ ...good, name: undefined }), 400, 'name');
		expectPlatformError(await post({ ...good, image: 5 }), 400, 'image');
		expectPlatformError(
			await call(ctx.sb, 'GET', TEMPLATES, { query: { category_id: 'x' } }),
			400,
			'category_id',
		);
		expectPlatformError(
			await call(ctx.sb, 'GET', TEMPLATES, { query: { default: 'maybe' } }),
			400,
			'default',
		);
		expectPlatformError(
			await call(ctx.sb, 'GET', TEMPLATES, { query: { my_template: 'sure' } }),
			400,
			'my_template',
		);
		expectPlatformError(
			await call(ctx.sb, 'GET', TEMPLATES, { query: { ownerId: 'me' } }),
			400,
			'ownerId',
		);
		expect(tenant().emailTemplates.size).toBe(before);
	});
	it('needs a token', async () => {
		expectPlatformError(await call(ctx.sb, 'GET', TEMPLATES, { token: null }), 401);
		const before = tenant().emailTemplates.size;
		expectPlatformError(
			await call(ctx.sb, 'POST', TEMPLATES, {
				token: null,
				body: {
					name: 'x',
					category_id: tenant().categories.values()[0].id,
					template_json: '%7B%7D',
				},
			}),
			401,
		);
		expect(tenant().emailTemplates.size).toBe(before);
	});
	it('keeps templates per tenant', async () => {
		const token = otherTenantToken(ctx.sb);
		const theirs = await call(ctx.sb, 'GET', TEMPLATES, { token, query: { limit: 500 } });
		expect(theirs.body.number_of_records).toBe(tenant(2).emailTemplates.size);
		expect(theirs.body.data.some((t: any) => tenant().emailTemplates.has(t.id))).toBe(false);
		// A category of tenant 1 does not exist for tenant 2.
		const res = await call(ctx.sb, 'POST', TEMPLATES, {
			token,
			body: { name: 'x', category_id: tenant().categories.values()[0].id, template_json: '%7B%7D' },
		});
		expectPlatformError(res, 400, 'category_id');
		const mine = await call(ctx.sb, 'GET', TEMPLATES, {
			token,
			query: { my_template: true, limit: 500 },
		});
		expect(mine.body.data.every((t: any) => t.owner_id === 2)).toBe(true);
	});
});
