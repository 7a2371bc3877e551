/**
 * People — /v1/people/users…: users, approvers, designations, beneficiaries and
 * tax declarations (component groups, also under /v1/people, are in ../payroll).
 *
 * The people service sits behind a gRPC gateway: every success is 200, int64
 * fields are written as strings, and errors use the gatewayruntimeError body
 * {error, code, message, details}. Each file's header lists the choices made
 * where the spec says "not shown".
 */
import type { Module } from '../../module';
import { listApprovers } from './approvers';
import { putBeneficiaryStatus, syncBeneficiaries } from './beneficiaries';
import { GW } from '../gateway';
import { filterUsers, listUsers } from './search';
import { seedUsers } from './seed';
import { listTaxDeclarations, seedTaxDeclarations } from './taxDeclarations';
import { deleteUsers, listDesignations, patchUser, postUser, putUser } from './users';

const USERS = '/v1/people/users';

export const people: Module = {
	name: 'people',
	seed(env, tenant, s) {
		const users = seedUsers(env, tenant, s.rnd, s.rows, s.index);
		seedTaxDeclarations(env, tenant, users, s.rnd);
	},
	routeOptions: GW,
	paths: {
		[USERS]: { GET: listUsers, POST: postUser, PUT: putUser, PATCH: patchUser },
		[`${USERS}/delete/bulk`]: { POST: deleteUsers },
		[`${USERS}/filtered-users`]: { POST: filterUsers },
		[`${USERS}/approvers/list`]: { GET: listApprovers },
		[`${USERS}/designations`]: { GET: listDesignations },
		[`${USERS}/beneficiary-status`]: { PUT: putBeneficiaryStatus },
		[`${USERS}/sync-beneficiaries`]: { POST: syncBeneficiaries },
		[`${USERS}/in/tax-declaration-info/list`]: { GET: listTaxDeclarations },
	},
};
