/**
 * Payroll — component groups (/v1/people/tenants/component-group…), payruns with
 * their journal entries, and paystubs (/v1/people-pay-run/…).
 *
 * Every success is 200; errors use the gatewayruntimeError body. Each file's
 * header lists the choices made where the spec says "not shown".
 */
import type { Module } from '../../module';
import { GW } from '../gateway';
import {
	deleteComponentGroups,
	getComponentGroups,
	postComponentGroup,
	putComponentGroup,
} from './componentGroups';
import {
	deletePayruns,
	listPayruns,
	listPayrunsOfYear,
	postPayrun,
	revertJournalEntries,
	syncJournalEntries,
} from './payruns';
import { listPaystubs } from './paystubs';
import { seedGroups, seedPayruns } from './seed';

const GROUPS = '/v1/people/tenants/component-group';
const PAYRUNS = '/v1/people-pay-run/payruns';

export const payroll: Module = {
	name: 'payroll',
	seed(env, tenant, s) {
		// Groups first: a payroll adds the fixed components of its user's group.
		seedGroups(env, tenant, tenant.peopleUsers.values(), s.index);
		seedPayruns(env, tenant, s.rnd, s.index);
	},
	routeOptions: GW,
	paths: {
		[GROUPS]: { GET: getComponentGroups, POST: postComponentGroup, PUT: putComponentGroup },
		[`${GROUPS}/delete`]: { POST: deleteComponentGroups },
		[PAYRUNS]: { GET: listPayruns, POST: postPayrun, DELETE: deletePayruns },
		[`${PAYRUNS}/year/:year`]: { GET: listPayrunsOfYear },
		[`${PAYRUNS}/sync-je`]: { POST: syncJournalEntries },
		[`${PAYRUNS}/revert-je`]: { POST: revertJournalEntries },
		'/v1/people-pay-run/paystubs/employee/:employeeId': { GET: listPaystubs },
	},
};
