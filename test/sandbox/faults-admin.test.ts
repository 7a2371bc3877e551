/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

import { request } from 'undici';

import { call, useSandbox } from '../helpers/sandbox';

const ctx = useSandbox();
const admin = (method: string, path: string, body?: unknown) =>
	call(ctx.sb, method, `/__admin${path}`, { token: null, body });

afterEach(async () => {
	await admin('DELETE', '/faults');
});

describe('sandbox faults', () => {
	it('answers 429 with Retry-After for the next N matching requests, without processing them', async () => {
		await admin('POST', '/faults', {
			kind: 'status',
			status: 429,
			retryAfter: 2,
			count: 2,
			method: 'POST',
			path: '/v1/crm/contacts',
		});
		const before = ctx.sb.store.tenant(1).contacts.size;
		const a = await call(ctx.sb, 'POST', '/v1/crm/contacts', { body: { name: 'Throttled' } });
		expect(a.status).toBe(429);
		expect(a.headers['retry-after']).toBe('2');
		expect(a.body.errorMessage).toMatch(/Too many requests/);
		expect(
			(await call(ctx.sb, 'POST', '/v1/crm/contacts', { body: { name: 'Throttled' } })).status,
		).toBe(429);
		expect(ctx.sb.store.tenant(1).contacts.size).toBe(before);
		expect(
			(await call(ctx.sb, 'POST', '/v1/crm/contacts', { body: { name: 'Through' } })).status,
		).toBe(200);
		expect(ctx.sb.store.tenant(1).contacts.size).toBe(before + 1);
		expect((await call(ctx.sb, 'GET', '/v1/crm/contacts')).status).toBe(200);
	});

	it('phase "after" processes the request and still answers 503 (the case that makes blind retries duplicate)', async () => {
		await admin('POST', '/faults', {
			kind: 'status',
			status: 503,
			count: 1,
			phase: 'after',
			method: 'POST',
			path: '/v1/crm/deals',
		});
		const before = ctx.sb.store.tenant(1).deals.size;
		const r = await call(ctx.sb, 'POST', '/v1/crm/deals', { body: { name: 'Ghost' } });
		expect(r.status).toBe(503);
		expect(ctx.sb.store.tenant(1).deals.size).toBe(before + 1);
	});

	it('drops connections and adds latency; rate applies to a share of requests; people errors use the gateway shape', async () => {
		await admin('POST', '/faults', { kind: 'drop', count: 1, path: '/v1/crm/activities' });
		await expect(call(ctx.sb, 'GET', '/v1/crm/activities')).rejects.toThrow();
		expect((await call(ctx.sb, 'GET', '/v1/crm/activities')).status).toBe(200);

		await admin('POST', '/faults', { kind: 'latency', ms: 300, count: 1, path: '/v1/crm/deals' });
		const t0 = Date.now();
		await call(ctx.sb, 'GET', '/v1/crm/deals');
		expect(Date.now() - t0).toBeGreaterThanOrEqual(290);

		await admin('POST', '/faults', {
			kind: 'status',
			status: 500,
			rate: 0.5,
			path: '/v1/crm/contacts/labels',
		});
		const statuses: number[] = [];
		for (let i = 0; i < 40; i++)
			statuses.push((await call(ctx.sb, 'GET', '/v1/crm/contacts/labels')).status);
		const failed = statuses.filter((s) => s === 500).length;
		expect(failed).toBeGreaterThan(5);
		expect(failed).toBeLessThan(35);
		await admin('DELETE', '/faults');

		await admin('POST', '/faults', { kind: 'status', status: 503, count: 1, path: '/v1/people' });
		const p = await call(ctx.sb, 'GET', '/v1/people/users');
		expect(p.status).toBe(503);
		expect(p.body).toMatchObject({ code: 14, message: 'Service temporarily unavailable' });
	});

	it('restarts: connections drop, the port comes back, the state survives', async () => {
		const created = await call(ctx.sb, 'POST', '/v1/crm/contacts/labels', {
			body: { name: 'Survivor' },
		});
		await ctx.sb.restart(200);
		expect(
			(await call(ctx.sb, 'GET', `/v1/crm/contacts/labels/${created.body.id}`)).body.name,
		).toBe('Survivor');
	});

	it('counts requests by route and logs bodies (never headers)', async () => {
		await admin('POST', '/stats/reset');
		await call(ctx.sb, 'GET', '/v1/crm/contacts', { query: { limit: 5 } });
		await call(ctx.sb, 'POST', '/v1/crm/contacts', { body: { name: 'Logged' } });
		const stats = (await admin('GET', '/stats')).body;
		expect(stats.byRoute).toEqual({ 'GET /v1/crm/contacts': 1, 'POST /v1/crm/contacts': 1 });
		const log = (await admin('GET', '/requests')).body;
		expect(log.map((x: any) => [x.method, x.path, x.status])).toEqual([
			['GET', '/v1/crm/contacts', 200],
			['POST', '/v1/crm/contacts', 200],
		]);
		expect(JSON.parse(log[1].body)).toEqual({ name: 'Logged' });
		expect(JSON.stringify(log)).not.toContain(ctx.sb.demo.accessToken);
	});

	it('exposes state, bulk seeding and reset through admin endpoints', async () => {
		const c = (await admin('GET', '/state/1/contacts')).body;
		expect(c.length).toBe(ctx.sb.store.tenant(1).contacts.size);
		const added = await admin('POST', '/seed', { kind: 'contacts', count: 500 });
		expect(added.body).toEqual({ kind: 'contacts', added: 500 });
		expect((await call(ctx.sb, 'GET', '/v1/crm/contacts')).body.paginationInfo.totalRecords).toBe(
			c.length + 500,
		);
		await admin('POST', '/reset');
		expect(ctx.sb.store.tenant(1).contacts.size).toBe(30);
		expect((await call(ctx.sb, 'GET', '/v1/crm/contacts')).status).toBe(200);
	});
});

describe('sandbox CLI', () => {
	it('`npm run sandbox -- --port 0` prints exactly one JSON line whose token works', async () => {
		const child = spawn('npm', ['run', '--silent', 'sandbox', '--', '--port', '0', '--rows', '5'], {
			cwd: resolve(__dirname, '../..'),
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		const exited = new Promise((r) => child.once('exit', r));
		try {
			const line = await new Promise<string>((resolveLine, reject) => {
				let out = '';
				child.stdout.on('data', (d: Buffer) => {
					out += d.toString();
					if (out.includes('\n')) resolveLine(out);
				});
				child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
			});
			const lines = line.trim().split('\n');
			expect(lines).toHaveLength(1);
			const ready = JSON.parse(lines[0]);
			expect(Object.keys(ready).sort()).toEqual([
				'accessToken',
				'authUrl',
				'baseUrl',
				'clientId',
				'clientSecret',
				'refreshToken',
				'tenantId',
				'username',
			]);
			expect(ready.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			const res = await request(`${ready.baseUrl}/v1/crm/contacts`, {
				headers: { 'x-access-token': ready.accessToken },
			});
			expect(res.statusCode).toBe(200);
			expect(((await res.body.json()) as any).paginationInfo.totalRecords).toBe(5);
		} finally {
			// npm → sh → tsx → node: stop the whole process group.
			process.kill(-child.pid!, 'SIGTERM');
			await exited;
		}
	}, 60000);
});
