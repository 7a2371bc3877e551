/**
 * Contacts (persons and organizations) — /v1/crm/contacts…
 * Statuses as documented: create 200 with the created contact, PATCH/PUT 201,
 * DELETE 200, bulk PATCH 201; the bodies the spec does not show are empty.
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
import { nowIso, pick, sortBy, textMatch, type Doc, type Tenant } from '../../state';
import { requireIntArray, validate, validateEach, type Schema } from '../../validate';
import { checkOwner, userShort } from '../crm-users';

export const CONTACT_SCHEMA: Schema = {
	name: 'string',
	type: 'string',
	email: 'string',
	country_code: 'string',
	phone: 'string',
	address: 'string',
	logo: 'string',
	note: 'string',
	label_id: 'integer',
	visibility_type: 'string',
	visibility_ids: 'string',
	owner_id: 'integer',
	sub_owner_ids: 'string|integer[]',
	owner_details: 'any',
	organization_id: 'integer',
	organization_name: 'string',
	person_ids: 'integer[]',
	person_names: 'string[]',
	custom_field: 'object[]',
};
export const CUSTOM_FIELD_SCHEMA: Schema = {
	code: 'string',
	label: 'string',
	module: 'string',
	shortName: 'string',
	value: 'string',
};
const WRITABLE = Object.keys(CONTACT_SCHEMA).filter((k) => k !== 'owner_details');
const VISIBILITY = ['private', 'public', 'team'];

/** Validates a ContactSaveDto and checks its references. */
function contactInput(tenant: Tenant, body: Record<string, unknown>): Doc {
	const input = validate(body, CONTACT_SCHEMA);
	if (input.type != null && input.type !== 'person' && input.type !== 'organization') {
		throw badRequest('type must be person or organization', [
			{ field: 'type', error: 'must be person or organization' },
		]);
	}
	if (input.visibility_type != null && !VISIBILITY.includes(input.visibility_type as string)) {
		throw badRequest('visibility_type must be private, public or team', [
			{ field: 'visibility_type', error: 'must be private, public or team' },
		]);
	}
	if (input.label_id != null && !tenant.labels.has(input.label_id as number)) {
		throw badRequest(`label_id ${String(input.label_id)} does not exist`, [
			{ field: 'label_id', error: 'unknown label' },
		]);
	}
	checkOwner(tenant, input.owner_id);
	if (input.organization_id != null) {
		const org = tenant.contacts.get(input.organization_id as number);
		if (!org || org.type !== 'organization')
			throw badRequest(`organization_id ${String(input.organization_id)} is not an organization`, [
				{ field: 'organization_id', error: 'unknown organization' },
			]);
		input.organization_name = org.name;
	}
	if (Array.isArray(input.custom_field))
		input.custom_field = validateEach(input.custom_field, CUSTOM_FIELD_SCHEMA, 'custom_field');
	delete input.owner_details;
	return input;
}

/** The read representation: stored fields plus label, owner, organization, c_field and deal summary. */
export function contactView(tenant: Tenant, c: Doc): Doc {
	const label = c.label_id != null ? tenant.labels.get(c.label_id as number) : undefined;
	const org =
		c.organization_id != null ? tenant.contacts.get(c.organization_id as number) : undefined;
	const customFields = (c.custom_field as Doc[] | null) ?? [];
	const subOwners = Array.isArray(c.sub_owner_ids) ? (c.sub_owner_ids as number[]) : [];
	const personIds = (c.person_ids as number[] | null) ?? [];
	const deals =
		tenant.deals
			.groupBy('contact-or-organization', (d) => [
				d.contact_id as number,
				d.organization_id as number,
			])
			.get(c.id as number) ?? [];
	const byStatus = new Map<number, number>();
	for (const d of deals)
		byStatus.set(d.status as number, (byStatus.get(d.status as number) ?? 0) + 1);
	return {
		...c,
		label: label ? { id: label.id, name: label.name } : null,
		organization: org
			? { id: org.id, name: org.name, email: org.email ?? null, phone: org.phone ?? null }
			: null,
		persons: personIds
			.map((id) => tenant.contacts.get(id))
			.filter(Boolean)
			.map((p) => ({ id: p!.id, name: p!.name, email: p!.email ?? null })),
		owner_details: userShort(tenant, c.owner_id),
		sub_owner_details: subOwners.map((id) => userShort(tenant, id)).filter(Boolean),
		c_field: Object.fromEntries(customFields.map((f) => [f.shortName ?? f.code, f.value ?? ''])),
		deal_details: [...byStatus].map(([status, count]) => ({
			contactId: c.id,
			status,
			status_count: count,
		})),
		view_only: false,
	};
}

function getContact(tenant: Tenant, id: number): Doc {
	const c = tenant.contacts.get(id);
	if (!c) throw notFound('Contact', id);
	return c;
}

export function newContact(env: Env, tenant: Tenant, userId: number, input: Doc): Doc {
	const id = env.store.nextInt('contact');
	const now = nowIso();
	const blank = Object.fromEntries(WRITABLE.map((k) => [k, null]));
	return tenant.contacts.set(id, {
		id,
		...blank,
		type: 'person',
		visibility_type: 'public',
		owner_id: userId,
		custom_field: [],
		...stripNulls(input),
		tenant_id: tenant.id,
		created_at: now,
		updated_at: now,
		created_by: userId,
		updated_by: userId,
	});
}

