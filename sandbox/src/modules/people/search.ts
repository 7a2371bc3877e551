/**
 * Listing people users: GET /v1/people/users (query filters) and POST
 * /v1/people/users/filtered-users (the same, plus body conditions). Users with
 * status "draft" are listed only with includeDraft=true.
 */
import type { Session } from '../../auth';
import { tenantOf, type Env } from '../../env';
import { json, objectBody, type Ctx, type Query, type Reply } from '../../http';
import {
	slice,
	textMatch,
	v1FilterConfig,
	type Doc,
	type PageSlice,
	type Tenant,
} from '../../state';
import { beneficiariesToAdd } from './beneficiaries';
import { fieldError, isObj, lower, orderOf, pathValues, peoplePage, sortDocs } from '../gateway';
import { conditionMatches, readConditions, type Condition } from './conditions';

export interface UserQuery {
	searchString?: string;
	searchField?: string;
	userIds?: string[];
	userType?: string;
	includeDraft?: boolean;
	isInCompleteProfile?: boolean;
	accountType?: string;
	fromDate?: number;
	toDate?: number;
	field: string;
	dir: 'asc' | 'desc';
	ignRoles?: boolean;
	ignTeamData?: boolean;
	ignTeamMembers?: boolean;
	ignUserApprovers?: boolean;
	getComponents?: boolean;
	getBenefits?: boolean;
}

const SEARCH_FIELDS = [
	'name',
	'firstName',
	'lastName',
	'emailId',
	'employeeId',
	'designation',
	'department',
];

function dateParam(q: Query, name: string): number | undefined {
	const v = q.str(name);
	if (v === undefined) return undefined;
	const t = Date.parse(v);
	if (Number.isNaN(t)) throw fieldError(name, 'must be a date-time');
	return t;
}

function readUserQuery(q: Query): UserQuery {
	// Accepted without effect: cpfAccount, stage, isCustomFieldFilter, onlyTeamMembers, getCompliance, getRolesAndTeams, customFieldModule.
	for (const flag of [
		'isCustomFieldFilter',
		'onlyTeamMembers',
		'getCompliance',
		'getRolesAndTeams',
	])
		q.bool(flag);
	return {
		searchString: q.str('searchString'),
		searchField: q.str('searchField'),
		userIds: q.list('userIds'),
		userType: q.str('userType'),
		includeDraft: q.bool('includeDraft'),
		isInCompleteProfile: q.bool('isInCompleteProfile'),
		accountType: q.str('accountType'),
		fromDate: dateParam(q, 'fromDate'),
		toDate: dateParam(q, 'toDate'),
		...orderOf(q, 'userId', 'createdAt', 'desc'),
		ignRoles: q.bool('ignRoles'),
		ignTeamData: q.bool('ignTeamData'),
		ignTeamMembers: q.bool('ignTeamMembers'),
		ignUserApprovers: q.bool('ignUserApprovers'),
		getComponents: q.bool('getComponents'),
		getBenefits: q.bool('getBenefits'),
	};
}

function userMatches(u: Doc, o: UserQuery): boolean {
	if (o.searchString) {
		const fields = o.searchField ? [o.searchField] : SEARCH_FIELDS;
		if (
			!fields.some((f) =>
				pathValues(u, f).some((v) =>
					textMatch(typeof v === 'number' ? String(v) : v, o.searchString!),
				),
			)
		)
			return false;
	}
	if (o.userIds && !o.userIds.includes(u.userId as string)) return false;
	if (
		o.userType &&
		lower(o.userType) !== 'all' &&
		lower(u.type) !== lower(o.userType) &&
		lower(u.employeeType) !== lower(o.userType)
	)
		return false;
	if (!o.includeDraft && u.status === 'draft') return false;
	if (
		o.isInCompleteProfile !== undefined &&
		Boolean(u.isInCompleteProfile) !== o.isInCompleteProfile
	)
		return false;
	if (
		o.accountType &&
		lower(isObj(u.paymentDetails) ? u.paymentDetails.accountType : '') !== lower(o.accountType)
	)
		return false;
	if (o.fromDate !== undefined || o.toDate !== undefined) {
		const joined = Date.parse(String(u.dateOfJoining));
		if (Number.isNaN(joined)) return false;
		if (o.fromDate !== undefined && joined < o.fromDate) return false;
		if (o.toDate !== undefined && joined > o.toDate) return false;
	}
	return true;
}

export function userView(o: UserQuery): (u: Doc) => Doc {
	return (u) => {
		const v: Doc = { ...u };
		if (o.ignRoles) v.roles = [];
		if (o.ignTeamData) v.teams = [];
		else if (o.ignTeamMembers) v.teams = (u.teams as Doc[]).map((t) => ({ ...t, members: [] }));
		if (o.ignUserApprovers) v.approvers = [];
		if (o.getComponents === false) v.components = [];
		if (o.getBenefits === false) v.benefits = [];
		return v;
	};
}

/** The v1GetUsersResponse around one page of users. */
export const usersEnvelope = (tenant: Tenant, s: PageSlice<Doc>, view: (u: Doc) => Doc) => ({
	status: 'success',
	users: s.items.map(view),
	filterConfig: v1FilterConfig(s),
	beneficiariesToAdd: String(beneficiariesToAdd(tenant)),
});

export function listUsers(env: Env, ctx: Ctx<Session>, conditions: Condition[] = []): Reply {
	const tenant = tenantOf(env, ctx);
	const o = readUserQuery(ctx.query);
	const all = tenant.peopleUsers.query(JSON.stringify(['users', o, conditions]), (items) =>
		sortDocs(
			items.filter((u) => userMatches(u, o) && conditions.every((c) => conditionMatches(u, c))),
			o.field,
			o.dir,
			'userId',
		),
	);
	const { page, size } = peoplePage(env, ctx.query);
	return json(200, usersEnvelope(tenant, slice(all, page, size), userView(o)));
}

export const filterUsers = (env: Env, ctx: Ctx<Session>): Reply =>
	listUsers(env, ctx, readConditions(objectBody(ctx, false)));
