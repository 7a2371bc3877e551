/** Contact Label → Get Many: GET /v1/crm/contacts/labels. List the contact labels. */

import type { Operation } from '../../../shared/engine/model';

export const getAllContactLabel: Operation = {
	value: 'getAll',
	name: 'Get Many',
	action: 'Get many contact labels',
	description: 'List the contact labels',
	method: 'GET',
	path: '/v1/crm/contacts/labels',
	paginate: 'array',
};
