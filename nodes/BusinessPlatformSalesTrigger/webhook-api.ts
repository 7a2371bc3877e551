/**
 * The platform's webhook endpoints as the trigger calls them: list the live registrations,
 * register one event type (its body carries the credential's tokens), deregister one (404 counts
 * as already gone). Each answer is read as strictly as the contract writes it (a list of
 * registration records; a register or a removal answered with the record): a register or a
 * removal answered otherwise has an unknown outcome, which the list settles (one more request),
 * never taken as done. What to register and remove, and when, is registrations.ts.
 */
import type { IDataObject, IHookFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError, randomString } from 'n8n-workflow';

import { readFailure } from '../shared/errors';
import type { RunScope } from '../shared/run-scope';
import {
	apiRequest,
	CREDENTIAL_TYPE,
	platformRefreshTokenKey,
	platformTokenKey,
} from '../shared/transport';
import { EVENT_BY_VALUE } from './events';

export type HookId = number | string;

/** The run scope of one activation hook call (checkExists, create, delete) or of the Trigger's poll (heal.ts). */
export type HookScope = RunScope<IHookFunctions | IPollFunctions>;

/** Where a registration points: its URL without query or fragment, and the event and secret its query carries. */
export interface HookUrl {
	base: string;
	event: string | null;
	secret: string | null;
}

export interface LiveHook {
	hookId: HookId;
	eventType: string;
	webhookUrl: string;
	/** The URL read (parseUrl); none when it is not a URL. */
	url?: HookUrl;
}

/** The URL without query or fragment, trailing slash removed; undefined when it is not a URL. */
export function parseUrl(raw: unknown): { base: string; query: URLSearchParams } | undefined {
	if (typeof raw !== 'string' || !raw) return undefined;
	try {
		const u = new URL(raw);
		return {
			base: `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`,
			query: u.searchParams,
		};
	} catch {
		return undefined;
	}
}

/** A registration's URL as the Trigger compares it (each URL parsed once, when listed). */
function hookUrl(raw: string): HookUrl | undefined {
	const url = parseUrl(raw);
	return url && { base: url.base, event: url.query.get('event'), secret: url.query.get('secret') };
}

/** The registration kept for an event: its ID on the platform and the secret its URL carries. */
export interface Kept {
	hookId: HookId;
	secret: string;
}

/** Oldest registration first: the platform's hook ids grow (numbers as numbers, else as text). */
export function byAge(a: { hookId: HookId }, b: { hookId: HookId }): number {
	const na = Number(a.hookId);
	const nb = Number(b.hookId);
	return Number.isFinite(na) && Number.isFinite(nb)
		? na - nb
		: String(a.hookId).localeCompare(String(b.hookId));
}

const isGone = (error: unknown) => readFailure(error).status === 404;

export const messageOf = (error: unknown) =>
	error instanceof Error ? error.message : String(error);

/**
 * An answer to GET /v1/webhooks that is not a list of registration records (the contract: an
 * array of { hookId: integer, eventType: one of the events, webhookUrl: text, deleted: boolean },
 * each hookId once). Its message says what is wrong, never a value (a URL carries a secret).
 */
export class UntrustedList extends NodeOperationError {}

/** What is wrong with one row of the list (undefined: a registration record). */
function rowProblem(row: unknown): string | undefined {
	if (!row || typeof row !== 'object' || Array.isArray(row)) return 'is not an object';
	const h = row as IDataObject;
	if (typeof h.hookId !== 'number' || !Number.isSafeInteger(h.hookId)) return 'has no whole hookId';
	if (typeof h.eventType !== 'string' || !EVENT_BY_VALUE.has(h.eventType))
		return 'has no known eventType';
	if (typeof h.webhookUrl !== 'string') return 'has no webhookUrl';
	if (h.deleted !== undefined && typeof h.deleted !== 'boolean')
		return "has a 'deleted' that is not true or false";
	return undefined;
}

/** What kind of answer came instead of a list, in a few words (never its text). */
function kindOf(answer: unknown): string {
	if (answer === undefined || answer === null || answer === '') return 'an empty answer';
	if (typeof answer === 'string') return /^\s*</.test(answer) ? 'a page of HTML' : 'text';
	return Array.isArray(answer)
		? 'a list'
		: typeof answer === 'object'
			? 'an object'
			: typeof answer;
}

/**
 * The live (not deleted) registrations of the tenant, each with its URL read; their secrets join
 * the scope's, so no error repeats them. The answer must be what the contract says, a list of
 * registration records with each hookId once: anything else throws UntrustedList, so that no
 * caller reads a maintenance page or a repeated row as "nothing registered" or "registered twice".
 */
export async function listHooks(scope: HookScope): Promise<LiveHook[]> {
	const answer = await apiRequest<unknown>(scope, { method: 'GET', path: '/v1/webhooks' });
	const untrusted = (what: string) =>
		new UntrustedList(scope.ctx.getNode(), `The platform's answer to GET /v1/webhooks ${what}`, {
			description:
				'Nothing was registered or removed: the Trigger acts only on the list the platform documents. The platform may be under maintenance: try again later.',
		});
	if (!Array.isArray(answer)) throw untrusted(`is not a list of registrations (${kindOf(answer)})`);
	const hooks: LiveHook[] = [];
	const seen = new Set<number>();
	for (let i = 0; i < answer.length; i++) {
		const problem = rowProblem(answer[i]);
		if (problem) throw untrusted(`is not a list of registrations: row ${i + 1} ${problem}`);
		const h = answer[i] as {
			hookId: number;
			eventType: string;
			webhookUrl: string;
			deleted?: boolean;
		};
		if (seen.has(h.hookId)) throw untrusted(`lists the registration ${h.hookId} twice`);
		seen.add(h.hookId);
		const url = hookUrl(h.webhookUrl);
		if (url?.secret) scope.secrets.add(url.secret);
		if (h.deleted === true) continue;
		hooks.push({ hookId: h.hookId, eventType: h.eventType, webhookUrl: h.webhookUrl, url });
	}
	return hooks;
}

