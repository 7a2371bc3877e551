/**
 * Activities (calls and meetings) — /v1/crm/activities…
 * `notes` is base64 text on the wire and is stored as sent. The list's `query`
 * parameter is the documented mini-language: comma-separated key=value filters
 * plus `date>epochSeconds`.
 */
import type { Session } from '../auth';
import { tenantOf, type Env } from '../env';
import {
	arrayBody,
	badRequest,
	empty,
	intParam,
	json,
	notFound,
	objectBody,
	type Ctx,
	type Reply,
} from '../http';
import { getByIdRoute, pickOne, type Module, type SeedCtx } from '../module';
import { nowIso, slice, sortBy, textMatch, type Doc, type Tenant } from '../state';
import { requireIntArray, validate, type Schema } from '../validate';
import { userShort } from './crm-users';
import { dealView } from './deals/deals';

const ACTIVITY_SCHEMA: Schema = {
	name: 'string',
	activity_type: 'string',
	start: 'string',
	end: 'string',
	notes: 'string',
	visibility_type: 'string',
	is_availability: 'boolean',
	is_send_invitation: 'boolean',
	is_send_contacts_invitation: 'boolean',
	assigned_to: 'string',
	assignee_ids: 'integer[]',
	contact_ids: 'integer[]',
	organization_ids: 'integer[]',
	linked_to: 'integer',
	owner_id: 'integer',
	is_status: 'boolean',
	source: 'string',
	source_id: 'string',
	user_timezone: 'string',
	assigned: 'any[]',
	attendee: 'any[]',
	availability: 'any',
};
const QUERY_KEYS = [
	'name',
	'contact_id',
	'organization_id',
	'deal_id',
	'assignee_id',
	'date',
	'activityType',
	'is_status',
	'source',
	'source_id',
];
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function checkInput(tenant: Tenant, input: Doc): void {
	if (
		input.activity_type != null &&
		input.activity_type !== 'call' &&
		input.activity_type !== 'meeting'
	) {
		throw badRequest('activity_type must be call or meeting', [
			{ field: 'activity_type', error: 'must be call or meeting' },
		]);
	}
	if (typeof input.notes === 'string' && !BASE64.test(input.notes)) {
		throw badRequest('notes must be base64 encoded', [
			{ field: 'notes', error: 'must be base64 text' },
		]);
	}
	for (const k of ['start', 'end']) {
		if (typeof input[k] === 'string' && Number.isNaN(Date.parse(input[k] as string)))
			throw badRequest(`${k} must be an ISO 8601 timestamp`, [
				{ field: k, error: 'must be an ISO 8601 timestamp' },
			]);
	}
	if (
		typeof input.start === 'string' &&
		typeof input.end === 'string' &&
		Date.parse(input.end) < Date.parse(input.start)
	) {
		throw badRequest('end must not be before start', [{ field: 'end', error: 'is before start' }]);
	}
	if (
		input.visibility_type != null &&
		!['private', 'public', 'team'].includes(input.visibility_type as string)
	) {
		throw badRequest('visibility_type must be private, public or team', [
			{ field: 'visibility_type', error: 'invalid value' },
		]);
	}
	for (const [field, ids] of [
		['contact_ids', input.contact_ids],
		['organization_ids', input.organization_ids],
	] as const) {
		for (const id of (ids as number[] | null) ?? [])
			if (!tenant.contacts.has(id))
				throw badRequest(`${field}: contact ${id} does not exist`, [
					{ field, error: `unknown contact ${id}` },
				]);
	}
	for (const id of (input.assignee_ids as number[] | null) ?? []) {
		if (!tenant.crmUsers.some((u) => u.id === id))
			throw badRequest(`assignee_ids: user ${id} is not a user of this tenant`, [
				{ field: 'assignee_ids', error: `unknown user ${id}` },
			]);
	}
	if (input.linked_to != null && !tenant.deals.has(input.linked_to as number))
		throw badRequest(`linked_to: deal ${String(input.linked_to)} does not exist`, [
			{ field: 'linked_to', error: 'unknown deal' },
		]);
}

