/** User → Get Approvers: GET /v1/people/users/approvers/list. List the users who approve a user’s requests. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { queryField } from '../../../shared/fields';
import { int64ToNumbers } from '../common';
import { bool, simplifyUser, userIdField } from './common';
import { group, str } from './fields';

export const getApproversUser: Operation = {
	value: 'getApprovers',
	name: 'Get Approvers',
	action: 'Get the approvers of a user',
	description: 'List the users who approve a user’s requests',
	method: 'GET',
	path: '/v1/people/users/approvers/list',
	regional: true,
	simplify: simplifyUser,
	fields: [
		userIdField('id', 'query'),
		group(
			'Options',
			'approverOptions',
			[
				bool('Get Compliance', 'getCompliance', 'Whether to include compliance data'),
				bool('Get Components', 'getComponents', 'Whether to include pay components'),
				bool('Get Benefits', 'getBenefits', 'Whether to include benefits'),
				bool('Get Roles and Teams', 'getRolesAndTeams', 'Whether to include roles and teams'),
				queryField(str('Custom Field Module', 'customFieldModule', 'Module whose custom fields to include, such as people')),
			],
			'Add Option',
		),
	],
	output: (answer) => int64ToNumbers((((answer ?? {}) as IDataObject).users as IDataObject[] | undefined) ?? []),
};