/** A registration record as the contract writes it (the list's rows, the register and delete answers), or undefined. */
function recordOf(answer: unknown): HookRecord | undefined {
	return rowProblem(answer) === undefined ? (answer as HookRecord) : undefined;
}

interface HookRecord {
	hookId: number;
	eventType: string;
	webhookUrl: string;
	deleted?: boolean;
}

/** One line in n8n's log: an answer off the contract, and what the list said instead. */
const settledByList = (scope: HookScope, what: string) =>
	scope.ctx.logger.warn(`Business Platform Trigger: ${what}`);

/**
 * Deregisters one hook. 404 counts as already gone; an answer that is not the registration record
 * of `hookId` is settled by the list (gone from it: removed); any other outcome is returned as its reason.
 */
export async function deregister(scope: HookScope, hookId: HookId): Promise<string | undefined> {
	let answer: unknown;
	try {
		answer = await apiRequest<unknown>(scope, {
			method: 'DELETE',
			path: `/v1/webhooks/delete/${encodeURIComponent(String(hookId))}`,
		});
	} catch (error) {
		return isGone(error) ? undefined : messageOf(error);
	}
	const record = recordOf(answer);
	if (record && String(record.hookId) === String(hookId) && record.deleted !== false)
		return undefined;
	const what = `the platform answered the removal of registration ${String(hookId)} with ${record ? 'a record that does not say it was removed' : kindOf(answer)}, not the record it documents`;
	let listed: boolean;
	try {
		listed = (await listHooks(scope)).some((h) => String(h.hookId) === String(hookId));
	} catch (error) {
		return `${what}, and its list could not be read to check (${messageOf(error)}): it may remain`;
	}
	if (listed) return `${what}, and its list still holds it`;
	settledByList(scope, `${what}; its list no longer holds it: removed`);
	return undefined;
}

export interface Tokens {
	clientId: string;
	clientSecret: string;
	accessToken: string;
	refreshToken: string;
}

/** What the register body needs from the credential (read fresh: a refresh may just have happened). */
export async function registrationTokens(ctx: IHookFunctions | IPollFunctions): Promise<Tokens> {
	const creds = await ctx.getCredentials(CREDENTIAL_TYPE);
	const tokenData = (creds.oauthTokenData ?? {}) as IDataObject;
	// The platform token and its refresh token by the fields transport.ts reads them from ('' when missing).
	const text = (key: string) => (typeof tokenData[key] === 'string' ? tokenData[key] : '');
	const tokens = {
		clientId: String(creds.clientId ?? ''),
		clientSecret: String(creds.clientSecret ?? ''),
		accessToken: text(platformTokenKey(tokenData) ?? 'access_token'),
		refreshToken: text(platformRefreshTokenKey(tokenData) ?? 'refresh_token'),
	};
	const missing = [
		!tokens.clientId && 'Client ID',
		!tokens.clientSecret && 'Client Secret',
		!tokens.accessToken && 'the platform token',
		!tokens.refreshToken && 'the refresh token',
	].filter(Boolean);
	if (missing.length) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The Business Platform credential lacks ${missing.join(', ')}, which the platform needs to register webhooks`,
			{
				description:
					'Open the credential, fill in the Client ID and Client Secret, and click "Connect" (or "Reconnect").',
			},
		);
	}
	return tokens;
}

/**
 * Registers one event type at the node's URL `base`, with a new secret or the one the event
 * already has (a registration healed: deliveries keep being accepted). The answer must be the
 * registration record of that event and URL; any other 2xx (a page of HTML, `{ id }`, a record
 * of something else) leaves the outcome unknown, and the list settles it: the registration there
 * is kept, none means it was not registered (an error); a list that cannot be read, an error that says so.
 */
export async function registerHook(
	scope: HookScope,
	tokens: Tokens,
	base: string,
	eventType: string,
	secret = randomString(32),
): Promise<Kept> {
	const webhookUrl = `${base}?event=${encodeURIComponent(eventType)}&secret=${secret}`;
	scope.secrets.add(secret); // a refusal may repeat the URL
	const answer = await apiRequest<unknown>(scope, {
		method: 'POST',
		path: '/v1/webhooks/register',
		body: { ...tokens, eventType, webhookUrl },
	});
	const record = recordOf(answer);
	const url = record && hookUrl(record.webhookUrl);
	const ours = (u: HookUrl | undefined) =>
		u?.base === base && u.event === eventType && u.secret === secret;
	if (record?.eventType === eventType && record.deleted !== true && ours(url))
		return { hookId: record.hookId, secret };
	const what = `the platform answered the register request of ${eventType} with ${record ? 'the record of another registration' : kindOf(answer)}, not the registration record it documents`;
	const unknown = (why: string) =>
		new NodeOperationError(scope.ctx.getNode(), `${what}, and ${why}`, {
			description:
				'Whether the webhook was registered is not known; the next check of the registrations settles it.',
		});
	let hooks: LiveHook[];
	try {
		hooks = await listHooks(scope);
	} catch (error) {
		throw unknown(`its list could not be read to check: ${messageOf(error)}`);
	}
	const found = hooks.filter((h) => h.eventType === eventType && ours(h.url)).sort(byAge)[0];
	if (!found) throw unknown('its list holds no such registration: it was not registered');
	settledByList(scope, `${what}; its list holds it (${found.hookId}): registered`);
	return { hookId: found.hookId, secret };
}
