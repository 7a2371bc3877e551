/**
 * People users — /v1/people/users (create, replace, merge, bulk delete) and
 * /v1/people/users/designations.
 *
 * - POST requires firstName (emailId is optional but, like employeeId, unique
 *   within the tenant: a duplicate is 409 ALREADY_EXISTS).
 * - PUT replaces every writable field (firstName required again); PATCH merges
 *   top-level fields and shallow-merges the objects address, paymentDetails,
 *   profileStages and customFields. System fields (userId, tenantId, iamUserId,
 *   createdAt, beneficiary fields) are kept; the beneficiary fields change only
 *   through the beneficiary endpoints.
 * - Bulk delete: unknown ids are 404 and nothing is deleted. Users that are
 *   employees of a payrun are deleted only with forcedDelete true; otherwise the
 *   answer is status "failed", errCode USER_IN_PAYRUN and nothing is deleted.
 *   Deleting a user also removes it from approvers, team members, component
 *   groups and tax declarations.
 */
import type { Session } from '../../auth';
import { tenantOf, type Env } from '../../env';
import { json, notFound, objectBody, type Ctx, type Reply } from '../../http';
import { nowIso, type Doc, type Tenant } from '../../state';
import { validate, validateEach } from '../../validate';
import { assignGroup } from '../payroll/componentGroups';
import { refreshReferences, resolveApprovers } from './approvers';
import { bulkIds, conflict, fieldError, getUser, int64, isObj, lower } from '../gateway';
import {
	ADDRESS_SCHEMA,
	APPROVER_SCHEMA,
	CUSTOM_FIELD_DATA_SCHEMA,
	DATE_FIELDS,
	EFFECTIVE_SCHEMA,
	MEMBER_SCHEMA,
	MERGED_OBJECTS,
	PAYMENT_SCHEMA,
	PROFILE_STAGES_SCHEMA,
	ROLE_SCHEMA,
	TEAM_SCHEMA,
	USER_SCHEMA,
	userDefault,
	WRITABLE,
} from './model';

/** Validates a v1User body; returns only known, well-typed fields (null = clear). */
function userInput(
	tenant: Tenant,
	body: Record<string, unknown>,
	required: string[],
	selfId: string | undefined,
): Doc {
	const input = validate(body, USER_SCHEMA, required);
	if ('iamUserId' in input) input.iamUserId = int64(input.iamUserId, 'iamUserId');
	for (const f of DATE_FIELDS) {
		const v = input[f];
		if (typeof v === 'string' && v !== '' && Number.isNaN(Date.parse(v)))
			throw fieldError(f, 'must be an ISO 8601 date');
	}
	if (Array.isArray(input.prevDateOfJoining)) {
		(input.prevDateOfJoining as string[]).forEach((v, i) => {
			if (Number.isNaN(Date.parse(v)))
				throw fieldError(`prevDateOfJoining[${i}]`, 'must be an ISO 8601 date');
		});
	}
	if (
		typeof input.emailId === 'string' &&
		input.emailId !== '' &&
		!/^[^@\s]+@[^@\s]+$/.test(input.emailId)
	)
		throw fieldError('emailId', 'must be an email address');
	if (isObj(input.address)) input.address = validate(input.address, ADDRESS_SCHEMA, [], 'address.');
	if (isObj(input.paymentDetails))
		input.paymentDetails = validate(input.paymentDetails, PAYMENT_SCHEMA, [], 'paymentDetails.');
	if (isObj(input.profileStages))
		input.profileStages = validate(
			input.profileStages,
			PROFILE_STAGES_SCHEMA,
			[],
			'profileStages.',
		);
	if (
		isObj(input.compliance) &&
		'@type' in input.compliance &&
		typeof input.compliance['@type'] !== 'string'
	)
		throw fieldError('compliance.@type', 'must be a string');
	if (Array.isArray(input.effectiveCompensations))
		input.effectiveCompensations = validateEach(
			input.effectiveCompensations,
			EFFECTIVE_SCHEMA,
			'effectiveCompensations',
		);
	if (Array.isArray(input.roles)) input.roles = validateEach(input.roles, ROLE_SCHEMA, 'roles');
	if (Array.isArray(input.teams)) {
		input.teams = validateEach(input.teams, TEAM_SCHEMA, 'teams').map((t, i) => ({
			...t,
			members: Array.isArray(t.members)
				? validateEach(t.members, MEMBER_SCHEMA, `teams[${i}].members`).map((m, j) => ({
						...m,
						iamUserId: int64(m.iamUserId, `teams[${i}].members[${j}].iamUserId`),
					}))
				: [],
		}));
	}
	if (Array.isArray(input.approvers))
		input.approvers = resolveApprovers(
			tenant,
			validateEach(input.approvers, APPROVER_SCHEMA, 'approvers'),
			selfId,
		);
	if (Array.isArray(input.customFieldData)) {
		input.customFieldData = validateEach(
			input.customFieldData,
			CUSTOM_FIELD_DATA_SCHEMA,
			'customFieldData',
		).map((c, i) => ({
			...c,
			tenantId:
				typeof c.tenantId === 'string'
					? c.tenantId
					: int64(c.tenantId, `customFieldData[${i}].tenantId`),
			iamUserId: int64(c.iamUserId, `customFieldData[${i}].iamUserId`),
		}));
	}
	if (
		typeof input.componentGroup === 'string' &&
		input.componentGroup !== '' &&
		!tenant.componentGroups.has(input.componentGroup)
	) {
		throw fieldError('componentGroup', 'is not a component group of this tenant');
	}
	return input;
}

