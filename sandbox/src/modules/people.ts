/**
 * People: users, approvers, designations, beneficiaries, tax declarations and
 * component groups — /v1/people/…
 *
 * The people service sits behind a gRPC gateway: every success is 200, int64
 * fields are written as strings, and errors use the gatewayruntimeError body
 * {error, code, message, details}. Choices where the spec says "not shown":
 * - POST /users requires firstName (emailId is optional but, like employeeId,
 *   unique within the tenant: a duplicate is 409 ALREADY_EXISTS).
 * - PUT replaces every writable field (firstName required again); PATCH merges
 *   top-level fields and shallow-merges the objects address, paymentDetails,
 *   profileStages and customFields. System fields (userId, tenantId, iamUserId,
 *   createdAt, beneficiary fields) are kept; the beneficiary fields change only
 *   through the beneficiary endpoints.
 * - Approvers are written by iamUserId (or emailId) of another user of the
 *   tenant; the names are filled from that user. Unknown approvers are 400.
 * - Bulk delete: unknown ids are 404 and nothing is deleted. Users that are
 *   employees of a payrun are deleted only with forcedDelete true; otherwise the
 *   answer is status "failed", errCode USER_IN_PAYRUN and nothing is deleted.
 *   Deleting a user also removes it from approvers, team members, component
 *   groups and tax declarations.
 * - beneficiariesToAdd counts users with no beneficiaryId whose beneficiary sync
 *   is not already PENDING. sync-beneficiaries marks those users PENDING.
 * - beneficiary-status: `operation` becomes the users' beneficiaryStatus,
 *   `reason` the beneficiaryReason, `beneId` (when given) the beneficiaryId.
 * - Users with status "draft" are listed only with includeDraft=true.
 * - Component groups: a group with applyToAll, listed users or users pointing at
 *   it is "in use" and deleted only with forcedDelete (else status "failed",
 *   errCode COMPONENT_GROUP_IN_USE). Group names are unique (409). Listing the
 *   users of a group sets their componentGroup (a user is in one group).
 */
import type { Session } from '../auth';
import { tenantOf, type Env } from '../env';
import { ApiError, badRequest, json, notFound, objectBody, type Ctx, type Query, type RouteOptions } from '../http';
import { FIRST_NAMES, LAST_NAMES, pickOne, type Module } from '../module';
import { compareValues, nowIso, slice, textMatch, v1FilterConfig, type Doc, type PageSlice, type Tenant } from '../state';
import { requireStringArray, validate, validateEach, type FieldType, type Schema } from '../validate';

const GW: RouteOptions = { errorStyle: 'gateway' };

// ---------- schemas ----------

const USER_SCHEMA: Schema = {
	// identity
	userId: 'string',
	firstName: 'string',
	lastName: 'string',
	middleName: 'string',
	name: 'string',
	displayName: 'string',
	aliasName: 'string',
	title: 'string',
	designation: 'string',
	emailId: 'string',
	contact: 'string',
	gender: 'string',
	username: 'string',
	nationality: 'string',
	department: 'string',
	profileImagePath: 'string',
	profileImageRelativePath: 'string',
	organizationName: 'string',
	tenantId: 'string',
	employeeId: 'string',
	employeeType: 'string',
	documentSequenceId: 'string',
	iamUserId: 'any',
	erpTenantId: 'string',
	appName: 'string',
	countryCode: 'string',
	contractorType: 'string',
	type: 'string',
	tenantUserId: 'string',
	// dates
	dateOfJoining: 'string',
	dateOfConfirmation: 'string',
	dateOfTermination: 'string',
	dateOfBirth: 'string',
	createdAt: 'string',
	prevDateOfJoining: 'string[]',
	// personal
	status: 'string',
	maritalStatus: 'string',
	passportNumber: 'string',
	passportCountry: 'string',
	socialSecurityNumber: 'string',
	employerIdentificationNumber: 'string',
	tenantCountryCode: 'string',
	tenantCurrencyCode: 'string',
	// structures
	address: 'object',
	roles: 'object[]',
	teams: 'object[]',
	approvers: 'object[]',
	// pay
	compensation: 'number',
	compensationPeriod: 'string',
	compensationCurrency: 'string',
	ctc: 'number',
	isEffectiveSalary: 'boolean',
	effectiveCompensations: 'object[]',
	paymentDetails: 'object',
	componentGroup: 'string',
	hasComponents: 'boolean',
	components: 'any[]',
	hasBenefits: 'boolean',
	benefits: 'any[]',
	hasSalaryAdvance: 'boolean',
	salaryAdvance: 'any',
	hasCompliance: 'boolean',
	compliance: 'object',
	// flags and misc
	isTerminated: 'boolean',
	terminationStage: 'string',
	deleted: 'boolean',
	isImported: 'boolean',
	isRehire: 'boolean',
	isInCompleteProfile: 'boolean',
	inCompleteFields: 'string[]',
	isContactUpdated: 'boolean',
	makePayroll: 'boolean',
	inviteUserToFillInfo: 'boolean',
	directDepositConsent: 'boolean',
	consentMailSend: 'boolean',
	hasDocuments: 'boolean',
	documents: 'any[]',
	announcements: 'any[]',
	customFieldData: 'object[]',
	customFields: 'object',
	profileStages: 'object',
	beneficiaryId: 'string',
	beneficiaryStatus: 'string',
	beneficiaryReason: 'string',
	locationValue: 'string',
	cnfrmDateUpdated: 'boolean',
	isFromQueue: 'boolean',
	checkHqError: 'boolean',
	checkEmployeeId: 'boolean',
};
const ADDRESS_SCHEMA: Schema = { addressLine1: 'string', addressLine2: 'string', zipCode: 'string', city: 'string', state: 'string', country: 'string', suburb: 'string', county: 'string' };
const PAYMENT_SCHEMA: Schema = Object.fromEntries(
	['bank', 'bankId', 'paymentMethod', 'accountType', 'routingNumber', 'accountNumber', 'branchCode', 'branchName', 'ifsc', 'upi', 'transitNumber', 'institutionNumber'].map((k) => [k, 'string' as FieldType]),
);
const EFFECTIVE_SCHEMA: Schema = { effectiveDate: 'string', compensation: 'number', period: 'string', isVisible: 'boolean', basicCompensation: 'number' };
const ROLE_SCHEMA: Schema = { roleId: 'string', name: 'string', appName: 'string', policies: 'string[]' };
const TEAM_SCHEMA: Schema = { teamId: 'string', name: 'string', createdAt: 'string', members: 'object[]', status: 'string', type: 'string' };
const MEMBER_SCHEMA: Schema = { userId: 'string', iamUserId: 'any', firstName: 'string', lastName: 'string', employeeId: 'string', roles: 'string[]' };
const APPROVER_SCHEMA: Schema = { firstName: 'string', lastName: 'string', designation: 'string', emailId: 'string', iamUserId: 'any' };
const CUSTOM_FIELD_DATA_SCHEMA: Schema = { id: 'string', customFieldId: 'string', value: 'string[]', userId: 'string', tenantId: 'any', iamUserId: 'any', module: 'string' };
const PROFILE_STAGES_SCHEMA: Schema = { employeeDetails: 'boolean', paymentDetails: 'boolean', witholdingSetup: 'boolean', filingAuthorization: 'boolean' };
const DATE_FIELDS = ['dateOfJoining', 'dateOfConfirmation', 'dateOfTermination', 'dateOfBirth', 'createdAt'];
/** Kept on PUT/PATCH; set by the server or by the beneficiary endpoints. */
const SYSTEM_FIELDS = ['userId', 'tenantId', 'iamUserId', 'createdAt', 'erpTenantId', 'beneficiaryId', 'beneficiaryStatus', 'beneficiaryReason'];
const WRITABLE = Object.keys(USER_SCHEMA).filter((k) => !SYSTEM_FIELDS.includes(k));
const MERGED_OBJECTS = ['address', 'paymentDetails', 'profileStages', 'customFields'];

