/** Category → Get: GET /v1/crm/campaign/category/{id}. Get one campaign category. */

import type { Operation } from '../../../shared/engine/model';
import { categoryId } from './common';

export const getCategory: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get a category',
	description: 'Get one campaign category',
	method: 'GET',
	path: '/v1/crm/campaign/category/{id}',
	fields: [categoryId],
};
