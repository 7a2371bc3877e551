/**
 * Pipeline stages. A pipeline's stages are its open stages in order, then the
 * system-generated Won and Lost stages (added when missing). Deleting a system
 * stage, or a stage that still holds deals, is refused with 400.
 */
import type { Session } from '../../auth';
import { tenantOf, type Env } from '../../env';
import { badRequest, empty, intParam, notFound, type Ctx, type Reply } from '../../http';
import { nowIso, type Doc, type Tenant } from '../../state';
import { validateEach, type Schema } from '../../validate';

const STAGE_SCHEMA: Schema = {
	id: 'integer',
	order: 'integer',
	name: 'string',
	deal_probability: 'integer',
	rotting_days: 'integer',
	help_text: 'string',
	system_generated: 'boolean',
	won_lost_status: 'string',
};

export function stageResponse(stage: Doc, pipelineId: number): Doc {
	return {
		pipeline_id: pipelineId,
		order: stage.order,
		name: stage.name,
		deal_probability: stage.deal_probability,
		rotting_days: stage.rotting_days,
		help_text: stage.help_text,
		system_generated: stage.system_generated,
		won_lost_status: stage.won_lost_status,
	};
}

export function findStage(
	tenant: Tenant,
	stageId: number,
): { pipeline: Doc; stage: Doc } | undefined {
	for (const pipeline of tenant.pipelines.values()) {
		const stage = (pipeline.stages as Doc[]).find((s) => s.id === stageId);
		if (stage) return { pipeline, stage };
	}
	return undefined;
}

export function makeStage(env: Env, input: Doc, order: number): Doc {
	const now = nowIso();
	return {
		id: env.store.nextInt('stage'),
		order,
		name: input.name ?? `Stage ${order}`,
		deal_probability: input.deal_probability ?? 0,
		rotting_days: input.rotting_days ?? 0,
		help_text: input.help_text ?? '',
		system_generated: input.system_generated ?? false,
		won_lost_status: input.won_lost_status ?? 'open',
		created_at: now,
		updated_at: now,
	};
}

export function stagesInput(body: Record<string, unknown>): Doc[] | undefined {
	if (body.stages === undefined || body.stages === null) return undefined;
	if (!Array.isArray(body.stages))
		throw badRequest('stages must be an array', [
			{ field: 'stages', error: 'must be an array of stages' },
		]);
	const stages = validateEach(body.stages, STAGE_SCHEMA, 'stages');
	stages.forEach((s, i) => {
		if (
			s.won_lost_status != null &&
			!['open', 'won', 'lost'].includes(s.won_lost_status as string)
		) {
			throw badRequest('won_lost_status must be open, won or lost', [
				{ field: `stages[${i}].won_lost_status`, error: 'must be open, won or lost' },
			]);
		}
	});
	return stages;
}

/** Open stages in the order given, then the system won and lost stages (added when missing). */
export function orderStages(env: Env, stages: Doc[]): Doc[] {
	const open = stages.filter((s) => s.won_lost_status !== 'won' && s.won_lost_status !== 'lost');
	open.sort((a, b) => (Number(a.order ?? 0) || 0) - (Number(b.order ?? 0) || 0));
	const closing = ['won', 'lost'].map(
		(kind) =>
			stages.find((s) => s.won_lost_status === kind) ??
			makeStage(
				env,
				{
					name: kind === 'won' ? 'Won' : 'Lost',
					won_lost_status: kind,
					system_generated: true,
					deal_probability: kind === 'won' ? 100 : 0,
				},
				0,
			),
	);
	return [...open, ...closing].map((s, i) => ({
		...s,
		order: i + 1,
		system_generated: s.won_lost_status === 'open' ? Boolean(s.system_generated) : true,
	}));
}

/** DELETE /v1/crm/deals/pipelines/stages/:id */
export function deleteStage(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const id = intParam(ctx);
	const found = findStage(tenant, id);
	if (!found) throw notFound('Stage', id);
	if (found.stage.system_generated)
		throw badRequest('System-generated won and lost stages cannot be deleted', [
			{ field: 'id', error: 'system stage' },
		]);
	if (tenant.deals.values().some((d) => d.stage_id === id))
		throw badRequest(`Stage ${id} still holds deals: move them first`, [
			{ field: 'id', error: 'stage holds deals' },
		]);
	found.pipeline.stages = orderStages(
		env,
		(found.pipeline.stages as Doc[]).filter((s) => s.id !== id),
	);
	tenant.pipelines.touch();
	return empty(204);
}
