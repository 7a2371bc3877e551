/**
 * The credential's tokens as n8n stores them (its oauthTokenData), read: which field is the
 * platform token and which its refresh token (V1 token responses name them `<brand>-token` and
 * `<brand>-refresh-token`; V2 has none and uses access_token), the tenant a token is for, and
 * every secret the credential holds (which errors scrub). Pure; one home for the credential (its
 * renewal of the platform token) and the run scope and transport (the token they send).
 */
import type { IDataObject } from 'n8n-workflow';

/** The token stored under `tokenKey` (access_token when none): a non-empty text, else undefined. */
export function storedToken(
	tokenData: IDataObject | undefined,
	tokenKey: string | undefined,
): string | undefined {
	const token = tokenData?.[tokenKey ?? 'access_token'];
	return typeof token === 'string' && token ? token : undefined;
}

/** The oauthTokenData key holding the platform token: `<word>-token` that is not a refresh token; V2 has none. */
export function platformTokenKey(tokenData: IDataObject | undefined): string | undefined {
	if (!tokenData) return undefined;
	return Object.keys(tokenData).find(
		(k) => /-token$/i.test(k) && !/refresh/i.test(k) && typeof tokenData[k] === 'string',
	);
}

/** The oauthTokenData key holding the platform's refresh token (`<word>-refresh-token`); V2 has none. */
export function platformRefreshTokenKey(tokenData: IDataObject | undefined): string | undefined {
	if (!tokenData) return undefined;
	return Object.keys(tokenData).find(
		(k) => /-refresh-token$/i.test(k) && typeof tokenData[k] === 'string',
	);
}

/** Reads the claims of a JWT without verifying it (only to find the tenant for getrefreshtoken). */
export function jwtClaims(token: unknown): IDataObject {
	if (typeof token !== 'string') return {};
	const part = token.split('.')[1];
	if (!part) return {};
	try {
		const text = Buffer.from(part.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
		const claims = JSON.parse(text) as unknown;
		return claims && typeof claims === 'object' ? (claims as IDataObject) : {};
	} catch {
		return {};
	}
}

/** The tenant a credential's token is for: "Tenant ID (Legacy Apps)", else the platform token's claim; 0 when neither names one. */
export function credentialTenant(credentials: IDataObject): number {
	const tokenData = credentials.oauthTokenData as IDataObject | undefined;
	const claims = jwtClaims(tokenData?.[platformTokenKey(tokenData) ?? 'access_token']);
	return (
		Number(credentials.tenantId) || Number(claims.tenantId ?? claims.tenant_id ?? claims.tid) || 0
	);
}

/** Every secret a stored credential holds: the client secret and each token of its token response (scrubbed from error texts). */
export function credentialSecrets(creds: IDataObject): string[] {
	const tokenData = (creds.oauthTokenData as IDataObject | undefined) ?? {};
	const tokens = Object.entries(tokenData).filter(
		([k, v]) => typeof v === 'string' && /token/i.test(k) && !/type$/i.test(k),
	);
	return [creds.clientSecret, ...tokens.map(([, v]) => v)].filter(
		(v): v is string => typeof v === 'string' && v !== '',
	);
}

/** A stored credential's tokens as a run scope sends and scrubs them. */
export interface StoredTokens {
	/** The oauthTokenData field of the platform token (none with V2: access_token). */
	tokenKey?: string;
	/** The platform token; undefined when the credential is not connected. */
	token?: string;
	/** The tenant the token is for (credentialTenant). */
	tenant: number;
	/** Every secret the credential holds (credentialSecrets). */
	secrets: string[];
}

/** What a run scope reads of a stored credential's tokens, in one call. */
export function storedTokens(creds: IDataObject): StoredTokens {
	const tokenData = creds.oauthTokenData as IDataObject | undefined;
	const tokenKey = platformTokenKey(tokenData);
	return {
		tokenKey,
		token: storedToken(tokenData, tokenKey),
		tenant: credentialTenant(creds),
		secrets: credentialSecrets(creds),
	};
}

/** The platform token and its refresh token as texts ('' when missing): what a webhook registration's body carries. */
export function platformTokenPair(tokenData: IDataObject): {
	accessToken: string;
	refreshToken: string;
} {
	const accessKey = platformTokenKey(tokenData) ?? 'access_token';
	const refreshKey = platformRefreshTokenKey(tokenData) ?? 'refresh_token';
	const text = (key: string) => (typeof tokenData[key] === 'string' ? tokenData[key] : '');
	return { accessToken: text(accessKey), refreshToken: text(refreshKey) };
}
