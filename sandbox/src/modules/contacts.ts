/**
 * Contacts (persons and organizations) and contact labels — /v1/crm/contacts…
 * Statuses as documented: create 200 with the created contact, PATCH/PUT 201,
 * DELETE 200, bulk PATCH 201; the bodies the spec does not show are empty.
 */
import type { Session } from '../auth';
import { tenantOf, pageParams, type Env } from '../env';
import { badRequest, empty, intParam, json, notFound, objectBody, type Ctx } from '../http';
import { COMPANIES, FIRST_NAMES, LAST_NAMES, pickOne, type Module } from '../module';
import { nowIso, pick, slice, sortBy, textMatch, type Doc, type Tenant } from '../state';
import { requireIntArray, validate, validateEach, type Schema } from '../validate';

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
export const CUSTOM_FIELD_SCHEMA: Schema = { code: 'string', label: 'string', module: 'string', shortName: 'string', value: 'string' };
const LABEL_SCHEMA: Schema = { name: 'string', color: 'string', icon: 'string', owner_id: 'integer' };
const WRITABLE = Object.keys(CONTACT_SCHEMA).filter((k) => k !== 'owner_details');
const VISIBILITY = ['private', 'public', 'team'];

export function userShort(tenant: Tenant, id: unknown): Doc | null {
	const u = tenant.crmUsers.find((x) => x.id === id);
	return u ? { id: u.id, first_name: u.first_name, last_name: u.last_name, email: u.email, contact: u.contact, role: u.role, status: u.status } : null;
}

export function checkOwner(tenant: Tenant, id: unknown, field = 'owner_id'): void {
	if (id !== undefined && id !== null && !tenant.crmUsers.some((u) => u.id === id)) {
		throw badRequest(`${field} ${String(id)} is not a user of this tenant`, [{ field, error: 'unknown user' }]);
	}
}

/** Validates a ContactSaveDto and checks its references. */
function contactInput(tenant: Tenant, body: Record<string, unknown>): Doc {
	const input = validate(body, CONTACT_SCHEMA);
	if (input.type != null && input.type !== 'person' && input.type !== 'organization') {
		throw badRequest('type must be person or organization', [{ field: 'type', error: 'must be person or organization' }]);
	}
	if (input.visibility_type != null && !VISIBILITY.includes(input.visibility_type as string)) {
		throw badRequest('visibility_type must be private, public or team', [{ field: 'visibility_type', error: 'must be private, public or team' }]);
	}
	if (input.label_id != null && !tenant.labels.has(input.label_id as number)) {
		throw badRequest(`label_id ${String(input.label_id)} does not exist`, [{ field: 'label_id', error: 'unknown label' }]);
	}
	checkOwner(tenant, input.owner_id);
	if (input.organization_id != null) {
		const org = tenant.contacts.get(input.organization_id as number);
		if (!org || org.type !== 'organization') throw badRequest(`organization_id ${String(input.organization_id)} is not an organization`, [{ field: 'organization_id', error: 'unknown organization' }]);
		input.organization_name = org.name;
	}
	if (Array.isArray(input.custom_field)) input.custom_field = validateEach(input.custom_field, CUSTOM_FIELD_SCHEMA, 'custom_field');
	delete input.owner_details;
	return input;
}

