/** Deal → Bulk Delete: DELETE /v1/crm/deals. Delete several deals in one request. */

import type { Operation } from '../../../shared/engine/model';
import { dealIdsField } from './common';

export const bulkDeleteDeal: Operation = {
	value: 'bulkDelete',
	name: 'Bulk Delete',
	action: 'Delete many deals at once',
	description: 'Delete several deals in one request',
	method: 'DELETE',
	path: '/v1/crm/deals',
	fields: [dealIdsField('ids')],
	why: 'The platform answers with nothing to show: the output is one item per deleted ID.',
	execute: async (ctx, req) => {
		await ctx.send(req);
		return (req.body.ids as number[]).map((id) => ({ deleted: true, id }));
	},
};
