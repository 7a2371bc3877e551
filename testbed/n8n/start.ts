/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * A real n8n for the demo, the end-to-end tests and the benchmarks: the pinned runtime
 * (testbed/runtime/install.ts) started headless on loopback with this pack loaded, as a
 * managed process (testbed/processes.ts: own process group, stopped on every path).
 * Facts behind the recipe: docs/development.md, "What `npm test` does on a fresh machine".
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { freePort } from '../ports';
import { RUNTIME_ROOT, runtimeEnv, runtimePaths, type RuntimePaths } from '../runtime/install';
import { DEFAULT_N8N_VERSION, n8nAtLeast, selectedRuntime } from '../runtime/versions';
import { installTarball, packTarball } from '../pack/tarball';
import { runScratch, spawnGroup, type Managed } from '../processes';

export const PACKAGE_NAME = 'n8n-nodes-business-platform';

export interface N8nInstance {
	url: string;
	port: number;
	userFolder: string;
	env: NodeJS.ProcessEnv;
	process: Managed;
	/** n8n's log so far. */
	log(): string;
	stop(): Promise<void>;
}

/**
 * A user folder with the pack installed from its `npm pack` tarball the way n8n installs a
 * community package (testbed/pack/tarball.ts, installTarball), so n8n runs exactly what users get.
 * The tarball is the one the e2e global setup or `npm start` made (packed here if missing
 * or older than the build).
 */
export function prepareUserFolder(
	userFolder?: string,
	tarball: string = packTarball(),
	{ sqlite = true }: { sqlite?: boolean } = {},
): string {
	const folder = userFolder ?? runScratch('n8n-e2e-');
	installTarball(tarball, folder, runtimeEnv(runtimePaths()));
	// A new folder's database starts as n8n's migrations leave it, when that template was made
	// (testbed/n8n/database.ts); a folder that has one keeps it.
	const template = databaseTemplate();
	const database = join(folder, '.n8n', 'database.sqlite');
	if (sqlite && existsSync(template) && !existsSync(database)) copyFileSync(template, database);
	return folder;
}

/** Where n8n's migrated SQLite database of a runtime is kept (testbed/n8n/database.ts makes it). */
export const databaseTemplate = (paths: RuntimePaths = runtimePaths()) =>
	join(paths.n8nDir, 'database-template.sqlite');

/**
 * n8n's modules (N8N_DISABLED_MODULES) that serve what no test of the pack reaches: the insights
 * dashboard, AI builders and chats, enterprise sign-in, source control, log streaming and
 * telemetry, reviews and favourites, n8n as an OAuth server. The pack's path (community packages,
 * credentials and their encryption, webhooks, executions, data tables) keeps its modules.
 */
const UNUSED_MODULES = [
	'insights',
	'chat-hub',
	'workflow-builder',
	'instance-ai',
	'agents',
	'mcp-registry',
	'source-control',
	'sso-oidc',
	'sso-saml',
	'ldap',
	'log-streaming',
	'otel',
	'provisioning',
	'breaking-changes',
	'favorites',
	'instance-version-history',
	'workflow-reviews',
	'oauth-server',
];

/**
 * What an n8n that no browser opens and no Code node runs on can leave out (the queue clusters
 * and the e2e files that start their own n8n take it; the shared e2e n8n, whose files read its
 * /types, the editor suite, the screenshots, the demo and the benchmarks run n8n as users do):
 * - the editor's static files, which every start copies into the user folder, and with them the
 *   node types the editor loads (/types/nodes.json);
 * - the JavaScript task runner, a process n8n starts beside every main and worker for the Code
 *   node alone: in external mode n8n starts none (what each spares: docs/performance.md, What the
 *   test machinery spares). No workflow of the tests has a Code node (test/unit/layout.test.ts keeps it so); one
 *   would wait for a runner that never comes;
 * - n8n's modules for what no test of the pack reaches (UNUSED_MODULES, from n8n 2.41, whose names
 *   these are: an n8n refuses to start on a name it does not know).
 */
export const HEADLESS_N8N: NodeJS.ProcessEnv = {
	N8N_DISABLE_UI: 'true',
	N8N_RUNNERS_MODE: 'external',
	N8N_RUNNERS_AUTH_TOKEN: randomUUID(),
	...(n8nAtLeast('2.41.0') ? { N8N_DISABLED_MODULES: UNUSED_MODULES.join(',') } : {}),
};

/**
 * Node's on-disk code cache for every n8n process this project starts (main, workers, task
 * runners, CLI imports): the second and later starts skip compiling n8n's modules again. Node
 * ignores an entry it cannot use, so the cache never changes what runs.
 */
export const COMPILE_CACHE = join(RUNTIME_ROOT, '.compile-cache');

