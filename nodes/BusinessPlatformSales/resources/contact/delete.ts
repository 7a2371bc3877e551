/** Contact → Delete: DELETE /v1/crm/contacts/{id}. Delete a contact. */

import type { Operation } from '../../../shared/engine/model';
import { deleteByPath } from '../../../shared/engine/output';
import { idField } from './common';

export const deleteContact: Operation = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete a contact',
	description: 'Delete a contact',
	method: 'DELETE',
	path: '/v1/crm/contacts/{id}',
	fields: [idField],
	...deleteByPath,
};
