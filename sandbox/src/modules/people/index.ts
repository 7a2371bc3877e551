/**
 * People — /v1/people/users…: users, approvers, designations, beneficiaries and
 * tax declarations (component groups, also under /v1/people, are in ../payroll).
 *
 * The people service sits behind a gRPC gateway: every success is 200, int64
 * fields are written as strings, and errors use the gatewayruntimeError body
 * {error, code, message, details}. Each file's header lists the choices made
 * where the spec says "not shown".
 */
import { addRoutes, type Module, type RouteDef } from '../../module';
import { listApprovers } from './approvers';
import { putBeneficiaryStatus, syncBeneficiaries } from './beneficiaries';
import { GW } from './common';
import { filterUsers, listUsers } from './search';
import { seedUsers } from './seed';
import { listTaxDeclarations, seedTaxDeclarations } from './taxDeclarations';
import { deleteUsers, listDesignations, patchUser, postUser, putUser } from './users';

const USERS = '/v1/people/users';

const ROUTES: RouteDef[] = [
	['GET', USERS, listUsers, GW],
	['POST', USERS, postUser, GW],
	['PUT', USERS, putUser, GW],
	['PATCH', USERS, patchUser, GW],
	['POST', `${USERS}/delete/bulk`, deleteUsers, GW],
	['POST', `${USERS}/filtered-users`, filterUsers, GW],
	['GET', `${USERS}/approvers/list`, listApprovers, GW],
	['GET', `${USERS}/designations`, listDesignations, GW],
	['PUT', `${USERS}/beneficiary-status`, putBeneficiaryStatus, GW],
	['POST', `${USERS}/sync-beneficiaries`, syncBeneficiaries, GW],
	['GET', `${USERS}/in/tax-declaration-info/list`, listTaxDeclarations, GW],
];

export const people: Module = {
	name: 'people',
	seed(env, tenant, s) {
		const users = seedUsers(env, tenant, s.rnd, s.rows, s.index);
		seedTaxDeclarations(env, tenant, users, s.rnd);
	},
	routes: (router, env) => addRoutes(router, env, ROUTES),
};
