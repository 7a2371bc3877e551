/**
 * Campaign assets: forms, categories and email templates — /v1/crm/campaign/…
 *
 * Choices where the spec says "not shown":
 *  - Forms have only the documented fields (id, name, raw, template); their
 *    creation and update endpoints are not documented, so forms are seeded only.
 *    GET form-templates/{id} answers the markup of form {id} as a whole HTML
 *    document (the editor's html with its css in a <style> element).
 *  - The forms list envelope is only {data}: pages start at 1 and a client pages
 *    until a page is shorter than `limit`.
 *  - CategoryRequest aliases: campaignCategoryTitle, campaignCategoryDescription
 *    and publish stand in for name, description and is_published when those are
 *    absent; campaignCategoryAlias is stored but not shown in CategoryResponse.
 *    A new category gets a color from a fixed palette and the caller as owner.
 *  - EmailTemplateResponse also carries template_html and is_default (the flag
 *    behind the `default` query parameter). `category` is the current
 *    CategoryResponse of the template's category, or null once it is deleted.
 *  - The response of email template creation is not shown in the spec: the
 *    sandbox answers 201 with a CreateResponse {id}.
 */
import type { Session } from '../auth';
import { pageParams, tenantOf, type Env } from '../env';
import { badRequest, empty, intParam, json, notFound, objectBody, text, type Ctx } from '../http';
import { pickOne, type Module } from '../module';
import { filterConfigEnvelope, nowIso, slice, sortBy, textMatch, type Doc, type Tenant } from '../state';
import { validate, type Schema } from '../validate';

const CATEGORY_SCHEMA: Schema = {
	name: 'string',
	description: 'string',
	is_published: 'boolean',
	category_type: 'string',
	campaignCategoryTitle: 'string',
	campaignCategoryDescription: 'string',
	campaignCategoryAlias: 'string',
	publish: 'boolean',
};
const TEMPLATE_SCHEMA: Schema = { category_id: 'integer', image: 'string', name: 'string', template_html: 'string', template_json: 'string' };
const COLORS = ['#e53935', '#43a047', '#1e88e5', '#fb8c00', '#8e24aa', '#00897b', '#6d4c41'];
const CATEGORY_NAMES = ['Newsletter', 'Product updates', 'Promotions', 'Events', 'Onboarding', 'Holiday greetings', 'Surveys'];
const FORM_KINDS = ['Newsletter signup', 'Contact us', 'Event registration', 'Demo request', 'Feedback'];
const TEMPLATE_KINDS = ['Welcome', 'Monthly digest', 'Spring sale', 'Webinar invite', 'Thank you', 'Re-engagement'];
const SEED_BASE = Date.UTC(2024, 1, 1, 9, 0, 0);

// ---------- forms ----------

function formMarkup(name: string, id: number): { html: string; css: string } {
	const html =
		`<form class="pf-form" id="pf-form-${id}" method="post">` +
		`<h2 class="pf-title">${name}</h2>` +
		'<label class="pf-label">Name<input class="pf-input" type="text" name="name" required></label>' +
		'<label class="pf-label">Email<input class="pf-input" type="email" name="email" required></label>' +
		'<button class="pf-button" type="submit">Submit</button>' +
		'</form>';
	const css =
		'.pf-form{max-width:420px;padding:24px;font-family:Arial,sans-serif;border:1px solid #ddd;border-radius:8px}' +
		'.pf-title{margin:0 0 16px;font-size:20px}.pf-label{display:block;margin-bottom:12px}' +
		'.pf-input{display:block;width:100%;padding:8px}.pf-button{padding:8px 16px;background:#1e88e5;color:#fff;border:0}';
	return { html, css };
}

function newForm(env: Env, tenant: Tenant, name: string): Doc {
	const id = env.store.nextInt('form');
	const { html, css } = formMarkup(name, id);
	const template = JSON.stringify({
		html,
		components: [{ tagName: 'form', classes: ['pf-form'], attributes: { id: `pf-form-${id}` }, components: [{ tagName: 'h2', content: name }] }],
		assets: [],
		css,
		styles: [{ selectors: ['pf-form'], style: { 'max-width': '420px', padding: '24px' } }],
	});
	return tenant.forms.set(id, { id, name, raw: `<div style="font-family:Arial,sans-serif">${html}</div><style>${css}</style>`, template });
}

