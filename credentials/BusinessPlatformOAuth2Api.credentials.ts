import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import {
	credentialTenant,
	jwtClaims,
	platformRefreshTokenKey,
	platformTokenKey,
} from '../nodes/shared/transport';

/**
 * OAuth2 (authorization code) for the Business Platform API.
 *
 * The platform token goes in the `x-access-token` header. In a V1 token response it
 * is the `<brand>-token` field (the spec writes `platform-token`); with OAuth V2 it is
 * `access_token` itself. Nodes find the right field with `platformTokenKey()` in
 * nodes/shared/transport.ts and pass it to n8n's OAuth2 request path, which refreshes
 * on 401 (refresh_token grant, Basic client auth), saves the new tokens and retries.
 *
 * `preAuthentication` covers legacy V1 apps whose refresh grant renews only the OAuth
 * tokens: right after n8n refreshed them, it renews the platform token with
 * POST /v1/iam/auth/app/getrefreshtoken, and n8n saves the result with the rest.
 */

/**
 * One rule for every address the credential sends a secret to, the transport's (baseUrlProblem in
 * nodes/shared/transport.ts): https, or plain http only on loopback (the local sandbox). In the
 * expressions of the Test request and of Connect's token URL (where n8n sends the client secret),
 * a base URL outside the rule becomes an address that cannot resolve (the reserved .invalid
 * domain, whose name says the fix), and the Test request's token header is left empty: no secret
 * goes over plain http.
 */
const REFUSED_HOST = 'use-https-in-the-api-base-url.invalid';
const allowedBase = (expression: string) =>
	`(u => /^(https:\\/\\/|http:\\/\\/(127(\\.\\d+){3}|localhost|\\[::1\\])(:\\d+)?(\\/|$))/i.test(u) ? u : "https://${REFUSED_HOST}")(String(${expression} ?? "").trim().replace(/\\/+$/, ""))`;

/** What the pack remembers inside oauthTokenData to notice that n8n has just refreshed. */
const MARKER = 'n8nPlatformTokenPair';

export class BusinessPlatformOAuth2Api implements ICredentialType {
	name = 'businessPlatformOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'Business Platform OAuth2 API';

	/**
	 * Only the pack's nodes (and their AI-tool twins) may use it. n8n's HTTP Request node would
	 * send only `Authorization: Bearer` (its OAuth2 options come from a fixed list of n8n's own
	 * credentials), never x-access-token, and the platform answers 401: with this flag n8n's
	 * editor leaves the credential out of the node's "Predefined Credential Type" list and its
	 * backend refuses to run or save a node it does not support. Use Custom API Call instead.
	 */
	restrictToSupportedNodes = true as const;

	icon: Icon = { light: 'file:businessPlatform.svg', dark: 'file:businessPlatform.dark.svg' };

	documentationUrl = 'https://github.com/business-platform/n8n-nodes-business-platform#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description:
				'Address of the Business Platform API ({base_url} in the API documents), without a trailing path. Must start with https:// (http:// is accepted only for 127.0.0.1 or localhost, such as the local sandbox).',
		},
		{
			displayName: 'Authorization Page URL',
			name: 'authorizationPageUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://auth.example.com/',
			description:
				'Address of the platform page where users approve the app ({auth_url}, or {legacy_auth_url} for legacy V1 apps)',
		},
		{
			displayName: 'Regional API Base URL',
			name: 'regionalBaseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://api-region.example.com',
			description:
				'Optional. A regional API host that serves the people, payroll, table and record endpoints for some accounts. Leave empty to use the API Base URL for everything.',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			description: 'The client identifier the platform gave your app',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The client secret the platform gave your app',
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'string',
			default: 'read write',
			description:
				'Space-separated scopes to ask for. The platform documents "write" (V2) and "read write" (V1).',
		},
		{
			displayName: 'Tenant ID (Legacy Apps)',
			name: 'tenantId',
			type: 'number',
			default: 0,
			description:
				'Only for legacy V1 apps whose tokens do not name the tenant: the organisation ID used to renew the platform token. Leave 0 to read it from the token.',
		},
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'hidden',
			default: 'authorizationCode',
		},
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'hidden',
			default: '={{$self["authorizationPageUrl"]}}',
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: `={{ ${allowedBase('$self["baseUrl"]')} }}/oauth/token`,
		},
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: '',
		},
		{
			displayName: 'Authentication',
			name: 'authentication',
			type: 'hidden',
			default: 'header',
		},
	];

	/** The Test button: the platform's token validation endpoint, with the platform token. */
	test: ICredentialTestRequest = {
		request: {
			baseURL: `={{ ${allowedBase('$credentials.baseUrl')} }}`,
			url: '/v1/iam/token/app/validate',
			method: 'GET',
			headers: {
				'x-access-token': `={{ ${allowedBase('$credentials.baseUrl')}.startsWith("https://${REFUSED_HOST}") ? "" : (d => d ? d[Object.keys(d).find(k => /-token$/i.test(k) && !/refresh/i.test(k)) || "access_token"] : "")($credentials.oauthTokenData) }}`,
			},
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The platform refused the token ("Invalid token!"). Click "Switch account" to sign in again; if that does not help, check that the API Base URL is the one your app is registered with.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No token validation endpoint at this API Base URL: check the API Base URL (for example https://api.example.com, without /v1).',
				},
			},
		],
	};

	/**
	 * Runs on every request (result used, not saved) and right after n8n refreshed the
	 * OAuth tokens (result saved). Only in the second case, when the refresh brought new
	 * OAuth tokens but no new platform token (legacy V1), it renews the platform token.
	 */
	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		const data = credentials.oauthTokenData as IDataObject | undefined;
		const tokenKey = platformTokenKey(data);
		if (!data || !tokenKey) return {};
		const seen = data[MARKER] as { access?: unknown; token?: unknown } | undefined;
		const mark = (d: IDataObject) => ({
			oauthTokenData: { ...d, [MARKER]: { access: d.access_token, token: d[tokenKey] } },
		});
		if (!seen) return mark(data);
		if (seen.access === data.access_token) return {};
		if (seen.token !== data[tokenKey]) return mark(data);

		// The OAuth tokens changed but the platform token did not: renew it.
		const refreshKey = platformRefreshTokenKey(data);
		const claims = jwtClaims(data[tokenKey]);
		const tenantId = credentialTenant(credentials);
		const userName =
			(data.username as string | undefined) ?? (claims.username as string | undefined);
		if (!refreshKey || !tenantId || !userName) {
			throw new Error(
				'The platform token expired and cannot be renewed: the token response has no platform refresh token, user name or tenant. Reconnect the credential, or set "Tenant ID (Legacy Apps)".',
			);
		}
		const baseUrl = String(credentials.baseUrl).replace(/\/+$/, '');
		const renewed = (await this.helpers.httpRequest({
			method: 'POST',
			url: `${baseUrl}/v1/iam/auth/app/getrefreshtoken`,
			body: { refreshToken: data[refreshKey], userName, tenantId },
			json: true,
			// Never to another address: the body carries the refresh token.
			disableFollowRedirect: true,
		})) as IDataObject;
		if (typeof renewed?.accessToken !== 'string') {
			throw new Error(
				'The platform did not renew its token (no accessToken in the getrefreshtoken answer). Reconnect the credential.',
			);
		}
		return mark({
			...data,
			[tokenKey]: renewed.accessToken,
			[refreshKey]: renewed.refreshToken ?? data[refreshKey],
		});
	}
}
