/** Record → Create: POST /v1/crm/core/table/{tableId}/record. Add a record to a table. */

import type { Operation } from '../../../shared/engine/model';
import { TABLES_PATH } from '../table/model';
import { byNameField, columnsField, tableField } from './fields';
import { cellsFromMapper, writtenRecord } from './cells';

export const createRecord: Operation = {
	value: 'create',
	name: 'Create',
	action: 'Create a record',
	description: 'Add a record to a table',
	method: 'POST',
	path: `${TABLES_PATH}/{tableId}/record`,
	regional: true,
	fields: [tableField, columnsField(true), byNameField('the created record')],
	why: 'The cells come from the Columns mapper, checked against the table’s columns (read from the platform); the record is given from the answer or read back.',
	execute: async (ctx) => {
		const req = ctx.fromFields();
		req.body.cells = await cellsFromMapper(ctx, 'create');
		const answer = await ctx.send(req);
		return await writtenRecord(answer, ctx);
	},
};