function duration(a: Doc): string | null {
	if (typeof a.start !== 'string' || typeof a.end !== 'string') return null;
	const minutes = Math.max(0, Math.round((Date.parse(a.end) - Date.parse(a.start)) / 60000));
	return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

function contactShort(tenant: Tenant, id: number): Doc | null {
	const c = tenant.contacts.get(id);
	if (!c) return null;
	const label = c.label_id != null ? tenant.labels.get(c.label_id as number) : undefined;
	return {
		id: c.id,
		name: c.name,
		email: c.email,
		phone: c.phone,
		country_code: c.country_code,
		address: c.address,
		type: c.type,
		organization_id: c.organization_id,
		label_id: c.label_id,
		label: label ? { name: label.name } : null,
		logo: c.logo,
	};
}

function activityView(tenant: Tenant, a: Doc): Doc {
	const deal = a.linked_to != null ? tenant.deals.get(a.linked_to as number) : undefined;
	const user = (id: unknown) => {
		const u = tenant.crmUsers.find((x) => x.id === id);
		return u
			? {
					id: u.id,
					first_name: u.first_name,
					last_name: u.last_name,
					email: u.email,
					country_code: u.country_code,
					contact: u.contact,
					profile_url: u.profile_url,
				}
			: null;
	};
	return {
		...a,
		duration: duration(a),
		assignee_details: ((a.assignee_ids as number[] | null) ?? []).map(user).filter(Boolean),
		contact_details: ((a.contact_ids as number[] | null) ?? [])
			.map((id) => contactShort(tenant, id))
			.filter(Boolean),
		organization_details: ((a.organization_ids as number[] | null) ?? [])
			.map((id) => contactShort(tenant, id))
			.filter(Boolean),
		deal_details: deal ? dealView(tenant, deal) : null,
		owner_details: user(a.owner_id) ?? userShort(tenant, a.owner_id),
	};
}

function getActivity(tenant: Tenant, id: number): Doc {
	const a = tenant.activities.get(id);
	if (!a || a.is_deleted) throw notFound('Activity', id);
	return a;
}

function newActivity(env: Env, tenant: Tenant, userId: number, input: Doc): Doc {
	const id = env.store.nextInt('activity');
	const now = nowIso();
	return tenant.activities.set(id, {
		id,
		name: null,
		activity_type: 'call',
		start: null,
		end: null,
		notes: null,
		visibility_type: 'public',
		is_availability: false,
		is_send_invitation: false,
		is_send_contacts_invitation: false,
		assigned_to: null,
		assignee_ids: [],
		contact_ids: [],
		organization_ids: [],
		linked_to: null,
		owner_id: userId,
		is_status: false,
		source: null,
		source_id: null,
		user_timezone: 'UTC',
		...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null)),
		tenant_id: tenant.id,
		is_deleted: false,
		EmailSent: 'false',
		consumer_id: null,
		scheduled_status: 'scheduled',
		batch_id: null,
		cron_status: 'pending',
		notification_error: null,
		created_at: now,
		updated_at: now,
		created_by: userId,
		updated_by: userId,
	});
}

/** Parses `name=Call,contact_id=12,date>1700000000` into predicates. */
function parseQuery(text: string | undefined): Array<(a: Doc) => boolean> {
	if (!text) return [];
	return text
		.split(',')
		.map((part) => part.trim())
		.filter(Boolean)
		.map((part) => {
			const m = /^([A-Za-z_]+)\s*(=|>)\s*(.*)$/.exec(part);
			if (!m || !QUERY_KEYS.includes(m[1])) {
				throw badRequest(`query: cannot read "${part}"; keys are ${QUERY_KEYS.join(', ')}`, [
					{ field: 'query', error: `bad filter "${part}"` },
				]);
			}
			const [, key, op, value] = m;
			if ((op === '>') !== (key === 'date'))
				throw badRequest(`query: use ${key === 'date' ? 'date>epochSeconds' : `${key}=value`}`, [
					{ field: 'query', error: `bad operator for ${key}` },
				]);
			const num = () => {
				if (!/^\d+$/.test(value))
					throw badRequest(`query: ${key} needs an integer`, [
						{ field: 'query', error: `${key} must be an integer` },
					]);
				return Number(value);
			};
			switch (key) {
				case 'name':
					return (a: Doc) => textMatch(a.name, value);
				case 'contact_id': {
					const n = num();
					return (a: Doc) => ((a.contact_ids as number[]) ?? []).includes(n);
				}
				case 'organization_id': {
					const n = num();
					return (a: Doc) => ((a.organization_ids as number[]) ?? []).includes(n);
				}
				case 'deal_id': {
					const n = num();
					return (a: Doc) => a.linked_to === n;
				}
				case 'assignee_id': {
					const n = num();
					return (a: Doc) => ((a.assignee_ids as number[]) ?? []).includes(n);
				}
				case 'date': {
					const n = num() * 1000;
					return (a: Doc) => typeof a.start === 'string' && Date.parse(a.start) > n;
				}
				case 'activityType':
					return (a: Doc) => a.activity_type === value;
				case 'is_status':
					return (a: Doc) => String(Boolean(a.is_status)) === value;
				default:
					return (a: Doc) => String(a[key] ?? '') === value;
			}
		});
}

