/**
 * Deals — /v1/crm/deals… Deal status integers are not defined by the spec; the
 * sandbox uses 0 open, 1 won, 2 lost (samples show 2 together with a reason). A
 * deal is "closed" when its status is 1 or 2 or its stage is a won/lost stage.
 * `show_closed_deals` (default false) hides closed deals. The list is not
 * documented as paged, but its envelope is: it honours `page` and `limit`;
 * `deal_summary=true` adds `summary: { count, total_amount, by_stage }`.
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
import type { ModuleHandler } from '../../module';
import { filterConfigEnvelope, nowIso, type Doc, type Tenant } from '../../state';
import { requireIntArray, validate, validateEach, type Schema } from '../../validate';
import { CUSTOM_FIELD_SCHEMA } from '../contacts/contacts';
import { checkOwner } from '../crm-users';
import { findStage, stageResponse } from './stages';

const DEAL_CREATE_SCHEMA: Schema = {
	amount: 'number',
	closing_date: 'string',
	contact: 'object',
	contact_id: 'integer',
	contact_name: 'string',
	currency_code: 'string',
	custom_field: 'object[]',
	email: 'string',
	id: 'integer',
	mobile: 'string',
	name: 'string',
	organization: 'object',
	organization_id: 'integer',
	organization_name: 'string',
	owner: 'object',
	owner_id: 'integer',
	pipeline_id: 'integer',
	reason: 'string',
	stage_id: 'integer',
	status: 'integer',
	sub_owner_ids: 'integer[]',
	visibility_type: 'string',
};
/** The update model (Deal) writes custom_field and c_field as strings; arrays are accepted too. */
const DEAL_UPDATE_SCHEMA: Schema = {
	...DEAL_CREATE_SCHEMA,
	custom_field: 'any',
	c_field: 'any',
	stage: 'object',
	is_deleted: 'boolean',
	tenant_id: 'integer',
};
const STORED = [
	'amount',
	'closing_date',
	'contact_id',
	'contact_name',
	'currency_code',
	'custom_field',
	'email',
	'mobile',
	'name',
	'organization_id',
	'organization_name',
	'owner_id',
	'pipeline_id',
	'reason',
	'stage_id',
	'status',
	'sub_owner_ids',
	'visibility_type',
];
const STATUSES = [0, 1, 2];

export function isClosed(tenant: Tenant, d: Doc): boolean {
	if (d.status === 1 || d.status === 2) return true;
	const found = findStage(tenant, d.stage_id as number);
	return found ? found.stage.won_lost_status !== 'open' : false;
}

export function dealView(tenant: Tenant, d: Doc): Doc {
	const found = findStage(tenant, d.stage_id as number);
	const contact = d.contact_id != null ? tenant.contacts.get(d.contact_id as number) : undefined;
	const org =
		d.organization_id != null ? tenant.contacts.get(d.organization_id as number) : undefined;
	const owner = tenant.crmUsers.find((u) => u.id === d.owner_id);
	const acts = (
		tenant.activities.groupBy('linked_to', (a) => a.linked_to as number).get(d.id as number) ?? []
	).filter((a) => !a.is_deleted);
	const upcoming = acts
		.filter((a) => !a.is_status && typeof a.start === 'string')
		.map((a) => a.start as string)
		.sort();
	return {
		id: d.id,
		name: d.name,
		amount: d.amount,
		currency_code: d.currency_code,
		closing_date: d.closing_date,
		contact_id: d.contact_id,
		contact_info: contact
			? JSON.stringify({
					id: contact.id,
					name: contact.name,
					email: contact.email ?? null,
					phone: contact.phone ?? null,
				})
			: d.contact_name
				? JSON.stringify({ name: d.contact_name })
				: null,
		organization_id: d.organization_id,
		organization_info: org
			? JSON.stringify({ id: org.id, name: org.name })
			: d.organization_name
				? JSON.stringify({ name: d.organization_name })
				: null,
		owner_id: d.owner_id,
		owner_info: owner
			? JSON.stringify({
					id: owner.id,
					first_name: owner.first_name,
					last_name: owner.last_name,
					email: owner.email,
				})
			: null,
		email: d.email,
		mobile: d.mobile,
		pipeline_id: d.pipeline_id,
		stage_id: d.stage_id,
		stage: found ? stageResponse(found.stage, found.pipeline.id as number) : null,
		status: d.status,
		reason: d.reason,
		custom_field: d.custom_field ?? [],
		visibility_type: d.visibility_type,
		sub_owner_ids: d.sub_owner_ids ?? [],
		is_deleted: false,
		activity_id: acts.length ? acts[acts.length - 1].id : null,
		total_activities: acts.length,
		next_activity_date: upcoming[0] ?? null,
		created_at: d.created_at,
		updated_at: d.updated_at,
		created_by: d.created_by,
		updated_by: d.updated_by,
	};
}

function getDeal(tenant: Tenant, id: number): Doc {
	const d = tenant.deals.get(id);
	if (!d) throw notFound('Deal', id);
	return d;
}

