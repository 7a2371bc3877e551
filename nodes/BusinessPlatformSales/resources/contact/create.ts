/** Contact → Create: POST /v1/crm/contacts. Create a person or organization contact. */

import type { Operation } from '../../../shared/engine/model';
import { collection } from '../../../shared/engine/fields';
import { contactFields, nameField, requireName, typeField } from './common';

export const createContact: Operation = {
	value: 'create',
	name: 'Create',
	action: 'Create a contact',
	description: 'Create a person or organization contact',
	method: 'POST',
	path: '/v1/crm/contacts',
	fields: [
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
	// A blank name is refused before sending (the platform would store it).
	check: (req, ctx) => requireName(req.body, ctx),
};
