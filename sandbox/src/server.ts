/**
 * The sandbox server. `startSandbox()` is the in-process entry point; `cli.ts`
 * wraps it. It assembles the pieces: the configuration (config.ts), the
 * simulated platform (state, auth, webhooks, modules), the request handling
 * (dispatch.ts), the admin endpoints (admin.ts) and the listeners (listener.ts).
 */
import { registerAdmin } from './admin';
import { Auth, type Session } from './auth';
import { DEMO_IDENTITIES, resolveConfig } from './config';
import { ContractLog } from './contract/log';
import { requestHandler, sleep } from './dispatch';
import type { Env, SandboxConfig } from './env';
import { Faults, prng, type FaultRule } from './faults';
import { Router } from './http';
import { Listeners } from './listener';
import { addRoutes } from './module';
import { MODULES } from './modules';
import { registerAuthorizePage } from './oauth-page';
import { RequestLog, type LoggedRequest } from './requestLog';
import { newTenant, Store } from './state';
import { Webhooks } from './webhooks';

export type { SandboxConfig } from './env';
export type { FaultRule } from './faults';
export type { AuthMode } from './auth';
export type { LoggedRequest } from './requestLog';
export type { ContractLog, ContractSummary, Violation } from './contract/log';
export { DEFAULT_CONFIG, DEMO_IDENTITIES } from './config';

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
	/** With `contract: true`: what was checked against contract/openapi.yaml, and every violation. */
	readonly contract?: ContractLog;
	/** A ready token pair of the first demo user (the full token response). */
	readonly demo: {
		tokenResponse: Record<string, unknown>;
		accessToken: string;
		refreshToken: string;
		username: string;
		tenantId: number;
	};
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

/** The simulated platform: state, OAuth, faults, webhooks and the API routes of every module. */
interface Platform {
	env: Env;
	auth: Auth;
	faults: Faults;
	hooks: Webhooks;
	api: Router<Session>;
	/** (Re-)creates the demo data of both tenants. */
	seedAll(): void;
}

function createPlatform(config: SandboxConfig, initialFaults: FaultRule[]): Platform {
	const store = new Store();
	const auth = new Auth(config, DEMO_IDENTITIES);
	const faults = new Faults(config.seed);
	for (const f of initialFaults) faults.add(f);
	const hooks = new Webhooks(store, () => ({ id: config.clientId, secret: config.clientSecret }));
	const env: Env = { store, config, hooks };

	const api = new Router<Session>();
	registerAuthorizePage(api, auth);
	auth.register(api);
	hooks.register(api);
	for (const m of MODULES) addRoutes(api, env, m);

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
	return { env, auth, faults, hooks, api, seedAll };
}

export async function startSandbox(
	options: Partial<SandboxConfig> & { faults?: FaultRule[] } = {},
): Promise<Sandbox> {
	const { faults: initialFaults, ...rest } = options;
	const config = resolveConfig(rest);
	const platform = createPlatform(config, initialFaults ?? []);
	const { env, auth, faults, hooks } = platform;
	const log = new RequestLog(config);
	const contract = config.contract ? new ContractLog() : undefined;
	if (contract) hooks.checkEvent = (payload) => contract.event(payload);

	// The admin endpoints act on the Sandbox object, which exists once the listeners are up.
	const admin = new Router<undefined>();
	const sandboxRef: { current?: Sandbox } = {};
	registerAdmin(admin, {
		env,
		auth,
		faults,
		hooks,
		stats: () => sandboxRef.current!.stats(),
		resetStats: () => sandboxRef.current!.resetStats(),
		requests: () => log.entries,
		reset: () => platform.seedAll(),
		restart: (ms) => sandboxRef.current!.restart(ms),
		contract,
	});

	const listeners = new Listeners(
		config,
		requestHandler({
			config,
			api: platform.api,
			admin,
			auth,
			faults,
			log,
			contract,
			clock: env.store.clock,
		}),
	);
	const port = await listeners.listen(config.port, 'main');
	const regionalPort = config.regional ? await listeners.listen(0, 'regional') : undefined;
	sandboxRef.current = {
		...sandboxObject(config, platform, log, listeners, port, regionalPort),
		contract,
	};
	return sandboxRef.current;
}

function sandboxObject(
	config: SandboxConfig,
	platform: Platform,
	log: RequestLog,
	listeners: Listeners,
	port: number,
	regionalPort: number | undefined,
): Sandbox {
	const { env, auth, faults, hooks, api } = platform;
	const baseUrl = `http://${config.host}:${port}`;
	const platformToken = (tr: Record<string, unknown>): string =>
		String(config.mode === 'v2' ? tr.access_token : tr[`${config.brand}-token`]);
	const demoTokens = auth.issueTokenResponse(DEMO_IDENTITIES[0], 'read write');
	const demo = {
		tokenResponse: demoTokens,
		accessToken: platformToken(demoTokens),
		refreshToken: String(demoTokens.refresh_token),
		username: DEMO_IDENTITIES[0].username,
		tenantId: DEMO_IDENTITIES[0].tenantId,
	};
	return {
		baseUrl,
		regionalBaseUrl: regionalPort ? `http://${config.host}:${regionalPort}` : undefined,
		authUrl: `${baseUrl}/oauth/authorize`,
		port,
		config,
		store: env.store,
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
			requests: log.total,
			byRoute: log.byRoute,
			byStatus: log.byStatus,
			auth: auth.stats,
			faultsFired: faults.fired,
			deliveries: hooks.deliveries.length,
			mode: config.mode,
			connections: listeners.connections,
			maxOpenConnections: listeners.maxOpen,
			maxRequestsAtOnce: listeners.maxInFlight,
		}),
		routes: () =>
			api.list().map((rt) => ({ method: rt.method, pattern: rt.pattern, auth: rt.options.auth })),
		resetStats: () => {
			log.reset();
			listeners.resetCounters();
			faults.fired = 0;
			auth.resetStats();
		},
		requests: () => log.entries,
		reset: () => platform.seedAll(),
		restart: async (downMs = 0) => {
			await listeners.close();
			await sleep(downMs);
			await listeners.listen(port, 'main');
			if (regionalPort) await listeners.listen(regionalPort, 'regional');
		},
		stop: async () => {
			await listeners.close();
			await hooks.idle();
		},
	};
}
