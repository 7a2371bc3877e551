/** Category → Get Many: GET /v1/crm/campaign/category. List campaign categories, with filters. */

import type { Operation } from '../../../shared/engine/model';
import { queryField } from '../../../shared/engine/fields';

export const getAllCategory: Operation = {
	value: 'getAll',
	name: 'Get Many',
	action: 'Get many categories',
	description: 'List campaign categories, with filters',
	method: 'GET',
	path: '/v1/crm/campaign/category',
	paginate: 'pageEnvelope',
	fields: [
		{
			property: {
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
				options: [],
			},
			children: [
				queryField({
					displayName: 'Search',
					name: 'search',
					type: 'string',
					default: '',
					description: 'Text found in the name or description',
				}),
				queryField({
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
					description: 'Text found in the name',
				}),
				queryField({
					displayName: 'Type',
					name: 'type',
					type: 'string',
					default: 'CAMPAIGN',
					description: 'Only categories of this type, such as CAMPAIGN',
				}),
			],
		},
	],
};