/** The environment of a headless n8n on loopback (ports free unless given). */
export async function n8nEnvironment(
	userFolder: string,
	port?: number,
	paths: RuntimePaths = runtimePaths(),
): Promise<NodeJS.ProcessEnv> {
	const p = port ?? (await freePort());
	return runtimeEnv(paths, {
		N8N_USER_FOLDER: userFolder,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PORT: String(p),
		N8N_PROTOCOL: 'http',
		WEBHOOK_URL: `http://127.0.0.1:${p}/`,
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${p}/`,
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		// Stop within seconds: nothing here has executions worth waiting 30 s for.
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '3',
		DB_SQLITE_POOL_SIZE: '2',
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
		N8N_LOG_LEVEL: 'info',
		NODE_COMPILE_CACHE: COMPILE_CACHE,
	});
}

/** Runs an n8n CLI command (import, publish) to completion, as a managed process. */
export async function n8nCli(
	env: NodeJS.ProcessEnv,
	args: string[],
	timeoutMs = 180_000,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
	const paths = runtimePaths();
	const child = spawnGroup(`n8n ${args[0]}`, paths.node, [paths.n8nBin, ...args], { env });
	const timer = setTimeout(() => void child.stop(0), timeoutMs);
	const { code } = await child.exit;
	clearTimeout(timer);
	await child.stop(0);
	return { status: code, stdout: child.output(), stderr: '' };
}

/**
 * How long a start may take before it counts as hung: long, because a start that fails exits and
 * is reported at once, while a healthy one can wait minutes for a core. At the start of `npm test`'s
 * e2e run about a dozen n8n processes boot at once beside the first jest run (the shared n8n, the
 * polling lanes, the queue clusters); on a machine 1.5× slower than the one the suite was timed on,
 * the shared n8n was not ready after 120 s and was stopped, and 19 tests failed that way.
 */
export const N8N_START_TIMEOUT_MS = 600_000;

export interface StartOptions {
	/** `start` (default), `worker` or `webhook`. */
	command?: string;
	timeoutMs?: number;
	/** Log line that says it is ready (default: the editor's). */
	readyLine?: RegExp;
	/** Port of its readiness endpoint (default N8N_PORT). */
	healthPort?: number;
	/** Each output chunk (e.g. to a log file). */
	onOutput?: (chunk: string) => void;
	name?: string;
}

/** Starts an n8n process and waits until it is ready. Fails (and stops it) when it is not. */
export async function startN8n(
	env: NodeJS.ProcessEnv,
	opts: StartOptions = {},
): Promise<N8nInstance> {
	const paths = runtimePaths();
	const {
		command = 'start',
		timeoutMs = N8N_START_TIMEOUT_MS,
		readyLine = /Editor is now accessible/,
		onOutput,
	} = opts;
	const port = Number(env.N8N_PORT);
	const healthPort = opts.healthPort ?? port;
	const child = spawnGroup(opts.name ?? `n8n ${command}`, paths.node, [paths.n8nBin, command], {
		env,
		onOutput,
	});
	const url = `http://127.0.0.1:${port}`;
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (child.exited())
			throw new Error(`n8n ${command} exited while starting:\n${child.output().slice(-3000)}`);
		if (Date.now() > deadline) {
			await child.stop(0);
			throw new Error(
				`n8n ${command} did not become ready in ${timeoutMs / 1000} s:\n${child.output().slice(-3000)}`,
			);
		}
		try {
			const res = await fetch(`http://127.0.0.1:${healthPort}/healthz/readiness`);
			if (res.status === 200 && readyLine.test(child.output())) break;
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 200));
	}
	return {
		url,
		port,
		userFolder: String(env.N8N_USER_FOLDER),
		env,
		process: child,
		log: () => child.output(),
		stop: () => child.stop(),
	};
}

/** The owner account, an API key and a session cookie for the REST and public APIs. */
export interface N8nApi {
	cookie: string;
	apiKey: string;
	rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
	pub<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

export const OWNER = {
	email: 'demo@example.com',
	password: 'Demo-Password-1',
	firstName: 'Demo',
	lastName: 'User',
};

export async function ownerApi(n8n: { url: string }): Promise<N8nApi> {
	const json = async (res: Response) => {
		const text = await res.text();
		if (!res.ok) throw new Error(`${res.status} ${res.url}: ${text.slice(0, 500)}`);
		return text ? (JSON.parse(text) as unknown) : undefined;
	};
	const setup = await fetch(`${n8n.url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(OWNER),
	});
	let cookie = setup.headers.get('set-cookie')?.split(';')[0] ?? '';
	if (!setup.ok) {
		const login = await fetch(`${n8n.url}/rest/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
		});
		if (!login.ok) throw new Error(`n8n login failed: ${login.status} ${await login.text()}`);
		cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
	}
	const rest = async <T>(method: string, path: string, body?: unknown) =>
		(await json(
			await fetch(`${n8n.url}/rest${path}`, {
				method,
				headers: { cookie, 'content-type': 'application/json', 'browser-id': 'e2e' },
				body: body === undefined ? undefined : JSON.stringify(body),
			}),
		)) as T;
	const scopes = (await rest<{ data: string[] }>('GET', '/api-keys/scopes')).data;
	const key = await rest<{ data: { rawApiKey: string } }>('POST', '/api-keys', {
		label: `e2e-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
		expiresAt: null,
		scopes,
	});
	const apiKey = key.data.rawApiKey;
	const pub = async <T>(method: string, path: string, body?: unknown) =>
		(await json(
			await fetch(`${n8n.url}/api/v1${path}`, {
				method,
				headers: { 'x-n8n-api-key': apiKey, 'content-type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			}),
		)) as T;
	return { cookie, apiKey, rest, pub };
}

/**
 * Where `npm start` keeps its n8n home, imports and log: inside the runtime folder, one per
 * n8n version (an older n8n cannot open a database a newer one has migrated), or
 * `BP_DEMO_DIR` (the editor test of `npm start`).
 */
export const DEMO_DIR = process.env.BP_DEMO_DIR
	? resolve(process.env.BP_DEMO_DIR)
	: selectedRuntime().n8n === DEFAULT_N8N_VERSION
		? join(RUNTIME_ROOT, 'demo')
		: join(RUNTIME_ROOT, `demo-${selectedRuntime().n8n}`);
