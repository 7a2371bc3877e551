/** The sandbox's default configuration and its two demo identities (one per tenant). */
import type { Identity } from './auth';
import type { SandboxConfig } from './env';

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
	acceptBearer: false,
	contract: false,
};

export const DEMO_IDENTITIES: Identity[] = [
	{ tenantId: 1, userId: 1, username: 'demo', email: 'demo@acme.example', org: 'Acme Demo Ltd' },
	{
		tenantId: 2,
		userId: 2,
		username: 'demo2',
		email: 'demo2@globex.example',
		org: 'Globex Demo Inc',
	},
];

/** The defaults overridden by `options`; refuses an unknown mode. */
export function resolveConfig(options: Partial<SandboxConfig>): SandboxConfig {
	const config: SandboxConfig = { ...DEFAULT_CONFIG, ...options };
	if (!['v1', 'v1-legacy', 'v2'].includes(config.mode))
		throw new Error(`mode must be v1, v1-legacy or v2 (got ${config.mode})`);
	return config;
}
