/** Activity → Bulk Update: PATCH /v1/crm/activities/bulkUpdate. Set the visibility or the done status of several activities in one request. */

import type { Operation } from '../../../shared/engine/model';
import { bodyField, requireSomeFields, sortedCollection } from '../../../shared/engine/fields';
import { activityIds, activityIdsProperty, DONE, VISIBILITY } from './common';

export const bulkUpdateActivity: Operation = {
	value: 'bulkUpdate',
	name: 'Bulk Update',
	action: 'Update many activities at once',
	description: 'Set the visibility or the done status of several activities in one request',
	method: 'PATCH',
	path: '/v1/crm/activities/bulkUpdate',
	fields: [
		{ property: activityIdsProperty, send: { in: 'body', key: 'ids', map: activityIds } },
		sortedCollection(
			{ displayName: 'Update Fields', name: 'updateFields', placeholder: 'Add Field', default: {} },
			[
				bodyField(
					{
						displayName: 'Visibility',
						name: 'visibilityType',
						type: 'options',
						options: VISIBILITY,
						default: 'public',
					},
					'visibility_type',
				),
				bodyField(
					{
						displayName: 'Status',
						name: 'status',
						type: 'options',
						options: DONE,
						default: 'done',
						description: 'Mark the activities as done, or as not done',
					},
					'is_status',
					(v) => (v === 'done' ? true : v === 'open' ? false : undefined),
				),
			],
		),
	],
	why: 'The platform answers with nothing to show, so the output is one item per updated ID.',
	check: (req, ctx) => {
		const { ids, ...rest } = req.body;
		void ids;
		requireSomeFields(rest, ctx);
	},
	execute: async (ctx, req) => {
		await ctx.send(req);
		return (req.body.ids as number[]).map((id) => ({ id, updated: true }));
	},
};
