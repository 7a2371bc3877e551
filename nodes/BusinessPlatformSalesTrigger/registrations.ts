/**
 * The trigger's webhook registrations on the platform, as its activation hooks (checkExists,
 * create, delete) make and remove them: one per selected event type, each pointing at the
 * node's webhook URL with `?event=<type>&secret=<random>`. What they leave in the node's static
 * data (hookIds, secrets, url, restored) is state.ts.
 *
 * The platform is the source of truth: before registering, the live registrations
 * pointing at this node's URL are listed and reconciled (adopted, deduplicated, or
 * removed when their event is no longer selected), so a restart, a re-import with
 * empty static data or a crash between register and save never leaves duplicates.
 * The platform's endpoints themselves (list, register, deregister) are webhook-api.ts.
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { ACTIVATION_WAIT_MS } from '../shared/n8n-internals';
import {
	activationWorks,
	beginActivation,
	endActivation,
	endLive,
	liveActivation,
	nodeKey,
	outwaitHeal,
	pollsRun,
	setLive,
} from '../shared/polling/turns';
import { mapConcurrent, type RunScope } from '../shared/run-scope';
import { credentialInfo } from '../shared/transport';
import { eventLabel, selectedEvents } from './events';
import { ownTexts, state } from './state';
import { webhookAddressProblem } from './webhook-address';
import {
	byAge,
	deregister,
	type HookId,
	type Kept,
	listHooks,
	messageOf,
	parseUrl,
	registerHook,
	registrationTokens,
} from './webhook-api';

/** Registrations sent at the same time. */
const CONCURRENCY = 5;

/** The run scope of one activation hook call (checkExists, create, delete). */
type HookScope = RunScope<IHookFunctions>;

// ------------------------------------------------------------------ helpers --

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

/** The Trigger's option (Options → Allow Private Webhook Address) that accepts a private webhook address. */
export const ALLOW_PRIVATE_ADDRESS = 'allowPrivateWebhookAddress';

/**
 * The node's webhook URL for an activation (checkExists, create), refused before any request
 * when the platform at the API Base URL cannot call it (webhook-address.ts): an address on this
 * machine only, or one in a private network unless Options → Allow Private Webhook Address is on.
 * n8n shows a trigger's activation nothing but an error (a log line is seen by no one), so a
 * private address fails once with what to do, rather than registering an address that never
 * receives an event. Deactivation uses nodeWebhookBase alone: what was registered is removed.
 */
