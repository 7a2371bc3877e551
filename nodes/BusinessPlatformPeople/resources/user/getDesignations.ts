/** User → Get Designations: GET /v1/people/users/designations. List the distinct designations (job titles) of the account. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';

export const getDesignationsUser: Operation = {
	value: 'getDesignations',
	name: 'Get Designations',
	action: 'Get the designations in use',
	description: 'List the distinct designations (job titles) of the account',
	returns: 'one item per designation: {"designation": "<job title>"}',
	method: 'GET',
	path: '/v1/people/users/designations',
	regional: true,
	why: 'The platform answers with a list of plain texts: each designation becomes an item {"designation": …}.',
	execute: async (ctx) => {
		const answer = await ctx.send<IDataObject | undefined>(ctx.fromFields());
		return ((answer?.designations as string[] | undefined) ?? []).map((designation) => ({
			designation,
		}));
	},
};
