/** Form → Delete: DELETE /v1/crm/campaign/assets/forms/{id}. Delete a form. */

import type { Operation } from '../../../shared/engine/model';
import { formId } from './common';
import { deletedFromPath } from '../../../shared/fields';

export const deleteForm: Operation = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete a form',
	description: 'Delete a form',
	method: 'DELETE',
	path: '/v1/crm/campaign/assets/forms/{id}',
	fields: [formId],
	output: deletedFromPath,
};
