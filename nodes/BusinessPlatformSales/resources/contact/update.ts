/** Contact → Update: PATCH /v1/crm/contacts/{id}. Change the given fields of a contact; the others keep their values (PATCH). */

import type { Operation } from '../../../shared/engine/model';
import { bodyField, collection, requireSomeFields } from '../../../shared/engine/fields';
import { CONTACT_TYPES, contactFields, idField, readBack, requireName } from './common';

export const updateContact: Operation = {
	value: 'update',
	name: 'Update',
	action: 'Update a contact',
	description: 'Change the given fields of a contact; the others keep their values (PATCH)',
	method: 'PATCH',
	path: '/v1/crm/contacts/{id}',
	fields: [
		idField,
		collection(
			{ displayName: 'Update Fields', name: 'updateFields', placeholder: 'Add Field', default: {} },
			[
				bodyField({ displayName: 'Name', name: 'name', type: 'string', default: '' }),
				bodyField({
					displayName: 'Type',
					name: 'type',
					type: 'options',
					options: CONTACT_TYPES,
					default: 'person',
				}),
				...contactFields(),
			],
		),
	],
	why: 'The platform answers without the contact, so it is read back.',
	check: (req, ctx) => {
		requireSomeFields(req.body, ctx);
		if ('name' in req.body) requireName(req.body, ctx);
	},
	execute: async (ctx, req) => {
		await ctx.send(req);
		return await readBack(ctx, Number(req.path.split('/').pop()));
	},
};
