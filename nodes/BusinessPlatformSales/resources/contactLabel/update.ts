/** Contact Label → Update: PUT /v1/crm/contacts/labels/{id}. Change a label’s name, color, icon or owner. */

import type { Operation } from '../../../shared/engine/model';
import { bodyField, requireSomeFields } from '../../../shared/engine/fields';
import { idFromPath } from '../../../shared/field-values';
import { detailFields, labelIdFields, readBack } from './common';

export const updateContactLabel: Operation = {
	value: 'update',
	name: 'Update',
	action: 'Update a contact label',
	description: 'Change a label’s name, color, icon or owner',
	method: 'PUT',
	path: '/v1/crm/contacts/labels/{id}',
	fields: [
		...labelIdFields,
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
	why: 'The platform answers without the label, so it is read back.',
	check: (req, ctx) => requireSomeFields(req.body, ctx),
	execute: async (ctx, req) => {
		await ctx.send(req);
		return await readBack(ctx, idFromPath(req.path));
	},
};
