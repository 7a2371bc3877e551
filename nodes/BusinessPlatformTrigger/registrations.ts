/**
 * The trigger's webhook registrations on the platform: one per selected event type,
 * each pointing at the node's webhook URL with `?event=<type>&secret=<random>`.
 *
 * Static data of the node (kept by n8n, saved after activation, never in test mode):
 *   hookIds: { <eventType>: <hookId> }   what to deregister later
 *   secrets: { <eventType>: <secret> }   what an incoming call must carry
 *
 * The platform is the source of truth: before registering, the live registrations
 * pointing at this node's URL are listed and reconciled (adopted, deduplicated, or
 * removed when their event is no longer selected), so a restart, a re-import with
 * empty static data or a crash between register and save never leaves duplicates.
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError, randomString } from 'n8n-workflow';

import {
	platformRefreshTokenKey,
	platformTokenKey,
} from '../../credentials/BusinessPlatformOAuth2Api.credentials';
import { mapConcurrent } from '../shared/concurrency';
import { readFailure } from '../shared/errors';
import type { RunScope } from '../shared/run-scope';
import { apiRequest, CREDENTIAL_TYPE } from '../shared/transport';
import { eventLabel, expandEvents } from './events';

/** Registrations sent at the same time. */
const CONCURRENCY = 5;

export type HookId = number | string;

/** The run scope of one activation hook call (checkExists, create, delete). */
export type HookScope = RunScope<IHookFunctions>;

export interface TriggerState {
	hookIds?: Record<string, HookId>;
	secrets?: Record<string, string>;
}

interface LiveHook {
	hookId: HookId;
	eventType: string;
	webhookUrl: string;
}

interface Kept {
	hookId: HookId;
	secret: string;
}

// ------------------------------------------------------------------ helpers --

export const state = (ctx: { getWorkflowStaticData(type: string): IDataObject }) =>
	ctx.getWorkflowStaticData('node') as TriggerState & IDataObject;

