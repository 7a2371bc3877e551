/** Table → Get: GET /v1/crm/core/table/{tableId}. Get one table with its columns. */

import type { Field, Operation } from '../../../shared/engine/model';
import { TABLES_PATH } from '../../common/tables';
import { COLUMNS_RETURNED, simplifyTable, tableIdValue, tableLocator, withTableId } from './common';

const tableField: Field = {
	property: tableLocator,
	send: { in: 'path', key: 'tableId', map: tableIdValue },
};

export const getTable: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get a table',
	description: 'Get one table with its columns',
	method: 'GET',
	path: `${TABLES_PATH}/{tableId}`,
	regional: true,
	fields: [tableField],
	simplify: simplifyTable,
	returns: COLUMNS_RETURNED('the table'),
	toolHint: 'The table may be given by name or ID',
	why: 'A table given by name (as a model gives it) is found in the list of tables first.',
	execute: async (ctx, req) => {
		await withTableId(req, ctx);
		return await ctx.send(req);
	},
};
