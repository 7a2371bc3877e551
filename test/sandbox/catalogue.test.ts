import { call, useSandbox } from '../helpers/sandbox';
import { ENDPOINTS, shape } from './catalogue';

const ctx = useSandbox();

const key = (method: string, path: string) => `${method} ${shape(path)}`;

describe('the endpoint catalogue (the endpoints of the contract that carry a token)', () => {
	it('is exactly what the sandbox serves behind a token (plus the token validation endpoint)', () => {
		const served = ctx.sb
			.routes()
			.filter((r) => r.auth === 'token')
			.map((r) => key(r.method, r.pattern));
		expect(served.sort()).toEqual(
			[
				...ENDPOINTS.map((x) => key(x.method, x.path)),
				key('GET', '/v1/iam/token/app/validate'),
			].sort(),
		);
	});

	it.each(ENDPOINTS.map((x) => [x.method, x.path, x.module] as const))(
		'%s %s answers 401 without a token',
		async (method, path, module) => {
			const concrete = path.replace(/:year/, '2026').replace(/:[A-Za-z]+/g, '1');
			const r = await call(ctx.sb, method, concrete, {
				token: null,
				body: method === 'GET' || method === 'DELETE' ? undefined : {},
			});
			expect(r.status).toBe(401);
			if (module === 'people')
				expect(r.body).toMatchObject({ code: 16, message: 'Invalid token!' });
			else
				expect(r.body).toMatchObject({
					code: 401,
					errorMessage: 'Invalid token!',
					httpStatus: '401 UNAUTHORIZED',
				});
			const bad = await call(ctx.sb, method, concrete, {
				token: 'not-a-token',
				body: method === 'GET' || method === 'DELETE' ? undefined : {},
			});
			expect(bad.status).toBe(401);
		},
	);

	it('answers unknown paths with 404, wrong methods with 405 and malformed JSON with 400', async () => {
		expect((await call(ctx.sb, 'GET', '/v1/crm/unicorns')).status).toBe(404);
		expect((await call(ctx.sb, 'PATCH', '/v1/crm/deals/pipelines')).status).toBe(405);
		const malformed = await call(ctx.sb, 'POST', '/v1/crm/contacts', { raw: '{"name": "x",' });
		expect(malformed.status).toBe(400);
		expect(malformed.body).toMatchObject({
			errorMessage: 'Malformed JSON request',
			errors: [{ field: 'body', error: 'is not valid JSON' }],
		});
		const arr = await call(ctx.sb, 'POST', '/v1/crm/contacts', { body: [1, 2] });
		expect(arr.status).toBe(400);
	});
});
