/**
 * The one way the pack talks to the platform: base URL (or the regional one),
 * the platform token in `x-access-token`, JSON bodies, query serialisation,
 * retries with backoff, and clean errors. Nodes never build requests themselves.
 *
 * The token: the credential is read once per run scope, and requests carry its
 * platform token through n8n's plain `httpRequest` (same proxy, SSRF and certificate
 * settings as every n8n request). When the platform answers 401, one request goes
 * through n8n's OAuth2 path (`httpRequestWithAuthentication`), which refreshes (one
 * refresh however many items run at once), and the others resend with the new token
 * (`send`, below: n8n-internals 3, it relies on how n8n's OAuth2 helper behaves). n8n's
 * OAuth2 path reads and decrypts the credential and resolves its expressions on every
 * call, a cost on every request (measured in docs/performance.md, "What the CPU profiles
 * say"); it is used as a whole when the scope has no token.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	isNetworkFailure,
	readFailure,
	toNodeApiError,
	withoutSecrets,
	type FailureFacts,
} from './errors';
import { CREDENTIAL_TYPE, credentialInfo, type CredentialInfo, type RunScope } from './run-scope';
import { storedTokens } from './tokens';
import type { RetryTuning } from './tuning';

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
	/** The node parameter a wire field comes from, for errors naming the fields the platform rejected. */
	labelOf?: (field: string) => string | undefined;
	/** Answer is text, not JSON (e.g. form markup, journal confirmations). */
	text?: boolean;
}

function isIdempotent(req: Pick<ApiRequest, 'method' | 'idempotent'>): boolean {
	if (req.idempotent !== undefined) return req.idempotent;
	return ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'].includes(req.method);
}

function backoff(attempt: number, retry: RetryTuning): number {
	const exp = retry.baseDelayMs * 2 ** (attempt - 1);
	return Math.min(retry.maxDelayMs, Math.round(exp * (0.75 + Math.random() * 0.5)));
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

/** Whether a failed attempt may be sent again, and what the error says if it fails for good. */
export interface RetryRule {
	retry: boolean;
	/** Why it was not repeated, or how long the platform asked to wait; none when there is nothing to add. */
	note?: string;
}

/**
 * The retry rule (pure): a 429 and a refused connection (nothing was sent) may be sent again
 * for every method; a dropped connection or a 5xx only for an idempotent request, since the
 * platform may have carried it out; never with `retry: 'never'` or when the credential must be
 * reconnected. The note says which of these kept a request that failed for good from being repeated.
 */
export function retryRule(
	req: Pick<ApiRequest, 'method' | 'retry' | 'idempotent'>,
	facts: FailureFacts,
): RetryRule {
	const failed = isNetworkFailure(facts) || (facts.status !== undefined && facts.status >= 500);
	// A refused connection sent nothing: like a 429, even a create can be sent again.
	const neverSent = facts.status === undefined && facts.code === 'ECONNREFUSED';
	const idempotent = isIdempotent(req);
	const retry =
		req.retry !== 'never' &&
		!facts.reconnect &&
		(facts.status === 429 || neverSent || (idempotent && failed));
	if (!idempotent && !neverSent && failed)
		return {
			retry,
			note: `The request was not repeated automatically: the platform may already have carried it out, and repeating a ${req.method} could create a duplicate. Check the platform before running it again.`,
		};
	if (req.retry === 'never' && (facts.status === 429 || failed))
		return {
			retry,
			note: 'This operation is never retried automatically: check whether it took effect in the platform before running it again.',
		};
	if (facts.status === 429 && facts.retryAfterMs !== undefined)
		return {
			retry,
			note: `The platform asked to wait ${Math.round(facts.retryAfterMs / 1000)} s before retrying.`,
		};
	return { retry };
}

// ── n8n-internals 3. The token on n8n's plain request; n8n's OAuth2 helper only on a 401 ─────
// Relies on: the OAuth2 credential keeps the token response in `oauthTokenData` (n8n-core
// requestOAuth2, packages/core/src/execution-engine/node-execution-context/utils/request-helpers/
// oauth.ts, and the credentials service that saves it), and httpRequestWithAuthentication with
// `oauth2: {property, keyToIncludeInAccessTokenHeader}` sends that field as the header, and on a
// 401 refreshes, saves the new token response and sends the request again.
// Buys: n8n's OAuth2 path reads, decrypts and resolves the credential on every request (its CPU
// per create is measured in docs/performance.md, "What the CPU profiles say"); this reads it
// once per execution, with n8n's proxy, SSRF and certificate settings unchanged (plain httpRequest).
// When it does not hold: without a token in `oauthTokenData` every request goes through n8n's
// OAuth2 path as a whole (the documented way); a 401 always does.

/** A 401 with a token that was refused right after its renewal: no further refresh in this scope. */
export class TokenRefused extends Error {
	constructor() {
		super('The platform refused the Business Platform token even right after n8n renewed it');
	}
}

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
 * One attempt, with the scope's token through n8n's plain `httpRequest`. On a 401, the
 * first item to see it (per refused token, in this scope) sends its request through n8n's
 * OAuth2 path, which sends the stored token — a token another execution already refreshed
 * just works — or refreshes it (n8n merges concurrent refreshes, in queue mode across
 * processes too, and runs the credential's preAuthentication), saves it and retries; the
 * scope then reads the stored token again, and the other items, which waited, send their
 * request once more with it. Without a token in the scope, n8n's OAuth2 path as a whole.
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
	if ('problem' in target) {
		throw new NodeOperationError(ctx.getNode(), `Refused to send the request: ${target.problem}`, {
			itemIndex: req.itemIndex,
			description:
				'Nothing was sent. Check the ID or path fields of this item: an ID must not be "." or "..", and a path must be an endpoint below the API Base URL.',
		});
	}
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
			if (error instanceof TokenRefused) {
				throw new NodeOperationError(ctx.getNode(), error.message, {
					itemIndex: req.itemIndex,
					description: `The platform refused the token even after a refresh: n8n renewed it once for this execution and the platform still answered 401 to ${req.method} ${req.path}, so it was not renewed again for the other items. Check that the app registered on the platform may use this endpoint (its scopes), or open the credential and click "Reconnect".`,
				});
			}
			const secrets = [...info.secrets, info.token, ...scope.secrets];
			const facts = withoutSecrets(readFailure(error), secrets);
			// A DELETE sent again after an attempt whose outcome is unknown: "not found" means that attempt deleted it.
			if (req.method === 'DELETE' && facts.status === 404 && outcomeUnknown) return undefined as T;
			outcomeUnknown ||=
				(isNetworkFailure(facts) && facts.code !== 'ECONNREFUSED') ||
				(facts.status !== undefined && facts.status >= 500);
			const rule = retryRule(req, facts);
			const delay =
				facts.status === 429 && facts.retryAfterMs !== undefined
					? facts.retryAfterMs
					: backoff(attempt, retry);
			const inBudget =
				waited + delay <= retry.maxTotalWaitMs &&
				retryClock.now() - started + delay <= retry.maxTotalMs;
			if (rule.retry && attempt < retry.attempts && delay <= retry.maxDelayMs && inBudget) {
				waited += delay;
				await retryClock.sleep(delay);
				continue;
			}
			throw toNodeApiError(facts, {
				node: ctx.getNode(),
				method: req.method,
				path: req.path,
				itemIndex: req.itemIndex,
				labelOf: req.labelOf,
				note: rule.note,
				attempts: attempt,
				secrets,
			});
		}
	}
}
