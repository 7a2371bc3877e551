/** Component Group → Delete: POST /v1/people/tenants/component-group/delete. Delete one or more component groups. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { bodyField } from '../../../shared/engine/fields';
import { toStringIds } from '../../../shared/field-values';
import { BULK_DELETE_WHY, bulkDeleteOutput } from '../common';
import { PATH } from './common';

export const deleteComponentGroup: Operation = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete component groups',
	description: 'Delete one or more component groups',
	method: 'POST',
	path: `${PATH}/delete`,
	regional: true,
	fields: [
		bodyField(
			{
				displayName: 'Component Group IDs',
				name: 'componentGroupIds',
				type: 'string',
				default: '',
				required: true,
				description: 'Comma-separated IDs of the groups to delete',
			},
			'ids',
			(v, ctx) => toStringIds(v, 'Component Group IDs', ctx),
		),
		bodyField({
			displayName: 'Force Delete',
			name: 'forcedDelete',
			type: 'boolean',
			default: false,
			description: 'Whether to delete groups even when they apply to users',
		}),
	],
	why: BULK_DELETE_WHY,
	execute: async (ctx, req) => {
		const answer = await ctx.send<IDataObject | undefined>(req);
		return bulkDeleteOutput(answer, req.body.ids as string[], ctx, 'component groups');
	},
};