const COMPONENT_SCHEMA: Schema = {
	componentId: 'string',
	name: 'string',
	amount: 'number',
	type: 'string',
	status: 'any',
	componentConfig: 'object',
	subType: 'string',
	frequency: 'object',
	includeInOTCalc: 'boolean',
	formula: 'string',
	formulaConfig: 'object[]',
	isActive: 'boolean',
	isForAllEmployee: 'boolean',
	compliance: 'object',
	defaultComponent: 'boolean',
	employees: 'string[]',
	isVariable: 'boolean',
	isFormula: 'boolean',
	isHidden: 'boolean',
	includeInCTC: 'boolean',
	isUnpaidIncluded: 'boolean',
	id: 'string',
};
const COMPONENT_CONFIG_SCHEMA: Schema = { configureAmountBasis: 'string', basisComponentId: 'string', componentPercent: 'number', amountPerDay: 'number', deductionType: 'string', applicableValues: 'object' };
const FREQUENCY_SCHEMA: Schema = { period: 'string', occurrence: 'string[]', when: 'string' };
const FORMULA_SCHEMA: Schema = { index: 'integer', componentId: 'string', type: 'string', percentage: 'number' };
const GROUP_SCHEMA: Schema = {
	id: 'string',
	name: 'string',
	hasFixedComponents: 'boolean',
	fixedComponents: 'object[]',
	hasVarComponents: 'boolean',
	variableComponents: 'object[]',
	hasBenefits: 'boolean',
	benefits: 'object[]',
	applyToAll: 'boolean',
	users: 'string[]',
	deleted: 'boolean',
	error: 'any',
};
const BULK_ID_SCHEMA: Schema = { ids: 'string[]', forcedDelete: 'boolean' };

// ---------- small helpers ----------

export const isObj = (v: unknown): v is Doc => v !== null && typeof v === 'object' && !Array.isArray(v);
const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : '');
const fieldError = (field: string, error: string) => badRequest(`Validation failed: ${field} ${error}`, [{ field, error }]);
const conflict = (field: string, message: string) => new ApiError(409, message, [{ field, error: 'already exists' }]);

/** int64 in gRPC-gateway JSON: a number or a digit string; stored as a string. */
export function int64(v: unknown, field: string): string | null {
	if (v === null || v === undefined) return null;
	if (typeof v === 'number' && Number.isInteger(v)) return String(v);
	if (typeof v === 'string' && /^-?\d+$/.test(v)) return v;
	throw fieldError(field, 'must be an int64 (an integer or a string of digits)');
}

/** Every value at a dotted path; arrays along the way are walked element by element. */
export function pathValues(doc: unknown, path: string): unknown[] {
	let cur: unknown[] = [doc];
	for (const part of path.split('.')) {
		cur = cur.flatMap((v) => (Array.isArray(v) ? v : [v])).flatMap((v) => (isObj(v) && part in v ? [v[part]] : []));
	}
	return cur.flatMap((v) => (Array.isArray(v) ? v : [v]));
}

export function sortDocs<T extends Doc>(items: T[], path: string, dir: 'asc' | 'desc', tieBreak: string): T[] {
	const sign = dir === 'desc' ? -1 : 1;
	const key = (d: T) => (path.includes('.') ? pathValues(d, path)[0] : d[path]);
	return [...items].sort((x, y) => sign * compareValues(key(x), key(y)) || compareValues(x[tieBreak], y[tieBreak]));
}

/** limit/currentPage (int64 as strings; 0 means "not set"). */
export function peoplePage(env: Env, q: Query): { page: number; size: number } {
	const page = q.int('currentPage', { min: 0 }) || 1;
	const limit = q.int('limit', { min: 0 }) || env.config.defaultPageSize;
	return { page, size: Math.min(limit, env.config.maxPageSize) };
}

export function sortDir(raw: string | undefined, fallback: 'asc' | 'desc', field = 'order'): 'asc' | 'desc' {
	if (raw === undefined) return fallback;
	const v = raw.toLowerCase();
	if (v === 'asc' || v === 'ascending' || v === '1') return 'asc';
	if (v === 'desc' || v === 'descending' || v === '-1') return 'desc';
	throw fieldError(field, 'must be asc or desc');
}

/** orderBy.field/orderBy.order win over field/order; `_id` names the resource id. */
function orderOf(q: Query, idField: string, fallback: string, fallbackDir: 'asc' | 'desc'): { field: string; dir: 'asc' | 'desc' } {
	const raw = q.str('orderBy.field') ?? q.str('field');
	const field = !raw ? fallback : raw === '_id' || raw === 'id' ? idField : raw;
	return { field, dir: sortDir(q.str('orderBy.order') ?? q.str('order'), fallbackDir) };
}

const usersEnvelope = (tenant: Tenant, s: PageSlice<Doc>, view: (u: Doc) => Doc) => ({
	status: 'success',
	users: s.items.map(view),
	filterConfig: v1FilterConfig(s),
	beneficiariesToAdd: String(beneficiariesToAdd(tenant)),
});

const beneficiariesToAdd = (tenant: Tenant) => tenant.peopleUsers.values().filter((u) => !u.beneficiaryId && u.beneficiaryStatus !== 'PENDING').length;

// ---------- user input ----------

function blankValue(type: FieldType): unknown {
	if (type === 'string') return '';
	if (type === 'number' || type === 'integer') return 0;
	if (type === 'boolean') return false;
	if (type.endsWith('[]')) return [];
	return null;
}

const USER_DEFAULTS: Record<string, () => unknown> = {
	status: () => 'active',
	type: () => 'EMPLOYEE',
	makePayroll: () => true,
	profileStages: () => ({ employeeDetails: false, paymentDetails: false, witholdingSetup: false, filingAuthorization: false }),
	customFields: () => ({}),
};
const userDefault = (k: string) => (USER_DEFAULTS[k] ? USER_DEFAULTS[k]() : blankValue(USER_SCHEMA[k]));

function findUserBy(tenant: Tenant, pred: (u: Doc) => boolean): Doc | undefined {
	return tenant.peopleUsers.values().find(pred);
}