function checkUnique(tenant: Tenant, user: Doc): void {
	for (const other of tenant.peopleUsers.values()) {
		if (other.userId === user.userId) continue;
		if (user.emailId && lower(other.emailId) === lower(user.emailId))
			throw conflict('emailId', `A user with emailId ${String(user.emailId)} already exists`);
		if (user.employeeId && other.employeeId === user.employeeId)
			throw conflict(
				'employeeId',
				`A user with employeeId ${String(user.employeeId)} already exists`,
			);
	}
}

const fullName = (u: Doc) =>
	[u.firstName, u.middleName, u.lastName]
		.filter((x) => typeof x === 'string' && x !== '')
		.join(' ');

function nextEmployeeId(tenant: Tenant): string {
	let n = tenant.peopleUsers.size + 1;
	const taken = new Set(tenant.peopleUsers.values().map((u) => u.employeeId));
	while (taken.has(`EMP-${String(n).padStart(4, '0')}`)) n++;
	return `EMP-${String(n).padStart(4, '0')}`;
}

export function createUser(env: Env, tenant: Tenant, input: Doc): Doc {
	const userId = env.store.nextOid();
	const u: Doc = Object.fromEntries(Object.keys(USER_SCHEMA).map((k) => [k, userDefault(k)]));
	for (const [k, v] of Object.entries(input)) if (WRITABLE.includes(k)) u[k] = v ?? userDefault(k);
	u.userId = userId;
	u.tenantId = String(tenant.id);
	u.erpTenantId = String(tenant.id);
	u.iamUserId = String(500000 + env.store.nextInt('iamUser'));
	u.createdAt = nowIso();
	if (!u.name) u.name = fullName(u);
	if (!u.displayName) u.displayName = u.name;
	if (!u.employeeId) u.employeeId = nextEmployeeId(tenant);
	if (!u.username && u.emailId) u.username = String(u.emailId).split('@')[0];
	if (!u.organizationName) u.organizationName = tenant.name;
	checkUnique(tenant, u);
	tenant.peopleUsers.set(userId, u);
	if (u.componentGroup) assignGroup(tenant, [userId], u.componentGroup as string);
	return u;
}

const userResponse = (u: Doc) => ({
	status: 'success',
	user: u,
	errors: [],
	httpStatusCode: '200',
	error: null,
});

/** POST /v1/people/users */
export function postUser(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const input = userInput(tenant, objectBody(ctx), ['firstName'], undefined);
	return json(200, userResponse(createUser(env, tenant, input)));
}

