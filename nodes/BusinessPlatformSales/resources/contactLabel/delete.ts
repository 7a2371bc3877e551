/** Contact Label → Delete: DELETE /v1/crm/contacts/labels/{id}. Delete a label; contacts that had it keep no label. */

import type { Operation } from '../../../shared/engine/model';
import { labelIdFields } from './common';
import { deleteByPath } from '../../../shared/engine/output';

export const deleteContactLabel: Operation = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete a contact label',
	description: 'Delete a label; contacts that had it keep no label',
	method: 'DELETE',
	path: '/v1/crm/contacts/labels/{id}',
	fields: [...labelIdFields],
	...deleteByPath,
};
