/**
 * One https rule for every address the credential sends a secret to (issue 23, finding 9): the
 * Test request (the token) and Connect's token URL (the client secret), evaluated by n8n's own
 * expression engine. https and loopback http keep their address; any other plain-http base URL
 * becomes an unresolvable .invalid host, and the Test request's token header is empty.
 */
import { Expression, type IWorkflowDataProxyData } from 'n8n-workflow';

import { BusinessPlatformOAuth2Api } from '../../credentials/BusinessPlatformOAuth2Api.credentials';

const credential = new BusinessPlatformOAuth2Api();
const expression = new Expression('UTC');
const TOKEN = 'platform-token-value';
const evaluate = (value: unknown, baseUrl: string) => {
	const data = { baseUrl, oauthTokenData: { access_token: 'oauth', 'acme-token': TOKEN } };
	return expression.resolveSimpleParameterValue(
		value as string,
		{ $self: data, $credentials: data } as unknown as IWorkflowDataProxyData,
	);
};
const tokenUrl = (baseUrl: string) =>
	evaluate(credential.properties.find((p) => p.name === 'accessTokenUrl')!.default, baseUrl);
const testRequest = (baseUrl: string) => ({
	base: evaluate(credential.test.request.baseURL, baseUrl),
	token: evaluate(credential.test.request.headers!['x-access-token'], baseUrl),
});

beforeAll(async () => {
	await expression.acquireIsolate?.();
});
afterAll(async () => {
	await expression.releaseIsolate?.();
});

it.each([
	'https://api.example.com',
	'https://api.example.com/',
	'http://127.0.0.1:4010',
	'http://localhost:4010',
	'http://[::1]:4010',
])('%s keeps its address, and the Test sends the token', (baseUrl) => {
	const base = baseUrl.replace(/\/+$/, '');
	expect(tokenUrl(baseUrl)).toBe(`${base}/oauth/token`);
	expect(testRequest(baseUrl)).toEqual({ base, token: TOKEN });
});

it.each([
	'http://api.example.com',
	'http://10.0.0.5:8080',
	'http://0.0.0.0:4010',
	'http://127.0.0.1.example.com',
	'ftp://api.example.com',
	'',
])('%s: neither Connect nor the Test send a secret there', (baseUrl) => {
	expect(tokenUrl(baseUrl)).toBe('https://use-https-in-the-api-base-url.invalid/oauth/token');
	expect(testRequest(baseUrl)).toEqual({
		base: 'https://use-https-in-the-api-base-url.invalid',
		token: '',
	});
});
