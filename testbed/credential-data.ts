/**
 * The Business Platform OAuth2 API credential's fields for a sandbox, as a user fills
 * them in (and, with a token response, as n8n keeps them after "Connect"). One place
 * for the demo (npm start), the end-to-end tests and the n8n-core harness.
 */
export interface SandboxAddress {
	baseUrl: string;
	authUrl: string;
	clientId: string;
	clientSecret: string;
}

export function sandboxCredentialData(s: SandboxAddress, tokenResponse?: Record<string, unknown>) {
	return {
		baseUrl: s.baseUrl,
		authorizationPageUrl: s.authUrl,
		regionalBaseUrl: '',
		clientId: s.clientId,
		clientSecret: s.clientSecret,
		scope: 'read write',
		tenantId: 0,
		...(tokenResponse ? { oauthTokenData: tokenResponse } : {}),
	};
}
