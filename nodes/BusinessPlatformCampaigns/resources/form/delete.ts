/** Form → Delete: DELETE /v1/crm/campaign/assets/forms/{id}. Delete a form. */

import type { Operation } from '../../../shared/engine/model';
import { deleteByPath } from '../../../shared/engine/output';
import { formId } from './common';

export const deleteForm: Operation = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete a form',
	description: 'Delete a form',
	method: 'DELETE',
	path: '/v1/crm/campaign/assets/forms/{id}',
	fields: [formId],
	...deleteByPath,
};
