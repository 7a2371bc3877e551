/* eslint-disable import-x/no-duplicates -- development code, not published: linted by eslint.dev.config.mjs */
/** What every route module gets: the store, the configuration and the event bus. */
import type { AuthMode } from './auth';
import type { Ctx } from './http';
import type { Session } from './auth';
import { slice, type PageSlice, type Store, type Tenant } from './state';
import type { Webhooks } from './webhooks';

export interface SandboxConfig {
	host: string;
	port: number;
	mode: AuthMode;
	tokenTtl: number;
	codeTtl: number;
	clientId: string;
	clientSecret: string;
	brand: string;
	/** Demo rows per seeded collection and tenant. */
	rows: number;
	/** Seed of the pseudo-random demo data and fault sampling. */
	seed: number;
	/** Page size used when a list request names none. */
	defaultPageSize: number;
	/** Largest page size honoured; larger requests are capped. */
	maxPageSize: number;
	/** How many requests /__admin/requests remembers. */
	requestLog: number;
	/** Body size limit in bytes. */
	maxBody: number;
	/** Also listen on a second port, the "regional host": same state and tokens, logged apart. */
	regional: boolean;
	/**
	 * Benchmarks only, a deviation from the spec: also accept the platform token as
	 * `Authorization: Bearer <token>` when no `x-access-token` header is sent (n8n's HTTP
	 * Request node can send an OAuth2 token only that way). Off by default.
	 */
	acceptBearer: boolean;
	/**
	 * Check every API request, answer and event payload against contract/openapi.yaml and
	 * keep the violations (`/__admin/contract`). The tests turn it on; off by default.
	 */
	contract: boolean;
	/**
	 * Tests only: the contact and activity lists ignore their sort parameters and list in ID order,
	 * as a platform that cannot sort by update might (the polling trigger then reads them whole).
	 */
	unsortedLists?: boolean;
	/**
	 * Tests only: deals are listed and read without `updated_at`, as the spec's DealResponse
	 * documents them (the sandbox adds it otherwise; contract/openapi.yaml's x-chosen on it says so).
	 */
	dealsWithoutUpdatedAt?: boolean;
}

export interface Env {
	store: Store;
	config: SandboxConfig;
	hooks: Webhooks;
}

export const tenantOf = (env: Env, ctx: Ctx<Session>): Tenant =>
	env.store.tenant(ctx.session.tenantId);

/** page/limit style paging (sales lists): defaults and the cap in one place. */
export function pageParams(
	env: Env,
	ctx: Ctx<Session>,
	pageKey = 'page',
	sizeKeys: string[] = ['limit'],
): { page: number; size: number } {
	const page = ctx.query.int(pageKey, { min: 1 }) ?? 1;
	let size: number | undefined;
	for (const k of sizeKeys) size ??= ctx.query.int(k, { min: 1 });
	return { page, size: Math.min(size ?? env.config.defaultPageSize, env.config.maxPageSize) };
}

/** The page of a sales list that the request asks for (`page`, and the first of `sizeKeys` given). */
export function pageOf<T>(
	env: Env,
	ctx: Ctx<Session>,
	all: T[],
	sizeKeys?: string[],
): PageSlice<T> {
	const { page, size } = pageParams(env, ctx, 'page', sizeKeys);
	return slice(all, page, size);
}
