/** Activity → Delete: DELETE /v1/crm/activities/{id}. Delete an activity. */

import type { Operation } from '../../../shared/engine/model';
import { idField } from './common';
import { deleteByPath } from '../../../shared/engine/output';

export const deleteActivity: Operation = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete an activity',
	description: 'Delete an activity',
	method: 'DELETE',
	path: '/v1/crm/activities/{id}',
	fields: [idField],
	...deleteByPath,
};
