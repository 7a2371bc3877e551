/**
 * The Trigger's poll: what keeps its registrations on the platform without a person.
 *
 * n8n calls a webhook trigger's checkExists/create only when it activates the workflow, and
 * under its workflow publication service (n8n 2.41's default) no longer at start. A platform may
 * drop a registration (an endpoint that kept failing while n8n was down, an administrator), and
 * then the event is delivered nowhere, silently. So the Trigger also polls (n8n-internals 11):
 * every minute it lists the platform's registrations and, for each chosen event,
 *   - live at this node's URL with the event's secret → noted as seen (at most every 10 minutes);
 *   - missing → registered again with the same secret, so deliveries keep being accepted;
 *   - there twice (two polls healed at once) → the newer ones removed, the oldest kept.
 * Each event registered again, here or by an activation (registrations.ts `restored`), gives one
 * item: which event, when it was restored, and since when its events may have been missed (the
 * last time the pack saw it live). The platform keeps no record of the events it could not
 * deliver, and its documents show no way to list invoices, bills, notes, products or stock
 * moves, so the item says what can be known and guesses nothing (docs/trigger.md, "Healing").
 *
 * It writes static data only when something changed (a restored event, a new hookId, a seen
 * mark older than 10 minutes); n8n saves it with the next execution the poll starts or the next
 * activation, so after a restart a seen mark may be older: "missed since" stays on the safe side.
 * It needs what the activation stored (state.ts: the events' secrets and the node's URL): without
 * them (a workflow activated before the pack healed, until it is published again; n8n's durable
 * cursors, whose poll sees other static data) it lists nothing and returns.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { pollBudgetMs } from '../shared/n8n-internals';
import { beginHeal, endTurn } from '../shared/polling/turns';
import { RunScope } from '../shared/run-scope';
import { clip } from '../shared/text-readers';
import { DEFAULT_TUNING, type Tuning } from '../shared/tuning';
import { eventLabel, pollingAlternative, selectedEvents } from './events';
import { readStored, type Stored } from './state';
import {
	byAge,
	deregister,
	type HookId,
	type LiveHook,
	listHooks,
	messageOf,
	registerHook,
	registrationTokens,
} from './webhook-api';

/** How stale a "seen live" mark may get before the poll writes a newer one (a save per 10 minutes, not per poll). */
export const SEEN_REFRESH_MS = 10 * 60_000;

/** What a poll found for one chosen event. */
export interface EventCheck {
	eventType: string;
	/** The registrations of the event at this node's URL, whatever their secret. */
	atNode: LiveHook[];
	/** Those that carry the event's secret (deliveries are accepted), oldest first. */
	mine: LiveHook[];
}

/**
 * The node's registrations per chosen event, from the platform's list and the stored secrets
 * (pure). An event counts as registered while any registration of it points at the node's URL
 * (`base`, unique to the node): one with an older secret is an activation's to replace (an
 * activation running beside the poll registers with a new secret), never the poll's.
 */
export function checkEvents(
	hooks: LiveHook[],
	events: string[],
	secrets: ReadonlyMap<string, string>,
	base: string,
): EventCheck[] {
	const atBase = hooks.filter((hook) => hook.url?.base === base);
	return events.map((eventType) => {
		const secret = secrets.get(eventType);
		const atNode = atBase.filter((h) => h.eventType === eventType && h.url!.event === eventType);
		const mine = atNode.filter((h) => secret !== undefined && h.url!.secret === secret).sort(byAge);
		return { eventType, atNode, mine };
	});
}

/** The node's URL: stored at activation, else the one a live registration of the node shows. */
function nodeUrl(stored: unknown, hooks: LiveHook[], secrets: ReadonlyMap<string, string>): string {
	if (typeof stored === 'string' && stored) return stored;
	for (const h of hooks) if (h.url && secrets.get(h.eventType) === h.url.secret) return h.url.base;
	return '';
}

/**
 * One poll of the Trigger: heal its registrations, report the restored ones. Polls of the node
 * in this process take turns (the polling state machine's P2, n8n-internals 10): one that starts
 * while another runs returns nothing, so two never register the same event twice here.
 */
export async function heal(
	ctx: IPollFunctions,
	tuning: Tuning = DEFAULT_TUNING,
): Promise<INodeExecutionData[][] | null> {
	const stored = readStored(ctx);
	const now = tuning.poll.now;
	// Not while another heal of the node runs, nor while an activation registers the node's
	// events itself (registrations.ts activationTurn).
	const turn = beginHeal(ctx, stored.data, now(), pollBudgetMs(ctx));
	if (!turn) return null;
	try {
		return await healOnce(new RunScope(ctx, tuning), stored);
	} finally {
		endTurn(turn, false, now());
	}
}

