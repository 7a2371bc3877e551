/** A sandbox module: the seed data and the routes of one part of the platform. */
import type { Session } from './auth';
import type { Env } from './env';
import type { Ctx, Reply, RouteOptions, Router } from './http';
import type { Tenant } from './state';

export interface SeedCtx {
	/** Deterministic random numbers in [0, 1). */
	rnd: () => number;
	/** Rows per collection. */
	rows: number;
	/** 0 for the first demo tenant, 1 for the second. */
	index: number;
}

export interface Module {
	name: string;
	seed?(env: Env, tenant: Tenant, s: SeedCtx): void;
	routes(router: Router<Session>, env: Env): void;
	/** Bulk generators for benchmarks (`POST /__admin/seed`): kind → add `count` rows, return how many. */
	bulk?: Record<string, (env: Env, tenant: Tenant, count: number, options: Record<string, unknown>) => number>;
}

/** A route handler of a module: the environment and the request. */
export type ModuleHandler = (env: Env, ctx: Ctx<Session>) => Reply | Promise<Reply>;

/** One route of a module, as a row of its route table. */
export type RouteDef = readonly [method: string, pattern: string, handler: ModuleHandler, options?: RouteOptions];

/** Registers a module's route table, in order. */
export function addRoutes(router: Router<Session>, env: Env, routes: readonly RouteDef[]): void {
	for (const [method, pattern, handler, options] of routes) router.add(method, pattern, (ctx) => handler(env, ctx), options);
}

export const pickOne = <T>(rnd: () => number, items: readonly T[]): T => items[Math.floor(rnd() * items.length)];

export const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Linus', 'Margaret', 'Dennis', 'Barbara', 'Ken', 'Frances', 'Tim', 'Radia', 'Guido', 'Hedy', 'Edsger', 'Katherine', 'Niklaus', 'Sofia', 'José', 'Zoë', 'Björn'];
export const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Torvalds', 'Hamilton', 'Ritchie', 'Liskov', 'Thompson', 'Allen', 'Berners-Lee', 'Perlman', 'van Rossum', 'Lamarr', 'Dijkstra', 'Johnson', 'Wirth', 'Kovalevskaya', 'Müller', 'Ødegaard', 'Nakamura'];
export const COMPANIES = ['Initech', 'Umbrella', 'Hooli', 'Vandelay Industries', 'Stark Industries', 'Wayne Enterprises', 'Soylent', 'Cyberdyne', 'Tyrell', 'Wonka'];
