/**
 * Campaign categories — /v1/crm/campaign/category… CategoryRequest aliases:
 * campaignCategoryTitle, campaignCategoryDescription and publish stand in for
 * name, description and is_published when those are absent;
 * campaignCategoryAlias is stored but not shown in CategoryResponse. A new
 * category gets a color from a fixed palette and the caller as owner. Update
 * and delete answer an empty body (their responses are not shown).
 */
import type { Session } from '../../auth';
import { pageOf, tenantOf, type Env } from '../../env';
import {
	badRequest,
	empty,
	intParam,
	json,
	notFound,
	objectBody,
	type Ctx,
	type Reply,
} from '../../http';
import { getByIdRoute } from '../../module';
import { filterConfigEnvelope, sortBy, textMatch, type Doc, type Tenant } from '../../state';
import { validate, type Schema } from '../../validate';

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
export const COLORS = ['#e53935', '#43a047', '#1e88e5', '#fb8c00', '#8e24aa', '#00897b', '#6d4c41'];
const CATEGORY_NAMES = [
	'Newsletter',
	'Product updates',
	'Promotions',
	'Events',
	'Onboarding',
	'Holiday greetings',
	'Surveys',
];

export function categoryView(c: Doc): Doc {
	return {
		id: c.id,
		name: c.name,
		description: c.description,
		category_type: c.category_type,
		color: c.color,
		is_published: c.is_published,
		owner_id: c.owner_id,
	};
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
	if ('name' in out && (out.name === null || out.name === ''))
		throw badRequest('Validation failed: name is required', [
			{ field: 'name', error: 'is required' },
		]);
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

export function listCategories(env: Env, ctx: Ctx<Session>): Reply {
	const q = ctx.query;
	// The list's filter, as the query gives it; also the key of the cached result.
	const f = { search: q.str('search'), name: q.str('name'), type: q.str('type')?.toLowerCase() };
	const all = tenantOf(env, ctx).categories.query(JSON.stringify(f), (items) =>
		sortBy(
			items.filter(
				(c) =>
					(!f.search || textMatch(c.name, f.search) || textMatch(c.description, f.search)) &&
					(!f.name || textMatch(c.name, f.name)) &&
					(!f.type || String(c.category_type).toLowerCase() === f.type),
			),
			'id',
			'asc',
		),
	);
	return json(200, filterConfigEnvelope(pageOf(env, ctx, all), categoryView));
}

export function postCategory(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const input = categoryInput(objectBody(ctx));
	if (input.name === undefined)
		throw badRequest('Validation failed: name is required', [
			{ field: 'name', error: 'is required' },
		]);
	const c = newCategory(env, tenant, ctx.session.userId, input);
	return json(201, { id: c.id });
}

export const getCategoryRoute = getByIdRoute(getCategory, (_tenant, c) => categoryView(c));

export function patchCategory(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const c = getCategory(tenant, intParam(ctx));
	Object.assign(c, categoryInput(objectBody(ctx)));
	tenant.categories.touch();
	tenant.emailTemplates.touch();
	return empty(200);
}

export function deleteCategory(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const id = intParam(ctx);
	getCategory(tenant, id);
	tenant.categories.delete(id);
	tenant.emailTemplates.touch();
	return empty(204);
}

export function seedCategories(env: Env, tenant: Tenant, rows: number, suffix: string): void {
	const users = tenant.crmUsers.map((u) => u.id);
	for (let i = 0; i < rows; i++) {
		newCategory(env, tenant, users[i % users.length], {
			name: `${CATEGORY_NAMES[i % CATEGORY_NAMES.length]} ${i + 1}${suffix}`,
			description: `Campaigns about ${CATEGORY_NAMES[i % CATEGORY_NAMES.length].toLowerCase()}`,
			category_type: 'CAMPAIGN',
			is_published: i % 3 !== 2,
		});
	}
}