function resolveApprovers(tenant: Tenant, list: Doc[], selfId: string | undefined): Doc[] {
	return list.map((a, i) => {
		const field = `approvers[${i}]`;
		const iam = int64(a.iamUserId, `${field}.iamUserId`);
		const email = lower(a.emailId);
		if (!iam && !email) throw fieldError(`${field}.iamUserId`, 'is required (or emailId)');
		const target = findUserBy(tenant, (u) => (iam ? u.iamUserId === iam : lower(u.emailId) === email));
		if (!target) throw fieldError(field, 'is not a user of this tenant');
		if (selfId && target.userId === selfId) throw fieldError(field, 'cannot be the user themself');
		return approverOf(target);
	});
}

const approverOf = (u: Doc): Doc => ({ firstName: u.firstName, lastName: u.lastName, designation: u.designation, emailId: u.emailId, iamUserId: u.iamUserId });
const memberOf = (u: Doc, roles: string[]): Doc => ({ userId: u.userId, iamUserId: u.iamUserId, firstName: u.firstName, lastName: u.lastName, employeeId: u.employeeId, roles });

/** Validates a v1User body; returns only known, well-typed fields (null = clear). */
function userInput(tenant: Tenant, body: Record<string, unknown>, required: string[], selfId: string | undefined): Doc {
	const input = validate(body, USER_SCHEMA, required);
	if ('iamUserId' in input) input.iamUserId = int64(input.iamUserId, 'iamUserId');
	for (const f of DATE_FIELDS) {
		const v = input[f];
		if (typeof v === 'string' && v !== '' && Number.isNaN(Date.parse(v))) throw fieldError(f, 'must be an ISO 8601 date');
	}
	if (Array.isArray(input.prevDateOfJoining)) {
		(input.prevDateOfJoining as string[]).forEach((v, i) => {
			if (Number.isNaN(Date.parse(v))) throw fieldError(`prevDateOfJoining[${i}]`, 'must be an ISO 8601 date');
		});
	}
	if (typeof input.emailId === 'string' && input.emailId !== '' && !/^[^@\s]+@[^@\s]+$/.test(input.emailId)) throw fieldError('emailId', 'must be an email address');
	if (isObj(input.address)) input.address = validate(input.address, ADDRESS_SCHEMA, [], 'address.');
	if (isObj(input.paymentDetails)) input.paymentDetails = validate(input.paymentDetails, PAYMENT_SCHEMA, [], 'paymentDetails.');
	if (isObj(input.profileStages)) input.profileStages = validate(input.profileStages, PROFILE_STAGES_SCHEMA, [], 'profileStages.');
	if (isObj(input.compliance) && '@type' in input.compliance && typeof input.compliance['@type'] !== 'string') throw fieldError('compliance.@type', 'must be a string');
	if (Array.isArray(input.effectiveCompensations)) input.effectiveCompensations = validateEach(input.effectiveCompensations, EFFECTIVE_SCHEMA, 'effectiveCompensations');
	if (Array.isArray(input.roles)) input.roles = validateEach(input.roles, ROLE_SCHEMA, 'roles');
	if (Array.isArray(input.teams)) {
		input.teams = validateEach(input.teams, TEAM_SCHEMA, 'teams').map((t, i) => ({
			...t,
			members: Array.isArray(t.members)
				? validateEach(t.members, MEMBER_SCHEMA, `teams[${i}].members`).map((m, j) => ({ ...m, iamUserId: int64(m.iamUserId, `teams[${i}].members[${j}].iamUserId`) }))
				: [],
		}));
	}
	if (Array.isArray(input.approvers)) input.approvers = resolveApprovers(tenant, validateEach(input.approvers, APPROVER_SCHEMA, 'approvers'), selfId);
	if (Array.isArray(input.customFieldData)) {
		input.customFieldData = validateEach(input.customFieldData, CUSTOM_FIELD_DATA_SCHEMA, 'customFieldData').map((c, i) => ({
			...c,
			tenantId: typeof c.tenantId === 'string' ? c.tenantId : int64(c.tenantId, `customFieldData[${i}].tenantId`),
			iamUserId: int64(c.iamUserId, `customFieldData[${i}].iamUserId`),
		}));
	}
	if (typeof input.componentGroup === 'string' && input.componentGroup !== '' && !tenant.componentGroups.has(input.componentGroup)) {
		throw fieldError('componentGroup', 'is not a component group of this tenant');
	}
	return input;
}

function checkUnique(tenant: Tenant, user: Doc): void {
	for (const other of tenant.peopleUsers.values()) {
		if (other.userId === user.userId) continue;
		if (user.emailId && lower(other.emailId) === lower(user.emailId)) throw conflict('emailId', `A user with emailId ${String(user.emailId)} already exists`);
		if (user.employeeId && other.employeeId === user.employeeId) throw conflict('employeeId', `A user with employeeId ${String(user.employeeId)} already exists`);
	}
}

const fullName = (u: Doc) => [u.firstName, u.middleName, u.lastName].filter((x) => typeof x === 'string' && x !== '').join(' ');

function nextEmployeeId(tenant: Tenant): string {
	let n = tenant.peopleUsers.size + 1;
	const taken = new Set(tenant.peopleUsers.values().map((u) => u.employeeId));
	while (taken.has(`EMP-${String(n).padStart(4, '0')}`)) n++;
	return `EMP-${String(n).padStart(4, '0')}`;
}

/** Fills the copies of `u` held by other users (approvers, team members). */
function refreshReferences(tenant: Tenant, u: Doc): void {
	for (const other of tenant.peopleUsers.values()) {
		other.approvers = (other.approvers as Doc[]).map((a) => (a.iamUserId === u.iamUserId ? approverOf(u) : a));
		for (const t of other.teams as Doc[]) {
			t.members = (t.members as Doc[]).map((m) => (m.userId === u.userId ? memberOf(u, (m.roles as string[]) ?? []) : m));
		}
	}
}

/** Moves the users to `groupId` (or out of any group with ''), keeping the groups' user lists in step. */
function assignGroup(tenant: Tenant, userIds: string[], groupId: string): void {
	for (const id of userIds) {
		const u = tenant.peopleUsers.get(id);
		if (!u) continue;
		const previous = (u.componentGroup as string | null) ?? '';
		if (previous && previous !== groupId) {
			const g = tenant.componentGroups.get(previous);
			if (g) g.users = (g.users as string[]).filter((x) => x !== id);
		}
		if (groupId) {
			const g = tenant.componentGroups.get(groupId);
			if (g && !(g.users as string[]).includes(id)) g.users = [...(g.users as string[]), id];
		}
		u.componentGroup = groupId;
		u.hasComponents = groupId !== '';
	}
	tenant.componentGroups.touch();
	tenant.peopleUsers.touch();
}

/** The component group whose fixed components apply to a user: its own, else an applyToAll group. */
export function componentGroupOf(tenant: Tenant, u: Doc): Doc | undefined {
	const own = typeof u.componentGroup === 'string' && u.componentGroup ? tenant.componentGroups.get(u.componentGroup) : undefined;
	return own ?? tenant.componentGroups.values().find((g) => g.applyToAll === true);
}

