/** Contact → Replace: PUT /v1/crm/contacts/{id}. Replace the whole contact (PUT): fields you leave out are cleared. */

import type { Operation } from '../../../shared/engine/model';
import { collection } from '../../../shared/engine/fields';
import { contactFields, idField, nameField, readBack, requireName, typeField } from './common';

export const replaceContact: Operation = {
	value: 'replace',
	name: 'Replace',
	action: 'Replace a contact',
	description: 'Replace the whole contact (PUT): fields you leave out are cleared',
	method: 'PUT',
	path: '/v1/crm/contacts/{id}',
	fields: [
		idField,
		nameField,
		typeField,
		collection(
			{
				displayName: 'Additional Fields',
				name: 'additionalFields',
				placeholder: 'Add Field',
				default: {},
			},
			contactFields(),
		),
	],
	why: 'The platform answers without the contact, so it is read back.',
	check: (req, ctx) => requireName(req.body, ctx),
	execute: async (ctx, req) => {
		await ctx.send(req);
		return await readBack(ctx, Number(req.path.split('/').pop()));
	},
};
