/** Deal → Bulk Update: PATCH /v1/crm/deals. Set the stage, pipeline, owner, status or reason of several deals in one request. */

import type { Operation } from '../../../shared/engine/model';
import { bodyField, requireSomeFields, sortedCollection } from '../../../shared/engine/fields';
import {
	dealIdsField,
	optionalId,
	ownerProperty,
	pipelineProperty,
	reasonField,
	stageProperty,
	statusField,
} from './common';

export const bulkUpdateDeal: Operation = {
	value: 'bulkUpdate',
	name: 'Bulk Update',
	action: 'Update many deals at once',
	description: 'Set the stage, pipeline, owner, status or reason of several deals in one request',
	method: 'PATCH',
	path: '/v1/crm/deals',
	fields: [
		dealIdsField('ids'),
		sortedCollection(
			{ displayName: 'Update Fields', name: 'updateFields', placeholder: 'Add Field', default: {} },
			[
				bodyField(
					pipelineProperty(
						'Move the deals to this pipeline (to its first stage, unless a stage is given)',
					),
					'pipeline_id',
					optionalId('Pipeline'),
				),
				bodyField(
					stageProperty('updateFields.pipelineId', 'Move the deals to this stage'),
					'stage_id',
					optionalId('Stage'),
				),
				bodyField(ownerProperty, 'owner_id', optionalId('Owner')),
				statusField,
				reasonField,
			],
		),
	],
	why: 'The output is one item per updated ID: those the platform answers with, else those sent.',
	check: (req, ctx) => {
		const { ids, ...rest } = req.body;
		void ids;
		requireSomeFields(rest, ctx);
	},
	execute: async (ctx, req) => {
		const { ids } = req.body;
		const answer = await ctx.send(req);
		const updated =
			Array.isArray(answer) && answer.length
				? (answer as unknown[]).map(Number)
				: (ids as number[]);
		return updated.map((id) => ({ id, updated: true }));
	},
};
