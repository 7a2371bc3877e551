/**
 * Shortcuts 3 and 4 of n8n-internals (index.ts): how n8n sends a request with an OAuth2
 * credential, and when it reads a node's parameters.
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import {
	credentialSecrets,
	platformTokenKey,
} from '../../../credentials/BusinessPlatformOAuth2Api.credentials';
import { readFailure } from '../errors';
import type { RunScope } from '../run-scope';

export const CREDENTIAL_TYPE = 'businessPlatformOAuth2Api';

// ── n8n-internals 3. The token on n8n's plain request; n8n's OAuth2 helper only on a 401 ─────
// Relies on: the OAuth2 credential keeps the token response in `oauthTokenData` (n8n-core
// requestOAuth2, packages/core/src/execution-engine/node-execution-context/utils/request-helpers/
// oauth.ts, and the credentials service that saves it), and httpRequestWithAuthentication with
// `oauth2: {property, keyToIncludeInAccessTokenHeader}` sends that field as the header, and on a
// 401 refreshes, saves the new token response and sends the request again.
// Buys: n8n's OAuth2 path reads, decrypts and resolves the credential on every request (a large
// share of the pack's CPU per create; docs/performance.md has the measurements); this reads it
// once per execution, with n8n's proxy, SSRF and certificate settings unchanged (plain httpRequest).
// When it does not hold: without a token in `oauthTokenData` every request goes through n8n's
// OAuth2 path as a whole (the documented way); a 401 always does.

export interface CredentialInfo {
	/** Which account the credential reaches, but for the address (its ID in n8n, its tenant): no secret. */
	account: string;
	/** The credential's secrets as the scope read them (tokens, client secret): scrubbed from any text an error passes on. */
	secrets: string[];
	baseUrl: string;
	regionalBaseUrl?: string;
	tokenKey?: string;
	/** The platform token as stored when the scope read it; undefined (not connected): every request through n8n's OAuth2 path. */
	token?: string;
	/** How many times the scope renewed the token (after a 401). */
	generation: number;
	/** The generation whose token the platform refused right after renewing it (a 401 with it fails at once). */
	refused?: number;
}

/** A 401 with a token that was refused right after its renewal: no further refresh in this scope. */
export class TokenRefused extends Error {
	constructor() {
		super('The platform refused the Business Platform token even right after n8n renewed it');
	}
}

export function storedToken(
	tokenData: IDataObject | undefined,
	tokenKey: string | undefined,
): string | undefined {
	const token = tokenData?.[tokenKey ?? 'access_token'];
	return typeof token === 'string' && token ? token : undefined;
}

const oauth2Options = (info: CredentialInfo) => ({
	property: info.tokenKey,
	keyToIncludeInAccessTokenHeader: 'x-access-token',
	tokenType: 'Bearer',
});

/** The stored credential's token, read again into the scope. */
async function readStoredToken(scope: RunScope, info: CredentialInfo): Promise<void> {
	const creds = await (scope.ctx as IExecuteFunctions).getCredentials(CREDENTIAL_TYPE, 0);
	const tokenData = creds.oauthTokenData as IDataObject | undefined;
	info.tokenKey = platformTokenKey(tokenData);
	info.token = storedToken(tokenData, info.tokenKey);
	info.secrets = [...new Set([...info.secrets, ...credentialSecrets(creds)])];
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

// ── n8n-internals 4. Items read ahead of their turn ───────────────────────────────────────────
// Relies on: getNodeParameter is synchronous and has no effect on other items (n8n-core
// ExecuteContext evaluates the expression on the spot), so item i+1 may read its parameters
// while item i's request is in flight, and n8n takes the results of all items from one
// `execute` call. Buys: at 1 in parallel, expressions are evaluated while requests are under
// way, as n8n's HTTP Request node does (docs/performance.md, "read ahead"); the ordered gate
// (OrderedGate, concurrency.ts) keeps the platform seeing the items in input order.
// There is no other path to fall back to: a getNodeParameter that returned a promise would
// change n8n's node API itself (its type), so the typecheck against that n8n-workflow fails,
// and the pinned test names the change.
