/** User → Get Approvers: GET /v1/people/users/approvers/list. List the users who approve a user’s requests. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { queryField } from '../../../shared/engine/fields';
import { int64ToNumbers } from '../common';
import { bool, group, simplifyUser, str, userIdField } from './common';

export const getApproversUser: Operation = {
	value: 'getApprovers',
	name: 'Get Approvers',
	action: 'Get the approvers of a user',
	description: 'List the users who approve a user’s requests',
	returns: 'one item per approving user',
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
				queryField(
					str(
						'Custom Field Module',
						'customFieldModule',
						'Module whose custom fields to include, such as people',
					),
				),
			],
			'Add option',
		),
	],
	why: 'The approvers come wrapped in the answer’s users list: one item per approver, its int64 numbers (written as text) turned back into numbers.',
	execute: async (ctx) => {
		const answer = await ctx.send<IDataObject | undefined>(ctx.fromFields());
		return int64ToNumbers((answer?.users as IDataObject[] | undefined) ?? []);
	},
};