/**
 * The heal's steps: the chosen events the activation stored a secret for; the platform's list;
 * what each event needs (checkEvents); the repair; what changed, written to static data; the
 * restored registrations reported.
 */
async function healOnce(
	scope: RunScope<IPollFunctions>,
	{ data, secrets, seenLive: seenBefore }: Stored,
): Promise<INodeExecutionData[][] | null> {
	const ctx = scope.ctx;
	const events = selectedEvents(ctx).filter((e) => secrets.has(e));
	if (!events.length) return null;

	const hooks = await listHooks(scope);
	const base = nodeUrl(data.url, hooks, secrets);
	if (!base) return null;
	const now = new Date();
	const nowIso = now.toISOString();
	const checks = checkEvents(hooks, events, secrets, base);

	const restoredNow = await repair(scope, checks, base, secrets, nowIso);
	const missing = checks.filter((c) => c.atNode.length === 0).map((c) => c.eventType);

	// What changes in static data: hookIds of restored events, marks, the reported activations.
	const hookIds = { ...(data.hookIds ?? {}) };
	const seenLive = { ...(data.seenLive ?? {}) };
	let changed = false;
	for (const check of checks) {
		const current = check.mine[0]?.hookId ?? restoredNow[check.eventType]?.hookId;
		if (current !== undefined && String(hookIds[check.eventType]) !== String(current)) {
			hookIds[check.eventType] = current;
			changed = true;
		}
		const seen = Date.parse(seenLive[check.eventType] ?? '');
		if (check.mine.length && !(Math.abs(now.getTime() - seen) < SEEN_REFRESH_MS)) {
			seenLive[check.eventType] = nowIso;
			changed = true;
		}
	}

	const items: INodeExecutionData[] = [];
	const report = (eventType: string, restoredAt: string, hookId: HookId | undefined) => {
		const since = seenBefore.get(eventType) ?? null;
		const json: IDataObject = {
			eventType,
			registrationRestored: true,
			restoredAt,
			hookId: hookId ?? null,
			missedSince: since,
			message: `The platform no longer held the webhook registration of "${eventLabel(eventType)}"; it was registered again. Events of this type ${since ? `between ${since} and ${restoredAt}` : `before ${restoredAt} (since when is not known: the pack had not yet seen the registration live)`} may not have been delivered.${pollingAlternative(eventType)}`,
		};
		items.push({ json });
	};
	const fromActivation = data.restored ?? {};
	for (const eventType of Object.keys(fromActivation))
		if (events.includes(eventType) && !restoredNow[eventType])
			report(eventType, fromActivation[eventType], hookIds[eventType]);
	for (const eventType of missing)
		if (restoredNow[eventType]) report(eventType, nowIso, restoredNow[eventType].hookId);

	if (changed) {
		data.hookIds = hookIds;
		data.seenLive = seenLive;
	}
	if (data.restored !== undefined) delete data.restored;
	const reportGaps = ctx.getNodeParameter('options.reportRestored', reportsByDefault(ctx)) === true;
	return reportGaps && items.length ? [items] : null;
}

/**
 * Removes the second registrations of an event (two polls healed at once: the oldest stays) and
 * registers the missing events again with their secrets. A failure is logged and tried again at
 * the next poll (not a failed execution). Returns the events registered again.
 */
async function repair(
	scope: RunScope<IPollFunctions>,
	checks: EventCheck[],
	base: string,
	secrets: ReadonlyMap<string, string>,
	at: string,
): Promise<Record<string, { hookId: HookId; at: string }>> {
	const log = scope.ctx.logger;
	for (const check of checks)
		for (const extra of check.mine.slice(1)) {
			const reason = await deregister(scope, extra.hookId);
			if (reason)
				log.warn(
					`Business Platform Trigger: could not remove a second registration (${String(extra.hookId)}) of ${check.eventType}: ${clip(reason, 200)}`,
				);
		}
	const restored: Record<string, { hookId: HookId; at: string }> = {};
	const missing = checks.filter((c) => c.atNode.length === 0).map((c) => c.eventType);
	if (!missing.length) return restored;
	const tokens = await registrationTokens(scope.ctx);
	for (const eventType of missing) {
		try {
			const kept = await registerHook(scope, tokens, base, eventType, secrets.get(eventType));
			restored[eventType] = { hookId: kept.hookId, at };
		} catch (error) {
			log.warn(
				`Business Platform Trigger: could not register ${eventType} again: ${clip(messageOf(error), 300)}`,
			);
		}
	}
	return restored;
}

/** Whether restored registrations are reported when the option is not set: from version 3 on. */
export const reportsByDefault = (ctx: Pick<IPollFunctions, 'getNode'>): boolean =>
	ctx.getNode().typeVersion >= 3;