/** The read representation: stored fields plus label, owner, organization, c_field and deal summary. */
export function contactView(tenant: Tenant, c: Doc): Doc {
	const label = c.label_id != null ? tenant.labels.get(c.label_id as number) : undefined;
	const org = c.organization_id != null ? tenant.contacts.get(c.organization_id as number) : undefined;
	const customFields = (c.custom_field as Doc[] | null) ?? [];
	const subOwners = Array.isArray(c.sub_owner_ids) ? (c.sub_owner_ids as number[]) : [];
	const personIds = (c.person_ids as number[] | null) ?? [];
	const deals = tenant.deals.groupBy('contact-or-organization', (d) => [d.contact_id as number, d.organization_id as number]).get(c.id as number) ?? [];
	const byStatus = new Map<number, number>();
	for (const d of deals) byStatus.set(d.status as number, (byStatus.get(d.status as number) ?? 0) + 1);
	return {
		...c,
		label: label ? { id: label.id, name: label.name } : null,
		organization: org ? { id: org.id, name: org.name, email: org.email ?? null, phone: org.phone ?? null } : null,
		persons: personIds.map((id) => tenant.contacts.get(id)).filter(Boolean).map((p) => ({ id: p!.id, name: p!.name, email: p!.email ?? null })),
		owner_details: userShort(tenant, c.owner_id),
		sub_owner_details: subOwners.map((id) => userShort(tenant, id)).filter(Boolean),
		c_field: Object.fromEntries(customFields.map((f) => [f.shortName ?? f.code, f.value ?? ''])),
		deal_details: [...byStatus].map(([status, count]) => ({ contactId: c.id, status, status_count: count })),
		view_only: false,
	};
}

function getContact(tenant: Tenant, id: number): Doc {
	const c = tenant.contacts.get(id);
	if (!c) throw notFound('Contact', id);
	return c;
}

function newContact(env: Env, tenant: Tenant, userId: number, input: Doc): Doc {
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

function listContacts(env: Env, ctx: Ctx<Session>) {
	const tenant = tenantOf(env, ctx);
	const q = ctx.query;
	const search = q.str('search');
	const type = q.str('type');
	const name = q.str('name');
	const email = q.str('email');
	const phone = q.str('phone');
	const ids = q.intList('contact_ids');
	const containsEmail = q.bool('contains_email');
	const sortField = q.str('orderBy') ?? q.str('order_by') ?? q.str('sort') ?? 'created_at';
	const dir = (q.str('order') ?? 'desc').toLowerCase() === 'asc' ? 'asc' : 'desc';
	if (type && type !== 'person' && type !== 'organization') throw badRequest('type must be person or organization', [{ field: 'type', error: 'must be person or organization' }]);
	const key = JSON.stringify([search, type, name, email, phone, ids, containsEmail, sortField, dir]);
	const all = tenant.contacts.query(key, (items) => {
		const idSet = ids ? new Set(ids) : undefined;
		const matched = items.filter(
			(c) =>
				(!search || textMatch(c.name, search) || textMatch(c.email, search) || textMatch(c.phone, search)) &&
				(!type || c.type === type) &&
				(!name || textMatch(c.name, name)) &&
				(!email || textMatch(c.email, email)) &&
				(!phone || textMatch(c.phone, phone)) &&
				(!idSet || idSet.has(c.id as number)) &&
				(containsEmail === undefined || Boolean(c.email) === containsEmail),
		);
		return sortBy(matched, sortField, dir);
	});
	const { page, size } = pageParams(env, ctx);
	const s = slice(all, page, size);
	const columns = q.list('columns');
	return json(200, { data: s.items.map((c) => pick(contactView(tenant, c), columns)), paginationInfo: { page: s.page, totalRecords: s.total } });
}

function generateContacts(env: Env, tenant: Tenant, count: number, rnd: () => number = Math.random): number {
	const owners = tenant.crmUsers.map((u) => u.id);
	const labels = tenant.labels.values().map((l) => l.id as number);
	for (let i = 0; i < count; i++) {
		const isOrg = rnd() < 0.25;
		const first = pickOne(rnd, FIRST_NAMES);
		const last = pickOne(rnd, LAST_NAMES);
		const company = pickOne(rnd, COMPANIES);
		const n = tenant.contacts.size + 1;
		const name = isOrg ? `${company} ${n}` : `${first} ${last}`;
		const slug = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '.');
		newContact(env, tenant, owners[0], {
			name,
			type: isOrg ? 'organization' : 'person',
			email: rnd() < 0.9 ? `${slug}.${n}@${isOrg ? 'corp' : 'mail'}.example` : null,
			country_code: '+1',
			phone: `555${String(Math.floor(rnd() * 1e7)).padStart(7, '0')}`,
			address: `${Math.floor(rnd() * 900) + 100} Market Street, Springfield`,
			label_id: labels.length && rnd() < 0.7 ? pickOne(rnd, labels) : null,
			owner_id: pickOne(rnd, owners),
			visibility_type: pickOne(rnd, ['public', 'private', 'team']),
			custom_field: [
				{ code: 'cf_source', label: 'Lead source', module: 'contact', shortName: 'lead_source', value: pickOne(rnd, ['web', 'referral', 'event']) },
				{ code: 'cf_tier', label: 'Tier', module: 'contact', shortName: 'tier', value: pickOne(rnd, ['gold', 'silver', 'bronze']) },
			],
		});
	}
	return count;
}

