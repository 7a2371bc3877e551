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
	prepare: async (req, ctx) => {
		req.body.cells = await cellsFromMapper(ctx, 'create');
	},
	output: async (answer, ctx) => await writtenRecord(answer, ctx),
};
