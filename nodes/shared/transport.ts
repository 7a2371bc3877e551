/**
 * The one way the pack talks to the platform, and the credential it carries; nodes never build
 * requests themselves. The credential, read once per run scope (`credentialInfo`: base URLs,
 * https or loopback, its token, its secrets, its account). Its tokens as n8n stores them, read
 * (pure: which oauthTokenData field is the platform token and which its refresh token, the tenant):
 * one home for the credential's renewal, the requests and the Trigger's registrations. One request
 * (`apiRequest`): its URL kept below the base URL, the token in `x-access-token` on n8n's plain
 * `httpRequest` (its proxy, SSRF and certificate settings apply), n8n's OAuth2 path once per 401
 * however many items run (`send`), the attempts retry.ts allows, and clean errors (errors.ts).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	readFailure,
	toNodeApiError,
	refusedPathError,
	TokenRefused,
	tokenRefusedError,
	withoutSecrets,
} from './errors';
import { leavesOutcomeUnknown, nextAttempt } from './retry';
import type { CredentialInfo, RunScope } from './run-scope';

// ── The credential, read once per run scope ─────────────────────────────────────────────────

export const CREDENTIAL_TYPE = 'businessPlatformOAuth2Api';

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

export const normaliseBaseUrl = (raw: unknown) =>
	String(raw ?? '')
		.trim()
		.replace(/\/+$/, '');

/**
 * The credential's base URLs, token and secrets, read once per run scope (its `credential`): the
 * items of a call share the read. A failed read (a bad URL) is not kept: the next request reads again.
 */
export async function credentialInfo(scope: RunScope, itemIndex?: number): Promise<CredentialInfo> {
	if (!scope.credential) {
		const reading = readCredential(scope, itemIndex);
		scope.credential = reading;
		reading.catch(() => {
			if (scope.credential === reading) scope.credential = undefined;
		});
	}
	return await scope.credential;
}

async function readCredential(scope: RunScope, itemIndex?: number): Promise<CredentialInfo> {
	const ctx = scope.ctx as IExecuteFunctions;
	const creds = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex ?? 0);
	const regional = normaliseBaseUrl(creds.regionalBaseUrl);
	const problem =
		baseUrlProblem(creds.baseUrl, 'API Base URL') ??
		(regional ? baseUrlProblem(regional, 'Regional API Base URL') : undefined);
	if (problem)
		throw new NodeOperationError(scope.node, problem, {
			itemIndex,
			description: 'Open the Business Platform credential and fix the address.',
		});
	const tokens = storedTokens(creds);
	const account = JSON.stringify([
		scope.node.credentials?.[CREDENTIAL_TYPE]?.id ?? null,
		tokens.tenant,
	]);
	return {
		account,
		secrets: tokens.secrets,
		baseUrl: normaliseBaseUrl(creds.baseUrl),
		regionalBaseUrl: regional || undefined,
		tokenKey: tokens.tokenKey,
		token: tokens.token,
		generation: 0,
	};
}

// ── The credential's tokens as n8n stores them (pure) ───────────────────────────────────────

/** The first oauthTokenData key whose name matches `name` and whose value is a text. */
const textKey = (tokenData: IDataObject | undefined, name: (key: string) => boolean) =>
	Object.keys(tokenData ?? {}).find((k) => name(k) && typeof tokenData?.[k] === 'string');

/** The oauthTokenData key holding the platform token: `<word>-token` that is not a refresh token; V2 has none. */
export const platformTokenKey = (tokenData: IDataObject | undefined) =>
	textKey(tokenData, (k) => /-token$/i.test(k) && !/refresh/i.test(k));

/** The oauthTokenData key holding the platform's refresh token (`<word>-refresh-token`); V2 has none. */
export const platformRefreshTokenKey = (tokenData: IDataObject | undefined) =>
	textKey(tokenData, (k) => /-refresh-token$/i.test(k));

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

/** What a run scope reads of a stored credential's tokens, in one call (see CredentialInfo; `tenant`: credentialTenant). */
export function storedTokens(
	creds: IDataObject,
): Pick<CredentialInfo, 'tokenKey' | 'token' | 'secrets'> & { tenant: number } {
	const tokenData = creds.oauthTokenData as IDataObject | undefined;
	const tokenKey = platformTokenKey(tokenData);
	// The token stored under that field (access_token when none): a non-empty text, else none.
	const token = tokenData?.[tokenKey ?? 'access_token'];
	return {
		tokenKey,
		token: typeof token === 'string' && token ? token : undefined,
		tenant: credentialTenant(creds),
		secrets: credentialSecrets(creds),
	};
}

