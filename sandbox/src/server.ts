/**
 * The sandbox server: routing, authentication, faults, statistics and the admin
 * endpoints. `startSandbox()` is the in-process entry point; `cli.ts` wraps it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { Auth, OAuthError, type AuthMode, type Identity, type Session } from './auth';
import type { Env, SandboxConfig } from './env';
import { Faults, prng, type FaultRule } from './faults';
import { ApiError, errorBody, parseBody, Query, Router, type Ctx, type ErrorStyle, type Reply } from './http';
import { MODULES } from './modules';
import { Store, newTenant, type Doc } from './state';
import { EVENT_TYPES, Webhooks } from './webhooks';

export type { SandboxConfig } from './env';
export type { FaultRule } from './faults';
export type { AuthMode } from './auth';

export const DEFAULT_CONFIG: SandboxConfig = {
	host: '127.0.0.1',
	port: 0,
	mode: 'v1',
	tokenTtl: 3600,
	codeTtl: 60,
	clientId: 'sandbox-client',
	clientSecret: 'sandbox-secret',
	brand: 'platform',
	rows: 30,
	seed: 42,
	defaultPageSize: 10,
	maxPageSize: 500,
	requestLog: 5000,
	maxBody: 20 * 1024 * 1024,
	regional: false,
};

export const DEMO_IDENTITIES: Identity[] = [
	{ tenantId: 1, userId: 1, username: 'demo', email: 'demo@acme.example', org: 'Acme Demo Ltd' },
	{ tenantId: 2, userId: 2, username: 'demo2', email: 'demo2@globex.example', org: 'Globex Demo Inc' },
];

export interface LoggedRequest {
	seq: number;
	at: string;
	method: string;
	path: string;
	query: string;
	route?: string;
	status: number;
	tenantId?: number;
	/** The raw request body (first 64 KiB). Headers are never logged. */
	body?: string;
	/** Which listener answered: the API host or the regional host. */
	host: 'main' | 'regional';
	fault?: string;
}

