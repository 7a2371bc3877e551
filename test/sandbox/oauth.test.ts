/* eslint-disable @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
import { request } from 'undici';

import { startSandbox, type Sandbox } from '../../sandbox/src/server';
import { call } from '../helpers/sandbox';

const basic = (sb: Sandbox, secret = sb.config.clientSecret) =>
	'Basic ' + Buffer.from(`${sb.config.clientId}:${secret}`).toString('base64');
const REDIRECT = 'http://127.0.0.1:9/callback';

/** Runs the authorization page non-interactively and returns the code from the redirect. */
async function authorize(sb: Sandbox, extra: Record<string, string> = {}): Promise<URL> {
	const q = new URLSearchParams({
		response_type: 'code',
		client_id: sb.config.clientId,
		scope: 'write',
		state: 'xyz',
		redirect_uri: REDIRECT,
		auto_approve: 'true',
		...extra,
	});
	const res = await request(`${sb.authUrl}?${q}`, { method: 'GET' });
	await res.body.dump();
	expect(res.statusCode).toBe(302);
	return new URL(String(res.headers.location));
}

async function token(
	sb: Sandbox,
	params: Record<string, string>,
	where: 'query' | 'form' = 'form',
	auth = basic(sb),
) {
	const body = new URLSearchParams(params).toString();
	const res = await request(`${sb.baseUrl}/oauth/token${where === 'query' ? `?${body}` : ''}`, {
		method: 'POST',
		headers: {
			authorization: auth,
			...(where === 'form' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
		},
		body: where === 'form' ? body : undefined,
	});
	return { status: res.statusCode, body: (await res.body.json()) as any };
}

const validate = async (sb: Sandbox, t: string | undefined) =>
	(await call(sb, 'GET', '/v1/iam/token/app/validate', { token: t ?? null })).status;

describe('sandbox OAuth: authorization page and code exchange', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox({ mode: 'v1', codeTtl: 1 });
	});
	afterAll(() => sb.stop());

	it('shows an approval page with Approve and Deny, and redirects with code and state on approval', async () => {
		const q = new URLSearchParams({
			response_type: 'code',
			client_id: sb.config.clientId,
			scope: 'write',
			state: 's1',
			redirect_uri: REDIRECT,
		});
		const pageRes = await request(`${sb.authUrl}?${q}`);
		const html = await pageRes.body.text();
		expect(pageRes.statusCode).toBe(200);
		expect(html).toContain('id="approve"');
		expect(html).toContain('id="deny"');
		const form = new URLSearchParams({
			response_type: 'code',
			client_id: sb.config.clientId,
			scope: 'write',
			state: 's1',
			redirect_uri: REDIRECT,
			decision: 'approve',
			user: 'demo',
		});
		const approved = await request(sb.authUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: form.toString(),
		});
		await approved.body.dump();
		const loc = new URL(String(approved.headers.location));
		expect(approved.statusCode).toBe(302);
		expect(loc.origin + loc.pathname).toBe(REDIRECT);
		expect(loc.searchParams.get('state')).toBe('s1');
		expect(loc.searchParams.get('code')).toMatch(/^[0-9a-f]{32}$/);
		form.set('decision', 'deny');
		const denied = await request(sb.authUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: form.toString(),
		});
		await denied.body.dump();
		expect(new URL(String(denied.headers.location)).searchParams.get('error')).toBe(
			'access_denied',
		);
		const bad = await request(
			`${sb.authUrl}?response_type=code&client_id=nope&redirect_uri=${encodeURIComponent(REDIRECT)}`,
		);
		await bad.body.dump();
		expect(bad.statusCode).toBe(400);
	});

	it.each(['form', 'query'] as const)(
		'exchanges a code sent in the %s with Basic client auth',
		async (where) => {
			const code = (await authorize(sb)).searchParams.get('code')!;
			const r = await token(
				sb,
				{ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, scope: 'read+write' },
				where,
			);
			expect(r.status).toBe(200);
			expect(Object.keys(r.body).sort()).toEqual([
				'access_token',
				'email',
				'expires_in',
				'org',
				'platform-refresh-token',
				'platform-token',
				'refresh_token',
				'scope',
				'token_type',
				'username',
			]);
			expect(r.body).toMatchObject({
				token_type: 'bearer',
				expires_in: 3600,
				email: 'demo@acme.example',
				username: 'demo',
				org: 'Acme Demo Ltd',
			});
			expect(await validate(sb, r.body['platform-token'])).toBe(200);
			// The V1 OAuth access token is "unused" by the platform: it does not open the API.
			expect(await validate(sb, r.body.access_token)).toBe(401);
		},
	);

	it('codes are single-use and short-lived; client auth is checked', async () => {
		const code = (await authorize(sb)).searchParams.get('code')!;
		expect(
			(await token(sb, { grant_type: 'authorization_code', code }, 'form', basic(sb, 'wrong')))
				.status,
		).toBe(401);
		expect((await token(sb, { grant_type: 'authorization_code', code })).status).toBe(200);
		const again = await token(sb, { grant_type: 'authorization_code', code });
		expect(again.status).toBe(400);
		expect(again.body.error).toBe('invalid_grant');
		const late = (await authorize(sb)).searchParams.get('code')!;
		// The code's second passes on the sandbox's token clock.
		sb.auth.clock.set({ advanceMs: 1100 });
		expect((await token(sb, { grant_type: 'authorization_code', code: late })).body).toMatchObject({
			error: 'invalid_grant',
		});
		const mismatch = (await authorize(sb)).searchParams.get('code')!;
		expect(
			(
				await token(sb, {
					grant_type: 'authorization_code',
					code: mismatch,
					redirect_uri: 'http://127.0.0.1:9/other',
				})
			).status,
		).toBe(400);
	});

	it('accepts the client credentials in the body too', async () => {
		const code = (await authorize(sb)).searchParams.get('code')!;
		const r = await token(
			sb,
			{
				grant_type: 'authorization_code',
				code,
				client_id: sb.config.clientId,
				client_secret: sb.config.clientSecret,
			},
			'form',
			'',
		);
		expect(r.status).toBe(200);
	});
});

