/**
 * Tax declarations of people users — GET /v1/people/users/in/tax-declaration-info/list.
 * `stage` filters by status (all: any); searchString matches employeeName (or
 * searchField); the default order is the newest submission first.
 */
import type { Session } from '../../auth';
import { tenantOf, type Env } from '../../env';
import { json, type Ctx, type Reply } from '../../http';
import { slice, textMatch, v1FilterConfig, type Doc, type Tenant } from '../../state';
import { lower, orderOf, pathValues, peoplePage, sortDocs } from './common';

export function listTaxDeclarations(env: Env, ctx: Ctx<Session>): Reply {
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
}

export function seedTaxDeclarations(env: Env, tenant: Tenant, users: Doc[], rnd: () => number): void {
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