// ── One request ─────────────────────────────────────────────────────────────────────────────

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the base URL, e.g. `/v1/crm/contacts/12`. */
	path: string;
	qs?: IDataObject;
	body?: unknown;
	/** People, payroll, table and record endpoints: use the regional base URL when one is set. */
	regional?: boolean;
	/** `auto` (default): as retry.ts's rule allows; `never`: no automatic retry at all (payroll postings, money moves). */
	retry?: 'auto' | 'never';
	/** Force idempotency either way (default: GET, HEAD, PUT, DELETE are idempotent). */
	idempotent?: boolean;
	/** Item the request belongs to, for error messages. */
	itemIndex?: number;
	/** The node parameter a wire field comes from, for errors naming the fields the platform rejected. */
	labelOf?: (field: string) => string | undefined;
	/** Answer is text, not JSON (e.g. form markup, journal confirmations). */
	text?: boolean;
}

/**
 * A text with its percent-encodings undone, as often as a server or proxy on the way might undo
 * them (each layer one more time), until it no longer changes or is not valid encoding. Each
 * round that changes it makes it shorter, so this ends, however many layers an attacker stacks.
 */
export function fullyDecoded(text: string): string {
	let out = text;
	for (;;) {
		let next: string;
		try {
			next = decodeURIComponent(out);
		} catch {
			return out;
		}
		if (next === out) return out;
		out = next;
	}
}

/** A path segment the URL parser resolves (`.`, `..`), also once a server or proxy decodes it (`%2e`, `%252e`): it would climb the path. */
const isDotSegment = (segment: string) => /^\.{1,2}$/.test(fullyDecoded(segment));

/**
 * The request's URL: the base URL and the path, which must stay below it (same scheme, host
 * and port, under the base URL's own path, no `.` or `..` segment). Anything else would send
 * the token elsewhere and is refused before a request exists; returns what is wrong.
 */
