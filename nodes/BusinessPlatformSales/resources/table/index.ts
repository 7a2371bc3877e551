/** Dynamic tables (metadata of the sales data's tables) — /v1/crm/core/table. */

import type { Resource } from '../../../shared/engine/model';
import { searchTables } from '../../methods/tables';
import { getTable } from './get';
import { getAllTable } from './getAll';
import { getByObjectTypeTable } from './getByObjectType';

export const tableResource: Resource = {
	value: 'table',
	name: 'Table',
	description: 'Tables of the sales data and their columns',
	operations: [getTable, getAllTable, getByObjectTypeTable],
	methods: { listSearch: { searchTables } },
};
