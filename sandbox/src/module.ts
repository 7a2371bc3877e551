/** A sandbox module: the seed data and the routes of one part of the platform. */
import type { Session } from './auth';
import { tenantOf, type Env } from './env';
import { intParam, json, type Ctx, type Reply, type RouteOptions, type Router } from './http';
import type { Doc, Tenant } from './state';

export interface SeedCtx {
	/** Deterministic random numbers in [0, 1). */
	rnd: () => number;
	/** Rows per collection. */
	rows: number;
	/** 0 for the first demo tenant, 1 for the second. */
	index: number;
}

/** An HTTP method a module's endpoint answers. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A route handler of a module: the environment and the request. */
export type ModuleHandler = (env: Env, ctx: Ctx<Session>) => Reply | Promise<Reply>;

/** A module's endpoints the way the spec lists them: each path, with the handler of each of its methods. */
export type Paths = Record<string, Partial<Record<Method, ModuleHandler>>>;

export interface Module {
	name: string;
	seed?(env: Env, tenant: Tenant, s: SeedCtx): void;
	/** Its endpoints, registered in this order. */
	paths: Paths;
	/** Options of every route of the module (people and payroll: the gateway error body). */
	routeOptions?: RouteOptions;
	/** Bulk generators for benchmarks (`POST /__admin/seed`): kind → add `count` rows, return how many. */
	bulk?: Record<
		string,
		(env: Env, tenant: Tenant, count: number, options: Record<string, unknown>) => number
	>;
}

/** Registers a module's endpoints on the router. */
export function addRoutes(router: Router<Session>, env: Env, module: Module): void {
	for (const [pattern, methods] of Object.entries(module.paths)) {
		for (const [method, handler] of Object.entries(methods))
			router.add(method, pattern, (ctx) => handler(env, ctx), module.routeOptions);
	}
}

/** GET …/:id: the tenant's document with that integer id (`find` answers 404 when there is none), as `view` shows it. */
export function getByIdRoute(
	find: (tenant: Tenant, id: number) => Doc,
	view: (tenant: Tenant, doc: Doc) => unknown = (_tenant, doc) => doc,
): ModuleHandler {
	return (env, ctx) => {
		const tenant = tenantOf(env, ctx);
		return json(200, view(tenant, find(tenant, intParam(ctx))));
	};
}

/**
 * The creation and update times of the last `count` documents a bulk generator added, when the
 * request names them: from `at` (ms, default: `count * every` ms before now), `every` ms apart
 * (0: one frozen time). Without either, the generator's own times stay.
 */
export function stampBulk(
	env: Env,
	docs: Doc[],
	count: number,
	options: Record<string, unknown>,
): void {
	const every = typeof options.every === 'number' && options.every >= 0 ? options.every : undefined;
	const at = typeof options.at === 'number' && Number.isFinite(options.at) ? options.at : undefined;
	if (every === undefined && at === undefined) return;
	const step = every ?? 1;
	const t0 = at ?? env.store.clock.now() - count * step;
	docs.slice(-count).forEach((d, i) => {
		const when = new Date(t0 + i * step).toISOString();
		d.created_at = when;
		d.updated_at = when;
	});
}

export const pickOne = <T>(rnd: () => number, items: readonly T[]): T =>
	items[Math.floor(rnd() * items.length)];

export const FIRST_NAMES = [
	'Ada',
	'Grace',
	'Alan',
	'Linus',
	'Margaret',
	'Dennis',
	'Barbara',
	'Ken',
	'Frances',
	'Tim',
	'Radia',
	'Guido',
	'Hedy',
	'Edsger',
	'Katherine',
	'Niklaus',
	'Sofia',
	'José',
	'Zoë',
	'Björn',
];
export const LAST_NAMES = [
	'Lovelace',
	'Hopper',
	'Turing',
	'Torvalds',
	'Hamilton',
	'Ritchie',
	'Liskov',
	'Thompson',
	'Allen',
	'Berners-Lee',
	'Perlman',
	'van Rossum',
	'Lamarr',
	'Dijkstra',
	'Johnson',
	'Wirth',
	'Kovalevskaya',
	'Müller',
	'Ødegaard',
	'Nakamura',
];
export const COMPANIES = [
	'Initech',
	'Umbrella',
	'Hooli',
	'Vandelay Industries',
	'Stark Industries',
	'Wayne Enterprises',
	'Soylent',
	'Cyberdyne',
	'Tyrell',
	'Wonka',
];
