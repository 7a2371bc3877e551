/** Contact → Get: GET /v1/crm/contacts/{id}. Get one contact. */

import type { Operation } from '../../../shared/engine/model';
import { idField, simplifyContact } from './common';

export const getContact: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get a contact',
	description: 'Get one contact',
	method: 'GET',
	path: '/v1/crm/contacts/{id}',
	fields: [idField],
	simplify: simplifyContact,
};