function getForm(tenant: Tenant, id: number): Doc {
	const f = tenant.forms.get(id);
	if (!f) throw notFound('Form', id);
	return f;
}

/** The whole HTML document of a form, from the html and css of its editor description. */
function formDocument(form: Doc): string {
	let html = form.raw as string;
	let css = '';
	try {
		const t = JSON.parse(form.template as string) as { html?: unknown; css?: unknown };
		if (typeof t.html === 'string') html = t.html;
		if (typeof t.css === 'string') css = t.css;
	} catch {
		// keep raw
	}
	return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${form.name as string}</title><style>${css}</style></head><body>${html}</body></html>`;
}

// ---------- categories ----------

export function categoryView(c: Doc): Doc {
	return { id: c.id, name: c.name, description: c.description, category_type: c.category_type, color: c.color, is_published: c.is_published, owner_id: c.owner_id };
}

function getCategory(tenant: Tenant, id: number): Doc {
	const c = tenant.categories.get(id);
	if (!c) throw notFound('Category', id);
	return c;
}

/** Validates a CategoryRequest; the campaignCategory* aliases fill the documented fields they stand for. */
function categoryInput(body: Record<string, unknown>): Doc {
	const input = validate(body, CATEGORY_SCHEMA);
	const out: Doc = {};
	const either = (k: string, alias: string) => (input[k] !== undefined ? input[k] : input[alias]);
	const name = either('name', 'campaignCategoryTitle');
	const description = either('description', 'campaignCategoryDescription');
	const published = either('is_published', 'publish');
	if (name !== undefined) out.name = name;
	if (description !== undefined) out.description = description;
	// null means "not set": the flag and the type keep their value.
	if (published != null) out.is_published = published;
	if (input.category_type != null) out.category_type = input.category_type;
	if (input.campaignCategoryAlias !== undefined) out.alias = input.campaignCategoryAlias;
	if ('name' in out && (out.name === null || out.name === '')) throw badRequest('Validation failed: name is required', [{ field: 'name', error: 'is required' }]);
	return out;
}

function newCategory(env: Env, tenant: Tenant, ownerId: number, input: Doc): Doc {
	const id = env.store.nextInt('category');
	return tenant.categories.set(id, {
		id,
		name: input.name,
		description: input.description ?? null,
		category_type: input.category_type ?? 'CAMPAIGN',
		color: COLORS[id % COLORS.length],
		is_published: input.is_published ?? false,
		owner_id: ownerId,
		alias: input.alias ?? null,
		tenant_id: tenant.id,
	});
}

function listCategories(env: Env, ctx: Ctx<Session>) {
	const tenant = tenantOf(env, ctx);
	const q = ctx.query;
	const search = q.str('search');
	const name = q.str('name');
	const type = q.str('type');
	const key = JSON.stringify([search, name, type]);
	const all = tenant.categories.query(key, (items) =>
		sortBy(
			items.filter(
				(c) =>
					(!search || textMatch(c.name, search) || textMatch(c.description, search)) &&
					(!name || textMatch(c.name, name)) &&
					(!type || String(c.category_type).toLowerCase() === type.toLowerCase()),
			),
			'id',
			'asc',
		),
	);
	const { page, size } = pageParams(env, ctx);
	const s = slice(all, page, size);
	return json(200, filterConfigEnvelope({ ...s, items: s.items.map(categoryView) }));
}

// ---------- email templates ----------

function templateView(tenant: Tenant, t: Doc): Doc {
	const category = t.category_id != null ? tenant.categories.get(t.category_id as number) : undefined;
	return {
		id: t.id,
		name: t.name,
		image: t.image,
		category: category ? categoryView(category) : null,
		template_json: t.template_json,
		template_html: t.template_html,
		is_default: t.is_default,
		owner_id: t.owner_id,
		is_deleted: t.is_deleted,
		tenant_id: t.tenant_id,
		created_by: t.created_by,
		created_at: t.created_at,
		updated_by: t.updated_by,
		updated_at: t.updated_at,
	};
}

/** template_json is URL-encoded JSON text of an object or array: decodeURIComponent, then JSON.parse. */
function checkTemplateJson(v: string): void {
	let parsed: unknown;
	try {
		parsed = JSON.parse(decodeURIComponent(v));
	} catch {
		parsed = undefined;
	}
	if (parsed === null || typeof parsed !== 'object') {
		throw badRequest('Validation failed: template_json must be URL-encoded JSON text', [{ field: 'template_json', error: 'must be URL-encoded JSON text (decodeURIComponent, then JSON.parse)' }]);
	}
}

function designJson(title: string, color: string): unknown {
	return {
		counters: { u_row: 2, u_column: 2, u_content_text: 2 },
		body: {
			rows: [
				{ cells: [1], columns: [{ contents: [{ type: 'text', values: { text: `<h1 style="color:${color}">${title}</h1>` } }] }] },
				{ cells: [1], columns: [{ contents: [{ type: 'text', values: { text: '<p>Hello {{first_name}}, thanks for being with us — 100% appreciated!</p>' } }] }] },
			],
			values: { backgroundColor: '#ffffff', contentWidth: '600px' },
		},
		schemaVersion: 6,
	};
}

function listTemplates(env: Env, ctx: Ctx<Session>) {
	const tenant = tenantOf(env, ctx);
	const q = ctx.query;
	const search = q.str('search');
	const categoryId = q.int('category_id');
	const isDefault = q.bool('default');
	const mine = q.bool('my_template');
	const ownerId = q.int('ownerId');
	const me = ctx.session.userId;
	const key = JSON.stringify([search, categoryId, isDefault, mine ? me : null, ownerId]);
	const all = tenant.emailTemplates.query(key, (items) =>
		sortBy(
			items.filter(
				(t) =>
					!t.is_deleted &&
					(!search || textMatch(t.name, search)) &&
					(categoryId === undefined || t.category_id === categoryId) &&
					(isDefault === undefined || t.is_default === isDefault) &&
					(!mine || t.owner_id === me) &&
					(ownerId === undefined || t.owner_id === ownerId),
			),
			'id',
			'asc',
		),
	);
	const { page, size } = pageParams(env, ctx);
	const s = slice(all, page, size);
	return json(200, filterConfigEnvelope({ ...s, items: s.items.map((t) => templateView(tenant, t)) }));
}

export const campaigns: Module = {
	name: 'campaigns',
	seed(env, tenant, s) {
		const users = tenant.crmUsers.map((u) => u.id);
		const suffix = s.index === 0 ? '' : ' (Globex)';
		for (let i = 0; i < s.rows; i++) newForm(env, tenant, `${FORM_KINDS[i % FORM_KINDS.length]} ${i + 1}${suffix}`);
		for (let i = 0; i < s.rows; i++) {
			newCategory(env, tenant, users[i % users.length], {
				name: `${CATEGORY_NAMES[i % CATEGORY_NAMES.length]} ${i + 1}${suffix}`,
				description: `Campaigns about ${CATEGORY_NAMES[i % CATEGORY_NAMES.length].toLowerCase()}`,
				category_type: 'CAMPAIGN',
				is_published: i % 3 !== 2,
			});
		}
		const categoryIds = tenant.categories.values().map((c) => c.id as number);
		for (let i = 0; i < s.rows; i++) {
			const id = env.store.nextInt('template');
			const name = `${TEMPLATE_KINDS[i % TEMPLATE_KINDS.length]} ${i + 1}${suffix}`;
			const color = pickOne(s.rnd, COLORS);
			const at = new Date(SEED_BASE + i * 3_600_000).toISOString();
			const owner = users[i % users.length];
			tenant.emailTemplates.set(id, {
				id,
				name,
				image: `https://assets.example/email-templates/${id}.png`,
				category_id: pickOne(s.rnd, categoryIds),
				template_json: encodeURIComponent(JSON.stringify(designJson(name, color))),
				template_html: `<html><body><h1 style="color:${color}">${name}</h1><p>Hello {{first_name}}</p></body></html>`,
				is_default: i % 5 === 0,
				owner_id: owner,
				is_deleted: false,
				tenant_id: tenant.id,
				created_by: owner,
				created_at: at,
				updated_by: owner,
				updated_at: at,
			});
		}
	},
	routes(r, env) {
		// ----- forms -----
		r.add('GET', '/v1/crm/campaign/assets/form-templates/:id', (ctx) => text(200, formDocument(getForm(tenantOf(env, ctx), intParam(ctx))), 'text/html; charset=utf-8'));
		r.add('GET', '/v1/crm/campaign/assets/forms', (ctx) => {
			const tenant = tenantOf(env, ctx);
			const search = ctx.query.str('search');
			const all = tenant.forms.query(JSON.stringify([search]), (items) => sortBy(items.filter((f) => !search || textMatch(f.name, search)), 'id', 'asc'));
			const { page, size } = pageParams(env, ctx);
			return json(200, { data: slice(all, page, size).items });
		});
		r.add('GET', '/v1/crm/campaign/assets/forms/:id', (ctx) => json(200, getForm(tenantOf(env, ctx), intParam(ctx))));
		r.add('DELETE', '/v1/crm/campaign/assets/forms/:id', (ctx) => {
			const tenant = tenantOf(env, ctx);
			const id = intParam(ctx);
			getForm(tenant, id);
			tenant.forms.delete(id);
			return empty(204);
		});

		// ----- categories -----
		r.add('GET', '/v1/crm/campaign/category', (ctx) => listCategories(env, ctx));
		r.add('POST', '/v1/crm/campaign/category', (ctx) => {
			const tenant = tenantOf(env, ctx);
			const input = categoryInput(objectBody(ctx));
			if (input.name === undefined) throw badRequest('Validation failed: name is required', [{ field: 'name', error: 'is required' }]);
			const c = newCategory(env, tenant, ctx.session.userId, input);
			return json(201, { id: c.id });
		});
		r.add('GET', '/v1/crm/campaign/category/:id', (ctx) => json(200, categoryView(getCategory(tenantOf(env, ctx), intParam(ctx)))));
		r.add('PATCH', '/v1/crm/campaign/category/:id', (ctx) => {
			const tenant = tenantOf(env, ctx);
			const c = getCategory(tenant, intParam(ctx));
			Object.assign(c, categoryInput(objectBody(ctx)));
			tenant.categories.touch();
			tenant.emailTemplates.touch();
			return empty(200);
		});
		r.add('DELETE', '/v1/crm/campaign/category/:id', (ctx) => {
			const tenant = tenantOf(env, ctx);
			const id = intParam(ctx);
			getCategory(tenant, id);
			tenant.categories.delete(id);
			tenant.emailTemplates.touch();
			return empty(204);
		});

		// ----- email templates -----
		r.add('GET', '/v1/crm/campaign/email-templates', (ctx) => listTemplates(env, ctx));
		r.add('POST', '/v1/crm/campaign/email-templates', (ctx) => {
			const tenant = tenantOf(env, ctx);
			const input = validate(objectBody(ctx), TEMPLATE_SCHEMA, ['name', 'category_id', 'template_json']);
			if (!tenant.categories.has(input.category_id as number)) {
				throw badRequest(`category_id ${String(input.category_id)} does not exist`, [{ field: 'category_id', error: 'unknown category' }]);
			}
			checkTemplateJson(input.template_json as string);
			const id = env.store.nextInt('template');
			const now = nowIso();
			const me = ctx.session.userId;
			tenant.emailTemplates.set(id, {
				id,
				name: input.name,
				image: input.image ?? null,
				category_id: input.category_id,
				// Stored exactly as received (still URL-encoded).
				template_json: input.template_json,
				template_html: input.template_html ?? null,
				is_default: false,
				owner_id: me,
				is_deleted: false,
				tenant_id: tenant.id,
				created_by: me,
				created_at: now,
				updated_by: me,
				updated_at: now,
			});
			return json(201, { id });
		});
	},
};
