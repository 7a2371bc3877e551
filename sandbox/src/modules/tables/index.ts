/**
 * Dynamic tables and their records — /v1/crm/core/table…
 *
 * Every tenant gets four tables (CONTACT, DEAL, STAGE, PIPELINE) in the database
 * "crm". Records are stored per table in `tenant.records` (table id → Collection).
 * The record tables are not linked to the sales resources (/v1/crm/contacts…):
 * writes to one do not show in the other. Each file's header lists the choices
 * made where the spec says "not shown".
 */
import type { Module } from '../../module';
import { countRecords, deleteRecord, getRecordRoute, postRecord, putRecord } from './records';
import { pagedRecords } from './search';
import { bulkRecords, seedTables } from './seed';
import { getTableRoute, listTablesRoute, tablesByObjectType } from './tables';

const TABLE = '/v1/crm/core/table';

export const tables: Module = {
	name: 'tables',
	seed: seedTables,
	bulk: {
		records: (env, tenant, count, options) => bulkRecords(env, tenant, count, options),
	},
	paths: {
		[TABLE]: { GET: listTablesRoute },
		[`${TABLE}/by-object-type`]: { GET: tablesByObjectType },
		[`${TABLE}/:tableId`]: { GET: getTableRoute },
		[`${TABLE}/:tableId/record`]: { POST: postRecord },
		[`${TABLE}/:tableId/paged-record`]: { POST: pagedRecords },
		[`${TABLE}/:tableId/count`]: { GET: countRecords },
		[`${TABLE}/:tableId/record/:recordId`]: {
			GET: getRecordRoute,
			PUT: putRecord,
			DELETE: deleteRecord,
		},
	},
};
