/**
 * The platform's webhook endpoints as the trigger calls them, one request each: list the
 * live registrations, register one event type (its body carries the credential's tokens),
 * deregister one (404 counts as already gone). What to register and remove, and when, is
 * registrations.ts.
 */
import type { IDataObject, IHookFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError, randomString } from 'n8n-workflow';

import { readFailure } from '../shared/errors';
import { CREDENTIAL_TYPE, type RunScope } from '../shared/run-scope';
import { platformTokenPair } from '../shared/tokens';
import { apiRequest } from '../shared/transport';

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

/** The live (not deleted) registrations of the tenant, each with its URL read. Accepts a bare array or an envelope. */
export async function listHooks(scope: HookScope): Promise<LiveHook[]> {
	const answer = await apiRequest<unknown>(scope, { method: 'GET', path: '/v1/webhooks' });
	const envelope = answer as IDataObject | undefined;
	const rows = Array.isArray(answer)
		? answer
		: Array.isArray(envelope?.data)
			? envelope.data
			: Array.isArray(envelope?.webhooks)
				? envelope.webhooks
				: [];
	const hooks: LiveHook[] = [];
	for (const row of rows as unknown[]) {
		if (!row || typeof row !== 'object') continue;
		const h = row as IDataObject;
		const hookId = (h.hookId ?? h.id) as HookId | undefined;
		if (hookId === undefined || hookId === null || h.deleted === true || h.deleted === 'true')
			continue;
		const webhookUrl = String(h.webhookUrl ?? '');
		hooks.push({
			hookId,
			eventType: String(h.eventType ?? ''),
			webhookUrl,
			url: hookUrl(webhookUrl),
		});
	}
	return hooks;
}

/** Deregisters one hook. 404 counts as already gone; any other failure is returned as its reason. */
export async function deregister(scope: HookScope, hookId: HookId): Promise<string | undefined> {
	try {
		await apiRequest(scope, {
			method: 'DELETE',
			path: `/v1/webhooks/delete/${encodeURIComponent(String(hookId))}`,
		});
		return undefined;
	} catch (error) {
		return isGone(error) ? undefined : messageOf(error);
	}
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
	const tokens = {
		clientId: String(creds.clientId ?? ''),
		clientSecret: String(creds.clientSecret ?? ''),
		...platformTokenPair((creds.oauthTokenData ?? {}) as IDataObject),
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

/** The hookId of a register answer: at its top level or under `data`, as `hookId` or `id`. */
function hookIdOf(answer: unknown): HookId | undefined {
	const a = answer as IDataObject | undefined;
	const inner = a?.data as IDataObject | undefined;
	const id = a?.hookId ?? a?.id ?? inner?.hookId ?? inner?.id;
	return typeof id === 'number' || (typeof id === 'string' && id !== '') ? id : undefined;
}

/**
 * Registers one event type at the node's URL `base`, with a new secret or the one the event
 * already has (a registration healed: deliveries keep being accepted); a 2xx answer without a hookId fails.
 */
export async function registerHook(
	scope: HookScope,
	tokens: Tokens,
	base: string,
	eventType: string,
	secret = randomString(32),
): Promise<Kept> {
	const webhookUrl = `${base}?event=${encodeURIComponent(eventType)}&secret=${secret}`;
	const answer = await apiRequest(scope, {
		method: 'POST',
		path: '/v1/webhooks/register',
		body: { ...tokens, eventType, webhookUrl },
	});
	const hookId = hookIdOf(answer);
	if (hookId === undefined)
		throw new NodeOperationError(
			scope.ctx.getNode(),
			'The platform registered the webhook but returned no hookId',
		);
	return { hookId, secret };
}