const stripNulls = (d: Doc) => Object.fromEntries(Object.entries(d).filter(([, v]) => v !== null));

export function listContacts(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const q = ctx.query;
	// The list's filter and order, as the query gives them; also the key of the cached result.
	const f = {
		search: q.str('search'),
		type: q.str('type'),
		name: q.str('name'),
		email: q.str('email'),
		phone: q.str('phone'),
		ids: q.intList('contact_ids'),
		containsEmail: q.bool('contains_email'),
		sortField: env.config.unsortedLists
			? 'id'
			: (q.str('orderBy') ?? q.str('order_by') ?? q.str('sort') ?? 'created_at'),
		dir: env.config.unsortedLists
			? ('asc' as const)
			: (q.str('order') ?? 'desc').toLowerCase() === 'asc'
				? ('asc' as const)
				: ('desc' as const),
	};
	if (f.type && f.type !== 'person' && f.type !== 'organization')
		throw badRequest('type must be person or organization', [
			{ field: 'type', error: 'must be person or organization' },
		]);
	const all = tenant.contacts.query(JSON.stringify(f), (items) => {
		const idSet = f.ids ? new Set(f.ids) : undefined;
		const matched = items.filter(
			(c) =>
				(!f.search ||
					textMatch(c.name, f.search) ||
					textMatch(c.email, f.search) ||
					textMatch(c.phone, f.search)) &&
				(!f.type || c.type === f.type) &&
				(!f.name || textMatch(c.name, f.name)) &&
				(!f.email || textMatch(c.email, f.email)) &&
				(!f.phone || textMatch(c.phone, f.phone)) &&
				(!idSet || idSet.has(c.id as number)) &&
				(f.containsEmail === undefined || Boolean(c.email) === f.containsEmail),
		);
		return sortBy(matched, f.sortField, f.dir);
	});
	const s = pageOf(env, ctx, all);
	const columns = q.list('columns');
	return json(200, {
		data: s.items.map((c) => pick(contactView(tenant, c), columns)),
		paginationInfo: { page: s.page, totalRecords: s.total },
	});
}

export function postContact(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const c = newContact(env, tenant, ctx.session.userId, contactInput(tenant, objectBody(ctx)));
	const view = contactView(tenant, c);
	env.hooks.emit(tenant, 'CREATE_CRM_CONTACT', view);
	return json(200, view);
}

/** PATCH /v1/crm/contacts: the same change to several contacts. */
export function patchContacts(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const body = objectBody(ctx);
	const ids = requireIntArray(body.ids, 'ids');
	const input = validate(body, {
		label_id: 'integer',
		owner_id: 'integer',
		visibility_ids: 'string',
		visibility_type: 'string',
	});
	const missing = ids.filter((id) => !tenant.contacts.has(id));
	if (missing.length) throw notFound('Contact', missing.join(', '));
	if (input.label_id != null && !tenant.labels.has(input.label_id as number))
		throw badRequest(`label_id ${String(input.label_id)} does not exist`, [
			{ field: 'label_id', error: 'unknown label' },
		]);
	if (input.visibility_type != null && !VISIBILITY.includes(input.visibility_type as string))
		throw badRequest('visibility_type must be private, public or team', [
			{ field: 'visibility_type', error: 'invalid value' },
		]);
	checkOwner(tenant, input.owner_id);
	const now = nowIso();
	for (const id of ids) {
		const c = tenant.contacts.get(id)!;
		Object.assign(c, input, { updated_at: now, updated_by: ctx.session.userId });
		env.hooks.emit(tenant, 'UPDATE_CRM_CONTACT', contactView(tenant, c));
	}
	tenant.contacts.touch();
	return empty(201);
}

export function getContacts(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const ids = requireIntArray(objectBody(ctx).contact_ids, 'contact_ids');
	return json(
		200,
		ids
			.map((id) => tenant.contacts.get(id))
			.filter((c): c is Doc => !!c)
			.map((c) => contactView(tenant, c)),
	);
}

export const getContactRoute = getByIdRoute(getContact, contactView);

/** PUT (replace) and PATCH (merge) /v1/crm/contacts/:id */
function updateContact(env: Env, ctx: Ctx<Session>, replace: boolean): Reply {
	const tenant = tenantOf(env, ctx);
	const c = getContact(tenant, intParam(ctx));
	const input = contactInput(tenant, objectBody(ctx));
	if (replace)
		for (const k of WRITABLE) c[k] = k in input ? input[k] : k === 'custom_field' ? [] : null;
	else Object.assign(c, input);
	c.updated_at = nowIso();
	c.updated_by = ctx.session.userId;
	tenant.contacts.touch();
	env.hooks.emit(tenant, 'UPDATE_CRM_CONTACT', contactView(tenant, c));
	return empty(201);
}

export const putContact = (env: Env, ctx: Ctx<Session>) => updateContact(env, ctx, true);
export const patchContact = (env: Env, ctx: Ctx<Session>) => updateContact(env, ctx, false);

export function deleteContact(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const id = intParam(ctx);
	const c = getContact(tenant, id);
	tenant.contacts.delete(id);
	env.hooks.emit(tenant, 'DELETE_CRM_CONTACT', { id, name: c.name, type: c.type });
	return empty(200);
}
