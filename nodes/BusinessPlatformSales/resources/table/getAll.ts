/** Table → Get Many: GET /v1/crm/core/table. List the tables, by object type or database. */

import type { Operation } from '../../../shared/engine/model';
import { TABLES_PATH } from '../../common/tables';
import { COLUMNS_RETURNED, simplifyTable, tableFilters } from './common';

export const getAllTable: Operation = {
	value: 'getAll',
	name: 'Get Many',
	action: 'Get many tables',
	description: 'List the tables, by object type or database',
	method: 'GET',
	path: TABLES_PATH,
	regional: true,
	fields: [...tableFilters()],
	// The list is not paged ({ data, totalCount } in one answer): one request, the limit applied by the node.
	paginate: 'dataOnce',
	simplify: simplifyTable,
	returns: COLUMNS_RETURNED("tables, one item each, up to the node's limit, each"),
};
