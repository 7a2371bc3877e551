/**
 * Property: no token off the API host (issue 23, finding 2). The credential's API Base URL
 * points at a front server that answers with a redirect of every kind (301, 302, 303, 307,
 * 308) to another endpoint: another port, another host name, another scheme. Some cases
 * answer 401 first, so the request goes again through n8n's OAuth2 path (refresh, then the
 * retry) before the redirect. Whatever the method and body (Custom API Call sends any), the
 * other endpoint receives nothing: neither the token nor the body. The item fails with an
 * error that says what the platform answered and holds no token.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { request } from 'undici';

import { createHarness } from '../../testbed/harness/run';
import { readBody, serveLoopback } from '../helpers/loopback';
import { checkProperty } from '../helpers/property';
import { startReceiver } from '../helpers/receiver';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox();

interface Case {
	status: 301 | 302 | 303 | 307 | 308;
	target: 'port' | 'host' | 'scheme';
	first401: boolean;
	method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
	body: IDataObject;
}

/** The other endpoint as a redirect names it: the receiver's own URL (another port), its port under another host name, or https. */
function elsewhere(otherUrl: string, target: Case['target']): string {
	const port = new URL(otherUrl).port;
	return { port: otherUrl, host: `http://localhost:${port}`, scheme: `https://127.0.0.1:${port}` }[
		target
	];
}

it('property: a redirect never carries the token or the body to another endpoint', async () => {
	const sb = ctx.sb;
	const other = await startReceiver();
	let current: Case | undefined;
	let refused = false;
	const front = await serveLoopback((req, res) => {
		const c = current!;
		if (c.first401 && !refused) {
			refused = true;
			res.writeHead(401, { 'content-type': 'application/json' });
			return void res.end('{"message":"Invalid token!"}');
		}
		const location = elsewhere(other.url, c.target);
		res.writeHead(c.status, { location: `${location}${req.url ?? '/'}` });
		res.end();
	});
	const h = createHarness(sb, sb.demo.tokenResponse, { baseUrl: front.url });
	const token = String(sb.demo.tokenResponse.access_token);
	const arbitraryCase = fc.record<Case>({
		status: fc.constantFrom(301, 302, 303, 307, 308),
		target: fc.constantFrom('port', 'host', 'scheme'),
		first401: fc.boolean(),
		method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
		body: fc
			.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.string({ maxLength: 20 }), { maxKeys: 3 })
			.map((d) => ({ ...d, marker: 'secret-body' })),
	});
	try {
		await checkProperty(
			200,
			fc.asyncProperty(arbitraryCase, async (c) => {
				current = c;
				refused = false;
				const before = other.calls.length;
				const run = await h.run('businessPlatformSales', {
					resource: 'customApiCall',
					operation: 'customApiCall',
					customMethod: c.method,
					customPath: '/v1/crm/contacts',
					...(c.method === 'GET' || c.method === 'DELETE'
						? {}
						: { customBody: JSON.stringify(c.body) }),
				});
				expect(other.calls.slice(before)).toEqual([]);
				expect(run.error?.message).toContain(`answered ${c.status}, a redirect`);
				expect(
					JSON.stringify({ message: run.error?.message, description: run.error?.description }),
				).not.toContain(token);
			}),
		);
	} finally {
		await front.close();
		await other.close();
	}
});

describe('the platform-token renewal (getrefreshtoken, legacy V1 apps)', () => {
	const legacy = useSandbox({ mode: 'v1-legacy' });

	it('property: a redirect of getrefreshtoken never carries the refresh token (its body) to another endpoint', async () => {
		const sb = legacy.sb;
		const other = await startReceiver();
		let current: Pick<Case, 'status' | 'target'> = { status: 307, target: 'port' };
		let redirected = 0;
		// A front that passes every request to the sandbox, except the renewal, which it redirects.
		const front = await serveLoopback(async (req, res) => {
			const body = await readBody(req);
			if (req.url?.startsWith('/v1/iam/auth/app/getrefreshtoken')) {
				redirected++;
				const location = elsewhere(other.url, current.target);
				res.writeHead(current.status, { location: `${location}${req.url}` });
				return void res.end();
			}
			const headers = Object.fromEntries(
				Object.entries(req.headers).filter(
					([k]) => !['host', 'connection', 'content-length'].includes(k),
				),
			) as Record<string, string>;
			const answer = await request(sb.baseUrl + (req.url ?? '/'), {
				method: req.method as 'GET',
				headers,
				body: body || undefined,
			});
			const text = await answer.body.text();
			res.writeHead(answer.statusCode, {
				'content-type': String(answer.headers['content-type'] ?? 'application/json'),
			});
			res.end(text);
		});
		const arbitraryCase = fc.record({
			status: fc.constantFrom(301, 302, 303, 307, 308),
			target: fc.constantFrom('port', 'host', 'scheme'),
		}) as fc.Arbitrary<Pick<Case, 'status' | 'target'>>;
		try {
			await checkProperty(
				30,
				fc.asyncProperty(arbitraryCase, async (c) => {
					current = c;
					const before = { other: other.calls.length, redirected };
					const h = createHarness(sb, sb.issueTokens(), { baseUrl: front.url });
					const refreshToken = String(
						(h.credentials.data().oauthTokenData as IDataObject)['platform-refresh-token'] ?? '',
					);
					// A first run marks the token pair; then every token expires, so the next run goes
					// through n8n's OAuth2 refresh and the credential's renewal of the platform token.
					expect(
						(
							await h.run('businessPlatformSales', {
								resource: 'contact',
								operation: 'getAll',
								returnAll: false,
								limit: 1,
							})
						).error,
					).toBeUndefined();
					sb.auth.expireAll();
					const run = await h.run('businessPlatformSales', {
						resource: 'contact',
						operation: 'getAll',
						returnAll: false,
						limit: 1,
					});
					expect(redirected).toBeGreaterThan(before.redirected); // the renewal was asked for, and redirected
					expect(other.calls.slice(before.other)).toEqual([]);
					expect(run.error).toBeDefined();
					if (refreshToken)
						expect(
							JSON.stringify({ message: run.error?.message, description: run.error?.description }),
						).not.toContain(refreshToken);
				}),
			);
		} finally {
			await front.close();
			await other.close();
		}
	});
});

