/**
 * Email templates — /v1/crm/campaign/email-templates. EmailTemplateResponse also
 * carries template_html and is_default (the flag behind the `default` query
 * parameter). `category` is the current CategoryResponse of the template's
 * category, or null once it is deleted. The response of creation is not shown
 * in the spec: the sandbox answers 201 with a CreateResponse {id}.
 * template_json must be URL-encoded JSON and is stored as received.
 */
import type { Session } from '../../auth';
import { pageOf, tenantOf, type Env } from '../../env';
import { badRequest, json, objectBody, type Ctx, type Reply } from '../../http';
import { pickOne } from '../../module';
import {
	filterConfigEnvelope,
	nowIso,
	sortBy,
	textMatch,
	type Doc,
	type Tenant,
} from '../../state';
import { validate, type Schema } from '../../validate';
import { categoryView, COLORS } from './categories';

const TEMPLATE_SCHEMA: Schema = {
	category_id: 'integer',
	image: 'string',
	name: 'string',
	template_html: 'string',
	template_json: 'string',
};
const TEMPLATE_KINDS = [
	'Welcome',
	'Monthly digest',
	'Spring sale',
	'Webinar invite',
	'Thank you',
	'Re-engagement',
];
const SEED_BASE = Date.UTC(2024, 1, 1, 9, 0, 0);

function templateView(tenant: Tenant, t: Doc): Doc {
	const category =
		t.category_id != null ? tenant.categories.get(t.category_id as number) : undefined;
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
		throw badRequest('Validation failed: template_json must be URL-encoded JSON text', [
			{
				field: 'template_json',
				error: 'must be URL-encoded JSON text (decodeURIComponent, then JSON.parse)',
			},
		]);
	}
}

function designJson(title: string, color: string): unknown {
	return {
		counters: { u_row: 2, u_column: 2, u_content_text: 2 },
		body: {
			rows: [
				{
					cells: [1],
					columns: [
						{
							contents: [
								{ type: 'text', values: { text: `<h1 style="color:${color}">${title}</h1>` } },
							],
						},
					],
				},
				{
					cells: [1],
					columns: [
						{
							contents: [
								{
									type: 'text',
									values: {
										text: '<p>Hello {{first_name}}, thanks for being with us — 100% appreciated!</p>',
									},
								},
							],
						},
					],
				},
			],
			values: { backgroundColor: '#ffffff', contentWidth: '600px' },
		},
		schemaVersion: 6,
	};
}

export function listTemplates(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const q = ctx.query;
	// The list's filter, as the query gives it (my_template: the caller's own); also the key of the cached result.
	const f = {
		search: q.str('search'),
		categoryId: q.int('category_id'),
		isDefault: q.bool('default'),
		mine: q.bool('my_template') ? ctx.session.userId : undefined,
		ownerId: q.int('ownerId'),
	};
	const all = tenant.emailTemplates.query(JSON.stringify(f), (items) =>
		sortBy(
			items.filter(
				(t) =>
					!t.is_deleted &&
					(!f.search || textMatch(t.name, f.search)) &&
					(f.categoryId === undefined || t.category_id === f.categoryId) &&
					(f.isDefault === undefined || t.is_default === f.isDefault) &&
					(f.mine === undefined || t.owner_id === f.mine) &&
					(f.ownerId === undefined || t.owner_id === f.ownerId),
			),
			'id',
			'asc',
		),
	);
	return json(
		200,
		filterConfigEnvelope(pageOf(env, ctx, all), (t) => templateView(tenant, t)),
	);
}

/** Stores a template owned (and created and last updated) by `owner` at `at`. */
function storeTemplate(tenant: Tenant, id: number, fields: Doc, owner: number, at: string): Doc {
	return tenant.emailTemplates.set(id, {
		id,
		...fields,
		owner_id: owner,
		is_deleted: false,
		tenant_id: tenant.id,
		created_by: owner,
		created_at: at,
		updated_by: owner,
		updated_at: at,
	});
}

export function postTemplate(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const input = validate(objectBody(ctx), TEMPLATE_SCHEMA, [
		'name',
		'category_id',
		'template_json',
	]);
	if (!tenant.categories.has(input.category_id as number)) {
		throw badRequest(`category_id ${String(input.category_id)} does not exist`, [
			{ field: 'category_id', error: 'unknown category' },
		]);
	}
	checkTemplateJson(input.template_json as string);
	const id = env.store.nextInt('template');
	storeTemplate(
		tenant,
		id,
		// template_json is stored exactly as received (still URL-encoded).
		{
			name: input.name,
			image: input.image ?? null,
			category_id: input.category_id,
			template_json: input.template_json,
			template_html: input.template_html ?? null,
			is_default: false,
		},
		ctx.session.userId,
		nowIso(),
	);
	return json(201, { id });
}

/** `rows` demo templates, owned in turn by the CRM users, in random categories. */
export function seedTemplates(
	env: Env,
	tenant: Tenant,
	rows: number,
	rnd: () => number,
	suffix: string,
): void {
	const users = tenant.crmUsers.map((u) => u.id);
	const categoryIds = tenant.categories.values().map((c) => c.id as number);
	for (let i = 0; i < rows; i++) {
		const id = env.store.nextInt('template');
		const name = `${TEMPLATE_KINDS[i % TEMPLATE_KINDS.length]} ${i + 1}${suffix}`;
		const color = pickOne(rnd, COLORS);
		const at = new Date(SEED_BASE + i * 3_600_000).toISOString();
		storeTemplate(
			tenant,
			id,
			{
				name,
				image: `https://assets.example/email-templates/${id}.png`,
				category_id: pickOne(rnd, categoryIds),
				template_json: encodeURIComponent(JSON.stringify(designJson(name, color))),
				template_html: `<html><body><h1 style="color:${color}">${name}</h1><p>Hello {{first_name}}</p></body></html>`,
				is_default: i % 5 === 0,
			},
			users[i % users.length],
			at,
		);
	}
}
