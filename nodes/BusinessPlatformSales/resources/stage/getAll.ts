/** Stage → Get Many: GET /v1/crm/deals/pipelines/{id}. List the stages of a pipeline, in their order. */

import type { IDataObject } from 'n8n-workflow';

import { LIMIT_PROPERTY, RETURN_ALL_PROPERTY } from '../../../shared/engine/description';
import type { OpContext, Operation } from '../../../shared/engine/model';
import { idPath } from '../../../shared/engine/fields';
import { idFromPath } from '../../../shared/field-values';
import { pipelineProperties, simplifyStage } from './common';
import { echo } from '../../../shared/text-readers';

/** The Limit, or undefined with Return All. */
const limitOf = (ctx: OpContext) =>
	ctx.param<boolean>('returnAll', false) ? undefined : ctx.param<number>('limit', 50);

export const getAllStage: Operation = {
	value: 'getAll',
	name: 'Get Many',
	action: 'Get many stages',
	description: 'List the stages of a pipeline, in their order',
	method: 'GET',
	path: '/v1/crm/deals/pipelines/{id}',
	fields: [
		...pipelineProperties('The pipeline whose stages to list').map((property) =>
			idPath(property, 'Pipeline'),
		),
		{ property: RETURN_ALL_PROPERTY },
		{ property: LIMIT_PROPERTY },
	],
	simplify: simplifyStage,
	why: 'The platform has no list of stages: they are read from their pipeline, put in order and cut to the Limit here.',
	check: (_req, ctx) => {
		const max = limitOf(ctx);
		if (max !== undefined && (!Number.isInteger(max) || max < 1))
			throw ctx.fail(`Limit must be a whole number of 1 or more, got ${echo(max, 40)}`);
	},
	execute: async (ctx, req) => {
		const id = idFromPath(req.path);
		const max = limitOf(ctx);
		const pipeline = await ctx.send<IDataObject>(req);
		const stages = [...((pipeline?.stages as IDataObject[] | undefined) ?? [])]
			.sort((a, b) => Number(a.order ?? 0) - Number(b.order ?? 0))
			.map((s) => ({ ...s, pipeline_id: s.pipeline_id ?? pipeline.id ?? id }));
		const out = max === undefined ? stages : stages.slice(0, max);
		return out;
	},
};
