/**
 * Component groups (the pay components applied to users) — /v1/people/tenants/component-group.
 *
 * Every success is 200; errors use the gatewayruntimeError body. Choices where
 * the spec says "not shown":
 * - GET without `id` lists all groups (the listing path is not shown).
 * - A group with applyToAll, listed users or users pointing at it is "in use"
 *   and deleted only with forcedDelete (else status "failed", errCode
 *   COMPONENT_GROUP_IN_USE). Group names are unique (409).
 * - Listing the users of a group sets their componentGroup (a user is in one group).
 */
import type { Session } from '../../auth';
import { tenantOf, type Env } from '../../env';
import { json, notFound, objectBody, type Ctx, type Reply } from '../../http';
import { slice, textMatch, v1FilterConfig, type Doc, type Tenant } from '../../state';
import { validate, validateEach, type Schema } from '../../validate';
import {
	bulkIds,
	conflict,
	fieldError,
	isObj,
	lower,
	orderOf,
	peoplePage,
	sortDocs,
} from '../gateway';

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
const COMPONENT_CONFIG_SCHEMA: Schema = {
	configureAmountBasis: 'string',
	basisComponentId: 'string',
	componentPercent: 'number',
	amountPerDay: 'number',
	deductionType: 'string',
	applicableValues: 'object',
};
const FREQUENCY_SCHEMA: Schema = { period: 'string', occurrence: 'string[]', when: 'string' };
const FORMULA_SCHEMA: Schema = {
	index: 'integer',
	componentId: 'string',
	type: 'string',
	percentage: 'number',
};
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

/** Moves the users to `groupId` (or out of any group with ''), keeping the groups' user lists in step. */
export function assignGroup(tenant: Tenant, userIds: string[], groupId: string): void {
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
	const own =
		typeof u.componentGroup === 'string' && u.componentGroup
			? tenant.componentGroups.get(u.componentGroup)
			: undefined;
	return own ?? tenant.componentGroups.values().find((g) => g.applyToAll === true);
}

function componentInput(c: Doc, i: number, field: string): Doc {
	const base = `${field}[${i}]`;
	const out = { ...c };
	if (out.type != null) {
		const t = String(out.type).toUpperCase();
		if (t !== 'EARNING' && t !== 'DEDUCTION')
			throw fieldError(`${base}.type`, 'must be EARNING or DEDUCTION');
		out.type = t;
	}
	if (isObj(out.componentConfig)) {
		const cfg = validate(
			out.componentConfig,
			COMPONENT_CONFIG_SCHEMA,
			[],
			`${base}.componentConfig.`,
		);
		if (isObj(cfg.applicableValues))
			cfg.applicableValues = validate(
				cfg.applicableValues,
				{ metro: 'number', nonMetro: 'number' },
				[],
				`${base}.componentConfig.applicableValues.`,
			);
		out.componentConfig = cfg;
	}
	if (isObj(out.frequency))
		out.frequency = validate(out.frequency, FREQUENCY_SCHEMA, [], `${base}.frequency.`);
	if (Array.isArray(out.formulaConfig))
		out.formulaConfig = validateEach(out.formulaConfig, FORMULA_SCHEMA, `${base}.formulaConfig`);
	if (isObj(out.compliance))
		out.compliance = validate(
			out.compliance,
			{ countryCode: 'string', pf: 'boolean', esi: 'boolean', taxexempt: 'boolean' },
			[],
			`${base}.compliance.`,
		);
	return out;
}

function groupInput(
	env: Env,
	tenant: Tenant,
	body: Record<string, unknown>,
	required: string[],
): Doc {
	const input = validate(body, GROUP_SCHEMA, required);
	const fixed = Array.isArray(input.fixedComponents)
		? validateEach(input.fixedComponents, COMPONENT_SCHEMA, 'fixedComponents')
		: [];
	const variable = Array.isArray(input.variableComponents)
		? validateEach(input.variableComponents, { componentId: 'string' }, 'variableComponents', [
				'componentId',
			])
		: [];
	const benefits = Array.isArray(input.benefits)
		? validateEach(input.benefits, { benefitId: 'string' }, 'benefits', ['benefitId'])
		: [];
	const users = (input.users as string[] | null) ?? [];
	users.forEach((id, i) => {
		if (!tenant.peopleUsers.has(id))
			throw fieldError(`users[${i}]`, 'is not a user of this tenant');
	});
	const fixedComponents = fixed.map((c, i) => ({
		...componentInput(c, i, 'fixedComponents'),
		componentId: (c.componentId as string | null) || env.store.nextOid(),
	}));
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
	if (tenant.componentGroups.values().some((g) => g.id !== selfId && lower(g.name) === lower(name)))
		throw conflict('name', `A component group named ${String(name)} already exists`);
}

