/** Deal → Get: GET /v1/crm/deals/{id}. Get one deal. */

import type { Operation } from '../../../shared/engine/model';
import { idField, simplifyDeal } from './common';

export const getDeal: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get a deal',
	description: 'Get one deal',
	method: 'GET',
	path: '/v1/crm/deals/{id}',
	fields: [idField],
	simplify: simplifyDeal,
};