function listActivities(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const q = ctx.query;
	const text = q.str('query');
	const sortField = env.config.unsortedLists ? 'id' : (q.str('sortBy') ?? 'updated_at');
	const dir =
		env.config.unsortedLists || (q.str('sortDir') ?? 'DESC').toUpperCase() === 'ASC'
			? 'asc'
			: 'desc';
	const predicates = parseQuery(text);
	const all = tenant.activities.query(JSON.stringify([text, sortField, dir]), (items) =>
		sortBy(
			items.filter((a) => !a.is_deleted && predicates.every((p) => p(a))),
			sortField,
			dir,
		),
	);
	const page = q.int('page', { min: 1 }) ?? 1;
	const size = Math.min(
		q.int('pageSize', { min: 1 }) ?? env.config.defaultPageSize,
		env.config.maxPageSize,
	);
	const s = slice(all, page, size);
	const isZeroState = !tenant.activities.values().some((a) => !a.is_deleted);
	return json(200, {
		data: s.items.map((a) => activityView(tenant, a)),
		paginationInfo: { page: s.page, totalRecords: s.total, isZeroState },
	});
}

/** 404 naming every id that is not a live activity of the tenant. */
function requireActivities(tenant: Tenant, ids: number[]): void {
	const missing = ids.filter(
		(id) => !tenant.activities.get(id) || tenant.activities.get(id)!.is_deleted,
	);
	if (missing.length) throw notFound('Activity', missing.join(', '));
}

function postActivity(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const input = validate(objectBody(ctx), ACTIVITY_SCHEMA);
	checkInput(tenant, input);
	const a = newActivity(env, tenant, ctx.session.userId, input);
	return json(201, { id: a.id });
}

function bulkUpdateActivities(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const body = objectBody(ctx);
	const ids = requireIntArray(body.ids, 'ids');
	const input = validate(body, { visibility_type: 'string', is_status: 'boolean' });
	checkInput(tenant, input);
	requireActivities(tenant, ids);
	const now = nowIso();
	for (const id of ids) {
		const a = tenant.activities.get(id)!;
		if (input.visibility_type != null) a.visibility_type = input.visibility_type;
		if (input.is_status != null) a.is_status = input.is_status;
		a.updated_at = now;
		a.updated_by = ctx.session.userId;
	}
	tenant.activities.touch();
	return empty(200);
}

function bulkDeleteActivities(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const ids = requireIntArray(arrayBody(ctx), 'body');
	requireActivities(tenant, ids);
	for (const id of ids) tenant.activities.delete(id);
	return empty(204);
}

const getActivityRoute = getByIdRoute(getActivity, activityView);

function putActivity(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const a = getActivity(tenant, intParam(ctx));
	const input = validate(objectBody(ctx), ACTIVITY_SCHEMA);
	checkInput(tenant, { ...input, start: input.start ?? a.start, end: input.end ?? a.end });
	Object.assign(a, input, { updated_at: nowIso(), updated_by: ctx.session.userId });
	tenant.activities.touch();
	return json(200, { id: a.id });
}

function deleteActivity(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const id = intParam(ctx);
	getActivity(tenant, id);
	tenant.activities.delete(id);
	return empty(204);
}

function seedActivities(env: Env, tenant: Tenant, s: SeedCtx): void {
	const deals = tenant.deals.values();
	const persons = tenant.contacts.values().filter((c) => c.type === 'person');
	const base = Date.UTC(2026, 10, 2, 9, 0, 0);
	for (let i = 0; i < s.rows; i++) {
		const type = i % 3 ? 'call' : 'meeting';
		const start = base + i * 86_400_000 + Math.floor(s.rnd() * 8) * 3_600_000;
		const deal = deals.length ? pickOne(s.rnd, deals) : undefined;
		const contact = persons.length ? pickOne(s.rnd, persons) : undefined;
		const a = newActivity(env, tenant, tenant.crmUsers[0].id, {
			name: `${type === 'call' ? 'Call' : 'Meeting'} with ${String(contact?.name ?? 'a prospect')}`,
			activity_type: type,
			start: new Date(start).toISOString(),
			end: new Date(start + (type === 'call' ? 30 : 60) * 60_000).toISOString(),
			notes: Buffer.from(
				`Agenda: follow up on ${String(deal?.name ?? 'the offer')} — prix, délais ✓`,
			).toString('base64'),
			contact_ids: contact ? [contact.id] : [],
			assignee_ids: [pickOne(s.rnd, tenant.crmUsers).id],
			linked_to: deal?.id ?? null,
			is_status: s.rnd() < 0.3,
			source: pickOne(s.rnd, ['web', 'email', 'phone']),
			source_id: `src-${i}`,
			user_timezone: 'Europe/Berlin',
		});
		a.updated_at = new Date(Date.UTC(2026, 9, 1) + i * 60_000).toISOString();
	}
	tenant.activities.touch();
}

const ACTIVITIES = '/v1/crm/activities';

export const activities: Module = {
	name: 'activities',
	seed: seedActivities,
	paths: {
		[ACTIVITIES]: { GET: listActivities, POST: postActivity },
		[`${ACTIVITIES}/bulkUpdate`]: { PATCH: bulkUpdateActivities },
		[`${ACTIVITIES}/bulkDelete`]: { POST: bulkDeleteActivities },
		[`${ACTIVITIES}/:id`]: { GET: getActivityRoute, PUT: putActivity, DELETE: deleteActivity },
	},
};
