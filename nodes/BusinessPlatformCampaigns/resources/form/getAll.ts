/** Form → Get Many: GET /v1/crm/campaign/assets/forms. List forms, optionally by a search text. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { queryField } from '../../../shared/fields';
import { formOutput, simplifyForm } from './common';

export const getAllForm: Operation = {
	value: 'getAll',
	name: 'Get Many',
	action: 'Get many forms',
	description: 'List forms, optionally by a search text',
	method: 'GET',
	path: '/v1/crm/campaign/assets/forms',
	paginate: 'dataOnly',
	fields: [
		{
			property: { displayName: 'Filters', name: 'filters', type: 'collection', placeholder: 'Add Filter', default: {}, options: [] },
			children: [queryField({ displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Text found in the form’s name' })],
		},
	],
	output: (answer) => ((answer as IDataObject[] | undefined) ?? []).map(formOutput),
	simplify: simplifyForm,
};
