/**
 * Pipeline stages. The platform has no stage list: Get Many reads the pipeline and
 * outputs its stages; Delete is DELETE /v1/crm/deals/pipelines/stages/{id}.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { compact, toIntegerId } from '../../shared/fields';
import { LIMIT_PROPERTY, RETURN_ALL_PROPERTY } from '../../shared/engine/description';
import type { Operation, Resource } from '../../shared/engine/model';
import { getPipelines, getPipelineStages } from '../methods/deals';
import { pipelineIdProperty } from './pipeline';

export function simplifyStage(s: IDataObject): IDataObject {
	return compact({
		id: s.id,
		name: s.name,
		order: s.order,
		pipelineId: s.pipeline_id,
		dealProbability: s.deal_probability,
		rottingDays: s.rotting_days,
		helpText: s.help_text,
		status: s.won_lost_status,
		systemGenerated: s.system_generated,
		deals: Array.isArray(s.deals) ? s.deals.length : undefined,
	});
}

// The same Return All and Limit as every paged list (applied here, to the pipeline's stages).

const stageIdProperty: INodeProperties = {
	displayName: 'Stage Name or ID',
	name: 'stageId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getPipelineStages', loadOptionsDependsOn: ['pipelineId'] },
	default: '',
	required: true,
	description: 'The stage to delete. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

const ops: Operation[] = [
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many stages',
		description: 'List the stages of a pipeline, in their order',
		method: 'GET',
		path: '/v1/crm/deals/pipelines/{id}',
		fields: [{ property: pipelineIdProperty('The pipeline whose stages to list') }, { property: RETURN_ALL_PROPERTY }, { property: LIMIT_PROPERTY }],
		simplify: simplifyStage,
		run: async (ctx) => {
			const id = toIntegerId(ctx.param('pipelineId'), 'Pipeline', ctx);
			const all = ctx.param<boolean>('returnAll', false);
			const max = all ? undefined : ctx.param<number>('limit', 50);
			if (max !== undefined && (!Number.isInteger(max) || max < 1)) throw ctx.fail(`Limit must be a whole number of 1 or more, got ${String(max)}`);
			const pipeline = await ctx.request<IDataObject>({ method: 'GET', path: `/v1/crm/deals/pipelines/${id}` });
			const stages = [...((pipeline?.stages as IDataObject[] | undefined) ?? [])]
				.sort((a, b) => Number(a.order ?? 0) - Number(b.order ?? 0))
				.map((s) => ({ ...s, pipeline_id: s.pipeline_id ?? pipeline.id ?? id }));
			const out = max === undefined ? stages : stages.slice(0, max);
			return out;
		},
	},
	{
		value: 'delete',
		name: 'Delete',
		action: 'Delete a stage',
		description: 'Delete a stage that holds no deals (the Won and Lost stages cannot be deleted)',
		method: 'DELETE',
		path: '/v1/crm/deals/pipelines/stages/{id}',
		fields: [
			// Only narrows the Stage list; not sent.
			{ property: { ...pipelineIdProperty('The pipeline whose stages the Stage list shows (not sent)'), required: false } },
			{ property: stageIdProperty, send: { in: 'path', key: 'id', map: (v, ctx) => toIntegerId(v, 'Stage', ctx) } },
		],
		output: (_a, _ctx, req) => ({ deleted: true, id: Number(req.path.split('/').pop()) }),
	},
];

export const stageResource: Resource = {
	value: 'stage',
	name: 'Stage',
	description: 'Stages of deal pipelines',
	operations: ops,
	methods: { loadOptions: { getPipelines, getPipelineStages } },
};