function createUser(env: Env, tenant: Tenant, input: Doc): Doc {
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

function getUser(tenant: Tenant, id: string): Doc {
	const u = tenant.peopleUsers.get(id);
	if (!u) throw notFound('User', id);
	return u;
}

const userResponse = (u: Doc) => ({ status: 'success', user: u, errors: [], httpStatusCode: '200', error: null });

// ---------- user queries ----------

interface UserQuery {
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

const SEARCH_FIELDS = ['name', 'firstName', 'lastName', 'emailId', 'employeeId', 'designation', 'department'];

function dateParam(q: Query, name: string): number | undefined {
	const v = q.str(name);
	if (v === undefined) return undefined;
	const t = Date.parse(v);
	if (Number.isNaN(t)) throw fieldError(name, 'must be a date-time');
	return t;
}

function readUserQuery(q: Query): UserQuery {
	// Accepted without effect: cpfAccount, stage, isCustomFieldFilter, onlyTeamMembers, getCompliance, getRolesAndTeams, customFieldModule.
	for (const flag of ['isCustomFieldFilter', 'onlyTeamMembers', 'getCompliance', 'getRolesAndTeams']) q.bool(flag);
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
		if (!fields.some((f) => pathValues(u, f).some((v) => textMatch(typeof v === 'number' ? String(v) : v, o.searchString!)))) return false;
	}
	if (o.userIds && !o.userIds.includes(u.userId as string)) return false;
	if (o.userType && lower(o.userType) !== 'all' && lower(u.type) !== lower(o.userType) && lower(u.employeeType) !== lower(o.userType)) return false;
	if (!o.includeDraft && u.status === 'draft') return false;
	if (o.isInCompleteProfile !== undefined && Boolean(u.isInCompleteProfile) !== o.isInCompleteProfile) return false;
	if (o.accountType && lower(isObj(u.paymentDetails) ? u.paymentDetails.accountType : '') !== lower(o.accountType)) return false;
	if (o.fromDate !== undefined || o.toDate !== undefined) {
		const joined = Date.parse(String(u.dateOfJoining));
		if (Number.isNaN(joined)) return false;
		if (o.fromDate !== undefined && joined < o.fromDate) return false;
		if (o.toDate !== undefined && joined > o.toDate) return false;
	}
	return true;
}

function userView(o: UserQuery): (u: Doc) => Doc {
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

// ---------- filtered-users conditions ----------

const OPERATORS: Record<string, string> = {
	eq: 'eq', '=': 'eq', equals: 'eq',
	neq: 'neq', ne: 'neq', '!=': 'neq',
	c: 'c', contains: 'c',
	nc: 'nc',
	sw: 'sw', ew: 'ew',
	in: 'in', nin: 'nin',
	gt: 'gt', gte: 'gte', ge: 'gte', lt: 'lt', lte: 'lte', le: 'lte',
};

interface Condition {
	colId: string;
	key?: string;
	opr: string;
	value: string;
}

function readConditions(body: Record<string, unknown>): Condition[] {
	const input = validate(body, { conditions: 'object[]' });
	const list = Array.isArray(input.conditions) ? input.conditions : [];
	return validateEach(list, { colId: 'string', value: 'string', opr: 'string', key: 'string' }, 'conditions').map((c, i) => {
		const colId = (c.colId as string | null) || (c.key as string | null);
		if (!colId) throw fieldError(`conditions[${i}].colId`, 'is required');
		const opr = OPERATORS[lower(c.opr ?? 'eq') || 'eq'];
		if (!opr) throw fieldError(`conditions[${i}].opr`, `must be one of ${[...new Set(Object.values(OPERATORS))].join(', ')}`);
		return { colId, key: (c.key as string | null) ?? undefined, opr, value: (c.value as string | null) ?? '' };
	});
}

/** Values a condition looks at: colId as a dotted path; `key` picks a sub-field or a custom field by its id. */
function conditionValues(u: Doc, c: Condition): unknown[] {
	let vals = pathValues(u, c.colId);
	if (c.key && c.key !== c.colId) {
		const key = c.key;
		vals = vals.flatMap((v) => {
			if (!isObj(v)) return [];
			if (key in v) return ([] as unknown[]).concat(v[key]);
			if (v.customFieldId === key || v.id === key) return ([] as unknown[]).concat(v.value ?? []);
			return [];
		});
	}
	return vals.filter((v) => v === null || typeof v !== 'object');
}

const NUMERIC = /^-?\d+(\.\d+)?$/;

function compareScalar(v: unknown, value: string): number {
	const s = v === null || v === undefined ? '' : String(v);
	if (NUMERIC.test(s) && NUMERIC.test(value)) return Number(s) - Number(value);
	const a = s.toLowerCase();
	const b = value.toLowerCase();
	return a < b ? -1 : a > b ? 1 : 0;
}

function positive(opr: string, v: unknown, value: string): boolean {
	const s = v === null || v === undefined ? '' : String(v).toLowerCase();
	const needle = value.toLowerCase();
	switch (opr) {
		case 'eq':
			return compareScalar(v, value) === 0;
		case 'c':
			return s.includes(needle);
		case 'sw':
			return s.startsWith(needle);
		case 'ew':
			return s.endsWith(needle);
		case 'in':
			return value.split(',').map((x) => x.trim()).some((x) => compareScalar(v, x) === 0);
		case 'gt':
			return compareScalar(v, value) > 0;
		case 'gte':
			return compareScalar(v, value) >= 0;
		case 'lt':
			return compareScalar(v, value) < 0;
		default:
			return compareScalar(v, value) <= 0;
	}
}

const NEGATED: Record<string, string> = { neq: 'eq', nc: 'c', nin: 'in' };

function conditionMatches(u: Doc, c: Condition): boolean {
	const vals = conditionValues(u, c);
	const candidates = vals.length ? vals : [''];
	const neg = NEGATED[c.opr];
	if (neg) return !candidates.some((v) => positive(neg, v, c.value));
	if (!vals.length && ['gt', 'gte', 'lt', 'lte'].includes(c.opr)) return false;
	return candidates.some((v) => positive(c.opr, v, c.value));
}

function listUsers(env: Env, ctx: Ctx<Session>, conditions: Condition[] = []) {
	const tenant = tenantOf(env, ctx);
	const o = readUserQuery(ctx.query);
	const all = tenant.peopleUsers.query(JSON.stringify(['users', o, conditions]), (items) =>
		sortDocs(items.filter((u) => userMatches(u, o) && conditions.every((c) => conditionMatches(u, c))), o.field, o.dir, 'userId'),
	);
	const { page, size } = peoplePage(env, ctx.query);
	return json(200, usersEnvelope(tenant, slice(all, page, size), userView(o)));
}

// ---------- component groups ----------

function componentInput(c: Doc, i: number, field: string): Doc {
	const base = `${field}[${i}]`;
	const out = { ...c };
	if (out.type != null) {
		const t = String(out.type).toUpperCase();
		if (t !== 'EARNING' && t !== 'DEDUCTION') throw fieldError(`${base}.type`, 'must be EARNING or DEDUCTION');
		out.type = t;
	}
	if (isObj(out.componentConfig)) {
		const cfg = validate(out.componentConfig, COMPONENT_CONFIG_SCHEMA, [], `${base}.componentConfig.`);
		if (isObj(cfg.applicableValues)) cfg.applicableValues = validate(cfg.applicableValues, { metro: 'number', nonMetro: 'number' }, [], `${base}.componentConfig.applicableValues.`);
		out.componentConfig = cfg;
	}
	if (isObj(out.frequency)) out.frequency = validate(out.frequency, FREQUENCY_SCHEMA, [], `${base}.frequency.`);
	if (Array.isArray(out.formulaConfig)) out.formulaConfig = validateEach(out.formulaConfig, FORMULA_SCHEMA, `${base}.formulaConfig`);
	if (isObj(out.compliance)) out.compliance = validate(out.compliance, { countryCode: 'string', pf: 'boolean', esi: 'boolean', taxexempt: 'boolean' }, [], `${base}.compliance.`);
	return out;
}

function groupInput(env: Env, tenant: Tenant, body: Record<string, unknown>, required: string[]): Doc {
	const input = validate(body, GROUP_SCHEMA, required);
	const fixed = Array.isArray(input.fixedComponents) ? validateEach(input.fixedComponents, COMPONENT_SCHEMA, 'fixedComponents') : [];
	const variable = Array.isArray(input.variableComponents) ? validateEach(input.variableComponents, { componentId: 'string' }, 'variableComponents', ['componentId']) : [];
	const benefits = Array.isArray(input.benefits) ? validateEach(input.benefits, { benefitId: 'string' }, 'benefits', ['benefitId']) : [];
	const users = (input.users as string[] | null) ?? [];
	users.forEach((id, i) => {
		if (!tenant.peopleUsers.has(id)) throw fieldError(`users[${i}]`, 'is not a user of this tenant');
	});
	const fixedComponents = fixed.map((c, i) => ({ ...componentInput(c, i, 'fixedComponents'), componentId: (c.componentId as string | null) || env.store.nextOid() }));
	return {
		name: input.name,
		hasFixedComponents: (input.hasFixedComponents as boolean | null) ?? fixedComponents.length > 0,
		fixedComponents,
		hasVarComponents: (input.hasVarComponents as boolean | null) ?? variable.length > 0,
		variableComponents: variable,
		hasBenefits: (input.hasBenefits as boolean | null) ?? benefits.length > 0,
		benefits,
		applyToAll: (input.applyToAll as boolean | null) ?? false,
		users: [...new Set(users)],
		deleted: false,
		error: null,
	};
}

function checkGroupName(tenant: Tenant, name: unknown, selfId?: string): void {
	if (tenant.componentGroups.values().some((g) => g.id !== selfId && lower(g.name) === lower(name))) throw conflict('name', `A component group named ${String(name)} already exists`);
}

function saveGroup(tenant: Tenant, id: string, data: Doc): Doc {
	const previous = tenant.componentGroups.get(id);
	const group = tenant.componentGroups.set(id, { id, ...data });
	const users = group.users as string[];
	if (previous) {
		const dropped = tenant.peopleUsers.values().filter((u) => u.componentGroup === id && !users.includes(u.userId as string));
		assignGroup(tenant, dropped.map((u) => u.userId as string), '');
	}
	assignGroup(tenant, users, id);
	return group;
}

const groupInUse = (tenant: Tenant, g: Doc) => g.applyToAll === true || (g.users as string[]).length > 0 || tenant.peopleUsers.values().some((u) => u.componentGroup === g.id);

function bulkIds(body: Record<string, unknown>): { ids: string[]; forced: boolean } {
	const input = validate(body, BULK_ID_SCHEMA);
	return { ids: requireStringArray(input.ids, 'ids'), forced: input.forcedDelete === true };
}

// ---------- seed data ----------

const DESIGNATIONS = ['Software Engineer', 'Senior Software Engineer', 'Product Manager', 'Accountant', 'HR Manager', 'Operations Analyst', 'Designer'];
const DEPARTMENTS = ['Engineering', 'Finance', 'Operations', 'People'];
const US_CITIES: [string, string, string, string][] = [
	['Springfield', 'IL', '62701', 'Sangamon'],
	['Austin', 'TX', '73301', 'Travis'],
	['Denver', 'CO', '80202', 'Denver'],
	['Portland', 'OR', '97201', 'Multnomah'],
	['Madison', 'WI', '53703', 'Dane'],
];
const IN_CITIES: [string, string, string, string][] = [
	['Bengaluru', 'Karnataka', '560001', 'Bengaluru Urban'],
	['Pune', 'Maharashtra', '411001', 'Pune'],
	['Chennai', 'Tamil Nadu', '600001', 'Chennai'],
];
const slug = (s: string) => s.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '');
const isoDay = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString();
const digits = (rnd: () => number, n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 10)).join('');

