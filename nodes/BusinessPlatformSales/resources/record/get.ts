/** Record → Get: GET /v1/crm/core/table/{tableId}/record/{recordId}. Get one record of a table. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { byNameField, recordField, recordPath, tableField } from './fields';
import { shape } from './cells';

export const getRecord: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get a record',
	description: 'Get one record of a table',
	method: 'GET',
	path: recordPath,
	regional: true,
	fields: [tableField, recordField, byNameField('the record')],
	why: 'Cells come keyed by column ID and are given by column name too (Cells by Name), which needs the table’s columns.',
	execute: async (ctx, req) => {
		const answer = await ctx.send(req);
		return await shape(answer as IDataObject, ctx);
	},
};
