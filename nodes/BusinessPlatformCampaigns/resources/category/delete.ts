/** Category → Delete: DELETE /v1/crm/campaign/category/{id}. Delete a campaign category. */

import type { Operation } from '../../../shared/engine/model';
import { deleteByPath } from '../../../shared/engine/output';
import { categoryId } from './common';

export const deleteCategory: Operation = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete a category',
	description: 'Delete a campaign category',
	method: 'DELETE',
	path: '/v1/crm/campaign/category/{id}',
	fields: [categoryId],
	...deleteByPath,
};
