import { BusinessPlatformOAuth2Api } from '../../credentials/BusinessPlatformOAuth2Api.credentials';
import { platformRefreshTokenKey, platformTokenKey } from '../../nodes/shared/transport';
import { startSandbox, type Sandbox } from '../../sandbox/src/server';
import { testCredential } from '../../testbed/harness/credential-test';
import { createHarness } from '../../testbed/harness/run';
import { startReceiver } from '../helpers/receiver';

describe('the credential', () => {
	const cred = new BusinessPlatformOAuth2Api();

	it('extends oAuth2Api with the platform fields, the secret as a password field (the client ID is not a secret)', () => {
		expect(cred.extends).toEqual(['oAuth2Api']);
		expect(cred.name).toMatch(/OAuth2/);
		expect(cred.displayName).toMatch(/OAuth2/);
		const byName = Object.fromEntries(cred.properties.map((p) => [p.name, p]));
		for (const name of [
			'baseUrl',
			'authorizationPageUrl',
			'regionalBaseUrl',
			'clientId',
			'clientSecret',
			'scope',
		])
			expect(byName[name]).toBeDefined();
		expect(byName.clientId.typeOptions?.password).toBeUndefined();
		expect(byName.clientSecret.typeOptions?.password).toBe(true);
		expect(byName.authentication.default).toBe('header');
		expect(String(byName.accessTokenUrl.default)).toContain('/oauth/token');
	});

	it('finds the platform token whatever the brand word, and none with OAuth V2', () => {
		expect(
			platformTokenKey({ access_token: 'a', 'platform-token': 'p', 'platform-refresh-token': 'r' }),
		).toBe('platform-token');
		expect(
			platformTokenKey({ access_token: 'a', 'acme-refresh-token': 'r', 'acme-token': 'p' }),
		).toBe('acme-token');
		expect(platformRefreshTokenKey({ 'acme-refresh-token': 'r', 'acme-token': 'p' })).toBe(
			'acme-refresh-token',
		);
		expect(platformTokenKey({ access_token: 'jwt', refresh_token: 'r' })).toBeUndefined();
	});
});

describe.each(['v1', 'v2'] as const)('the Test button (%s)', (mode) => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox({ mode, brand: 'acme' });
	});
	afterAll(() => sb.stop());

	it('passes with a good token', async () => {
		const h = createHarness(sb, sb.issueTokens());
		expect(await testCredential(h.credentials)).toEqual({
			status: 'OK',
			message: expect.any(String),
		});
	});

	it('explains a bad one', async () => {
		const h = createHarness(sb, {
			...sb.issueTokens(),
			access_token: 'bad',
			'acme-token': 'bad',
			refresh_token: 'also-bad',
		});
		const verdict = await testCredential(h.credentials);
		expect(verdict.status).toBe('Error');
		expect(verdict.message).toMatch(/reconnect/i);
	});

	it("never sends the token over plain http to a host that is not loopback (the transport's own rule)", async () => {
		// http://0.0.0.0 reaches the receiver on 127.0.0.1 (Linux connects it to the local host) but is
		// not one of the loopback names the rule allows: it stands in for a remote plain-http host.
		// (An address that cannot connect at all would pass without the rule.)
		const rx = await startReceiver();
		try {
			const port = new URL(rx.url).port;
			const reachable = createHarness(sb, sb.issueTokens(), {
				baseUrl: `http://127.0.0.1:${port}`,
			});
			await testCredential(reachable.credentials);
			expect(rx.calls.length).toBeGreaterThan(0); // the receiver does get a Test request on loopback
			const before = rx.calls.length;
			const h = createHarness(sb, sb.issueTokens(), { baseUrl: `http://0.0.0.0:${port}` });
			const verdict = await testCredential(h.credentials);
			expect(verdict.status).toBe('Error');
			expect(rx.calls.slice(before)).toEqual([]);
		} finally {
			await rx.close();
		}
	});

	it('explains a wrong base URL', async () => {
		const h = createHarness(sb, sb.issueTokens(), { baseUrl: `${sb.baseUrl}/v1` });
		const verdict = await testCredential(h.credentials);
		expect(verdict.status).toBe('Error');
		expect(verdict.message).toMatch(/API Base URL/);
	});
});