/** PUT (replace) and PATCH (merge) /v1/people/users */
function updateUser(env: Env, ctx: Ctx<Session>, replace: boolean): Reply {
	const tenant = tenantOf(env, ctx);
	const body = objectBody(ctx);
	const id = validate(body, { userId: 'string' }, ['userId']).userId as string;
	const u = getUser(tenant, id);
	const input = userInput(tenant, body, replace ? ['userId', 'firstName'] : ['userId'], id);
	const next: Doc = { ...u };
	if (replace) {
		for (const k of WRITABLE) next[k] = k in input && input[k] !== null ? input[k] : userDefault(k);
	} else {
		for (const k of WRITABLE) {
			if (!(k in input)) continue;
			const v = input[k];
			next[k] =
				v === null
					? userDefault(k)
					: MERGED_OBJECTS.includes(k) && isObj(v) && isObj(u[k])
						? { ...(u[k] as Doc), ...v }
						: v;
		}
	}
	const nameChanged = ['firstName', 'middleName', 'lastName'].some((k) => k in input);
	if (replace ? !next.name : nameChanged && !('name' in input)) next.name = fullName(next);
	if (replace ? !next.displayName : nameChanged && !('displayName' in input))
		next.displayName = next.name;
	if (!next.employeeId) next.employeeId = u.employeeId;
	checkUnique(tenant, next);
	const group = (next.componentGroup as string | null) ?? '';
	const previous = (u.componentGroup as string | null) ?? '';
	Object.assign(u, next, { componentGroup: previous });
	if (group !== previous) assignGroup(tenant, [id], group);
	refreshReferences(tenant, u);
	tenant.peopleUsers.touch();
	return json(200, userResponse(u));
}

export const putUser = (env: Env, ctx: Ctx<Session>) => updateUser(env, ctx, true);
export const patchUser = (env: Env, ctx: Ctx<Session>) => updateUser(env, ctx, false);

/** POST /v1/people/users/delete/bulk */
export function deleteUsers(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const { ids, forced } = bulkIds(objectBody(ctx));
	const missing = ids.filter((id) => !tenant.peopleUsers.has(id));
	if (missing.length) throw notFound('User', missing.join(', '));
	const inPayrun = ids.filter((id) =>
		tenant.payruns
			.values()
			.some((p) => Array.isArray(p.employees) && (p.employees as string[]).includes(id)),
	);
	if (inPayrun.length && !forced) {
		return json(200, {
			status: 'failed',
			message: `Users ${inPayrun.join(', ')} are employees of a payrun; send forcedDelete true to delete them anyway`,
			errCode: 'USER_IN_PAYRUN',
		});
	}
	const gone = new Set(ids);
	const goneIam = new Set(ids.map((id) => tenant.peopleUsers.get(id)!.iamUserId));
	for (const id of gone) tenant.peopleUsers.delete(id);
	for (const u of tenant.peopleUsers.values()) {
		u.approvers = (u.approvers as Doc[]).filter((a) => !goneIam.has(a.iamUserId));
		for (const t of u.teams as Doc[])
			t.members = (t.members as Doc[]).filter((m) => !gone.has(m.userId as string));
	}
	for (const g of tenant.componentGroups.values())
		g.users = (g.users as string[]).filter((id) => !gone.has(id));
	for (const t of tenant.taxDeclarations.values())
		if (gone.has(t.userId as string)) tenant.taxDeclarations.delete(t.id as string);
	tenant.peopleUsers.touch();
	tenant.componentGroups.touch();
	return json(200, { status: 'success', message: `${ids.length} user(s) deleted`, errCode: '' });
}

/** GET /v1/people/users/designations: the designations in use, sorted. */
export function listDesignations(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const designations = [
		...new Set(
			tenant.peopleUsers
				.values()
				.map((u) => u.designation)
				.filter((d): d is string => typeof d === 'string' && d !== ''),
		),
	].sort();
	return json(200, { status: 'success', designations });
}