/** Resolves pipeline and stage so that the stage always belongs to the pipeline. */
function placeDeal(
	tenant: Tenant,
	pipelineId: unknown,
	stageId: unknown,
	current?: Doc,
): { pipeline_id: number; stage_id: number } {
	if (stageId != null) {
		const found = findStage(tenant, stageId as number);
		if (!found)
			throw badRequest(`stage_id ${String(stageId)} does not exist`, [
				{ field: 'stage_id', error: 'unknown stage' },
			]);
		if (pipelineId != null && found.pipeline.id !== pipelineId) {
			throw badRequest(
				`stage ${String(stageId)} is not a stage of pipeline ${String(pipelineId)}`,
				[{ field: 'stage_id', error: 'not in the given pipeline' }],
			);
		}
		return { pipeline_id: found.pipeline.id as number, stage_id: stageId as number };
	}
	if (pipelineId != null) {
		const p = tenant.pipelines.get(pipelineId as number);
		if (!p)
			throw badRequest(`pipeline_id ${String(pipelineId)} does not exist`, [
				{ field: 'pipeline_id', error: 'unknown pipeline' },
			]);
		if (current && current.pipeline_id === pipelineId)
			return { pipeline_id: pipelineId as number, stage_id: current.stage_id as number };
		return { pipeline_id: p.id as number, stage_id: (p.stages as Doc[])[0].id as number };
	}
	if (current)
		return { pipeline_id: current.pipeline_id as number, stage_id: current.stage_id as number };
	const first = tenant.pipelines.values()[0];
	if (!first)
		throw badRequest('Create a pipeline first', [
			{ field: 'pipeline_id', error: 'is required: this tenant has no pipeline' },
		]);
	return { pipeline_id: first.id as number, stage_id: (first.stages as Doc[])[0].id as number };
}

function checkDealRefs(tenant: Tenant, input: Doc): void {
	if (input.contact_id != null && !tenant.contacts.has(input.contact_id as number))
		throw badRequest(`contact_id ${String(input.contact_id)} does not exist`, [
			{ field: 'contact_id', error: 'unknown contact' },
		]);
	if (input.organization_id != null) {
		const org = tenant.contacts.get(input.organization_id as number);
		if (!org || org.type !== 'organization')
			throw badRequest(`organization_id ${String(input.organization_id)} is not an organization`, [
				{ field: 'organization_id', error: 'unknown organization' },
			]);
	}
	if (input.status != null && !STATUSES.includes(input.status as number))
		throw badRequest('status must be 0 (open), 1 (won) or 2 (lost)', [
			{ field: 'status', error: 'must be 0, 1 or 2' },
		]);
	checkOwner(tenant, input.owner_id);
	if (Array.isArray(input.custom_field))
		input.custom_field = validateEach(input.custom_field, CUSTOM_FIELD_SCHEMA, 'custom_field');
	else if (typeof input.custom_field === 'string') {
		try {
			const parsed = JSON.parse(input.custom_field) as unknown;
			input.custom_field = Array.isArray(parsed)
				? validateEach(parsed, CUSTOM_FIELD_SCHEMA, 'custom_field')
				: [];
		} catch {
			throw badRequest('custom_field must be an array of custom fields or its JSON text', [
				{ field: 'custom_field', error: 'is not valid JSON' },
			]);
		}
	} else if (input.custom_field !== undefined && input.custom_field !== null) {
		throw badRequest('custom_field must be an array of custom fields', [
			{ field: 'custom_field', error: 'must be an array' },
		]);
	}
}

export function createDeal(env: Env, tenant: Tenant, userId: number, input: Doc): Doc {
	const id = env.store.nextInt('deal');
	const now = nowIso();
	const place = placeDeal(tenant, input.pipeline_id, input.stage_id);
	const stored = Object.fromEntries(STORED.map((k) => [k, input[k] ?? null]));
	const owner =
		input.owner_id ??
		(input.owner &&
		typeof (input.owner as Doc).user === 'string' &&
		/^\d+$/.test((input.owner as Doc).user as string)
			? Number((input.owner as Doc).user)
			: userId);
	return tenant.deals.set(id, {
		...stored,
		...place,
		id,
		amount: input.amount ?? 0,
		currency_code: input.currency_code ?? 'USD',
		status: input.status ?? 0,
		owner_id: owner,
		custom_field: input.custom_field ?? [],
		tenant_id: tenant.id,
		created_at: now,
		updated_at: now,
		created_by: userId,
		updated_by: userId,
	});
}

/** `deal_summary=true`: how many deals the list holds and their amounts, in all and per stage. */
function dealSummary(all: Doc[]): Doc {
	const byStage = new Map<number, { stage_id: number; count: number; amount: number }>();
	for (const d of all) {
		const e = byStage.get(d.stage_id as number) ?? {
			stage_id: d.stage_id as number,
			count: 0,
			amount: 0,
		};
		e.count++;
		e.amount += Number(d.amount ?? 0);
		byStage.set(d.stage_id as number, e);
	}
	return {
		count: all.length,
		total_amount: all.reduce((n, d) => n + Number(d.amount ?? 0), 0),
		by_stage: [...byStage.values()],
	};
}

