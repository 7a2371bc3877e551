/** Contact Label → Get: GET /v1/crm/contacts/labels/{id}. Get one contact label. */

import type { Operation } from '../../../shared/engine/model';
import { labelIdFields } from './common';

export const getContactLabel: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get a contact label',
	description: 'Get one contact label',
	method: 'GET',
	path: '/v1/crm/contacts/labels/{id}',
	fields: [...labelIdFields],
};
