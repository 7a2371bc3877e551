/** Record → Delete: DELETE /v1/crm/core/table/{tableId}/record/{recordId}. Delete a record from a table. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { recordField, recordIdValue, recordPath, tableField, tableIdOf } from './fields';

export const deleteRecord: Operation = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete a record',
	description: 'Delete a record from a table',
	method: 'DELETE',
	path: recordPath,
	regional: true,
	fields: [tableField, recordField],
	why: 'The output names the deleted record and its table.',
	execute: async (ctx, req) => {
		const answer = await ctx.send(req);
		return {
			deleted: true,
			id: String(
				(answer as IDataObject | undefined)?.id ?? recordIdValue(ctx.param('recordId'), ctx),
			),
			tableId: tableIdOf(ctx),
		};
	},
};