export function saveGroup(tenant: Tenant, id: string, data: Doc): Doc {
	const previous = tenant.componentGroups.get(id);
	const group = tenant.componentGroups.set(id, { id, ...data });
	const users = group.users as string[];
	if (previous) {
		const dropped = tenant.peopleUsers
			.values()
			.filter((u) => u.componentGroup === id && !users.includes(u.userId as string));
		assignGroup(
			tenant,
			dropped.map((u) => u.userId as string),
			'',
		);
	}
	assignGroup(tenant, users, id);
	return group;
}

const groupInUse = (tenant: Tenant, g: Doc) =>
	g.applyToAll === true ||
	(g.users as string[]).length > 0 ||
	tenant.peopleUsers.values().some((u) => u.componentGroup === g.id);

/** GET: one group by `id`, else the page of groups matching searchString. */
export function getComponentGroups(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const q = ctx.query;
	for (const flag of ['getCompliance', 'getComponents', 'getBenefits', 'getRolesAndTeams'])
		q.bool(flag);
	const id = q.str('id');
	if (id) {
		const g = tenant.componentGroups.get(id);
		if (!g) throw notFound('Component group', id);
		return json(200, {
			status: 'success',
			componentGroups: [g],
			filterConfig: v1FilterConfig(slice([g], 1, 1)),
			error: null,
		});
	}
	const search = q.str('searchString');
	const { field, dir } = orderOf(q, 'id', 'name', 'asc');
	const all = tenant.componentGroups.query(
		JSON.stringify(['groups', search, field, dir]),
		(items) =>
			sortDocs(
				items.filter((g) => !search || textMatch(g.name, search)),
				field,
				dir,
				'id',
			),
	);
	const { page, size } = peoplePage(env, q);
	const s = slice(all, page, size);
	return json(200, {
		status: 'success',
		componentGroups: s.items,
		filterConfig: v1FilterConfig(s),
		error: null,
	});
}

export function postComponentGroup(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const data = groupInput(env, tenant, objectBody(ctx), ['name']);
	checkGroupName(tenant, data.name);
	return json(200, saveGroup(tenant, env.store.nextOid(), data));
}

export function putComponentGroup(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const body = objectBody(ctx);
	const id = validate(body, { id: 'string' }, ['id']).id as string;
	if (!tenant.componentGroups.has(id)) throw notFound('Component group', id);
	const data = groupInput(env, tenant, body, ['id', 'name']);
	checkGroupName(tenant, data.name, id);
	return json(200, saveGroup(tenant, id, data));
}

/** POST /v1/people/tenants/component-group/delete */
export function deleteComponentGroups(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const { ids, forced } = bulkIds(objectBody(ctx));
	const missing = ids.filter((id) => !tenant.componentGroups.has(id));
	if (missing.length) throw notFound('Component group', missing.join(', '));
	const inUse = ids.filter((id) => groupInUse(tenant, tenant.componentGroups.get(id)!));
	if (inUse.length && !forced) {
		return json(200, {
			status: 'failed',
			message: `Component groups ${inUse.join(', ')} are applied to users; send forcedDelete true to delete them anyway`,
			errCode: 'COMPONENT_GROUP_IN_USE',
		});
	}
	for (const id of ids) {
		assignGroup(
			tenant,
			tenant.peopleUsers
				.values()
				.filter((u) => u.componentGroup === id)
				.map((u) => u.userId as string),
			'',
		);
		tenant.componentGroups.delete(id);
	}
	return json(200, {
		status: 'success',
		message: `${ids.length} component group(s) deleted`,
		errCode: '',
	});
}
