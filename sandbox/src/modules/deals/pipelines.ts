/**
 * Pipelines — /v1/crm/deals/pipelines… Create answers 201 with { Id, Success }
 * as in the spec's sample. A pipeline created without won/lost stages gets
 * system-generated Won and Lost stages at the end. Deleting a pipeline that
 * still holds deals is refused with 400.
 */
import type { Session } from '../../auth';
import { tenantOf, type Env } from '../../env';
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
import { nowIso, type Doc, type Tenant } from '../../state';
import { validate } from '../../validate';
import { dealView } from './deals';
import { makeStage, orderStages, stagesInput } from './stages';

const cud = (id: number) => ({ Id: id, Success: true });

/** Stores a new pipeline with its stages in order (system Won and Lost stages at the end); returns its id. */
export function addPipeline(
	env: Env,
	tenant: Tenant,
	name: unknown,
	createdBy: number,
	stages: Doc[],
	now = nowIso(),
): number {
	const id = env.store.nextInt('pipeline');
	tenant.pipelines.set(id, {
		id,
		name,
		created_by: createdBy,
		created_at: now,
		updated_at: now,
		tenantId: tenant.id,
		stages: orderStages(env, stages),
	});
	return id;
}

function pipelineView(tenant: Tenant, p: Doc): Doc {
	const byStage = tenant.deals.groupBy('stage_id', (d) => d.stage_id as number);
	return {
		...p,
		stages: (p.stages as Doc[]).map((s) => ({
			...s,
			deals: (byStage.get(s.id as number) ?? []).map((d) => dealView(tenant, d)),
		})),
	};
}

function getPipeline(tenant: Tenant, id: number): Doc {
	const p = tenant.pipelines.get(id);
	if (!p) throw notFound('Pipeline', id);
	return p;
}

export function listPipelines(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	return json(
		200,
		tenant.pipelines.values().map((p) => pipelineView(tenant, p)),
	);
}

export function postPipeline(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const body = objectBody(ctx);
	const input = validate(body, { name: 'string', stages: 'any[]' }, ['name']);
	const stages = stagesInput(body) ?? [];
	const id = addPipeline(
		env,
		tenant,
		input.name,
		ctx.session.userId,
		stages.map((st, i) => makeStage(env, st, (st.order as number | undefined) ?? i + 1)),
	);
	return json(201, cud(id));
}

export const getPipelineRoute = getByIdRoute(getPipeline, pipelineView);

export function putPipeline(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const p = getPipeline(tenant, intParam(ctx));
	const body = objectBody(ctx);
	const input = validate(body, { name: 'string', stages: 'any[]' });
	const stages = stagesInput(body);
	if (stages) {
		// Stages with an id are updated, stages without one are added, stages left out are removed
		// (refused while they hold deals). The system won and lost stages always stay.
		const old = p.stages as Doc[];
		const next = stages.map((st, i) => {
			if (st.id != null) {
				const existing = old.find((o) => o.id === st.id);
				if (!existing)
					throw badRequest(`stage ${String(st.id)} is not a stage of this pipeline`, [
						{ field: `stages[${i}].id`, error: 'unknown stage' },
					]);
				return {
					...existing,
					...Object.fromEntries(Object.entries(st).filter(([, v]) => v !== null)),
					updated_at: nowIso(),
				};
			}
			return makeStage(env, st, (st.order as number | undefined) ?? i + 1);
		});
		const kept = new Set(next.map((s) => s.id));
		for (const o of old) {
			if (kept.has(o.id) || o.won_lost_status !== 'open') continue;
			if (tenant.deals.values().some((d) => d.stage_id === o.id)) {
				throw badRequest(
					`stage ${String(o.id)} (${String(o.name)}) still holds deals: move them first`,
					[{ field: 'stages', error: `stage ${String(o.id)} holds deals` }],
				);
			}
		}
		const closing = old.filter((o) => o.won_lost_status !== 'open' && !kept.has(o.id));
		p.stages = orderStages(env, [...next, ...closing]);
	}
	if (input.name != null) p.name = input.name;
	p.updated_at = nowIso();
	tenant.pipelines.touch();
	return json(200, cud(p.id as number));
}

export function deletePipeline(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const id = intParam(ctx);
	getPipeline(tenant, id);
	// Not shown in the spec: the sandbox refuses to delete a pipeline that still holds deals.
	if (tenant.deals.values().some((d) => d.pipeline_id === id))
		throw badRequest(`Pipeline ${id} still holds deals: move or delete them first`, [
			{ field: 'id', error: 'pipeline holds deals' },
		]);
	tenant.pipelines.delete(id);
	return empty(204);
}
