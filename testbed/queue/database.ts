/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * PostgreSQL's cluster as n8n's migrations leave it, made once per n8n and PostgreSQL version and
 * kept beside that n8n runtime: each queue cluster's PostgreSQL starts from a copy of its data folder
 * (`postgresTemplate`, testbed/queue/servers.ts) instead of initdb and an empty database, so its main
 * skips n8n's migrations and starts as a restart does (docs/performance.md, What the test machinery
 * spares). Nothing in it is a secret: n8n's encryption key is each cluster's own.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { HEADLESS_N8N, n8nCli, n8nEnvironment } from '../n8n/start';
import { freePort } from '../ports';
import { runtimePaths } from '../runtime/install';
import { queueTempFolder } from './folders';
import { postgresBinaries, startPostgres, type PostgresTemplate } from './postgres';

const templateDir = (version = postgresBinaries().version) =>
	join(runtimePaths().n8nDir, `postgres-${version}-template`);

/** The template of the selected n8n version and this PostgreSQL, when it was made. */
export function postgresTemplate(version?: string): PostgresTemplate | undefined {
	const dir = templateDir(version);
	if (!existsSync(join(dir, 'password'))) return undefined;
	return { data: join(dir, 'data'), password: readFileSync(join(dir, 'password'), 'utf8').trim() };
}

/** Makes the template when it is missing: a new cluster, n8n's `list:workflow` on it (which migrates), a clean stop. */
export async function ensurePostgresTemplate(): Promise<string> {
	const bins = postgresBinaries();
	if (postgresTemplate(bins.version)) return 'kept';
	const folder = queueTempFolder();
	try {
		const pg = await startPostgres(join(folder.dir, 'postgres'), await freePort(), bins);
		try {
			const userFolder = join(folder.dir, 'n8n');
			mkdirSync(userFolder, { recursive: true });
			const r = await n8nCli(
				{
					...(await n8nEnvironment(userFolder)),
					...HEADLESS_N8N,
					DB_TYPE: 'postgresdb',
					DB_POSTGRESDB_HOST: '127.0.0.1',
					DB_POSTGRESDB_PORT: String(pg.port),
					DB_POSTGRESDB_DATABASE: pg.database,
					DB_POSTGRESDB_USER: pg.user,
					DB_POSTGRESDB_PASSWORD: pg.password,
				},
				['list:workflow'],
			);
			if (r.status !== 0)
				throw new Error(
					`n8n list:workflow on a new PostgreSQL failed (${r.status}):\n${r.stdout.slice(-2000)}`,
				);
		} finally {
			await pg.stop(); // a fast shutdown: the data folder is consistent
		}
		const dir = templateDir(bins.version);
		const partial = `${dir}.${process.pid}`;
		rmSync(partial, { recursive: true, force: true });
		mkdirSync(partial, { recursive: true });
		const copy = spawnSync(
			'cp',
			['-a', join(folder.dir, 'postgres', 'data'), join(partial, 'data')],
			{
				encoding: 'utf8',
			},
		);
		if (copy.status !== 0) throw new Error(`keeping PostgreSQL's template failed: ${copy.stderr}`);
		writeFileSync(join(partial, 'password'), `${pg.password}\n`, { mode: 0o600 });
		try {
			renameSync(partial, dir);
		} catch {
			rmSync(partial, { recursive: true, force: true }); // another run made it meanwhile
		}
		return 'made';
	} finally {
		folder.remove();
	}
}
