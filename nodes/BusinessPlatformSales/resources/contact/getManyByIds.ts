/** Contact → Get Many by IDs: POST /v1/crm/contacts/multiple. Get several contacts at once by their IDs. */

import type { Operation } from '../../../shared/engine/model';
import { bodyField } from '../../../shared/engine/fields';
import { toIntegerIds } from '../../../shared/field-values';
import { simplifyContact } from './common';

export const getManyContact: Operation = {
	value: 'getMany',
	name: 'Get Many by IDs',
	action: 'Get contacts by IDs',
	description: 'Get several contacts at once by their IDs',
	method: 'POST',
	readOnly: true,
	path: '/v1/crm/contacts/multiple',
	// Only reads: safe to repeat after a 5xx or a dropped connection.
	idempotent: true,
	simplify: simplifyContact,
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
			'contact_ids',
			(v, ctx) => toIntegerIds(v, 'Contact IDs', ctx),
		),
	],
};
