/**
 * Dynamic tables and their records — /v1/crm/core/table…
 *
 * Every tenant gets four tables (CONTACT, DEAL, STAGE, PIPELINE) in the database
 * "crm". Records are stored per table in `tenant.records` (table id → Collection).
 * The record tables are not linked to the sales resources (/v1/crm/contacts…):
 * writes to one do not show in the other. Each file's header lists the choices
 * made where the spec says "not shown".
 */
import { addRoutes, type Module, type RouteDef } from '../../module';
import { countRecords, deleteRecord, getRecordRoute, postRecord, putRecord } from './records';
import { pagedRecords } from './search';
import { bulkRecords, seedTables } from './seed';
import { getTableRoute, listTablesRoute, tablesByObjectType } from './tables';

const TABLE = '/v1/crm/core/table';

const ROUTES: RouteDef[] = [
	['GET', TABLE, listTablesRoute],
	['GET', `${TABLE}/by-object-type`, tablesByObjectType],
	['GET', `${TABLE}/:tableId`, getTableRoute],
	['POST', `${TABLE}/:tableId/record`, postRecord],
	['POST', `${TABLE}/:tableId/paged-record`, pagedRecords],
	['GET', `${TABLE}/:tableId/count`, countRecords],
	['GET', `${TABLE}/:tableId/record/:recordId`, getRecordRoute],
	['PUT', `${TABLE}/:tableId/record/:recordId`, putRecord],
	['DELETE', `${TABLE}/:tableId/record/:recordId`, deleteRecord],
];

export const tables: Module = {
	name: 'tables',
	seed: seedTables,
	bulk: {
		records: (env, tenant, count, options) => bulkRecords(env, tenant, count, options),
	},
	routes: (router, env) => addRoutes(router, env, ROUTES),
};
