/** Pipeline → Create: POST /v1/crm/deals/pipelines. Create a pipeline with its ordered stages. */

import type { Operation } from '../../../shared/engine/model';
import { bodyField } from '../../../shared/engine/fields';
import { confirmedId, readBack, stagesBody, stagesProperty } from './common';

export const createPipeline: Operation = {
	value: 'create',
	name: 'Create',
	action: 'Create a pipeline',
	description: 'Create a pipeline with its ordered stages',
	method: 'POST',
	path: '/v1/crm/deals/pipelines',
	fields: [
		bodyField({ displayName: 'Name', name: 'name', type: 'string', default: '', required: true }),
		{
			property: stagesProperty(
				false,
				'The open stages, in order. The platform adds its Won and Lost stages at the end.',
			),
			send: { in: 'body', key: 'stages', map: stagesBody },
		},
	],
	why: 'The platform answers with a confirmation and the ID only, so the pipeline is read back.',
	check: (req, ctx) => {
		if (!String(req.body.name ?? '').trim())
			throw ctx.fail('Name is empty', 'Give the pipeline a name.');
	},
	execute: async (ctx, req) => {
		const answer = await ctx.send(req);
		return await readBack(ctx, confirmedId(answer, ctx));
	},
};