async function reachableWebhookBase(scope: HookScope): Promise<string> {
	const ctx = scope.ctx;
	const base = nodeWebhookBase(ctx);
	const problem = webhookAddressProblem(base, (await credentialInfo(scope)).baseUrl);
	if (!problem) return base;
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	if (problem.kind === 'private' && options?.[ALLOW_PRIVATE_ADDRESS] === true) return base;
	throw new NodeOperationError(ctx.getNode(), problem.message, {
		description: problem.description,
	});
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

/**
 * Deregisters every other registration at this node's URL `base` (those not in `handled`),
 * such as one the platform stored although its register call failed. Returns the failures.
 */
async function deregisterOthers(
	scope: HookScope,
	base: string,
	handled: HookId[],
): Promise<Array<{ hookId: HookId; reason: string }>> {
	const others = (await listHooks(scope)).filter(
		(h) => h.url?.base === base && !handled.some((id) => String(id) === String(h.hookId)),
	);
	return await deregisterAll(
		scope,
		others.map((h) => h.hookId),
	);
}

function writeState(ctx: IHookFunctions, kept: Map<string, Kept>, base: string): void {
	const data = state(ctx);
	if (data.url !== base) data.url = base;
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
	for (const key of ['hookIds', 'secrets', 'url', 'restored', 'seenLive'] as const)
		if (data[key] !== undefined) delete data[key];
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
	for (const secret of ownTexts(state(ctx).secrets).values()) scope.secrets.add(secret);
	const mine = (await listHooks(scope))
		.filter((h) => h.url?.base === base)
		// Stored ids first, then oldest first (ids grow).
		.sort((a, b) => {
			const sa = String(stored[a.eventType]) === String(a.hookId) ? 0 : 1;
			const sb = String(stored[b.eventType]) === String(b.hookId) ? 0 : 1;
			return sa !== sb ? sa - sb : byAge(a, b);
		});
	const kept = new Map<string, Kept>();
	const stale: HookId[] = [];
	for (const h of mine) {
		const secret = h.url!.secret ?? '';
		const usable =
			events.includes(h.eventType) && h.url!.event === h.eventType && secret.length > 0;
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
	// An event this static data held a registration for, which the platform no longer has (n8n's
	// former path and the publication service's start activate again): registered again by create,
	// and the Trigger's poll reports it, with since when events may have been missed (heal.ts).
	const lost = events.filter(
		(e) => Object.prototype.hasOwnProperty.call(stored, e) && !kept.has(e),
	);
	if (lost.length) {
		const data = state(ctx);
		const marks = { ...(data.restored ?? {}) };
		for (const e of lost) marks[e] = new Date().toISOString();
		data.restored = marks;
	}
	writeState(ctx, kept, base);
	return kept;
}

// ------------------------------------------------------- webhook methods --

/**
 * The activation's turn (polling/turns.ts beginActivation): n8n runs the Trigger's first poll
 * beside its checkExists/create, and a poll may run when it unpublishes (delete): both would
 * register a missing event, the poll after the delete removed it. The activation waits for a
 * running heal of the node to end, which it does at its next step, for at most
 * ACTIVATION_WAIT_MS (30 s, well under n8n 2.41's 84 s for a publication: n8n-internals 15), and
 * once per heal (n8n tries a failed teardown again: the waits do not add up); a register the heal
 * has under way and the platform answers later still is removed by the heal itself (repair.ts
 * `late`). A poll that begins meanwhile does nothing.
 */
async function activationTurn(scope: HookScope): Promise<string> {
	const key = nodeKey(scope.ctx);
	const now = scope.tuning.poll.now;
	const started = now();
	if (beginActivation(key, started)) {
		while (pollsRun(key) && Math.abs(now() - started) < ACTIVATION_WAIT_MS) await sleep(100);
		if (pollsRun(key)) outwaitHeal(key);
	}
	activationWorks(key);
	return key;
}

/**
 * The activation registered the node's events at `base`: from now on the heal works with them
 * (polling/turns.ts setLive), and reports the events found dropped (the `restored` marks move
 * from static data to it). Not for a test listener's registrations ("Listen for test event").
 */
function publishLive(scope: HookScope, kept: Map<string, Kept>, base: string): void {
	const ctx = scope.ctx;
	if (ctx.getMode() === 'manual') return;
	const key = nodeKey(ctx);
	const data = state(ctx);
	const restored = ownTexts(data.restored);
	const before = liveActivation(key);
	if (before?.base === base)
		for (const [event, at] of before.restored) if (!restored.has(event)) restored.set(event, at);
	if (data.restored !== undefined) delete data.restored;
	const secrets = new Map<string, string>();
	for (const [event, k] of kept) secrets.set(event, k.secret);
	setLive(key, { base, secrets, restored });
}

/** `work` in the activation's turn, ended on every path. */
async function inActivation<T>(scope: HookScope, work: () => Promise<T>): Promise<T> {
	const key = await activationTurn(scope);
	try {
		return await work();
	} finally {
		endActivation(key);
	}
}

/** n8n's checkExists: true only when every selected event has a live registration at this node's URL. */
export async function checkExists(scope: HookScope): Promise<boolean> {
	const key = await activationTurn(scope);
	let exists: boolean | undefined;
	try {
		const events = selectedEvents(scope.ctx);
		const base = await reachableWebhookBase(scope);
		const kept = await reconcile(scope, events, base);
		exists = events.every((e) => kept.has(e));
		if (exists) publishLive(scope, kept, base);
		return exists;
	} finally {
		// false: n8n calls create next, which goes on with the activation's turn.
		endActivation(key, exists === false ? scope.tuning.poll.now() : undefined);
	}
}

/**
 * n8n's create: registers every selected event that has no live registration yet
 * (concurrently). If one fails, everything registered for this node is deregistered
 * again — nothing is left half-activated — and the error names the event.
 */
export async function create(scope: HookScope): Promise<boolean> {
	return await inActivation(scope, async () => await createHooks(scope));
}

async function createHooks(scope: HookScope): Promise<boolean> {
	const ctx = scope.ctx;
	const events = selectedEvents(ctx);
	const base = await reachableWebhookBase(scope);
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
			const registered = await registerHook(scope, tokens, base, eventType);
			kept.set(eventType, registered);
			return registered.hookId;
		},
		true,
	);

	const failedAt = missing.findIndex((_, i) => results[i] && !results[i].ok);
	if (failedAt === -1) {
		writeState(ctx, kept, base);
		publishLive(scope, kept, base);
		return true;
	}
	endLive(nodeKey(ctx), base);

	// Roll back: what this call registered, what was adopted, and anything else at this URL
	// (a register that failed after the platform stored it).
	const error = (results[failedAt] as { error: unknown }).error;
	const leftovers = await deregisterAll(
		scope,
		[...kept.values()].map((k) => k.hookId),
	);
	try {
		const others = await deregisterOthers(
			scope,
			base,
			leftovers.map((l) => l.hookId),
		);
		for (const other of others) leftovers.push(other);
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
	// Nothing to heal at this URL any more (a test listener's URL is not the published one's),
	// from now on: a heal under way stands down at its next step, before the delete waits for it.
	const base = parseUrl(scope.ctx.getNodeWebhookUrl('default'))?.base;
	if (base) endLive(nodeKey(scope.ctx), base);
	// A poll running beside the deactivation would register again what it removes.
	return await inActivation(scope, async () => await removeHooks(scope));
}

async function removeHooks(scope: HookScope): Promise<boolean> {
	const ctx = scope.ctx;
	const data = state(ctx);
	for (const secret of ownTexts(data.secrets).values()) scope.secrets.add(secret);
	const stored = Object.values(data.hookIds ?? {});
	const failed = await deregisterAll(scope, stored);
	try {
		for (const f of await deregisterOthers(scope, nodeWebhookBase(ctx), stored)) failed.push(f);
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
