/** Pipeline → Get: GET /v1/crm/deals/pipelines/{id}. Get one pipeline with its stages. */

import type { Operation } from '../../../shared/engine/model';
import { idFields, simplifyPipeline } from './common';

export const getPipeline: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get a pipeline',
	description: 'Get one pipeline with its stages',
	method: 'GET',
	path: '/v1/crm/deals/pipelines/{id}',
	fields: [...idFields],
	simplify: simplifyPipeline,
};
