/**
 * The one way the pack talks to the platform: base URL (or the regional one),
 * the platform token in `x-access-token`, JSON bodies, query serialisation,
 * retries with backoff, and clean errors. Nodes never build requests themselves.
 *
 * The token: the credential is read once per run scope, and requests carry its
 * platform token through n8n's plain `httpRequest` (same proxy, SSRF and certificate
 * settings as every n8n request). When the platform answers 401, the first item to
 * see it has n8n refresh the token (`refreshOAuth2Token`: n8n's refresh grant, saved),
 * the others wait for it, and each sends its request again with the new token: one
 * refresh and one 401 per expired token, however many items run at once. n8n's OAuth2
 * path (`httpRequestWithAuthentication`) reads and decrypts the credential and resolves
 * its expressions on every call: the CPU profile (docs/performance.md) showed that cost
 * on every request; it is still used when the credential holds no token.
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { platformTokenKey, refreshRenewsPlatformToken } from '../../credentials/BusinessPlatformOAuth2Api.credentials';
import { isNetworkFailure, readFailure, toNodeApiError } from './errors';
import type { RunScope } from './run-scope';

export const CREDENTIAL_TYPE = 'businessPlatformOAuth2Api';

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the base URL, e.g. `/v1/crm/contacts/12`. */
	path: string;
	qs?: IDataObject;
	body?: unknown;
	/** People, payroll, table and record endpoints: use the regional base URL when one is set. */
	regional?: boolean;
	/**
	 * Retry policy. `auto` (default): 429 for every method (the request was refused,
	 * not processed); 5xx and dropped connections only for idempotent methods.
	 * `never`: no automatic retry at all (payroll postings, money moves).
	 */
	retry?: 'auto' | 'never';
	/** Force idempotency either way (default: GET, HEAD, PUT, DELETE are idempotent). */
	idempotent?: boolean;
	/** Item the request belongs to, for error messages. */
	itemIndex?: number;
	/** Answer is text, not JSON (e.g. form markup, journal confirmations). */
	text?: boolean;
}

export const RETRY = {
	/** Attempts in all, including the first. */
	attempts: 5,
	/** First backoff; doubled each time, with jitter. */
	baseDelayMs: 300,
	/** Longest single wait, also the cap for Retry-After. */
	maxDelayMs: 20_000,
	/** Total waiting for one request. */
	maxTotalWaitMs: 60_000,
};

interface CredentialInfo {
	baseUrl: string;
	regionalBaseUrl?: string;
	tokenKey?: string;
	/** The platform token as stored when the scope read it; undefined: every request through n8n's OAuth2 path. */
	token?: string;
	/** How many times the scope renewed the token (after a 401). */
	generation: number;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\]|::1)$/i;

/** Checks a base URL from the credential: https, or http only on loopback. Returns what is wrong, if anything. */
export function baseUrlProblem(raw: unknown, field: string): string | undefined {
	const text = normaliseBaseUrl(raw);
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return `The credential's ${field} "${text}" is not a URL: use the address of the API, like https://api.example.com`;
	}
	if (url.protocol === 'https:') return undefined;
	if (url.protocol === 'http:' && LOOPBACK.test(url.hostname)) return undefined;
	return `The credential's ${field} must start with https:// (plain http:// is only allowed for 127.0.0.1 or localhost, such as the local sandbox): "${text}"`;
}

export const normaliseBaseUrl = (raw: unknown) => String(raw ?? '').trim().replace(/\/+$/, '');

