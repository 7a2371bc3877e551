/**
 * Tax declarations of people users — GET /v1/people/users/in/tax-declaration-info/list.
 * `stage` filters by status (all: any); searchString matches employeeName (or
 * searchField); the default order is the newest submission first.
 */
import type { Session } from '../../auth';
import { tenantOf, type Env } from '../../env';
import { json, type Ctx, type Reply } from '../../http';
import { slice, textMatch, v1FilterConfig, type Doc, type Tenant } from '../../state';
import { lower, orderOf, pathValues, peoplePage, sortDocs } from '../gateway';

export function listTaxDeclarations(env: Env, ctx: Ctx<Session>): Reply {
	const q = ctx.query;
	// The list's filter and order, as the query gives them; also the key of the cached result.
	const f = {
		stage: lower(q.str('stage')),
		search: q.str('searchString'),
		searchField: q.str('searchField') ?? 'employeeName',
		userIds: q.list('userIds'),
		...orderOf(q, 'userId', 'submitOn', 'desc'),
	};
	const all = tenantOf(env, ctx).taxDeclarations.query(JSON.stringify(f), (items) =>
		sortDocs(
			items.filter(
				(t) =>
					(!f.stage || f.stage === 'all' || lower(t.status) === f.stage) &&
					(!f.search || pathValues(t, f.searchField).some((v) => textMatch(v, f.search!))) &&
					(!f.userIds || f.userIds.includes(t.userId as string)),
			),
			f.field,
			f.dir,
			'id',
		),
	);
	const { page, size } = peoplePage(env, q);
	const s = slice(all, page, size);
	return json(200, {
		status: 'success',
		taxDeclarationInfo: s.items.map((t) => ({
			userId: t.userId,
			employeeName: t.employeeName,
			submitOn: t.submitOn,
			status: t.status,
			rejectedItems: t.rejectedItems,
		})),
		filterConfig: v1FilterConfig(s),
	});
}

export function seedTaxDeclarations(
	env: Env,
	tenant: Tenant,
	users: Doc[],
	rnd: () => number,
): void {
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
				submitOn: new Date(
					Date.UTC(
						2024,
						Math.floor(rnd() * 3),
						1 + Math.floor(rnd() * 28),
						9,
						Math.floor(rnd() * 60),
					),
				).toISOString(),
				status,
				rejectedItems:
					status === 'REJECTED'
						? [
								{
									section: 'Investments',
									item: 'Life insurance premium',
									amount: 1200,
									reason: 'Proof of payment missing',
								},
							]
						: [],
			});
		});
}