export function apiUrl(base: string, path: string): { url: string } | { problem: string } {
	const bare = path.split(/[?#]/, 1)[0];
	if (!bare.startsWith('/') || bare.startsWith('//'))
		return { problem: `the path "${path}" does not start with a single "/"` };
	// URL parsers read a backslash as a slash: it would split a segment in two.
	if (bare.includes('\\')) return { problem: `the path "${path}" has a backslash` };
	if (bare.split('/').some(isDotSegment))
		return {
			problem: `the path "${path}" has a "." or ".." segment, which would climb to another endpoint`,
		};
	let url: URL;
	try {
		url = new URL(base + path);
	} catch {
		return { problem: `the path "${path}" does not make a URL with the credential's base URL` };
	}
	const root = new URL(base);
	if (
		url.origin !== root.origin ||
		!`${url.pathname}/`.startsWith(`${root.pathname.replace(/\/+$/, '')}/`)
	)
		return { problem: `the path "${path}" leads away from the credential's API Base URL` };
	return { url: base + path };
}

/** n8n's request options for one API request (no token: `send` adds it). */
function httpOptions(scope: RunScope, req: ApiRequest, url: string): IHttpRequestOptions {
	const options: IHttpRequestOptions = {
		method: req.method,
		url,
		qs: req.qs,
		arrayFormat: 'repeat',
		headers: { accept: req.text ? 'text/html, text/plain, application/json' : 'application/json' },
		json: !req.text,
		encoding: req.text ? 'text' : undefined,
		// A redirect is an answer, never followed: the libraries under n8n keep x-access-token (and
		// a 307/308's body) on a hop to another host, so following one could hand the token over.
		disableFollowRedirect: true,
		timeout: scope.requestTimeoutMs ?? scope.tuning.retry.timeoutMs,
	};
	if (req.body !== undefined) {
		// n8n's request helper sends no body at all for an empty object; the platform documents
		// `{}` where an operation takes an empty body (User → Sync Beneficiaries), so it goes as text.
		const empty =
			typeof req.body === 'object' &&
			req.body !== null &&
			!Array.isArray(req.body) &&
			Object.keys(req.body).length === 0;
		options.body = (empty ? '{}' : req.body) as IHttpRequestOptions['body'];
		options.headers!['content-type'] = 'application/json';
	}
	return options;
}

// ── n8n-internals 3. The token on n8n's plain request; n8n's OAuth2 helper only on a 401 ─────
// Relies on: the OAuth2 credential keeps the token response in `oauthTokenData` (n8n-core's
// requestOAuth2, request-helpers/oauth.ts, and the credentials service that saves it), and
// httpRequestWithAuthentication with `oauth2: {property, keyToIncludeInAccessTokenHeader}` sends
// that field as the header and, on a 401, refreshes, saves the new token response and sends again.
// Buys: the credential read once per call, not read, decrypted and resolved for every request.
// When it does not hold: without a token in `oauthTokenData` every request takes n8n's OAuth2 path.

const oauth2Options = (info: CredentialInfo) => ({
	property: info.tokenKey,
	keyToIncludeInAccessTokenHeader: 'x-access-token',
	tokenType: 'Bearer',
});

/** The stored credential's token, read again into the scope. */
async function readStoredToken(scope: RunScope, info: CredentialInfo): Promise<void> {
	const creds = await (scope.ctx as IExecuteFunctions).getCredentials(CREDENTIAL_TYPE, 0);
	const tokens = storedTokens(creds);
	info.tokenKey = tokens.tokenKey;
	info.token = tokens.token;
	info.secrets = [...new Set([...info.secrets, ...tokens.secrets])];
}

/**
 * One attempt, with the scope's token on n8n's plain `httpRequest`. On a 401 the first item to see
 * it (per refused token) sends its request through n8n's OAuth2 path, which sends the stored token
 * (another execution may have renewed it) or refreshes it (once however many ask, across queue-mode
 * processes too, with the credential's preAuthentication), saves it and sends again; the scope then
 * reads the stored token and the items that waited send once more. No token: n8n's OAuth2 path.
 */
export async function send(
	scope: RunScope,
	info: CredentialInfo,
	options: IHttpRequestOptions,
): Promise<unknown> {
	const ctx = scope.ctx;
	const viaOAuth2 = async () =>
		await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			CREDENTIAL_TYPE,
			{ ...options, headers: { ...options.headers } },
			{ oauth2: oauth2Options(info) },
		);
	for (let renewed = false; ; renewed = true) {
		const { token, generation } = info;
		if (token === undefined) return await viaOAuth2();
		const plain = await ctx.helpers
			.httpRequest({ ...options, headers: { ...options.headers, 'x-access-token': token } })
			.then(
				(value: unknown) => ({ answered: true as const, value }),
				(failure: unknown) => ({ answered: false as const, failure }),
			);
		if (plain.answered) {
			if (info.refused === generation) info.refused = undefined; // the token works after all: a later 401 is a new episode
			return plain.value;
		}
		// Any other failure, or a 401 after a renewal, goes to apiRequest, which retries or turns it into a clean NodeApiError.
		if (readFailure(plain.failure).status !== 401) throw plain.failure;
		// One refresh per 401 episode: a token refused right after its renewal is not renewed again for every item.
		if (info.refused === generation) throw new TokenRefused();
		if (renewed) throw plain.failure;
		const mine: { done: boolean; answer?: unknown; failure?: unknown } = { done: false };
		await scope.once(`token#${generation}`, async () => {
			await viaOAuth2().then(
				(answer: unknown) => Object.assign(mine, { answer }),
				(failure: unknown) => Object.assign(mine, { failure }),
			);
			mine.done = true;
			await readStoredToken(scope, info);
			info.generation = generation + 1;
			// n8n refreshed and sent the request again, and the platform still answered 401: the new token is refused.
			if (mine.failure !== undefined && readFailure(mine.failure).status === 401)
				info.refused = info.generation;
			// The refresh itself failed (revoked): every waiting item fails with it.
			if (mine.failure !== undefined && readFailure(mine.failure).reconnect) throw mine.failure;
		});
		if (mine.done) {
			if (mine.failure !== undefined)
				throw info.refused === info.generation ? new TokenRefused() : mine.failure;
			return mine.answer;
		}
	}
}

/** Sends one API request and returns the parsed answer (undefined for empty bodies). */
export async function apiRequest<T = unknown>(scope: RunScope, req: ApiRequest): Promise<T> {
	const ctx = scope.ctx;
	const info = await credentialInfo(scope, req.itemIndex);
	const base = req.regional && info.regionalBaseUrl ? info.regionalBaseUrl : info.baseUrl;
	const target = apiUrl(base, req.path);
	if ('problem' in target) throw refusedPathError(ctx.getNode(), target.problem, req.itemIndex);
	const options = httpOptions(scope, req, target.url);
	let waited = 0;
	// The scope's tunables and clock (nodes/shared/tuning.ts): n8n's defaults, or a test's own.
	const { retry, retryClock } = scope.tuning;
	const started = retryClock.now();
	// An earlier attempt may have been carried out: its connection dropped, or it got a 5xx.
	let outcomeUnknown = false;
	for (let attempt = 1; ; attempt++) {
		try {
			const answer = (await send(scope, info, options)) as T;
			return (answer === '' && !req.text ? undefined : answer) as T;
		} catch (error) {
			if (error instanceof TokenRefused) throw tokenRefusedError(ctx.getNode(), req);
			const secrets = [...info.secrets, info.token, ...scope.secrets];
			const facts = withoutSecrets(readFailure(error), secrets);
			// A DELETE sent again after an attempt whose outcome is unknown: "not found" means that attempt deleted it.
			if (req.method === 'DELETE' && facts.status === 404 && outcomeUnknown) return undefined as T;
			outcomeUnknown ||= leavesOutcomeUnknown(facts);
			const spent = { waitedMs: waited, elapsedMs: retryClock.now() - started };
			const next = nextAttempt(req, facts, attempt, spent, retry);
			if ('delayMs' in next) {
				waited += next.delayMs;
				await retryClock.sleep(next.delayMs);
				continue;
			}
			throw toNodeApiError(facts, {
				node: ctx.getNode(),
				method: req.method,
				path: req.path,
				itemIndex: req.itemIndex,
				labelOf: req.labelOf,
				note: next.note,
				attempts: attempt,
				secrets,
			});
		}
	}
}
