/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { call, useSandbox } from '../helpers/sandbox';
import { ENDPOINTS, shape } from './catalogue';

const ctx = useSandbox();
const SPEC_DIR = resolve(__dirname, '../../../shared/spec');

const key = (method: string, path: string) => `${method} ${shape(path)}`;

describe('the endpoint catalogue', () => {
	it('has the 78 endpoints of the spec: 42 sales, 11 campaign, 22 people/payroll, 3 webhook', () => {
		const count = (m: string) => ENDPOINTS.filter((x) => x.module === m).length;
		expect([ENDPOINTS.length, count('sales'), count('campaigns'), count('people'), count('webhooks')]).toEqual([78, 42, 11, 22, 3]);
		expect(new Set(ENDPOINTS.map((x) => key(x.method, x.path))).size).toBe(78);
	});

	(existsSync(SPEC_DIR) ? it : it.skip)('matches every method-and-path row of the spec documents', () => {
		const rows = new Set<string>();
		for (const file of readdirSync(SPEC_DIR).filter((f) => f.endsWith('.md'))) {
			for (const line of readFileSync(join(SPEC_DIR, file), 'utf8').split('\n')) {
				const m = /^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*(\/v1\/\S+)\s*\|/.exec(line);
				if (m) rows.add(key(m[1], m[2]));
			}
		}
		expect([...rows].sort()).toEqual(ENDPOINTS.map((x) => key(x.method, x.path)).sort());
	});

	it('is exactly what the sandbox serves behind a token (plus the token validation endpoint)', () => {
		const served = ctx.sb
			.routes()
			.filter((r) => r.auth === 'token')
			.map((r) => key(r.method, r.pattern));
		expect(served.sort()).toEqual([...ENDPOINTS.map((x) => key(x.method, x.path)), key('GET', '/v1/iam/token/app/validate')].sort());
	});

	it.each(ENDPOINTS.map((x) => [x.method, x.path, x.module] as const))('%s %s answers 401 without a token', async (method, path, module) => {
		const concrete = path.replace(/:year/, '2026').replace(/:[A-Za-z]+/g, '1');
		const r = await call(ctx.sb, method, concrete, { token: null, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
		expect(r.status).toBe(401);
		if (module === 'people') expect(r.body).toMatchObject({ code: 16, message: 'Invalid token!' });
		else expect(r.body).toMatchObject({ code: 401, errorMessage: 'Invalid token!', httpStatus: '401 UNAUTHORIZED' });
		const bad = await call(ctx.sb, method, concrete, { token: 'not-a-token', body: method === 'GET' || method === 'DELETE' ? undefined : {} });
		expect(bad.status).toBe(401);
	});

	it('answers unknown paths with 404, wrong methods with 405 and malformed JSON with 400', async () => {
		expect((await call(ctx.sb, 'GET', '/v1/crm/unicorns')).status).toBe(404);
		expect((await call(ctx.sb, 'PATCH', '/v1/crm/deals/pipelines')).status).toBe(405);
		const malformed = await call(ctx.sb, 'POST', '/v1/crm/contacts', { raw: '{"name": "x",' });
		expect(malformed.status).toBe(400);
		expect(malformed.body).toMatchObject({ errorMessage: 'Malformed JSON request', errors: [{ field: 'body', error: 'is not valid JSON' }] });
		const arr = await call(ctx.sb, 'POST', '/v1/crm/contacts', { body: [1, 2] });
		expect(arr.status).toBe(400);
	});
});
