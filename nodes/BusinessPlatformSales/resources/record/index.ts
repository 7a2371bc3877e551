/**
 * Records of a dynamic table — /v1/crm/core/table/{tableId}/record…
 *
 * On the wire, cells are keyed by short column ids and select cells hold option
 * ids. Users work with column names and option names instead: the node reads the
 * table's columns once per execution to translate both ways, and checks every
 * value against its column before anything is written.
 */

import type { Resource } from '../../../shared/engine/model';
import {
	getFilterColumns,
	getRecordColumnsForCreate,
	getRecordColumnsForUpdate,
	getRefColumns,
	getSortColumns,
	searchRecords,
	searchTables,
} from '../../methods/tables';
import { countRecord } from './count';
import { createRecord } from './create';
import { deleteRecord } from './delete';
import { getRecord } from './get';
import { searchRecord } from './search';
import { updateRecord } from './update';

export const recordResource: Resource = {
	value: 'record',
	name: 'Record',
	description: 'Rows of a table, with cells by column',
	operations: [createRecord, countRecord, deleteRecord, getRecord, searchRecord, updateRecord],
	methods: {
		listSearch: { searchTables, searchRecords },
		loadOptions: { getFilterColumns, getSortColumns, getRefColumns },
		resourceMapping: { getRecordColumnsForCreate, getRecordColumnsForUpdate },
	},
};
