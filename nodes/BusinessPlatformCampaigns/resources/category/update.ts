/** Category → Update: PATCH /v1/crm/campaign/category/{id}. Change the given fields of a category; the others keep their values. */

import type { Operation } from '../../../shared/engine/model';
import { bodyField, requireSomeFields } from '../../../shared/engine/fields';
import { idFromPath } from '../../../shared/field-values';
import { categoryId, detailFields, readBack } from './common';

export const updateCategory: Operation = {
	value: 'update',
	name: 'Update',
	action: 'Update a category',
	description: 'Change the given fields of a category; the others keep their values',
	method: 'PATCH',
	path: '/v1/crm/campaign/category/{id}',
	fields: [
		categoryId,
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
				...detailFields(),
			],
		},
	],
	why: 'The PATCH answers without a documented body, so the category is read back.',
	check: (req, ctx) => {
		requireSomeFields(req.body, ctx);
		if ('name' in req.body && !String(req.body.name).trim())
			throw ctx.fail(
				'Name is empty',
				'A category needs a name: leave the field out to keep the current one.',
			);
	},
	execute: async (ctx, req) => {
		await ctx.send(req);
		// The PATCH answers 200 without a documented body: the node reads the category back.
		return await readBack(ctx, idFromPath(req.path));
	},
};