/** The URL without query or fragment, trailing slash removed; undefined when it is not a URL. */
function parseUrl(raw: unknown): { base: string; query: URLSearchParams } | undefined {
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

export function nodeWebhookBase(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	const parsed = parseUrl(url);
	if (!parsed)
		throw new NodeOperationError(
			ctx.getNode(),
			`n8n gave no usable webhook URL for this node (${String(url)}): check the WEBHOOK_URL setting of n8n`,
		);
	return parsed.base;
}

export function selectedEvents(ctx: IHookFunctions): string[] {
	const { events, unknown } = expandEvents(ctx.getNodeParameter('events', []));
	if (unknown.length) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Unknown event type in "Events": ${unknown.join(', ')}`,
			{
				description:
					'Choose events from the list (for example "Deal Created (Sales)"); an expression must give the platform\'s event names, like CREATE_CRM_DEAL.',
			},
		);
	}
	if (!events.length)
		throw new NodeOperationError(ctx.getNode(), 'No event chosen in "Events"', {
			description: 'Choose at least one event for the trigger to listen to.',
		});
	return events;
}

const isGone = (error: unknown) => readFailure(error).status === 404;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The live (not deleted) registrations of the tenant. Accepts a bare array or an envelope. */
async function listHooks(scope: HookScope): Promise<LiveHook[]> {
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
		hooks.push({
			hookId,
			eventType: String(h.eventType ?? ''),
			webhookUrl: String(h.webhookUrl ?? ''),
		});
	}
	return hooks;
}

/** Deregisters one hook. 404 counts as already gone; any other failure is returned as its reason. */
async function deregister(scope: HookScope, hookId: HookId): Promise<string | undefined> {
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

/** Deregisters every id (a few at a time); returns the ones that failed with their reason. */
async function deregisterAll(
	scope: HookScope,
	ids: HookId[],
): Promise<Array<{ hookId: HookId; reason: string }>> {
	const unique = [...new Map(ids.map((id) => [String(id), id])).values()];
	const results = await mapConcurrent(
		unique,
		CONCURRENCY,
		async (id) => await deregister(scope, id),
	);
	return unique.flatMap((hookId, i) => {
		const r = results[i];
		const reason = !r ? 'not attempted' : r.ok ? r.value : messageOf(r.error);
		return reason === undefined ? [] : [{ hookId, reason }];
	});
}

function writeState(ctx: IHookFunctions, kept: Map<string, Kept>): void {
	const data = state(ctx);
	const hookIds: Record<string, HookId> = {};
	const secrets: Record<string, string> = {};
	for (const [event, k] of kept) {
		hookIds[event] = k.hookId;
		secrets[event] = k.secret;
	}
	// Only touch static data when something changed, so n8n does not save it for nothing.
	if (JSON.stringify(data.hookIds ?? {}) !== JSON.stringify(hookIds)) data.hookIds = hookIds;
	if (JSON.stringify(data.secrets ?? {}) !== JSON.stringify(secrets)) data.secrets = secrets;
}

function clearState(ctx: IHookFunctions): void {
	const data = state(ctx);
	if (data.hookIds !== undefined) delete data.hookIds;
	if (data.secrets !== undefined) delete data.secrets;
}

// --------------------------------------------------------------- reconcile --

/**
 * Lists the platform's registrations and brings them in line with the selection:
 * for each selected event, one registration at this node's URL (carrying the event
 * and a secret) is kept — the one in static data if it is still live, else the
 * oldest; every other registration at this node's URL (duplicates, events no longer
 * selected, URLs without a secret) is removed. Static data is rewritten to what was
 * kept. Returns the kept registrations.
 */
async function reconcile(
	scope: HookScope,
	events: string[],
	base: string,
): Promise<Map<string, Kept>> {
	const ctx = scope.ctx;
	const stored = state(ctx).hookIds ?? {};
	const mine = (await listHooks(scope))
		.map((h) => ({ ...h, url: parseUrl(h.webhookUrl) }))
		.filter((h) => h.url?.base === base)
		// Stored ids first, then oldest first (ids grow).
		.sort((a, b) => {
			const sa = String(stored[a.eventType]) === String(a.hookId) ? 0 : 1;
			const sb = String(stored[b.eventType]) === String(b.hookId) ? 0 : 1;
			if (sa !== sb) return sa - sb;
			const na = Number(a.hookId);
			const nb = Number(b.hookId);
			return Number.isFinite(na) && Number.isFinite(nb)
				? na - nb
				: String(a.hookId).localeCompare(String(b.hookId));
		});
	const kept = new Map<string, Kept>();
	const stale: HookId[] = [];
	for (const h of mine) {
		const secret = h.url!.query.get('secret') ?? '';
		const usable =
			events.includes(h.eventType) &&
			h.url!.query.get('event') === h.eventType &&
			secret.length > 0;
		if (usable && !kept.has(h.eventType)) kept.set(h.eventType, { hookId: h.hookId, secret });
		else stale.push(h.hookId);
	}
	if (stale.length) {
		const failed = await deregisterAll(scope, stale);
		// A stale registration left behind only makes the platform call a URL that answers 401
		// (its secret is no longer kept); it must not stop the activation.
		for (const f of failed)
			ctx.logger.warn(
				`Business Platform Trigger: could not remove the stale webhook registration ${String(f.hookId)}: ${f.reason}`,
			);
	}
	writeState(ctx, kept);
	return kept;
}

// ------------------------------------------------------- webhook methods --

/** n8n's checkExists: true only when every selected event has a live registration at this node's URL. */
export async function checkExists(scope: HookScope): Promise<boolean> {
	const events = selectedEvents(scope.ctx);
	const base = nodeWebhookBase(scope.ctx);
	const kept = await reconcile(scope, events, base);
	return events.every((e) => kept.has(e));
}

interface Tokens {
	clientId: string;
	clientSecret: string;
	accessToken: string;
	refreshToken: string;
}

/** What the register body needs from the credential (read fresh: a refresh may just have happened). */
async function registrationTokens(ctx: IHookFunctions): Promise<Tokens> {
	const creds = await ctx.getCredentials(CREDENTIAL_TYPE);
	const tokenData = (creds.oauthTokenData ?? {}) as IDataObject;
	const accessKey = platformTokenKey(tokenData) ?? 'access_token';
	const refreshKey = platformRefreshTokenKey(tokenData) ?? 'refresh_token';
	const tokens = {
		clientId: String(creds.clientId ?? ''),
		clientSecret: String(creds.clientSecret ?? ''),
		accessToken: typeof tokenData[accessKey] === 'string' ? (tokenData[accessKey] as string) : '',
		refreshToken:
			typeof tokenData[refreshKey] === 'string' ? (tokenData[refreshKey] as string) : '',
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

function hookIdOf(answer: unknown): HookId | undefined {
	const a = answer as IDataObject | undefined;
	const inner = a?.data as IDataObject | undefined;
	const id = a?.hookId ?? a?.id ?? inner?.hookId ?? inner?.id;
	return typeof id === 'number' || (typeof id === 'string' && id !== '') ? id : undefined;
}

/**
 * n8n's create: registers every selected event that has no live registration yet
 * (concurrently). If one fails, everything registered for this node is deregistered
 * again — nothing is left half-activated — and the error names the event.
 */
export async function create(scope: HookScope): Promise<boolean> {
	const ctx = scope.ctx;
	const events = selectedEvents(ctx);
	const base = nodeWebhookBase(ctx);
	await registrationTokens(ctx); // bad credential → clear error before any request

	// Reconcile first: adopts what is already there and, being an authenticated GET, lets n8n
	// refresh an expired token before the tokens are copied into the register bodies.
	const kept = await reconcile(scope, events, base);
	const tokens = await registrationTokens(ctx);
	const missing = events.filter((e) => !kept.has(e));

	const results = await mapConcurrent(
		missing,
		CONCURRENCY,
		async (eventType) => {
			const secret = randomString(32);
			const webhookUrl = `${base}?event=${encodeURIComponent(eventType)}&secret=${secret}`;
			const answer = await apiRequest(scope, {
				method: 'POST',
				path: '/v1/webhooks/register',
				body: { ...tokens, eventType, webhookUrl },
			});
			const hookId = hookIdOf(answer);
			if (hookId === undefined)
				throw new NodeOperationError(
					ctx.getNode(),
					'The platform registered the webhook but returned no hookId',
				);
			kept.set(eventType, { hookId, secret });
			return hookId;
		},
		true,
	);

	const failedAt = missing.findIndex((_, i) => results[i] && !results[i].ok);
	if (failedAt === -1) {
		writeState(ctx, kept);
		return true;
	}

	// Roll back: what this call registered, what was adopted, and anything else at this URL
	// (a register that failed after the platform stored it).
	const error = (results[failedAt] as { error: unknown }).error;
	const leftovers = await deregisterAll(
		scope,
		[...kept.values()].map((k) => k.hookId),
	);
	try {
		const again = (await listHooks(scope)).filter(
			(h) =>
				parseUrl(h.webhookUrl)?.base === base &&
				!leftovers.some((l) => String(l.hookId) === String(h.hookId)),
		);
		leftovers.push(
			...(await deregisterAll(
				scope,
				again.map((h) => h.hookId),
			)),
		);
	} catch (listError) {
		leftovers.push({
			hookId: '(list)',
			reason: `could not list the registrations to check: ${messageOf(listError)}`,
		});
	}
	clearState(ctx);

	const event = missing[failedAt];
	const cause = error as { message?: string; description?: string };
	const rollback = leftovers.length
		? `These registrations could not be removed and may still call n8n: ${leftovers.map((l) => `${String(l.hookId)} (${l.reason})`).join('; ')}. Activating again removes them.`
		: 'Every registration made for this trigger was removed again, so nothing is left half-registered.';
	throw new NodeOperationError(
		ctx.getNode(),
		`Could not register the webhook for "${eventLabel(event)}" (${event}): ${cause.message ?? String(error)}`,
		{
			description: [cause.description, rollback].filter(Boolean).join(' '),
		},
	);
}

/**
 * n8n's delete: deregisters every stored registration (404 = already gone), then
 * anything else still registered at this node's URL; clears static data. One failure
 * does not stop the others; failures are reported together at the end.
 */
export async function deleteHooks(scope: HookScope): Promise<boolean> {
	const ctx = scope.ctx;
	const data = state(ctx);
	const stored = Object.values(data.hookIds ?? {});
	const failed = await deregisterAll(scope, stored);
	try {
		const base = nodeWebhookBase(ctx);
		const others = (await listHooks(scope)).filter(
			(h) =>
				parseUrl(h.webhookUrl)?.base === base &&
				!stored.some((id) => String(id) === String(h.hookId)),
		);
		failed.push(
			...(await deregisterAll(
				scope,
				others.map((h) => h.hookId),
			)),
		);
	} catch (error) {
		// The stored ids were handled; the sweep is a safety net only.
		ctx.logger.warn(
			`Business Platform Trigger: could not check for other webhook registrations: ${messageOf(error)}`,
		);
	}
	clearState(ctx);
	if (failed.length) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Could not deregister ${failed.length} webhook registration(s) on the platform`,
			{
				description: `${failed.map((f) => `${String(f.hookId)}: ${f.reason}`).join('; ')}. They may keep calling n8n (the calls are refused); activating the workflow again removes them.`,
			},
		);
	}
	return true;
}
