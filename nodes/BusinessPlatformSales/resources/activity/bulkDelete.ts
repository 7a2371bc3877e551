/** Activity → Bulk Delete: POST /v1/crm/activities/bulkDelete. Delete several activities in one request. */

import type { Operation } from '../../../shared/engine/model';
import { activityIds, activityIdsProperty } from './common';

export const bulkDeleteActivity: Operation = {
	value: 'bulkDelete',
	name: 'Bulk Delete',
	action: 'Delete many activities at once',
	description: 'Delete several activities in one request',
	method: 'POST',
	path: '/v1/crm/activities/bulkDelete',
	fields: [{ property: activityIdsProperty }],
	why: 'The body is a bare JSON array of IDs, which no field can give; the output is one item per deleted ID.',
	check: (_req, ctx) => {
		activityIds(ctx.param('activityIds', ''), ctx);
	},
	execute: async (ctx, req) => {
		// The body is a bare JSON array of IDs.
		req.rawBody = activityIds(ctx.param('activityIds', ''), ctx);
		await ctx.send(req);
		return (req.rawBody as number[]).map((id) => ({ deleted: true, id }));
	},
};
