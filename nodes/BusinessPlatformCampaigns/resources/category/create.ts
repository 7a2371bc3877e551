/** Category → Create: POST /v1/crm/campaign/category. Create a campaign category. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { bodyField } from '../../../shared/engine/fields';
import { detailFields, readBack } from './common';

export const createCategory: Operation = {
	value: 'create',
	name: 'Create',
	action: 'Create a category',
	description: 'Create a campaign category',
	method: 'POST',
	path: '/v1/crm/campaign/category',
	fields: [
		bodyField({ displayName: 'Name', name: 'name', type: 'string', default: '', required: true }),
		{
			property: {
				displayName: 'Additional Fields',
				name: 'additionalFields',
				type: 'collection',
				placeholder: 'Add Field',
				default: {},
				options: [],
			},
			children: detailFields(),
		},
	],
	why: 'The platform answers with the ID only, so the category is read back whole.',
	check: (req, ctx) => {
		if (!String(req.body.name ?? '').trim())
			throw ctx.fail('Name is empty', 'Give the category a name.');
	},
	execute: async (ctx, req) => {
		// The answer is a CreateResponse { id }: the node returns the whole category.
		const answer = await ctx.send<IDataObject | undefined>(req);
		const id = Number(answer?.id ?? answer?.Id);
		return Number.isInteger(id) && id > 0 ? await readBack(ctx, id) : (answer ?? { success: true });
	},
};