/** The credential's base URLs and token field, read once per run scope (a failed read, e.g. a bad URL, is read again). */
async function credentialInfo(scope: RunScope, itemIndex?: number): Promise<CredentialInfo> {
	return await scope.once('credential', async () => {
		const ctx = scope.ctx;
		const creds = await (ctx as IExecuteFunctions).getCredentials(CREDENTIAL_TYPE, itemIndex ?? 0);
		const regional = normaliseBaseUrl(creds.regionalBaseUrl);
		const problem = baseUrlProblem(creds.baseUrl, 'API Base URL') ?? (regional ? baseUrlProblem(regional, 'Regional API Base URL') : undefined);
		if (problem) throw new NodeOperationError(ctx.getNode(), problem, { itemIndex, description: 'Open the Business Platform credential and fix the address.' });
		const tokenData = creds.oauthTokenData as IDataObject | undefined;
		const tokenKey = platformTokenKey(tokenData);
		return { baseUrl: normaliseBaseUrl(creds.baseUrl), regionalBaseUrl: regional || undefined, tokenKey, token: plainToken(tokenData, tokenKey), generation: 0 };
	});
}

/**
 * The token requests can carry without n8n's OAuth2 path: only when a refresh through
 * `refreshOAuth2Token` would also renew the platform token (see refreshRenewsPlatformToken);
 * a V1 credential never refreshed yet keeps n8n's OAuth2 path until its first refresh.
 */
function plainToken(tokenData: IDataObject | undefined, tokenKey: string | undefined): string | undefined {
	return refreshRenewsPlatformToken(tokenData) ? storedToken(tokenData, tokenKey) : undefined;
}

function storedToken(tokenData: IDataObject | undefined, tokenKey: string | undefined): string | undefined {
	const token = tokenData?.[tokenKey ?? 'access_token'];
	return typeof token === 'string' && token ? token : undefined;
}

const oauth2Options = (info: CredentialInfo) => ({ property: info.tokenKey, keyToIncludeInAccessTokenHeader: 'x-access-token', tokenType: 'Bearer' });

/** The stored credential's token, read again into the scope. */
async function readStoredToken(scope: RunScope, info: CredentialInfo): Promise<void> {
	const creds = await (scope.ctx as IExecuteFunctions).getCredentials(CREDENTIAL_TYPE, 0);
	const tokenData = creds.oauthTokenData as IDataObject | undefined;
	info.tokenKey = platformTokenKey(tokenData);
	info.token = plainToken(tokenData, info.tokenKey);
}

/**
 * The platform refused the scope's token (generation `generation`): once per token in this
 * scope, whichever item asks first (the others wait for it), the stored credential is read
 * again — another execution may have refreshed it — and if it still holds the refused token,
 * n8n refreshes it (`refreshOAuth2Token`: n8n's refresh grant, merged with concurrent ones,
 * the new tokens saved, the credential's preAuthentication run), then it is read again.
 */
async function renewToken(scope: RunScope, info: CredentialInfo, generation: number): Promise<void> {
	await scope.once(`token#${generation}`, async () => {
		const refused = info.token;
		await readStoredToken(scope, info);
		if (info.token !== undefined && info.token === refused) {
			const ctx = scope.ctx;
			await ctx.helpers.refreshOAuth2Token.call(ctx, CREDENTIAL_TYPE, oauth2Options(info));
			await readStoredToken(scope, info);
		}
		info.generation = generation + 1;
	});
}

/**
 * One attempt, with the scope's token through n8n's plain `httpRequest`; on a 401 the token
 * is renewed once and the request sent again. Without a stored token (not connected), or on
 * an n8n without `refreshOAuth2Token`, through n8n's OAuth2 path as a whole.
 */
