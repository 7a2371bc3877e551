/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Requests per second of the sandbox with a raw undici client, so later
 * benchmarks can show the sandbox is not their bottleneck.
 * The sandbox runs in its own process (as `npm run sandbox` starts it); the
 * client keeps `CONCURRENCY` requests in flight for `SECONDS` per scenario.
 *
 *   npm run bench:sandbox [-- --seconds 5 --concurrency 32]
 */
import { cpus } from 'node:os';

import { Pool } from 'undici';

import { startSandboxProcess } from '../testbed/sandbox-process';

const arg = (name: string, dflt: number) => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SECONDS = arg('seconds', 5);
const CONCURRENCY = arg('concurrency', 32);

async function run(
	pool: Pool,
	make: (i: number) => { method: 'GET' | 'POST'; path: string; body?: string },
	token: string,
) {
	const deadline = Date.now() + SECONDS * 1000;
	let done = 0;
	let failed = 0;
	const worker = async () => {
		while (Date.now() < deadline) {
			const r = make(done + failed);
			const res = await pool.request({
				method: r.method,
				path: r.path,
				body: r.body,
				headers: { 'x-access-token': token, 'content-type': 'application/json' },
			});
			await res.body.dump();
			if (res.statusCode < 300) done++;
			else failed++;
		}
	};
	const t0 = process.hrtime.bigint();
	await Promise.all(Array.from({ length: CONCURRENCY }, worker));
	const secs = Number(process.hrtime.bigint() - t0) / 1e9;
	return { rps: Math.round(done / secs), failed };
}

async function main() {
	const { ready, stop } = await startSandboxProcess(['--rows', '200']);
	const pool = new Pool(ready.baseUrl, { connections: CONCURRENCY, pipelining: 1 });
	try {
		// Warm up.
		await run(pool, () => ({ method: 'GET', path: '/v1/crm/contacts?limit=1' }), ready.accessToken);
		const list = await pool.request({
			method: 'GET',
			path: '/v1/crm/contacts?limit=1',
			headers: { 'x-access-token': ready.accessToken },
		});
		const id = ((await list.body.json()) as { data: Array<{ id: number }> }).data[0].id;
		const results = {
			'GET /v1/crm/contacts/{id}': await run(
				pool,
				() => ({ method: 'GET', path: `/v1/crm/contacts/${id}` }),
				ready.accessToken,
			),
			'GET /v1/crm/contacts?limit=100': await run(
				pool,
				() => ({ method: 'GET', path: '/v1/crm/contacts?limit=100' }),
				ready.accessToken,
			),
			'POST /v1/crm/contacts': await run(
				pool,
				(i) => ({
					method: 'POST',
					path: '/v1/crm/contacts',
					body: JSON.stringify({
						name: `Bench ${i}`,
						type: 'person',
						email: `bench${i}@example.com`,
					}),
				}),
				ready.accessToken,
			),
		};
		const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
		console.log(
			`sandbox requests per second (${CONCURRENCY} in flight, ${SECONDS} s each; ${machine})`,
		);
		for (const [name, r] of Object.entries(results))
			console.log(
				`  ${name.padEnd(34)} ${String(r.rps).padStart(7)} req/s${r.failed ? `  (${r.failed} failed)` : ''}`,
			);
	} finally {
		await pool.close();
		await stop();
	}
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
