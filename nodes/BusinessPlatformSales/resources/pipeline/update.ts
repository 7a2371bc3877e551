/** Pipeline → Update: PUT /v1/crm/deals/pipelines/{id}. Rename a pipeline or change its stages (PUT). */

import type { Operation } from '../../../shared/engine/model';
import { bodyField, requireSomeFields } from '../../../shared/engine/fields';
import { idFromPath } from '../../../shared/field-values';
import { confirmedId, idFields, readBack, stagesBody, stagesProperty } from './common';

export const updatePipeline: Operation = {
	value: 'update',
	name: 'Update',
	action: 'Update a pipeline',
	description: 'Rename a pipeline or change its stages (PUT)',
	method: 'PUT',
	path: '/v1/crm/deals/pipelines/{id}',
	fields: [
		...idFields,
		{
			property: {
				displayName: 'Update Fields',
				name: 'updateFields',
				type: 'collection',
				placeholder: 'Add Field',
				default: {},
				options: [],
			},
			children: [
				bodyField({ displayName: 'Name', name: 'name', type: 'string', default: '' }),
				{
					property: stagesProperty(
						true,
						'The open stages, in this order: stages with an ID are kept and changed, stages without one are added, and open stages left out are removed (the platform refuses to remove a stage that holds deals). Won and Lost stay.',
					),
					send: { in: 'body', key: 'stages', map: stagesBody },
				},
			],
		},
	],
	why: 'The platform answers with a confirmation only, which is checked, and the pipeline is read back.',
	check: (req, ctx) => {
		requireSomeFields(req.body, ctx);
		if ('name' in req.body && !String(req.body.name).trim())
			throw ctx.fail('Name is empty', 'Give the pipeline a name, or remove the Name field.');
	},
	execute: async (ctx, req) => {
		const answer = await ctx.send(req);
		const id = idFromPath(req.path);
		confirmedId(answer, ctx, id);
		return await readBack(ctx, id);
	},
};