describe.each(['v1', 'v1-legacy', 'v2'] as const)(
	'sandbox OAuth mode %s: expiry, refresh, rotation',
	(mode) => {
		let sb: Sandbox;
		beforeAll(async () => {
			sb = await startSandbox({ mode, tokenTtl: 1 });
		});
		afterAll(() => sb.stop());

		it('expires tokens, refreshes, and rotates refresh tokens', async () => {
			const code = (await authorize(sb)).searchParams.get('code')!;
			const first = (await token(sb, { grant_type: 'authorization_code', code })).body;
			const apiToken = sb.platformToken(first);
			if (mode === 'v2') {
				expect(first['platform-token']).toBeUndefined();
				expect(apiToken).toBe(first.access_token);
			} else {
				expect(apiToken).toBe(first['platform-token']);
			}
			expect(await validate(sb, apiToken)).toBe(200);
			expect((await call(sb, 'GET', '/v1/crm/contacts', { token: apiToken })).status).toBe(200);

			// The token's second passes on the sandbox's token clock (test/integration/refresh.test.ts waits for one in real time).
			expect(
				(
					await call(sb, 'POST', '/__admin/tokens/clock', {
						token: null,
						body: { advanceMs: 1100 },
					})
				).status,
			).toBe(200);
			expect(await validate(sb, apiToken)).toBe(401);
			const expired = await call(sb, 'GET', '/v1/crm/contacts', { token: apiToken });
			expect(expired.status).toBe(401);
			expect(expired.body.errorMessage).toBe('Invalid token!');

			const refreshed = await token(sb, {
				grant_type: 'refresh_token',
				refresh_token: first.refresh_token,
			});
			expect(refreshed.status).toBe(200);
			expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
			let newApiToken: string;
			if (mode === 'v1-legacy') {
				// The refresh grant renews only the OAuth tokens; the platform token comes from getrefreshtoken.
				expect(refreshed.body['platform-token']).toBeUndefined();
				expect(await validate(sb, refreshed.body.access_token)).toBe(401);
				const renewed = await call(sb, 'POST', '/v1/iam/auth/app/getrefreshtoken', {
					token: null,
					body: { refreshToken: first['platform-refresh-token'], userName: 'demo', tenantId: 1 },
				});
				expect(renewed.status).toBe(200);
				expect(Object.keys(renewed.body).sort()).toEqual([
					'accessToken',
					'emailVerified',
					'expiresIn',
					'guid',
					'idToken',
					'isMFAEnabled',
					'isTrialUser',
					'refreshToken',
					'tokenType',
				]);
				newApiToken = renewed.body.accessToken;
				// Rotation: the platform refresh token is used up.
				const reuse = await call(sb, 'POST', '/v1/iam/auth/app/getrefreshtoken', {
					token: null,
					body: { refreshToken: first['platform-refresh-token'], userName: 'demo', tenantId: 1 },
				});
				expect(reuse.status).toBe(401);
				// …and its successor works.
				expect(
					(
						await call(sb, 'POST', '/v1/iam/auth/app/getrefreshtoken', {
							token: null,
							body: { refreshToken: renewed.body.refreshToken, userName: 'demo', tenantId: 1 },
						})
					).status,
				).toBe(200);
			} else {
				newApiToken = sb.platformToken(refreshed.body);
				expect(newApiToken).not.toBe(apiToken);
			}
			expect(await validate(sb, newApiToken)).toBe(200);
			expect((await call(sb, 'GET', '/v1/crm/contacts', { token: newApiToken })).status).toBe(200);

			// Rotation: the used refresh token no longer works; the new one does.
			const reused = await token(sb, {
				grant_type: 'refresh_token',
				refresh_token: first.refresh_token,
			});
			expect(reused.status).toBe(400);
			expect(reused.body.error).toBe('invalid_grant');
			expect(
				(
					await token(sb, {
						grant_type: 'refresh_token',
						refresh_token: refreshed.body.refresh_token,
					})
				).status,
			).toBe(200);
			expect(sb.auth.stats.refreshGrant).toBe(2);
		});

		it('a revoked refresh token fails with invalid_grant', async () => {
			const t = sb.issueTokens();
			await request(`${sb.baseUrl}/__admin/tokens/revoke`, { method: 'POST' }).then((r) =>
				r.body.dump(),
			);
			const r = await token(sb, {
				grant_type: 'refresh_token',
				refresh_token: String(t.refresh_token),
			});
			expect(r.status).toBe(400);
			expect(r.body.error_description).toMatch(/revoked/);
		});
	},
);

describe('sandbox OAuth: brand word and admin expiry', () => {
	it('names the platform token after --brand', async () => {
		const sb = await startSandbox({ brand: 'acme' });
		try {
			const code = (await authorize(sb)).searchParams.get('code')!;
			const r = await token(sb, { grant_type: 'authorization_code', code });
			expect(r.body['acme-token']).toBeDefined();
			expect(r.body['acme-refresh-token']).toBeDefined();
			expect(await validate(sb, r.body['acme-token'])).toBe(200);
			await request(`${sb.baseUrl}/__admin/tokens/expire`, { method: 'POST' }).then((x) =>
				x.body.dump(),
			);
			expect(await validate(sb, r.body['acme-token'])).toBe(401);
		} finally {
			await sb.stop();
		}
	});
});
