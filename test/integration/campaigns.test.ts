/**
 * The Campaigns node through n8n-core against the sandbox: every operation of
 * forms, categories and email templates, asserted on the sandbox's state and on
 * what went over the wire.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import {
	getCategories,
	searchCategories,
} from '../../nodes/BusinessPlatformCampaigns/methods/categories';
import { searchForms } from '../../nodes/BusinessPlatformCampaigns/methods/forms';
import { pickerContext } from '../../testbed/harness/pickers';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { expectDeleted } from '../helpers/outcomes';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox({ rows: 25 });
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb);
});

const t = () => ctx.sb.store.tenant(1);
const byId = (value: string | number) => ({ __rl: true, mode: 'id', value: String(value) });
const run = async (
	params: IDataObject,
	input?: INodeExecutionData[],
	options?: { continueOnFail?: boolean },
) => await h.run('businessPlatformCampaigns', params, input, options);
const wire = (method: string, path: string) =>
	ctx.sb.requests().filter((r) => r.method === method && r.path === path);

describe('Form', () => {
	it('Get returns the form with its editor description as JSON, or a simplified form', async () => {
		const form = t().forms.values()[3];
		const raw = await run({
			resource: 'form',
			operation: 'get',
			formId: byId(form.id as number),
			simplify: false,
		});
		expect(raw.error).toBeUndefined();
		const template = JSON.parse(form.template as string) as IDataObject;
		expect(raw.json).toEqual([{ id: form.id, name: form.name, raw: form.raw, template }]);
		const simple = await run({
			resource: 'form',
			operation: 'get',
			formId: byId(form.id as number),
		});
		expect(simple.json).toEqual([
			{ id: form.id, name: form.name, html: template.html, css: template.css },
		]);
		expect(simple.items[0].pairedItem).toEqual({ item: 0 });
	});

	it('Get Many searches, honours Limit with one request, and Return All reads every page', async () => {
		const all = await run({
			resource: 'form',
			operation: 'getAll',
			returnAll: true,
			simplify: false,
		});
		expect(all.error).toBeUndefined();
		expect(all.json.map((f) => f.id).sort()).toEqual(
			t()
				.forms.values()
				.map((f) => f.id)
				.sort(),
		);

		ctx.sb.resetStats();
		const limited = await run({
			resource: 'form',
			operation: 'getAll',
			returnAll: false,
			limit: 2,
			filters: { search: 'Contact us' },
		});
		const expected = t()
			.forms.values()
			.filter((f) => String(f.name).includes('Contact us'));
		expect(expected.length).toBeGreaterThan(2);
		expect(limited.json).toHaveLength(2);
		expect(limited.json.every((f) => String(f.name).includes('Contact us'))).toBe(true);
		const sent = wire('GET', '/v1/crm/campaign/assets/forms');
		expect(sent).toHaveLength(1);
		expect(new URLSearchParams(sent[0].query).get('search')).toBe('Contact us');
		expect(new URLSearchParams(sent[0].query).get('limit')).toBe('2');
	});

	it('Delete removes the form and says so', async () => {
		const id = t().forms.values()[0].id as number;
		expectDeleted(
			await run({ resource: 'form', operation: 'delete', formId: byId(id) }),
			id,
			t().forms,
		);
	});

	it('Get Template Markup returns the HTML as a field and as an HTML file', async () => {
		const form = t().forms.values()[1];
		const res = await run({
			resource: 'form',
			operation: 'getMarkup',
			formId: byId(form.id as number),
			asBinary: true,
			binaryPropertyName: 'html',
		});
		expect(res.error).toBeUndefined();
		const markup = res.json[0].markup as string;
		expect(res.json[0].id).toBe(form.id);
		expect(markup).toMatch(/^<!DOCTYPE html>/);
		expect(markup).toContain(`id="pf-form-${String(form.id)}"`);
		const file = res.items[0].binary!.html;
		expect(file.mimeType).toBe('text/html');
		expect(file.fileName).toBe(`form-${String(form.id)}.html`);
		expect(Buffer.from(file.data, 'base64').toString('utf8')).toBe(markup);

		const plain = await run({
			resource: 'form',
			operation: 'getMarkup',
			formId: byId(form.id as number),
		});
		expect(plain.json[0].markup).toBe(markup);
		expect(plain.items[0].binary).toBeUndefined();
	});
});

describe('Category', () => {
	it('Create stores the category and returns it whole', async () => {
		const res = await run({
			resource: 'category',
			operation: 'create',
			name: 'Webinars',
			additionalFields: {
				description: 'Online events',
				isPublished: false,
				categoryType: 'CAMPAIGN',
				alias: 'web',
			},
		});
		expect(res.error).toBeUndefined();
		const id = res.json[0].id as number;
		const stored = t().categories.get(id)!;
		expect(stored).toMatchObject({
			name: 'Webinars',
			description: 'Online events',
			is_published: false,
			category_type: 'CAMPAIGN',
			alias: 'web',
		});
		expect(res.json[0]).toMatchObject({
			id,
			name: 'Webinars',
			description: 'Online events',
			is_published: false,
			color: stored.color,
		});
	});

	it('Get returns one category', async () => {
		const c = t().categories.values()[2];
		const res = await run({
			resource: 'category',
			operation: 'get',
			categoryId: byId(c.id as number),
		});
		expect(res.json).toEqual([
			{
				id: c.id,
				name: c.name,
				description: c.description,
				category_type: c.category_type,
				color: c.color,
				is_published: c.is_published,
				owner_id: c.owner_id,
			},
		]);
	});

	it('Get Many filters by name and type and pages to the end', async () => {
		const res = await run({
			resource: 'category',
			operation: 'getAll',
			returnAll: true,
			filters: { name: 'Promotions', type: 'CAMPAIGN' },
		});
		const expected = t()
			.categories.values()
			.filter((c) => String(c.name).includes('Promotions'));
		expect(expected.length).toBeGreaterThan(1);
		expect(res.json.map((c) => c.id)).toEqual(expected.map((c) => c.id));
		const everything = await run({ resource: 'category', operation: 'getAll', returnAll: true });
		expect(everything.json).toHaveLength(t().categories.size);
	});

	it('Update changes only the given fields and returns the category read back', async () => {
		const c = t().categories.values()[4];
		const before = { ...c };
		const res = await run({
			resource: 'category',
			operation: 'update',
			categoryId: byId(c.id as number),
			updateFields: { name: 'Renamed category', isPublished: true },
		});
		expect(res.error).toBeUndefined();
		expect(t().categories.get(c.id as number)).toMatchObject({
			name: 'Renamed category',
			is_published: true,
			description: before.description,
		});
		expect(res.json[0]).toMatchObject({
			id: c.id,
			name: 'Renamed category',
			is_published: true,
			description: before.description,
		});
		expect(JSON.parse(wire('PATCH', `/v1/crm/campaign/category/${String(c.id)}`)[0].body!)).toEqual(
			{ name: 'Renamed category', is_published: true },
		);
	});

	it('Delete removes the category; an empty update fails before anything is sent', async () => {
		const id = t().categories.values()[5].id as number;
		expectDeleted(
			await run({ resource: 'category', operation: 'delete', categoryId: byId(id) }),
			id,
			t().categories,
		);

		ctx.sb.resetStats();
		const other = t().categories.values()[0].id as number;
		const empty = await run(
			{ resource: 'category', operation: 'update', categoryId: byId(other), updateFields: {} },
			[{ json: {} }, { json: {} }],
			{ continueOnFail: true },
		);
		expect(empty.json).toEqual([
			{ error: 'Nothing to update', description: expect.any(String), itemIndex: 0 },
			{ error: 'Nothing to update', description: expect.any(String), itemIndex: 1 },
		]);
		expect(ctx.sb.requests()).toHaveLength(0);
	});
});

describe('Email Template', () => {
	it('Get Many filters by category and default flag and gives template_json back as JSON', async () => {
		const withDefault = t()
			.emailTemplates.values()
			.find((x) => x.is_default === true)!;
		const categoryId = withDefault.category_id as number;
		const res = await run({
			resource: 'emailTemplate',
			operation: 'getAll',
			returnAll: true,
			simplify: false,
			filters: { categoryId, isDefault: true },
		});
		expect(res.error).toBeUndefined();
		const expected = t()
			.emailTemplates.values()
			.filter((x) => x.category_id === categoryId && x.is_default === true);
		expect(res.json.map((x) => x.id)).toEqual(expected.map((x) => x.id));
		const first = res.json.find((x) => x.id === withDefault.id)!;
		expect(first.template_json).toEqual(
			JSON.parse(decodeURIComponent(withDefault.template_json as string)),
		);
		expect((first.category as IDataObject).id).toBe(categoryId);
		const query = new URLSearchParams(wire('GET', '/v1/crm/campaign/email-templates').pop()!.query);
		expect(query.get('category_id')).toBe(String(categoryId));
		expect(query.get('default')).toBe('true');

		const simple = await run({
			resource: 'emailTemplate',
			operation: 'getAll',
			returnAll: false,
			limit: 3,
		});
		expect(simple.json).toHaveLength(3);
		expect(Object.keys(simple.json[0]).length).toBeLessThanOrEqual(10);
		expect(simple.json[0]).toMatchObject({ id: expect.any(Number), name: expect.any(String) });
	});

	it('Create URL-encodes the JSON on the wire; the sandbox stores that JSON; HTML comes from text or a binary field', async () => {
		const category = t().categories.values()[0].id as number;
		const design = {
			body: {
				rows: [
					{
						cells: [1],
						columns: [
							{
								contents: [
									{ type: 'text', values: { text: '<p>Hi {{first_name}} — 50% off & more</p>' } },
								],
							},
						],
					},
				],
			},
			schemaVersion: 6,
		};
		ctx.sb.resetStats();
		const res = await run({
			resource: 'emailTemplate',
			operation: 'create',
			name: 'Autumn sale',
			categoryId: category,
			templateJson: JSON.stringify(design),
			htmlSource: 'text',
			templateHtml: '<html><body>Autumn</body></html>',
			additionalFields: { image: 'https://assets.example/autumn.png' },
		});
		expect(res.error).toBeUndefined();
		const sent = JSON.parse(
			wire('POST', '/v1/crm/campaign/email-templates')[0].body!,
		) as IDataObject;
		expect(sent.template_json).toBe(encodeURIComponent(JSON.stringify(design)));
		expect(sent).toMatchObject({
			name: 'Autumn sale',
			category_id: category,
			template_html: '<html><body>Autumn</body></html>',
			image: 'https://assets.example/autumn.png',
		});
		const id = res.json[0].id as number;
		const stored = t().emailTemplates.get(id)!;
		expect(JSON.parse(decodeURIComponent(stored.template_json as string))).toEqual(design);
		expect(res.json[0]).toMatchObject({
			id,
			name: 'Autumn sale',
			category_id: category,
			template_json: design,
		});

		// An expression that returns an object, and the HTML from the input item's file.
		const html = '<html><body><h1>From a file</h1></body></html>';
		const input: INodeExecutionData[] = [
			{
				json: { design },
				binary: {
					page: {
						data: Buffer.from(html).toString('base64'),
						mimeType: 'text/html',
						fileName: 'page.html',
					},
				},
			},
		];
		const fromFile = await run(
			{
				resource: 'emailTemplate',
				operation: 'create',
				name: 'From file',
				categoryId: category,
				templateJson: '={{ $json.design }}',
				htmlSource: 'binary',
				binaryPropertyName: 'page',
			},
			input,
		);
		expect(fromFile.error).toBeUndefined();
		const storedFromFile = t().emailTemplates.get(fromFile.json[0].id as number)!;
		expect(storedFromFile.template_html).toBe(html);
		expect(JSON.parse(decodeURIComponent(storedFromFile.template_json as string))).toEqual(design);
	});

	it('Create refuses bad JSON and a missing binary field before sending, naming the item', async () => {
		const category = t().categories.values()[0].id as number;
		ctx.sb.resetStats();
		const bad = await run({
			resource: 'emailTemplate',
			operation: 'create',
			name: 'Broken',
			categoryId: category,
			templateJson: '{"body": ',
			htmlSource: 'text',
		});
		expect(bad.error?.message).toMatch(/Template JSON is not valid JSON/);
		const noFile = await run(
			{
				resource: 'emailTemplate',
				operation: 'create',
				name: 'No file',
				categoryId: category,
				templateJson: '{}',
				htmlSource: 'binary',
				binaryPropertyName: 'data',
			},
			[{ json: {} }, { json: {} }],
			{ continueOnFail: true },
		);
		expect(noFile.json.map((j) => [j.itemIndex, j.error])).toEqual([
			[0, 'The input item has no binary field "data"'],
			[1, 'The input item has no binary field "data"'],
		]);
		expect(ctx.sb.requests()).toHaveLength(0);
	});
});

describe('Pickers', () => {
	it('forms: searchable, paged by full pages', async () => {
		const picker = pickerContext(
			h,
			'businessPlatformCampaigns',
			{ resource: 'form', operation: 'get' },
			'parameters.formId',
		);
		const all = await searchForms.call(picker);
		expect(all.results.map((r) => r.value).sort()).toEqual(
			t()
				.forms.values()
				.map((f) => String(f.id))
				.sort(),
		);
		const found = await searchForms.call(picker, 'Feedback');
		const expected = t()
			.forms.values()
			.filter((f) => String(f.name).includes('Feedback'));
		expect(found.results).toEqual(expected.map((f) => ({ name: f.name, value: String(f.id) })));
	});

	it('categories: a searchable list for the category locator and a dropdown for templates', async () => {
		const picker = pickerContext(
			h,
			'businessPlatformCampaigns',
			{ resource: 'category', operation: 'get' },
			'parameters.categoryId',
		);
		const found = await searchCategories.call(picker, 'Events');
		const expected = t()
			.categories.values()
			.filter((c) => /events/i.test(`${String(c.name)} ${String(c.description)}`));
		expect(expected.length).toBeGreaterThan(1);
		expect(found.results.map((r) => r.value)).toEqual(expected.map((c) => String(c.id)));
		const dropdown = await getCategories.call(
			pickerContext(
				h,
				'businessPlatformCampaigns',
				{ resource: 'emailTemplate', operation: 'create' },
				'parameters.categoryId',
			),
		);
		expect(dropdown.map((o) => o.value).sort((a, b) => Number(a) - Number(b))).toEqual(
			t()
				.categories.values()
				.map((c) => c.id),
		);
		expect(dropdown.map((o) => o.name)).toEqual(
			[...dropdown.map((o) => o.name)].sort((a, b) => a.localeCompare(b)),
		);
	});
});