export const contacts: Module = {
	name: 'contacts',
	seed(env, tenant, s) {
		const owner = tenant.crmUsers[0].id;
		for (const [name, color, icon] of [
			['Hot lead', '#e53935', 'flame'],
			['Customer', '#43a047', 'star'],
			['Partner', '#1e88e5', 'handshake'],
		]) {
			const id = env.store.nextInt('label');
			tenant.labels.set(id, { id, name: s.index === 0 ? name : `${name} (Globex)`, color, icon, owner_id: owner, tenant_id: tenant.id });
		}
		generateContacts(env, tenant, s.rows, s.rnd);
		// Link some persons to organizations so both types carry relations.
		const orgs = tenant.contacts.values().filter((c) => c.type === 'organization');
		const persons = tenant.contacts.values().filter((c) => c.type === 'person');
		persons.forEach((p, i) => {
			const org = orgs[i % Math.max(orgs.length, 1)];
			if (!org || i % 2) return;
			p.organization_id = org.id;
			p.organization_name = org.name;
			org.person_ids = [...((org.person_ids as number[] | null) ?? []), p.id as number];
			org.person_names = [...((org.person_names as string[] | null) ?? []), p.name as string];
		});
		tenant.contacts.touch();
	},
	bulk: {
		contacts: (env, tenant, count) => generateContacts(env, tenant, count),
	},
	routes(r, env) {
		// ----- labels (static paths first in meaning; the router prefers static segments) -----
		r.add('GET', '/v1/crm/contacts/labels', (ctx) => json(200, tenantOf(env, ctx).labels.values()));
		r.add('POST', '/v1/crm/contacts/labels', (ctx) => {
			const tenant = tenantOf(env, ctx);
			const input = validate(objectBody(ctx), LABEL_SCHEMA, ['name']);
			checkOwner(tenant, input.owner_id);
			const id = env.store.nextInt('label');
			tenant.labels.set(id, { id, name: input.name, color: input.color ?? null, icon: input.icon ?? null, owner_id: input.owner_id ?? ctx.session.userId, tenant_id: tenant.id });
			return json(201, { id });
		});
		r.add('GET', '/v1/crm/contacts/labels/:id', (ctx) => {
			const label = tenantOf(env, ctx).labels.get(intParam(ctx));
			if (!label) throw notFound('Contact label', ctx.params.id);
			return json(200, label);
		});
		r.add('PUT', '/v1/crm/contacts/labels/:id', (ctx) => {
			const tenant = tenantOf(env, ctx);
			const label = tenant.labels.get(intParam(ctx));
			if (!label) throw notFound('Contact label', ctx.params.id);
			const input = validate(objectBody(ctx), LABEL_SCHEMA);
			checkOwner(tenant, input.owner_id);
			for (const k of Object.keys(LABEL_SCHEMA)) if (k in input) label[k] = input[k];
			tenant.labels.touch();
			return empty(201);
		});
		r.add('DELETE', '/v1/crm/contacts/labels/:id', (ctx) => {
			const tenant = tenantOf(env, ctx);
			const id = intParam(ctx);
			if (!tenant.labels.delete(id)) throw notFound('Contact label', id);
			for (const c of tenant.contacts.values()) if (c.label_id === id) c.label_id = null;
			tenant.contacts.touch();
			return empty(200);
		});

		// ----- contacts -----
		r.add('GET', '/v1/crm/contacts', (ctx) => listContacts(env, ctx));
		r.add('POST', '/v1/crm/contacts', (ctx) => {
			const tenant = tenantOf(env, ctx);
			const c = newContact(env, tenant, ctx.session.userId, contactInput(tenant, objectBody(ctx)));
			const view = contactView(tenant, c);
			env.hooks.emit(tenant, 'CREATE_CRM_CONTACT', view);
			return json(200, view);
		});
		r.add('PATCH', '/v1/crm/contacts', (ctx) => {
			const tenant = tenantOf(env, ctx);
			const body = objectBody(ctx);
			const ids = requireIntArray(body.ids, 'ids');
			const input = validate(body, { label_id: 'integer', owner_id: 'integer', visibility_ids: 'string', visibility_type: 'string' });
			const missing = ids.filter((id) => !tenant.contacts.has(id));
			if (missing.length) throw notFound('Contact', missing.join(', '));
			if (input.label_id != null && !tenant.labels.has(input.label_id as number)) throw badRequest(`label_id ${String(input.label_id)} does not exist`, [{ field: 'label_id', error: 'unknown label' }]);
			if (input.visibility_type != null && !VISIBILITY.includes(input.visibility_type as string)) throw badRequest('visibility_type must be private, public or team', [{ field: 'visibility_type', error: 'invalid value' }]);
			checkOwner(tenant, input.owner_id);
			const now = nowIso();
			for (const id of ids) {
				const c = tenant.contacts.get(id)!;
				Object.assign(c, input, { updated_at: now, updated_by: ctx.session.userId });
				env.hooks.emit(tenant, 'UPDATE_CRM_CONTACT', contactView(tenant, c));
			}
			tenant.contacts.touch();
			return empty(201);
		});
		r.add('POST', '/v1/crm/contacts/multiple', (ctx) => {
			const tenant = tenantOf(env, ctx);
			const ids = requireIntArray(objectBody(ctx).contact_ids, 'contact_ids');
			return json(200, ids.map((id) => tenant.contacts.get(id)).filter((c): c is Doc => !!c).map((c) => contactView(tenant, c)));
		});
		r.add('GET', '/v1/crm/contacts/:id', (ctx) => {
			const tenant = tenantOf(env, ctx);
			return json(200, contactView(tenant, getContact(tenant, intParam(ctx))));
		});
		const update = (replace: boolean) => (ctx: Ctx<Session>) => {
			const tenant = tenantOf(env, ctx);
			const c = getContact(tenant, intParam(ctx));
			const input = contactInput(tenant, objectBody(ctx));
			if (replace) for (const k of WRITABLE) c[k] = k in input ? input[k] : k === 'custom_field' ? [] : null;
			else Object.assign(c, input);
			c.updated_at = nowIso();
			c.updated_by = ctx.session.userId;
			tenant.contacts.touch();
			env.hooks.emit(tenant, 'UPDATE_CRM_CONTACT', contactView(tenant, c));
			return empty(201);
		};
		r.add('PATCH', '/v1/crm/contacts/:id', update(false));
		r.add('PUT', '/v1/crm/contacts/:id', update(true));
		r.add('DELETE', '/v1/crm/contacts/:id', (ctx) => {
			const tenant = tenantOf(env, ctx);
			const id = intParam(ctx);
			const c = getContact(tenant, id);
			tenant.contacts.delete(id);
			env.hooks.emit(tenant, 'DELETE_CRM_CONTACT', { id, name: c.name, type: c.type });
			return empty(200);
		});
	},
};
