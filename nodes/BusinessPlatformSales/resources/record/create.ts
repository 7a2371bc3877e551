/** Record → Create: POST /v1/crm/core/table/{tableId}/record. Add a record to a table. */

import type { Operation } from '../../../shared/engine/model';
import { TABLES_PATH } from '../../common/tables';
import {
	byNameField,
	cellsInputField,
	cellsJsonField,
	columnsField,
	tableField,
	withTableId,
} from './fields';
import { cellsOfItem, writtenRecord } from './cells';
import { checkCells } from './input-checks';

export const createRecord: Operation = {
	value: 'create',
	name: 'Create',
	action: 'Create a record',
	description: 'Add a record to a table',
	method: 'POST',
	path: `${TABLES_PATH}/{tableId}/record`,
	regional: true,
	toolHint:
		'Call the tool that gets a table first to learn its columns, their types and allowed options; give cells by column name, select columns by option name. The table may be given by name or ID',
	fields: [
		tableField,
		cellsInputField,
		columnsField(true),
		cellsJsonField,
		byNameField('the created record'),
	],
	why: 'The cells come from the Columns mapper or one JSON value (Cells: From JSON), either way checked against the table’s columns (read from the platform); the record is given from the answer or read back.',
	check: (_req, ctx) => checkCells(ctx),
	execute: async (ctx, req) => {
		await withTableId(req, ctx);
		req.body.cells = await cellsOfItem(ctx, 'create');
		const answer = await ctx.send(req);
		return await writtenRecord(answer, ctx);
	},
};
