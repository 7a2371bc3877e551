/** Contact → Bulk Update: PATCH /v1/crm/contacts. Set the label, owner or visibility of several contacts in one request. */

import type { Operation } from '../../../shared/engine/model';
import { bodyField, collection, requireSomeFields } from '../../../shared/engine/fields';
import { toIntegerIds } from '../../../shared/field-values';
import { contactFields } from './common';

export const bulkUpdateContact: Operation = {
	value: 'bulkUpdate',
	name: 'Bulk Update',
	action: 'Update many contacts at once',
	description: 'Set the label, owner or visibility of several contacts in one request',
	method: 'PATCH',
	path: '/v1/crm/contacts',
	fields: [
		bodyField(
			{
				displayName: 'Contact IDs',
				name: 'contactIds',
				type: 'string',
				default: '',
				required: true,
				description: 'Comma-separated contact IDs',
			},
			'ids',
			(v, ctx) => toIntegerIds(v, 'Contact IDs', ctx),
		),
		collection(
			{ displayName: 'Update Fields', name: 'updateFields', placeholder: 'Add Field', default: {} },
			contactFields().filter((f) =>
				['labelId', 'ownerId', 'visibilityType', 'visibilityIds'].includes(f.property.name),
			),
		),
	],
	why: 'The platform answers with nothing to show, so the output is one item per updated ID.',
	check: (req, ctx) => {
		const { ids, ...rest } = req.body;
		void ids;
		requireSomeFields(rest, ctx);
	},
	execute: async (ctx, req) => {
		const { ids } = req.body;
		await ctx.send(req);
		return (ids as number[]).map((id) => ({ id, updated: true }));
	},
};