function seedUsers(env: Env, tenant: Tenant, rnd: () => number, rows: number, index: number): Doc[] {
	const us = index === 0;
	const domain = us ? 'acme.example' : 'globex.example';
	const users: Doc[] = [];
	for (let i = 0; i < rows; i++) {
		const first = FIRST_NAMES[(i * 7 + index * 3) % FIRST_NAMES.length];
		const last = LAST_NAMES[(i * 11 + index * 5) % LAST_NAMES.length];
		const contractor = i % 10 === 9;
		const joinYear = 2015 + Math.floor(rnd() * 9);
		const joined = isoDay(joinYear, Math.floor(rnd() * 12), 1 + Math.floor(rnd() * 28));
		const incomplete = i % 8 === 7;
		const [city, state, zip, county] = pickOne(rnd, us ? US_CITIES : IN_CITIES);
		const yearly = us ? 55000 + Math.floor(rnd() * 125) * 1000 : 600000 + Math.floor(rnd() * 300) * 10000;
		const compensation = contractor ? (us ? 45 + Math.floor(rnd() * 75) : 900 + Math.floor(rnd() * 1500)) : yearly;
		const period = contractor ? 'hourly' : 'yearly';
		const method = contractor ? 'check' : rnd() < 0.85 ? 'directDeposit' : pickOne(rnd, ['check', 'cash']);
		const input: Doc = {
			firstName: first,
			lastName: last,
			title: pickOne(rnd, ['Mx', 'Ms', 'Mr', 'Dr']),
			designation: i === 0 ? 'HR Manager' : pickOne(rnd, DESIGNATIONS),
			department: i === 0 ? 'People' : DEPARTMENTS[i % DEPARTMENTS.length],
			emailId: `${slug(first)}.${slug(last)}.${i + 1}@${domain}`,
			contact: us ? `+1555${digits(rnd, 7)}` : `+9198${digits(rnd, 8)}`,
			gender: pickOne(rnd, ['female', 'male', 'nonBinary']),
			nationality: us ? 'US' : 'IN',
			employeeId: `EMP-${String(i + 1).padStart(4, '0')}`,
			employeeType: contractor ? 'contractor' : 'fullTime',
			contractorType: contractor ? 'individual' : '',
			type: contractor ? 'CONTRACTOR' : 'EMPLOYEE',
			appName: 'people',
			countryCode: us ? 'US' : 'IN',
			tenantCountryCode: us ? 'US' : 'IN',
			tenantCurrencyCode: us ? 'USD' : 'INR',
			compensationCurrency: us ? 'USD' : 'INR',
			dateOfJoining: joined,
			dateOfConfirmation: new Date(Date.parse(joined) + 90 * 86400000).toISOString(),
			dateOfBirth: isoDay(1965 + Math.floor(rnd() * 35), Math.floor(rnd() * 12), 1 + Math.floor(rnd() * 28)),
			maritalStatus: pickOne(rnd, ['single', 'married']),
			passportNumber: us ? `X${digits(rnd, 8)}` : `P${digits(rnd, 7)}`,
			passportCountry: us ? 'US' : 'IN',
			socialSecurityNumber: us ? `${digits(rnd, 3)}-${digits(rnd, 2)}-${digits(rnd, 4)}` : '',
			address: { addressLine1: `${100 + Math.floor(rnd() * 900)} ${pickOne(rnd, ['Market', 'Oak', 'Main', 'Lake'])} Street`, addressLine2: rnd() < 0.3 ? `Apt ${1 + Math.floor(rnd() * 40)}` : '', zipCode: zip, city, state, country: us ? 'US' : 'IN', suburb: '', county },
			paymentDetails: us
				? { bank: pickOne(rnd, ['First National Bank', 'Lakeside Credit Union', 'Pioneer Savings']), bankId: `bank-${digits(rnd, 4)}`, paymentMethod: method, accountType: pickOne(rnd, ['checking', 'savings']), routingNumber: digits(rnd, 9), accountNumber: incomplete ? '' : digits(rnd, 10), branchCode: '', branchName: '', ifsc: '', upi: '', transitNumber: '', institutionNumber: '' }
				: { bank: pickOne(rnd, ['HDFC Bank', 'ICICI Bank', 'State Bank of India']), bankId: `bank-${digits(rnd, 4)}`, paymentMethod: method, accountType: 'savings', routingNumber: '', accountNumber: incomplete ? '' : digits(rnd, 12), branchCode: digits(rnd, 4), branchName: pickOne(rnd, ['MG Road', 'Koramangala', 'Baner']), ifsc: `HDFC000${digits(rnd, 4)}`, upi: `${slug(first)}${i + 1}@okbank`, transitNumber: '', institutionNumber: '' },
			compensation,
			compensationPeriod: period,
			ctc: contractor ? compensation * 2080 : Math.round(yearly * 1.12),
			isEffectiveSalary: !contractor,
			effectiveCompensations: contractor
				? []
				: [
						{ effectiveDate: joined, compensation: Math.round(yearly * 0.9), period, isVisible: true, basicCompensation: Math.round(yearly * 0.45) },
						{ effectiveDate: isoDay(joinYear + 1, 0, 1), compensation: yearly, period, isVisible: true, basicCompensation: Math.round(yearly * 0.5) },
					],
			roles: [
				{ roleId: 'role-employee', name: 'Employee', appName: 'people', policies: ['people:self:read', 'people:self:update'] },
				...(i < 2 ? [{ roleId: 'role-admin', name: 'Admin', appName: 'people', policies: ['people:*', 'payroll:*'] }] : []),
			],
			hasCompliance: true,
			compliance: us
				? { '@type': 'type.googleapis.com/people.v1.USCompliance', filingStatus: pickOne(rnd, ['single', 'marriedFilingJointly']), federalAllowances: Math.floor(rnd() * 3), stateCode: state }
				: { '@type': 'type.googleapis.com/people.v1.INCompliance', pan: `ABCDE${digits(rnd, 4)}F`, uan: digits(rnd, 12), pfApplicable: true, taxRegime: pickOne(rnd, ['old', 'new']) },
			isImported: i % 5 === 0,
			isInCompleteProfile: incomplete,
			inCompleteFields: incomplete ? ['paymentDetails.accountNumber'] : [],
			makePayroll: true,
			directDepositConsent: method === 'directDeposit',
			customFields: { tShirtSize: pickOne(rnd, ['S', 'M', 'L', 'XL']) },
			profileStages: { employeeDetails: true, paymentDetails: !incomplete, witholdingSetup: true, filingAuthorization: !incomplete },
			locationValue: city,
		};
		const u = createUser(env, tenant, input);
		u.username = `${slug(first)}.${i + 1}`;
		u.createdAt = new Date(Date.parse(joined) - 14 * 86400000 + i * 1000).toISOString();
		u.customFieldData = [{ id: env.store.nextOid(), customFieldId: 'cf-tshirt-size', value: [(u.customFields as Doc).tShirtSize], userId: u.userId, tenantId: u.tenantId, iamUserId: u.iamUserId, module: 'people' }];
		const hasBene = i % 3 !== 0;
		u.beneficiaryId = hasBene ? `BENE-${digits(rnd, 8)}` : '';
		u.beneficiaryStatus = hasBene ? 'ACTIVE' : '';
		users.push(u);
	}
	// Teams per department, and approvers: the first user of the department (or the first user).
	for (const dept of new Set(users.map((u) => u.department as string))) {
		const members = users.filter((u) => u.department === dept);
		const team = { teamId: `team-${slug(dept)}`, name: `${dept} team`, createdAt: isoDay(2015, 0, 5), status: 'active', type: 'department' };
		for (const u of members) {
			u.teams = [{ ...team, members: members.map((m, k) => memberOf(m, k === 0 ? ['lead'] : ['member'])) }];
			const lead = members[0] !== u ? members[0] : users[0] !== u ? users[0] : undefined;
			const approvers = lead ? [approverOf(lead)] : [];
			if (users[1] && users[1] !== u && users[1] !== lead && users.indexOf(u) % 4 === 0) approvers.push(approverOf(users[1]));
			u.approvers = approvers;
		}
	}
	tenant.peopleUsers.touch();
	return users;
}

