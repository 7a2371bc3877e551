/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/** Redis for n8n's queue mode (Debian's redis-server, installed with apt-get when missing and root). */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';

import { hasCommand, isRoot, launch, prefix, until, type Server } from './server-process';

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