async function send(scope: RunScope, info: CredentialInfo, options: IHttpRequestOptions): Promise<unknown> {
	const ctx = scope.ctx;
	for (let renewed = false; ; renewed = true) {
		const { token, generation } = info;
		if (token === undefined || (renewed && typeof ctx.helpers.refreshOAuth2Token !== 'function')) break;
		const plain = await ctx.helpers.httpRequest({ ...options, headers: { ...options.headers, 'x-access-token': token } }).then(
			(value: unknown) => ({ answered: true as const, value }),
			(failure: unknown) => ({ answered: false as const, failure }),
		);
		if (plain.answered) return plain.value;
		// Any other failure, or a 401 after a renewal, goes to apiRequest, which retries or turns it into a clean NodeApiError.
		if (renewed || readFailure(plain.failure).status !== 401) throw plain.failure;
		if (typeof ctx.helpers.refreshOAuth2Token === 'function') await renewToken(scope, info, generation);
	}
	const stale = info.token !== undefined;
	const answer = await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, { ...options, headers: { ...options.headers } }, { oauth2: oauth2Options(info) });
	// n8n refreshed the refused token on its own path: the next requests take the stored one.
	if (stale) await readStoredToken(scope, info);
	return answer;
}

function isIdempotent(req: ApiRequest): boolean {
	if (req.idempotent !== undefined) return req.idempotent;
	return ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'].includes(req.method);
}

function backoff(attempt: number): number {
	const exp = RETRY.baseDelayMs * 2 ** (attempt - 1);
	return Math.min(RETRY.maxDelayMs, Math.round(exp * (0.75 + Math.random() * 0.5)));
}

/** Sends one API request and returns the parsed answer (undefined for empty bodies). */
export async function apiRequest<T = unknown>(scope: RunScope, req: ApiRequest): Promise<T> {
	const ctx = scope.ctx;
	const info = await credentialInfo(scope, req.itemIndex);
	const base = req.regional && info.regionalBaseUrl ? info.regionalBaseUrl : info.baseUrl;
	const options: IHttpRequestOptions = {
		method: req.method,
		url: base + req.path,
		qs: req.qs,
		arrayFormat: 'repeat',
		headers: { accept: req.text ? 'text/html, text/plain, application/json' : 'application/json' },
		json: !req.text,
		encoding: req.text ? 'text' : undefined,
	};
	if (req.body !== undefined) {
		options.body = req.body as IHttpRequestOptions['body'];
		options.headers!['content-type'] = 'application/json';
	}
	let waited = 0;
	for (let attempt = 1; ; attempt++) {
		try {
			const answer = (await send(scope, info, options)) as T;
			return (answer === '' && !req.text ? undefined : answer) as T;
		} catch (error) {
			const facts = readFailure(error);
			// A refused connection sent nothing: like a 429, even a create can be sent again.
			const neverSent = facts.status === undefined && facts.code === 'ECONNREFUSED';
			const retryable =
				req.retry !== 'never' && !facts.reconnect && (facts.status === 429 || neverSent || (isIdempotent(req) && (isNetworkFailure(facts) || (facts.status !== undefined && facts.status >= 500))));
			const delay = facts.status === 429 && facts.retryAfterMs !== undefined ? facts.retryAfterMs : backoff(attempt);
			if (retryable && attempt < RETRY.attempts && delay <= RETRY.maxDelayMs && waited + delay <= RETRY.maxTotalWaitMs) {
				waited += delay;
				await sleep(delay);
				continue;
			}
			let note: string | undefined;
			if (!isIdempotent(req) && !neverSent && (isNetworkFailure(facts) || (facts.status !== undefined && facts.status >= 500))) {
				note = `The request was not repeated automatically: the platform may already have carried it out, and repeating a ${req.method} could create a duplicate. Check the platform before running it again.`;
			} else if (req.retry === 'never' && (facts.status === 429 || isNetworkFailure(facts) || (facts.status ?? 0) >= 500)) {
				note = 'This operation is never retried automatically: check whether it took effect in the platform before running it again.';
			} else if (facts.status === 429) {
				note = facts.retryAfterMs !== undefined ? `The platform asked to wait ${Math.round(facts.retryAfterMs / 1000)} s before retrying.` : undefined;
			}
			throw toNodeApiError(facts, { node: ctx.getNode(), method: req.method, path: req.path, itemIndex: req.itemIndex, note, attempts: attempt });
		}
	}
}
