/** Contact Label → Create: POST /v1/crm/contacts/labels. Create a label for contacts. */

import type { Operation } from '../../../shared/engine/model';
import { bodyField } from '../../../shared/engine/fields';
import { detailFields, readBack } from './common';

export const createContactLabel: Operation = {
	value: 'create',
	name: 'Create',
	action: 'Create a contact label',
	description: 'Create a label for contacts',
	method: 'POST',
	path: '/v1/crm/contacts/labels',
	fields: [
		bodyField({ displayName: 'Name', name: 'name', type: 'string', default: '', required: true }),
		...detailFields(),
	],
	why: 'The platform answers with the ID only, so the label is read back.',
	check: (req, ctx) => {
		if (!String(req.body.name ?? '').trim())
			throw ctx.fail('Name is empty', 'Give the label a name.');
	},
	execute: async (ctx, req) => {
		const answer = await ctx.send(req);
		return await readBack(ctx, Number((answer as { id: number }).id));
	},
};
