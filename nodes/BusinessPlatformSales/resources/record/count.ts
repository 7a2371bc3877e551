/** Record → Count: GET /v1/crm/core/table/{tableId}/count. Count the records of a table. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { TABLES_PATH } from '../../common/tables';
import { tableField, tableIdOf } from './fields';

export const countRecord: Operation = {
	value: 'count',
	name: 'Count',
	action: 'Count records',
	description: 'Count the records of a table',
	returns: 'one item: {"tableId", "count"}',
	method: 'GET',
	path: `${TABLES_PATH}/{tableId}/count`,
	regional: true,
	fields: [tableField],
	why: 'The output is the count with its table ID.',
	execute: async (ctx, req) => {
		const answer = await ctx.send(req);
		return {
			tableId: tableIdOf(ctx),
			count: Number((answer as IDataObject | undefined)?.count ?? 0),
		};
	},
};
