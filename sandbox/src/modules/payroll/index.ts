/**
 * Payroll — component groups (/v1/people/tenants/component-group…), payruns with
 * their journal entries, and paystubs (/v1/people-pay-run/…).
 *
 * Every success is 200; errors use the gatewayruntimeError body. Each file's
 * header lists the choices made where the spec says "not shown".
 */
import { addRoutes, type Module, type RouteDef } from '../../module';
import { GW } from '../people/common';
import { deleteComponentGroups, getComponentGroups, postComponentGroup, putComponentGroup } from './componentGroups';
import { deletePayruns, listPayruns, listPayrunsOfYear, postPayrun, revertJournalEntries, syncJournalEntries } from './payruns';
import { listPaystubs } from './paystubs';
import { seedGroups, seedPayruns } from './seed';

const GROUPS = '/v1/people/tenants/component-group';
const PAYRUNS = '/v1/people-pay-run/payruns';

const ROUTES: RouteDef[] = [
	['GET', GROUPS, getComponentGroups, GW],
	['POST', GROUPS, postComponentGroup, GW],
	['PUT', GROUPS, putComponentGroup, GW],
	['POST', `${GROUPS}/delete`, deleteComponentGroups, GW],
	['GET', PAYRUNS, listPayruns, GW],
	['POST', PAYRUNS, postPayrun, GW],
	['DELETE', PAYRUNS, deletePayruns, GW],
	['GET', `${PAYRUNS}/year/:year`, listPayrunsOfYear, GW],
	['POST', `${PAYRUNS}/sync-je`, syncJournalEntries, GW],
	['POST', `${PAYRUNS}/revert-je`, revertJournalEntries, GW],
	['GET', '/v1/people-pay-run/paystubs/employee/:employeeId', listPaystubs, GW],
];

export const payroll: Module = {
	name: 'payroll',
	seed(env, tenant, s) {
		// Groups first: a payroll adds the fixed components of its user's group.
		seedGroups(env, tenant, tenant.peopleUsers.values(), s.index);
		seedPayruns(env, tenant, s.rnd, s.index);
	},
	routes: (router, env) => addRoutes(router, env, ROUTES),
};
