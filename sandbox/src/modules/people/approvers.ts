/**
 * Approvers and team members: the copies of a user held by other users.
 * Approvers are written by iamUserId (or emailId) of another user of the
 * tenant; the names are filled from that user. Unknown approvers are 400.
 */
import type { Session } from '../../auth';
import { tenantOf, type Env } from '../../env';
import { json, type Ctx, type Reply } from '../../http';
import { slice, type Doc, type Tenant } from '../../state';
import { fieldError, findUserBy, getUser, int64, lower, peoplePage } from '../gateway';
import { usersEnvelope, userView } from './search';

export function resolveApprovers(tenant: Tenant, list: Doc[], selfId: string | undefined): Doc[] {
	return list.map((a, i) => {
		const field = `approvers[${i}]`;
		const iam = int64(a.iamUserId, `${field}.iamUserId`);
		const email = lower(a.emailId);
		if (!iam && !email) throw fieldError(`${field}.iamUserId`, 'is required (or emailId)');
		const target = findUserBy(tenant, (u) =>
			iam ? u.iamUserId === iam : lower(u.emailId) === email,
		);
		if (!target) throw fieldError(field, 'is not a user of this tenant');
		if (selfId && target.userId === selfId) throw fieldError(field, 'cannot be the user themself');
		return approverOf(target);
	});
}

export const approverOf = (u: Doc): Doc => ({
	firstName: u.firstName,
	lastName: u.lastName,
	designation: u.designation,
	emailId: u.emailId,
	iamUserId: u.iamUserId,
});
export const memberOf = (u: Doc, roles: string[]): Doc => ({
	userId: u.userId,
	iamUserId: u.iamUserId,
	firstName: u.firstName,
	lastName: u.lastName,
	employeeId: u.employeeId,
	roles,
});

/** Fills the copies of `u` held by other users (approvers, team members). */
export function refreshReferences(tenant: Tenant, u: Doc): void {
	for (const other of tenant.peopleUsers.values()) {
		other.approvers = (other.approvers as Doc[]).map((a) =>
			a.iamUserId === u.iamUserId ? approverOf(u) : a,
		);
		for (const t of other.teams as Doc[]) {
			t.members = (t.members as Doc[]).map((m) =>
				m.userId === u.userId ? memberOf(u, (m.roles as string[]) ?? []) : m,
			);
		}
	}
}

/** GET /v1/people/users/approvers/list?id=: the approvers of one user, as users. */
export function listApprovers(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const id = ctx.query.str('id');
	if (!id) throw fieldError('id', 'is required');
	for (const flag of ['getCompliance', 'getComponents', 'getBenefits', 'getRolesAndTeams'])
		ctx.query.bool(flag);
	const u = getUser(tenant, id);
	const iams = (u.approvers as Doc[]).map((a) => a.iamUserId);
	const approvers = iams
		.map((iam) => findUserBy(tenant, (x) => x.iamUserId === iam))
		.filter((x): x is Doc => !!x);
	const { page, size } = peoplePage(env, ctx.query);
	const withRoles = ctx.query.bool('getRolesAndTeams');
	return json(
		200,
		usersEnvelope(
			tenant,
			slice(approvers, page, size),
			userView({
				field: 'userId',
				dir: 'asc',
				ignRoles: withRoles === false,
				ignTeamData: withRoles === false,
			}),
		),
	);
}
