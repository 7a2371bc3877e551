/** Table → Get: GET /v1/crm/core/table/{tableId}. Get one table with its columns. */

import type { Field, Operation } from '../../../shared/engine/model';
import { TABLES_PATH } from '../table/model';
import { COLUMNS_RETURNED, simplifyTable, tableIdValue, tableLocator } from './common';

const tableField: Field = { property: tableLocator, send: { in: 'path', key: 'tableId', map: tableIdValue } };

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
};
