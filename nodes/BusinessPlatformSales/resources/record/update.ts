/** Record → Update: PUT /v1/crm/core/table/{tableId}/record/{recordId}. Change the given cells of a record; the others keep their values. */

import type { Operation } from '../../../shared/engine/model';
import {
	byNameField,
	cellsInputField,
	cellsJsonField,
	columnsField,
	optionsField,
	recordField,
	recordIdValue,
	recordPath,
	tableField,
	withTableId,
} from './fields';
import { cellsOfItem, writtenRecord } from './cells';
import { checkCells } from './input-checks';

export const updateRecord: Operation = {
	value: 'update',
	name: 'Update',
	action: 'Update a record',
	description: 'Change the given cells of a record; the others keep their values',
	method: 'PUT',
	path: recordPath,
	regional: true,
	toolHint:
		'Call the tool that gets a table first to learn its columns, their types and allowed options; give only the cells to change, by column name, select columns by option name. The table may be given by name or ID',
	fields: [
		tableField,
		recordField,
		cellsInputField,
		columnsField(false),
		cellsJsonField,
		optionsField([
			{
				displayName: 'Clear Cells Left Empty',
				name: 'clearEmpty',
				type: 'boolean',
				default: false,
				description:
					'Whether columns added under Columns but left empty are cleared. By default they keep their current value.',
			},
		]),
		byNameField('the updated record'),
	],
	why: 'The cells come from the Columns mapper or one JSON value (Cells: From JSON), either way checked against the table’s columns (read from the platform); the record is given from the answer or read back.',
	check: (_req, ctx) => checkCells(ctx),
	execute: async (ctx, req) => {
		await withTableId(req, ctx);
		req.body.cells = await cellsOfItem(ctx, 'update');
		const answer = await ctx.send(req);
		return await writtenRecord(answer, ctx, recordIdValue(ctx.param('recordId'), ctx));
	},
};
