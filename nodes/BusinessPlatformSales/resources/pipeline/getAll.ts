/** Pipeline → Get Many: GET /v1/crm/deals/pipelines. List the pipelines with their stages. */

import type { Operation } from '../../../shared/engine/model';
import { simplifyPipeline } from './common';

export const getAllPipeline: Operation = {
	value: 'getAll',
	name: 'Get Many',
	action: 'Get many pipelines',
	description: 'List the pipelines with their stages',
	method: 'GET',
	path: '/v1/crm/deals/pipelines',
	paginate: 'array',
	simplify: simplifyPipeline,
};