export function listDeals(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const q = ctx.query;
	// The list's filter, as the query gives it; also the key of the cached result.
	const f = {
		pipelineId: q.int('pipeline_id'),
		contactIds: q.intList('contact_id'),
		dealIds: q.intList('deal_ids'),
		showClosed: q.bool('show_closed_deals') ?? false,
	};
	const all = tenant.deals.query(JSON.stringify(f), (items) => {
		const contactSet = f.contactIds ? new Set(f.contactIds) : undefined;
		const idSet = f.dealIds ? new Set(f.dealIds) : undefined;
		return items
			.filter(
				(d) =>
					(f.pipelineId === undefined || d.pipeline_id === f.pipelineId) &&
					(!contactSet ||
						contactSet.has(d.contact_id as number) ||
						contactSet.has(d.organization_id as number)) &&
					(!idSet || idSet.has(d.id as number)) &&
					(f.showClosed || !isClosed(tenant, d)),
			)
			.sort((a, b) => (a.id as number) - (b.id as number));
	});
	// Paging parameters are not documented for this list, but its envelope is paged: page/limit are honoured.
	const body: Doc = filterConfigEnvelope(
		pageOf(env, ctx, all, ['limit', 'size', 'pageSize']),
		(d) => listedDeal(env, tenant, d),
	);
	if (q.bool('deal_summary')) body.summary = dealSummary(all);
	return json(200, body);
}

export function postDeal(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const input = validate(objectBody(ctx), DEAL_CREATE_SCHEMA);
	checkDealRefs(tenant, input);
	const d = createDeal(env, tenant, ctx.session.userId, input);
	env.hooks.emit(tenant, 'CREATE_CRM_DEAL', dealView(tenant, d));
	return json(201, { id: d.id, success: true });
}

/** PATCH /v1/crm/deals: the same change to several deals. */
export function patchDeals(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const body = objectBody(ctx);
	const ids = requireIntArray(body.ids, 'ids');
	const input = validate(body, {
		owner_id: 'integer',
		pipeline_id: 'integer',
		reason: 'string',
		stage_id: 'integer',
		status: 'integer',
		tenantId: 'integer',
	});
	const missing = ids.filter((id) => !tenant.deals.has(id));
	if (missing.length) throw notFound('Deal', missing.join(', '));
	checkDealRefs(tenant, input);
	const now = nowIso();
	const changes: Array<[Doc, Doc]> = ids.map((id) => {
		const d = tenant.deals.get(id)!;
		const next: Doc = {};
		if (input.pipeline_id != null || input.stage_id != null)
			Object.assign(next, placeDeal(tenant, input.pipeline_id, input.stage_id, d));
		for (const k of ['owner_id', 'reason', 'status']) if (input[k] != null) next[k] = input[k];
		return [d, next];
	});
	for (const [d, next] of changes) {
		Object.assign(d, next, { updated_at: now, updated_by: ctx.session.userId });
		env.hooks.emit(tenant, 'UPDATE_CRM_DEAL', dealView(tenant, d));
	}
	tenant.deals.touch();
	return json(200, ids);
}

export function deleteDeals(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const ids = requireIntArray(objectBody(ctx).ids, 'ids');
	const missing = ids.filter((id) => !tenant.deals.has(id));
	if (missing.length) throw notFound('Deal', missing.join(', '));
	for (const id of ids) {
		const d = tenant.deals.get(id)!;
		tenant.deals.delete(id);
		env.hooks.emit(tenant, 'DELETE_CRM_DEAL', { id, name: d.name });
	}
	return empty(204);
}

/**
 * A deal as GET /v1/crm/deals and /v1/crm/deals/{id} answer it; without `updated_at` when the
 * configuration asks (dealsWithoutUpdatedAt: the spec's DealResponse has none).
 */
function listedDeal(env: Env, tenant: Tenant, d: Doc): Doc {
	const view = dealView(tenant, d);
	if (env.config.dealsWithoutUpdatedAt) delete view.updated_at;
	return view;
}

export const getDealRoute: ModuleHandler = (env, ctx) => {
	const tenant = tenantOf(env, ctx);
	return json(200, listedDeal(env, tenant, getDeal(tenant, intParam(ctx))));
};

export function putDeal(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const d = getDeal(tenant, intParam(ctx));
	const input = validate(objectBody(ctx), DEAL_UPDATE_SCHEMA);
	checkDealRefs(tenant, input);
	const place =
		input.pipeline_id != null || input.stage_id != null
			? placeDeal(tenant, input.pipeline_id, input.stage_id, d)
			: {};
	for (const k of STORED)
		if (k in input && k !== 'pipeline_id' && k !== 'stage_id') d[k] = input[k];
	Object.assign(d, place, { updated_at: nowIso(), updated_by: ctx.session.userId });
	tenant.deals.touch();
	env.hooks.emit(tenant, 'UPDATE_CRM_DEAL', dealView(tenant, d));
	return json(200, { id: d.id, success: true });
}

export function deleteDeal(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const id = intParam(ctx);
	const d = getDeal(tenant, id);
	tenant.deals.delete(id);
	env.hooks.emit(tenant, 'DELETE_CRM_DEAL', { id, name: d.name });
	return empty(204);
}