function seedGroups(env: Env, tenant: Tenant, users: Doc[], index: number): void {
	const us = index === 0;
	const frequency = { period: 'everyPayrun', occurrence: [], when: '' };
	const config = (basis: string, pct: number, deductionType = '') => ({ configureAmountBasis: basis, basisComponentId: basis === 'percentOfBasic' ? 'basic' : '', componentPercent: pct, amountPerDay: 0, deductionType, applicableValues: { metro: 50, nonMetro: 40 } });
	const component = (name: string, type: string, amount: number, cfg: Doc, extra: Doc = {}) => ({
		componentId: env.store.nextOid(),
		name,
		amount,
		type,
		status: 'active',
		componentConfig: cfg,
		subType: type === 'EARNING' ? 'allowance' : 'deduction',
		frequency,
		includeInOTCalc: false,
		formula: '',
		formulaConfig: [],
		...extra,
	});
	const employees = users.filter((u) => u.type === 'EMPLOYEE');
	const groups: [string, Doc[], Doc[], Doc[], string[]][] = [
		[
			us ? 'Standard US package' : 'Standard India package',
			[
				component(us ? 'Housing allowance' : 'House rent allowance', 'EARNING', 0, config('percentOfBasic', 20), {
					formula: 'basic * 0.20',
					formulaConfig: [{ index: 0, componentId: 'basic', type: 'component', percentage: 20 }],
				}),
				component(us ? '401(k) contribution' : 'Provident fund', 'DEDUCTION', 0, config('percentOfBasic', 5, 'pretaxdeduction')),
				component('Health insurance', 'DEDUCTION', us ? 120 : 1500, config('fixed', 0, 'posttaxdeduction')),
			],
			[{ componentId: env.store.nextOid() }],
			[{ benefitId: env.store.nextOid() }],
			employees.filter((_, k) => k % 2 === 0).map((u) => u.userId as string),
		],
		[
			'Engineering allowances',
			[component('Internet allowance', 'EARNING', us ? 50 : 1000, config('fixed', 0)), component('Learning budget', 'EARNING', us ? 100 : 2000, config('fixed', 0))],
			[],
			[],
			employees.filter((u, k) => k % 2 === 1 && u.department === 'Engineering').map((u) => u.userId as string),
		],
		['Interns', [component('Stipend', 'EARNING', us ? 800 : 15000, config('fixed', 0))], [], [], []],
	];
	for (const [name, fixed, variable, benefits, members] of groups) {
		saveGroup(tenant, env.store.nextOid(), {
			name,
			hasFixedComponents: fixed.length > 0,
			fixedComponents: fixed,
			hasVarComponents: variable.length > 0,
			variableComponents: variable,
			hasBenefits: benefits.length > 0,
			benefits,
			applyToAll: false,
			users: members,
			deleted: false,
			error: null,
		});
	}
}