export interface Sandbox {
	readonly baseUrl: string;
	/** With `regional: true`: a second address serving the same platform (the regional API host). */
	readonly regionalBaseUrl?: string;
	readonly authUrl: string;
	readonly port: number;
	readonly config: SandboxConfig;
	readonly store: Store;
	readonly auth: Auth;
	readonly faults: Faults;
	readonly hooks: Webhooks;
	/** A ready token pair of the first demo user (the full token response). */
	readonly demo: { tokenResponse: Record<string, unknown>; accessToken: string; refreshToken: string; username: string; tenantId: number };
	/** The line the CLI prints when ready. */
	readyLine(): Record<string, unknown>;
	/** Issues a fresh token response for a demo user (default: the first). */
	issueTokens(username?: string): Record<string, unknown>;
	/** The x-access-token of a token response in the current mode. */
	platformToken(tokenResponse: Record<string, unknown>): string;
	stats(): Record<string, unknown>;
	resetStats(): void;
	/** Every API route (method, pattern, whether it needs a token). */
	routes(): { method: string; pattern: string; auth: 'token' | 'none' }[];
	requests(): LoggedRequest[];
	/** Re-creates the demo data (tokens stay valid). */
	reset(): void;
	/** Closes the listener and every connection, then listens again on the same port after `downMs`. */
	restart(downMs?: number): Promise<void>;
	stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


export async function startSandbox(options: Partial<SandboxConfig> & { faults?: FaultRule[] } = {}): Promise<Sandbox> {
	const { faults: initialFaults, ...rest } = options;
	const config: SandboxConfig = { ...DEFAULT_CONFIG, ...rest };
	if (!['v1', 'v1-legacy', 'v2'].includes(config.mode)) throw new Error(`mode must be v1, v1-legacy or v2 (got ${config.mode})`);

	const store = new Store();
	const auth = new Auth(config, DEMO_IDENTITIES);
	const faults = new Faults(config.seed);
	for (const f of initialFaults ?? []) faults.add(f);
	const hooks = new Webhooks(store, () => ({ id: config.clientId, secret: config.clientSecret }));
	const env: Env = { store, config, hooks };

	const api = new Router<Session>();
	auth.register(api);
	hooks.register(api);
	for (const m of MODULES) m.routes(api, env);

	const seedAll = () => {
		store.tenants.clear();
		const rnd = prng(config.seed);
		DEMO_IDENTITIES.forEach((identity, index) => {
			const tenant = newTenant(identity.tenantId, identity.org);
			store.tenants.set(tenant.id, tenant);
			for (const m of MODULES) m.seed?.(env, tenant, { rnd, rows: config.rows, index });
		});
	};
	seedAll();

	// ----- statistics and request log -----
	let byRoute: Record<string, number> = {};
	let byStatus: Record<string, number> = {};
	let total = 0;
	let log: LoggedRequest[] = [];
	let seq = 0;
	const record = (entry: Omit<LoggedRequest, 'seq' | 'at'>) => {
		total++;
		byStatus[entry.status] = (byStatus[entry.status] ?? 0) + 1;
		if (entry.route) byRoute[entry.route] = (byRoute[entry.route] ?? 0) + 1;
		log.push({ seq: ++seq, at: new Date().toISOString(), ...entry });
		if (log.length > config.requestLog * 1.2) log = log.slice(-config.requestLog);
	};

	const platformToken = (tr: Record<string, unknown>): string => String(config.mode === 'v2' ? tr.access_token : tr[`${config.brand}-token`]);
	const demoTokens = auth.issueTokenResponse(DEMO_IDENTITIES[0], 'read write');
	const demo = {
		tokenResponse: demoTokens,
		accessToken: platformToken(demoTokens),
		refreshToken: String(demoTokens.refresh_token),
		username: DEMO_IDENTITIES[0].username,
		tenantId: DEMO_IDENTITIES[0].tenantId,
	};

	// ----- admin endpoints (no token; the sandbox only listens on loopback) -----
	const admin = new Router<undefined>();
	const sandboxRef: { current?: Sandbox } = {};
	registerAdmin(admin, {
		env,
		auth,
		faults,
		hooks,
		stats: () => sandboxRef.current!.stats(),
		resetStats: () => sandboxRef.current!.resetStats(),
		requests: () => log,
		reset: () => seedAll(),
		restart: (ms) => sandboxRef.current!.restart(ms),
	});

	// ----- the HTTP server -----
	const send = (res: ServerResponse, reply: Reply) => {
		const headers: Record<string, string | number> = { ...(reply.headers ?? {}) };
		let payload: string | undefined;
		if (reply.body !== undefined) {
			if (typeof reply.body === 'string' && reply.contentType) {
				payload = reply.body;
				headers['content-type'] = reply.contentType;
			} else {
				payload = JSON.stringify(reply.body);
				headers['content-type'] = 'application/json;charset=UTF-8';
			}
			headers['content-length'] = Buffer.byteLength(payload);
		} else {
			headers['content-length'] = 0;
		}
		res.writeHead(reply.status, headers);
		res.end(payload);
	};

	const errorReply = (err: unknown, style: ErrorStyle): Reply => {
		if (err instanceof OAuthError) return { status: err.status, body: { error: err.code, error_description: err.message } };
		if (err instanceof ApiError) return { status: err.status, body: errorBody(style, err) };
		const message = err instanceof Error ? err.message : String(err);
		return { status: 500, body: errorBody(style, new ApiError(500, 'Internal server error', [], message)) };
	};

	const readBody = (req: IncomingMessage): Promise<string> =>
		new Promise((resolve, reject) => {
			const chunks: Buffer[] = [];
			let size = 0;
			req.on('data', (c: Buffer) => {
				size += c.length;
				// Too large: keep reading (and dropping) to the end, so the 413 answer reaches the
				// client instead of a reset connection.
				if (size > config.maxBody) chunks.length = 0;
				else chunks.push(c);
			});
			req.on('end', () => (size > config.maxBody ? reject(new ApiError(413, `Request body larger than ${config.maxBody} bytes`)) : resolve(Buffer.concat(chunks).toString('utf8'))));
			req.on('error', reject);
		});

	const handle = async (req: IncomingMessage, res: ServerResponse, host: 'main' | 'regional') => {
		const url = new URL(req.url ?? '/', 'http://sandbox');
		const method = (req.method ?? 'GET').toUpperCase();
		const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
		const isAdmin = path.startsWith('/__admin');
		const router = isAdmin ? admin : api;
		const matched = router.match(method, path);
		const route = matched && 'route' in matched ? matched.route : undefined;
		const style: ErrorStyle = route?.options.errorStyle ?? (path.startsWith('/v1/people') ? 'gateway' : 'platform');
		const entry: Omit<LoggedRequest, 'seq' | 'at'> = { method, path, query: url.search, route: route ? `${method} ${route.pattern}` : undefined, status: 0, host };

		let hits: ReturnType<Faults['pick']> = [];
		if (!isAdmin) {
			hits = faults.pick(method, path);
			for (const hit of hits.filter((h) => h.phase === 'before')) {
				const r = hit.rule;
				if (r.kind === 'latency') await sleep(r.ms ?? 0);
				else if (r.kind === 'drop') {
					entry.status = 0;
					entry.fault = 'drop';
					record(entry);
					req.socket.destroy();
					return;
				} else {
					entry.status = r.status!;
					entry.fault = `status ${r.status}`;
					record(entry);
					const reply = errorReply(new ApiError(r.status!, faultMessage(r.status!), [], 'Injected by the sandbox fault rules'), style);
					if (r.retryAfter !== undefined) reply.headers = { 'retry-after': String(r.retryAfter) };
					await readBody(req).catch(() => '');
					send(res, reply);
					return;
				}
			}
		}

		let reply: Reply;
		try {
			const raw = await readBody(req);
			if (!isAdmin && raw) entry.body = raw.length > 65536 ? raw.slice(0, 65536) : raw;
			if (!matched) throw new ApiError(404, `No endpoint ${method} ${path}`, [], 'Check the path against the API documents');
			if (!('route' in matched)) throw new ApiError(405, `Method ${method} is not allowed on ${path}`, [], `Allowed: ${matched.allowed.join(', ')}`);
			const ctx: Ctx<Session> = {
				req,
				method,
				path,
				query: new Query(url.searchParams),
				params: matched.params,
				body: parseBody(raw, req.headers['content-type']),
				rawBody: raw,
				headers: req.headers,
				session: undefined as unknown as Session,
			};
			if (!isAdmin && matched.route.options.auth === 'token') {
				const header = req.headers['x-access-token'];
				ctx.session = auth.authenticate(Array.isArray(header) ? header[0] : header);
				entry.tenantId = ctx.session.tenantId;
			}
			reply = await (matched.route.handler as (c: Ctx<Session>) => Reply | Promise<Reply>)(ctx);
		} catch (err) {
			reply = errorReply(err, style);
		}

		for (const hit of hits.filter((h) => h.phase === 'after')) {
			const r = hit.rule;
			if (r.kind === 'latency') await sleep(r.ms ?? 0);
			else if (r.kind === 'drop') {
				entry.status = 0;
				entry.fault = 'drop after processing';
				record(entry);
				req.socket.destroy();
				return;
			} else {
				entry.fault = `status ${r.status} after processing`;
				reply = errorReply(new ApiError(r.status!, faultMessage(r.status!), [], 'Injected by the sandbox fault rules after the request was processed'), style);
				if (r.retryAfter !== undefined) reply.headers = { 'retry-after': String(r.retryAfter) };
			}
		}
		entry.status = reply.status;
		if (!isAdmin) record(entry);
		send(res, reply);
	};

	const sockets = new Set<Socket>();
	const servers: Partial<Record<'main' | 'regional', Server>> = {};
	const listen = (port: number, host: 'main' | 'regional') =>
		new Promise<number>((resolve, reject) => {
			const server = createServer((req, res) => {
				handle(req, res, host).catch((e) => {
					if (!res.headersSent) send(res, errorReply(e, 'platform'));
				});
			});
			servers[host] = server;
			server.keepAliveTimeout = 30_000;
			server.on('connection', (s) => {
				sockets.add(s);
				s.on('close', () => sockets.delete(s));
			});
			server.once('error', reject);
			server.listen(port, config.host, () => resolve((server.address() as AddressInfo).port));
		});
	const close = () =>
		Promise.all(
			Object.values(servers).map(
				(server) =>
					new Promise<void>((resolve) => {
						for (const s of sockets) s.destroy();
						server.close(() => resolve());
					}),
			),
		).then(() => undefined);

	const port = await listen(config.port, 'main');
	const regionalPort = config.regional ? await listen(0, 'regional') : undefined;
	const baseUrl = `http://${config.host}:${port}`;

	const sandbox: Sandbox = {
		baseUrl,
		regionalBaseUrl: regionalPort ? `http://${config.host}:${regionalPort}` : undefined,
		authUrl: `${baseUrl}/oauth/authorize`,
		port,
		config,
		store,
		auth,
		faults,
		hooks,
		demo,
		readyLine: () => ({
			baseUrl,
			authUrl: `${baseUrl}/oauth/authorize`,
			clientId: config.clientId,
			clientSecret: config.clientSecret,
			accessToken: demo.accessToken,
			refreshToken: demo.refreshToken,
			username: demo.username,
			tenantId: demo.tenantId,
		}),
		issueTokens: (username) => auth.issueTokenResponse(auth.identity(username), 'read write'),
		platformToken,
		stats: () => ({
			requests: total,
			byRoute,
			byStatus,
			auth: auth.stats,
			faultsFired: faults.fired,
			deliveries: hooks.deliveries.length,
			mode: config.mode,
		}),
		routes: () => api.list().map((rt) => ({ method: rt.method, pattern: rt.pattern, auth: rt.options.auth })),
		resetStats: () => {
			total = 0;
			byRoute = {};
			byStatus = {};
			log = [];
			faults.fired = 0;
			auth.resetStats();
		},
		requests: () => log,
		reset: seedAll,
		restart: async (downMs = 0) => {
			await close();
			await sleep(downMs);
			await listen(port, 'main');
			if (regionalPort) await listen(regionalPort, 'regional');
		},
		stop: async () => {
			await close();
			await hooks.idle();
		},
	};
	sandboxRef.current = sandbox;
	return sandbox;
}

function faultMessage(status: number): string {
	if (status === 429) return 'Too many requests: slow down and retry after the time in Retry-After';
	if (status === 503) return 'Service temporarily unavailable';
	return 'Internal server error';
}

interface AdminDeps {
	env: Env;
	auth: Auth;
	faults: Faults;
	hooks: Webhooks;
	stats(): Record<string, unknown>;
	resetStats(): void;
	requests(): LoggedRequest[];
	reset(): void;
	restart(ms: number): Promise<void>;
}

function registerAdmin(r: Router<undefined>, d: AdminDeps): void {
	const none = { auth: 'none' as const };
	const body = (ctx: Ctx<unknown>) => (ctx.body && typeof ctx.body === 'object' ? (ctx.body as Record<string, unknown>) : {});
	const ok = (b: unknown = { ok: true }): Reply => ({ status: 200, body: b });
	const tenantId = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : DEMO_IDENTITIES[0].tenantId);

