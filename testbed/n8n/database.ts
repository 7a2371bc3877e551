/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * n8n's SQLite database as its migrations leave it, made once per n8n version by n8n's own CLI and
 * kept beside that runtime: a user folder the tests give an n8n starts from a copy of it
 * (`prepareUserFolder`), so each fresh n8n skips its migrations and starts as a restarted one does
 * (docs/performance.md, What the test machinery spares). Nothing in it is a secret: n8n keeps
 * its encryption key in the user folder's config, which each n8n writes for itself at its first start.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { runScratch } from '../processes';
import { runtimePaths } from '../runtime/install';
import { databaseTemplate, HEADLESS_N8N, n8nCli, n8nEnvironment } from './start';

/** Makes the template of the selected n8n version when it is missing (n8n's `list:workflow` migrates an empty database). */
export async function ensureDatabaseTemplate(): Promise<string> {
	const paths = runtimePaths();
	const target = databaseTemplate(paths);
	if (existsSync(target)) return 'kept';
	const folder = runScratch('n8n-database-');
	const env = { ...(await n8nEnvironment(folder, undefined, paths)), ...HEADLESS_N8N };
	const r = await n8nCli(env, ['list:workflow']);
	if (r.status !== 0)
		throw new Error(
			`n8n list:workflow on an empty user folder failed (${r.status}):\n${r.stdout.slice(-2000)}`,
		);
	// The CLI leaves its writes in the write-ahead log: VACUUM INTO writes one file with all of them.
	const partial = `${target}.${process.pid}`;
	rmSync(partial, { force: true });
	const vacuum = spawnSync(
		paths.node,
		[
			'-e',
			'const s = require(process.argv[1]); const db = new s.Database(process.argv[2]);' +
				'db.exec(`VACUUM INTO ${JSON.stringify(process.argv[3])}`, (e) => { if (e) { console.error(e.message); process.exit(1); } db.close(); });',
			join(paths.n8nDir, 'node_modules', 'sqlite3'),
			join(folder, '.n8n', 'database.sqlite'),
			partial,
		],
		{ encoding: 'utf8' },
	);
	if (vacuum.status !== 0)
		throw new Error(`copying n8n's migrated database failed: ${vacuum.stderr}`);
	renameSync(partial, target); // another run may have made it meanwhile: the same migrations, either is right
	rmSync(folder, { recursive: true, force: true });
	return 'made';
}