function seedTaxDeclarations(env: Env, tenant: Tenant, users: Doc[], rnd: () => number): void {
	const statuses = ['SUBMITTED', 'APPROVED', 'REJECTED'];
	users
		.filter((u, i) => u.type === 'EMPLOYEE' && i % 3 !== 2)
		.forEach((u, i) => {
			const status = statuses[i % 3];
			const id = env.store.nextOid();
			tenant.taxDeclarations.set(id, {
				id,
				userId: u.userId,
				employeeName: u.name,
				submitOn: new Date(Date.UTC(2024, Math.floor(rnd() * 3), 1 + Math.floor(rnd() * 28), 9, Math.floor(rnd() * 60))).toISOString(),
				status,
				rejectedItems: status === 'REJECTED' ? [{ section: 'Investments', item: 'Life insurance premium', amount: 1200, reason: 'Proof of payment missing' }] : [],
			});
		});
}

// ---------- the module ----------

export const people: Module = {
	name: 'people',
	seed(env, tenant, s) {
		const users = seedUsers(env, tenant, s.rnd, s.rows, s.index);
		seedGroups(env, tenant, users, s.index);
		seedTaxDeclarations(env, tenant, users, s.rnd);
	},
	routes(r, env) {
		// ----- users -----
		r.add('GET', '/v1/people/users', (ctx) => listUsers(env, ctx), GW);
		r.add(
			'POST',
			'/v1/people/users',
			(ctx) => {
				const tenant = tenantOf(env, ctx);
				const input = userInput(tenant, objectBody(ctx), ['firstName'], undefined);
				return json(200, userResponse(createUser(env, tenant, input)));
			},
			GW,
		);
		const update = (replace: boolean) => (ctx: Ctx<Session>) => {
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
					next[k] = v === null ? userDefault(k) : MERGED_OBJECTS.includes(k) && isObj(v) && isObj(u[k]) ? { ...(u[k] as Doc), ...v } : v;
				}
			}
			const nameChanged = ['firstName', 'middleName', 'lastName'].some((k) => k in input);
			if (replace ? !next.name : nameChanged && !('name' in input)) next.name = fullName(next);
			if (replace ? !next.displayName : nameChanged && !('displayName' in input)) next.displayName = next.name;
			if (!next.employeeId) next.employeeId = u.employeeId;
			checkUnique(tenant, next);
			const group = (next.componentGroup as string | null) ?? '';
			const previous = (u.componentGroup as string | null) ?? '';
			Object.assign(u, next, { componentGroup: previous });
			if (group !== previous) assignGroup(tenant, [id], group);
			refreshReferences(tenant, u);
			tenant.peopleUsers.touch();
			return json(200, userResponse(u));
		};
		r.add('PUT', '/v1/people/users', update(true), GW);
		r.add('PATCH', '/v1/people/users', update(false), GW);
		r.add(
			'POST',
			'/v1/people/users/delete/bulk',
			(ctx) => {
				const tenant = tenantOf(env, ctx);
				const { ids, forced } = bulkIds(objectBody(ctx));
				const missing = ids.filter((id) => !tenant.peopleUsers.has(id));
				if (missing.length) throw notFound('User', missing.join(', '));
				const inPayrun = ids.filter((id) => tenant.payruns.values().some((p) => Array.isArray(p.employees) && (p.employees as string[]).includes(id)));
				if (inPayrun.length && !forced) {
					return json(200, { status: 'failed', message: `Users ${inPayrun.join(', ')} are employees of a payrun; send forcedDelete true to delete them anyway`, errCode: 'USER_IN_PAYRUN' });
				}
				const gone = new Set(ids);
				const goneIam = new Set(ids.map((id) => tenant.peopleUsers.get(id)!.iamUserId));
				for (const id of gone) tenant.peopleUsers.delete(id);
				for (const u of tenant.peopleUsers.values()) {
					u.approvers = (u.approvers as Doc[]).filter((a) => !goneIam.has(a.iamUserId));
					for (const t of u.teams as Doc[]) t.members = (t.members as Doc[]).filter((m) => !gone.has(m.userId as string));
				}
				for (const g of tenant.componentGroups.values()) g.users = (g.users as string[]).filter((id) => !gone.has(id));
				for (const t of tenant.taxDeclarations.values()) if (gone.has(t.userId as string)) tenant.taxDeclarations.delete(t.id as string);
				tenant.peopleUsers.touch();
				tenant.componentGroups.touch();
				return json(200, { status: 'success', message: `${ids.length} user(s) deleted`, errCode: '' });
			},
			GW,
		);
		r.add('POST', '/v1/people/users/filtered-users', (ctx) => listUsers(env, ctx, readConditions(objectBody(ctx, false))), GW);
		r.add(
			'GET',
			'/v1/people/users/approvers/list',
			(ctx) => {
				const tenant = tenantOf(env, ctx);
				const id = ctx.query.str('id');
				if (!id) throw fieldError('id', 'is required');
				for (const flag of ['getCompliance', 'getComponents', 'getBenefits', 'getRolesAndTeams']) ctx.query.bool(flag);
				const u = getUser(tenant, id);
				const iams = (u.approvers as Doc[]).map((a) => a.iamUserId);
				const approvers = iams.map((iam) => findUserBy(tenant, (x) => x.iamUserId === iam)).filter((x): x is Doc => !!x);
				const { page, size } = peoplePage(env, ctx.query);
				const withRoles = ctx.query.bool('getRolesAndTeams');
				return json(200, usersEnvelope(tenant, slice(approvers, page, size), userView({ field: 'userId', dir: 'asc', ignRoles: withRoles === false, ignTeamData: withRoles === false })));
			},
			GW,
		);
		r.add(
			'GET',
			'/v1/people/users/designations',
			(ctx) => {
				const tenant = tenantOf(env, ctx);
				const designations = [...new Set(tenant.peopleUsers.values().map((u) => u.designation).filter((d): d is string => typeof d === 'string' && d !== ''))].sort();
				return json(200, { status: 'success', designations });
			},
			GW,
		);
		r.add(
			'PUT',
			'/v1/people/users/beneficiary-status',
			(ctx) => {
				const tenant = tenantOf(env, ctx);
				const input = validate(objectBody(ctx), { beneficiaryStatusInfo: 'object[]' }, ['beneficiaryStatusInfo']);
				const infos = validateEach(input.beneficiaryStatusInfo as unknown[], { beneficiaryDetails: 'object[]', operation: 'string' }, 'beneficiaryStatusInfo', ['beneficiaryDetails', 'operation']);
				const updates = infos.flatMap((info, i) =>
					validateEach(info.beneficiaryDetails as unknown[], { userId: 'string', reason: 'string', beneId: 'string' }, `beneficiaryStatusInfo[${i}].beneficiaryDetails`, ['userId']).map((d): Doc => ({ ...d, operation: info.operation as string })),
				);
				for (const d of updates) getUser(tenant, d.userId as string);
				for (const d of updates) {
					const u = tenant.peopleUsers.get(d.userId as string)!;
					u.beneficiaryStatus = d.operation;
					u.beneficiaryReason = (d.reason as string | null) ?? '';
					if (d.beneId) u.beneficiaryId = d.beneId;
				}
				tenant.peopleUsers.touch();
				return json(200, { status: 'success' });
			},
			GW,
		);
		r.add(
			'POST',
			'/v1/people/users/sync-beneficiaries',
			(ctx) => {
				const tenant = tenantOf(env, ctx);
				objectBody(ctx, false);
				const pending = tenant.peopleUsers.values().filter((u) => !u.beneficiaryId && u.beneficiaryStatus !== 'PENDING');
				for (const u of pending) {
					u.beneficiaryStatus = 'PENDING';
					u.beneficiaryReason = '';
				}
				tenant.peopleUsers.touch();
				return json(200, { status: `Beneficiary sync initiated for ${pending.length} user(s)` });
			},
			GW,
		);
		r.add(
			'GET',
			'/v1/people/users/in/tax-declaration-info/list',
			(ctx) => {
				const tenant = tenantOf(env, ctx);
				const q = ctx.query;
				const stage = q.str('stage');
				const search = q.str('searchString');
				const searchField = q.str('searchField');
				const userIds = q.list('userIds');
				const { field, dir } = orderOf(q, 'userId', 'submitOn', 'desc');
				const all = tenant.taxDeclarations.query(JSON.stringify(['tax', stage, search, searchField, userIds, field, dir]), (items) =>
					sortDocs(
						items.filter(
							(t) =>
								(!stage || lower(stage) === 'all' || lower(t.status) === lower(stage)) &&
								(!search || pathValues(t, searchField ?? 'employeeName').some((v) => textMatch(v, search))) &&
								(!userIds || userIds.includes(t.userId as string)),
						),
						field,
						dir,
						'id',
					),
				);
				const { page, size } = peoplePage(env, q);
				const s = slice(all, page, size);
				return json(200, {
					status: 'success',
					taxDeclarationInfo: s.items.map((t) => ({ userId: t.userId, employeeName: t.employeeName, submitOn: t.submitOn, status: t.status, rejectedItems: t.rejectedItems })),
					filterConfig: v1FilterConfig(s),
				});
			},
			GW,
		);

		// ----- component groups -----
		const GROUP_PATH = '/v1/people/tenants/component-group';
		r.add(
			'GET',
			GROUP_PATH,
			(ctx) => {
				const tenant = tenantOf(env, ctx);
				const q = ctx.query;
				for (const flag of ['getCompliance', 'getComponents', 'getBenefits', 'getRolesAndTeams']) q.bool(flag);
				const id = q.str('id');
				if (id) {
					const g = tenant.componentGroups.get(id);
					if (!g) throw notFound('Component group', id);
					return json(200, { status: 'success', componentGroups: [g], filterConfig: v1FilterConfig(slice([g], 1, 1)), error: null });
				}
				const search = q.str('searchString');
				const { field, dir } = orderOf(q, 'id', 'name', 'asc');
				const all = tenant.componentGroups.query(JSON.stringify(['groups', search, field, dir]), (items) => sortDocs(items.filter((g) => !search || textMatch(g.name, search)), field, dir, 'id'));
				const { page, size } = peoplePage(env, q);
				const s = slice(all, page, size);
				return json(200, { status: 'success', componentGroups: s.items, filterConfig: v1FilterConfig(s), error: null });
			},
			GW,
		);
		r.add(
			'POST',
			GROUP_PATH,
			(ctx) => {
				const tenant = tenantOf(env, ctx);
				const data = groupInput(env, tenant, objectBody(ctx), ['name']);
				checkGroupName(tenant, data.name);
				return json(200, saveGroup(tenant, env.store.nextOid(), data));
			},
			GW,
		);
		r.add(
			'PUT',
			GROUP_PATH,
			(ctx) => {
				const tenant = tenantOf(env, ctx);
				const body = objectBody(ctx);
				const id = validate(body, { id: 'string' }, ['id']).id as string;
				if (!tenant.componentGroups.has(id)) throw notFound('Component group', id);
				const data = groupInput(env, tenant, body, ['id', 'name']);
				checkGroupName(tenant, data.name, id);
				return json(200, saveGroup(tenant, id, data));
			},
			GW,
		);
		r.add(
			'POST',
			`${GROUP_PATH}/delete`,
			(ctx) => {
				const tenant = tenantOf(env, ctx);
				const { ids, forced } = bulkIds(objectBody(ctx));
				const missing = ids.filter((id) => !tenant.componentGroups.has(id));
				if (missing.length) throw notFound('Component group', missing.join(', '));
				const inUse = ids.filter((id) => groupInUse(tenant, tenant.componentGroups.get(id)!));
				if (inUse.length && !forced) {
					return json(200, { status: 'failed', message: `Component groups ${inUse.join(', ')} are applied to users; send forcedDelete true to delete them anyway`, errCode: 'COMPONENT_GROUP_IN_USE' });
				}
				for (const id of ids) {
					assignGroup(tenant, tenant.peopleUsers.values().filter((u) => u.componentGroup === id).map((u) => u.userId as string), '');
					tenant.componentGroups.delete(id);
				}
				return json(200, { status: 'success', message: `${ids.length} component group(s) deleted`, errCode: '' });
			},
			GW,
		);
	},
};