	r.add('GET', '/__admin/health', () => ok({ ok: true, mode: d.env.config.mode }), none);
	r.add('GET', '/__admin/stats', () => ok(d.stats()), none);
	r.add('POST', '/__admin/stats/reset', () => (d.resetStats(), ok()), none);
	r.add('GET', '/__admin/requests', (ctx) => {
		const since = ctx.query.int('since') ?? 0;
		const path = ctx.query.str('path');
		return ok(d.requests().filter((e) => e.seq > since && (!path || e.path.startsWith(path))));
	}, none);
	r.add('GET', '/__admin/faults', () => ok(d.faults.list()), none);
	r.add('POST', '/__admin/faults', (ctx) => {
		const rules = Array.isArray(ctx.body) ? ctx.body : [ctx.body];
		try {
			return ok(rules.map((rule) => d.faults.add(rule as FaultRule)));
		} catch (e) {
			throw new ApiError(400, e instanceof Error ? e.message : String(e));
		}
	}, none);
	r.add('DELETE', '/__admin/faults', () => (d.faults.clear(), ok()), none);
	r.add('POST', '/__admin/tokens/expire', () => ok({ expired: d.auth.expireAll() }), none);
	r.add('POST', '/__admin/tokens/revoke', () => ok({ revoked: d.auth.revokeAllRefresh() }), none);
	r.add('POST', '/__admin/tokens/issue', (ctx) => ok(d.auth.issueTokenResponse(d.auth.identity(body(ctx).username as string | undefined), 'read write')), none);
	r.add('POST', '/__admin/config', (ctx) => {
		const b = body(ctx);
		if (typeof b.tokenTtl === 'number') d.env.config.tokenTtl = b.tokenTtl;
		if (typeof b.mode === 'string' && ['v1', 'v1-legacy', 'v2'].includes(b.mode)) d.env.config.mode = b.mode as AuthMode;
		return ok({ tokenTtl: d.env.config.tokenTtl, mode: d.env.config.mode });
	}, none);
	r.add('POST', '/__admin/events', async (ctx) => {
		const b = body(ctx);
		const eventType = String(b.eventType);
		if (!(EVENT_TYPES as readonly string[]).includes(eventType)) throw new ApiError(400, `eventType must be one of ${EVENT_TYPES.join(', ')}`);
		const tenant = d.env.store.tenant(tenantId(b.tenantId));
		const eventId = d.hooks.emit(tenant, eventType, b.data ?? { id: Math.floor(Math.random() * 1e6), note: 'emitted by the sandbox admin endpoint' });
		await d.hooks.idle();
		return ok({ eventId, deliveries: d.hooks.deliveries.filter((x) => x.eventId === eventId) });
	}, none);
	r.add('GET', '/__admin/deliveries', () => ok(d.hooks.deliveries), none);
	r.add('POST', '/__admin/reset', () => (d.reset(), ok()), none);
	r.add('POST', '/__admin/restart', (ctx) => {
		const ms = Number(body(ctx).downMs ?? 500);
		setTimeout(() => void d.restart(ms), 50);
		return ok({ restarting: true, downMs: ms });
	}, none);
	r.add('GET', '/__admin/state/:tenantId/:collection', (ctx) => ok(collection(d.env, ctx).values()), none);
	r.add('GET', '/__admin/state/:tenantId/:collection/:id', (ctx) => {
		const c = collection(d.env, ctx);
		const raw = ctx.params.id;
		const doc = c.get(/^\d+$/.test(raw) ? Number(raw) : raw) ?? c.get(raw);
		if (!doc) throw new ApiError(404, `No ${ctx.params.collection} ${raw}`);
		return ok(doc);
	}, none);
	r.add('POST', '/__admin/seed', (ctx) => {
		const b = body(ctx);
		const tenant = d.env.store.tenant(tenantId(b.tenantId));
		const kind = String(b.kind);
		const count = Number(b.count ?? 0);
		for (const m of MODULES) {
			const gen = m.bulk?.[kind];
			if (gen) return ok({ kind, added: gen(d.env, tenant, count, b) });
		}
		throw new ApiError(400, `No bulk generator for ${kind}`);
	}, none);
}

type AnyCollection = { values(): Doc[]; get(id: never): Doc | undefined };

function collection(env: Env, ctx: Ctx<unknown>): { values(): Doc[]; get(id: string | number): Doc | undefined } {
	const tenant = env.store.tenant(Number(ctx.params.tenantId));
	const name = ctx.params.collection;
	if (name === 'records') {
		const tableId = ctx.query.str('tableId');
		const c = tableId ? tenant.records.get(tableId) : undefined;
		if (!c) throw new ApiError(404, 'records need ?tableId= of an existing table');
		return c as never;
	}
	if (name === 'crmUsers') return { values: () => tenant.crmUsers, get: (id) => tenant.crmUsers.find((u) => u.id === id) };
	const c = (tenant as unknown as Record<string, AnyCollection>)[name];
	if (!c || typeof c.values !== 'function' || name === 'records') throw new ApiError(404, `No collection ${name}`);
	return c as never;
}
