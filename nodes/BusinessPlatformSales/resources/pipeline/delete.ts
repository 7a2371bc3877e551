/** Pipeline → Delete: DELETE /v1/crm/deals/pipelines/{id}. Delete a pipeline that holds no deals. */

import type { Operation } from '../../../shared/engine/model';
import { idFields } from './common';
import { deleteByPath } from '../../../shared/engine/output';

export const deletePipeline: Operation = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete a pipeline',
	description: 'Delete a pipeline that holds no deals',
	method: 'DELETE',
	path: '/v1/crm/deals/pipelines/{id}',
	fields: [...idFields],
	...deleteByPath,
};
