/** Deal → Create: POST /v1/crm/deals. Create a deal in a pipeline. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { bodyField, locator, sortedCollection } from '../../../shared/engine/fields';
import { toIntegerId } from '../../../shared/field-values';
import { fromVersion, inVersion1 } from '../../../shared/engine/versions';
import {
	dealOptionsField,
	detailFields,
	optionalId,
	pipelineProperty,
	readBack,
	stageLocator,
	stageProperty,
} from './common';

const PIPELINE = 'The pipeline of the deal. Empty: the platform’s first pipeline';
const STAGE = 'The stage of the deal. Empty: the first stage of the pipeline';

export const createDeal: Operation = {
	value: 'create',
	name: 'Create',
	action: 'Create a deal',
	description: 'Create a deal in a pipeline',
	method: 'POST',
	path: '/v1/crm/deals',
	fields: [
		bodyField({ displayName: 'Name', name: 'name', type: 'string', default: '', required: true }),
		bodyField(
			inVersion1(pipelineProperty(PIPELINE, 'getPipelinesOrFirst')),
			'pipeline_id',
			optionalId('Pipeline'),
		),
		bodyField(
			fromVersion(
				2,
				locator({
					name: 'pipelineId',
					displayName: 'Pipeline',
					search: 'searchPipelines',
					description: PIPELINE,
					required: false,
				}),
			),
			'pipeline_id',
			optionalId('Pipeline'),
		),
		bodyField(
			inVersion1(stageProperty('pipelineId', STAGE, 'getPipelineStagesOrFirst')),
			'stage_id',
			optionalId('Stage'),
		),
		bodyField(stageLocator(STAGE), 'stage_id', optionalId('Stage')),
		sortedCollection(
			{
				displayName: 'Additional Fields',
				name: 'additionalFields',
				placeholder: 'Add Field',
				default: {},
			},
			detailFields(),
		),
		dealOptionsField(),
	],
	why: 'The platform answers with the ID only, so the deal is read back with its pipeline and stage names.',
	check: (req, ctx) => {
		if (!String(req.body.name ?? '').trim())
			throw ctx.fail('Name is empty', 'Give the deal a name.');
	},
	execute: async (ctx, req) => {
		const created = await ctx.send<IDataObject | undefined>(req);
		// The platform answers with the ID only: the deal is read back, with its pipeline's and stage's names.
		return await readBack(ctx, toIntegerId(created?.id, 'The created deal’s ID', ctx));
	},
};
