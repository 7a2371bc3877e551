/** User → Delete: POST /v1/people/users/delete/bulk. Delete one or more users. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { bodyField } from '../../../shared/engine/fields';
import { toStringIds } from '../../../shared/field-values';
import { BULK_DELETE_WHY, bulkDeleteOutput } from '../common';

export const deleteUser: Operation = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete users',
	description: 'Delete one or more users',
	method: 'POST',
	path: '/v1/people/users/delete/bulk',
	regional: true,
	fields: [
		bodyField(
			{
				displayName: 'User Names or IDs',
				name: 'userIds',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getPeopleUsers' },
				default: [],
				required: true,
				description:
					'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
				hint: 'The users to delete; an expression may give a list or comma-separated text',
			},
			'ids',
			(v, ctx) => toStringIds(v, 'Users', ctx),
		),
		bodyField({
			displayName: 'Force Delete',
			name: 'forcedDelete',
			type: 'boolean',
			default: false,
			description: 'Whether to delete users even when they are employees of a payrun',
		}),
	],
	why: BULK_DELETE_WHY,
	execute: async (ctx, req) => {
		const answer = await ctx.send<IDataObject | undefined>(req);
		return bulkDeleteOutput(answer, req.body.ids as string[], ctx, 'users');
	},
};
