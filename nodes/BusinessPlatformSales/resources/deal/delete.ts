/** Deal → Delete: DELETE /v1/crm/deals/{id}. Delete a deal. */

import type { Operation } from '../../../shared/engine/model';
import { idField } from './common';
import { deleteByPath } from '../../../shared/engine/output';

export const deleteDeal: Operation = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete a deal',
	description: 'Delete a deal',
	method: 'DELETE',
	path: '/v1/crm/deals/{id}',
	fields: [idField],
	...deleteByPath,
};
