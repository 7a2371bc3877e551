/** User → Get Designations: GET /v1/people/users/designations. List the distinct designations (job titles) of the account. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';

export const getDesignationsUser: Operation = {
	value: 'getDesignations',
	name: 'Get Designations',
	action: 'Get the designations in use',
	description: 'List the distinct designations (job titles) of the account',
	method: 'GET',
	path: '/v1/people/users/designations',
	regional: true,
	output: (answer) => ((((answer ?? {}) as IDataObject).designations as string[] | undefined) ?? []).map((designation) => ({ designation })),
};