describe("the platform's error text never carries a secret (issue 32, finding 7)", () => {
	type Where =
		| 'errorMessage'
		| 'message'
		| 'debugMessage'
		| 'field error'
		| 'field name'
		| 'base64 details'
		| 'plain text'
		| 'nested';
	interface Echo {
		status: 400 | 403 | 404 | 406 | 409 | 413 | 422;
		where: Where;
		secret:
			| 'x-access-token header'
			| 'access_token'
			| 'refresh_token'
			| 'platform refresh token'
			| 'client secret';
		form: 'as is' | 'URL-encoded' | 'Bearer';
		method: 'GET' | 'POST';
		continueOnFail: boolean;
	}

	/** A body that holds `text` where the case says. */
	function bodyOf(where: Where, text: string): { type: string; body: string } {
		const json = (v: unknown) => ({ type: 'application/json', body: JSON.stringify(v) });
		switch (where) {
			case 'errorMessage':
				return json({
					code: 400,
					errorMessage: `Invalid header: ${text}`,
					httpStatus: '400 BAD_REQUEST',
				});
			case 'message':
				return json({ message: `token ${text} rejected`, error: 'Bad Request' });
			case 'debugMessage':
				return json({
					errorMessage: 'Bad request',
					debugMessage: `headers: x-access-token=${text}`,
				});
			case 'field error':
				return json({
					errorMessage: 'Validation failed',
					errors: [{ field: 'name', error: `must not be ${text}` }],
				});
			case 'field name':
				return json({
					errorMessage: 'Validation failed',
					errors: [{ field: text, error: 'unknown' }],
				});
			case 'base64 details':
				return json({
					message: 'invalid',
					details: [{ value: Buffer.from(`name: has ${text}`).toString('base64') }],
				});
			case 'nested':
				return json({
					errorMessage: 'Gateway',
					error: `upstream said ${text}`,
					request: { headers: { 'x-access-token': text } },
				});
			default:
				return { type: 'text/plain', body: `bad request from ${text}` };
		}
	}

	it('property: a gateway that echoes the token, a refresh token or the client secret in its error leaves them out of the error and of Continue On Fail items', async () => {
		const sb = ctx.sb;
		let current: Echo | undefined;
		const front = await serveLoopback(async (req, res) => {
			await readBody(req);
			const c = current!;
			const data = h.credentials.data();
			const tokens = data.oauthTokenData as IDataObject;
			const raw = {
				'x-access-token header': String(req.headers['x-access-token'] ?? ''),
				access_token: String(tokens.access_token),
				refresh_token: String(tokens.refresh_token),
				'platform refresh token': String(tokens['platform-refresh-token'] ?? tokens.refresh_token),
				'client secret': String(data.clientSecret),
			}[c.secret];
			const text =
				c.form === 'URL-encoded'
					? encodeURIComponent(raw)
					: c.form === 'Bearer'
						? `Bearer ${raw}`
						: raw;
			const { type, body } = bodyOf(c.where, text);
			res.writeHead(c.status, { 'content-type': type });
			res.end(body);
		});
		// A client secret with characters that URL-encoding changes.
		const h = createHarness(sb, sb.issueTokens(), {
			baseUrl: front.url,
			clientSecret: 'sandbox-secret/+= ü',
		});
		const secrets = () => {
			const data = h.credentials.data();
			const tokens = data.oauthTokenData as IDataObject;
			return [
				String(data.clientSecret),
				...Object.entries(tokens)
					.filter(([k, v]) => typeof v === 'string' && /token/.test(k) && k !== 'token_type')
					.map(([, v]) => String(v)),
			];
		};
		const arbitraryEcho = fc.record<Echo>({
			status: fc.constantFrom(400, 403, 404, 406, 409, 413, 422),
			where: fc.constantFrom(
				'errorMessage',
				'message',
				'debugMessage',
				'field error',
				'field name',
				'base64 details',
				'plain text',
				'nested',
			),
			secret: fc.constantFrom(
				'x-access-token header',
				'access_token',
				'refresh_token',
				'platform refresh token',
				'client secret',
			),
			form: fc.constantFrom('as is', 'URL-encoded', 'Bearer'),
			method: fc.constantFrom('GET', 'POST'),
			continueOnFail: fc.boolean(),
		});
		try {
			await checkProperty(
				150,
				fc.asyncProperty(arbitraryEcho, async (c) => {
					current = c;
					const params =
						c.method === 'GET'
							? { resource: 'contact', operation: 'getAll', returnAll: false, limit: 1 }
							: { resource: 'contact', operation: 'create', name: 'Echo Test', type: 'person' };
					const run = await h.run('businessPlatformSales', params, [{ json: {} }], {
						continueOnFail: c.continueOnFail,
					});
					const shown = JSON.stringify({
						message: run.error?.message,
						description: run.error?.description,
						context: run.error?.context,
						items: run.json,
					});
					// The platform's words are there (the case really echoed), without the secret.
					expect(shown).toMatch(/The Business Platform API answered 4\d\d/);
					for (const secret of secrets()) {
						expect(shown).not.toContain(secret);
						expect(shown).not.toContain(encodeURIComponent(secret));
					}
				}),
			);
		} finally {
			await front.close();
		}
	});
});
