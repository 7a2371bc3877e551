/**
 * The Trigger's poll: what keeps its registrations on the platform without a person.
 *
 * n8n calls a webhook trigger's checkExists/create only when it activates the workflow, and
 * under its workflow publication service (n8n 2.41's default) no longer at start. A platform may
 * drop a registration (an endpoint that kept failing while n8n was down, an administrator), and
 * then the event is delivered nowhere, silently. So the Trigger also polls (n8n-internals 11):
 * every minute it lists the platform's registrations and, for each chosen event,
 *   - live at this node's URL with the event's secret → noted as seen (at most every 10 minutes);
 *   - none there with the event's secret → registered again with it, so deliveries keep being
 *     accepted (and one with another secret, which delivers nothing, removed then: repair.ts);
 *   - there twice (a registration made twice) → the newer ones removed, the oldest kept.
 * Each event registered again, here or by an activation (registrations.ts `restored`), gives one
 * item: which event, when it was restored, and since when its events may have been missed (the
 * last time the pack saw it live). The platform keeps no record of the events it could not
 * deliver, and its documents show no way to list invoices, bills, notes, products or stock
 * moves, so the item says what can be known and guesses nothing (docs/trigger.md, "Healing").
 *
 * What it may act on (docs/trigger.md, "Healing"):
 *   - the registrations and secrets of the node's published activation in this process
 *     (polling/turns.ts setLive), never the static data its poll sees (a frozen copy under n8n's
 *     durable cursors); without an activation of the node in this process it does nothing;
 *   - a list that is the contract's (webhook-api.ts listHooks): any other answer, or a row listed
 *     twice, and it registers and removes nothing;
 *   - while its activation is still the published one: it checks after its list, before each
 *     removal and each register, and after each register (a register answered after an unpublish
 *     is removed again: repair.ts `late`); an unpublish ends the activation as it begins; one
 *     heal of a node at a time, however long it runs.
 * When it cannot do its work (the platform unreachable, an answer that is not a list, a register
 * refused, the credential incomplete) it says so once in the log, and with a failed execution
 * only when that lasts FIRST_SIGNAL_MS, then once every SIGNAL_EVERY_MS: a 60-minute outage costs
 * one failed execution, not sixty.
 *
 * It writes static data only when something changed (a restored event, a new hookId, a seen
 * mark older than 10 minutes); n8n saves it with the next execution the poll starts or the next
 * activation, so after a restart a seen mark may be older: "missed since" stays on the safe side.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { beginHeal, endHeal, type HealTurn, healState } from '../shared/polling/turns';
import { RunScope } from '../shared/run-scope';
import { clip } from '../shared/text-readers';
import { DEFAULT_TUNING, type Tuning } from '../shared/tuning';
import { eventLabel, pollingAlternative, selectedEvents } from './events';
import { checkEvents, repair } from './repair';
import { readStored, type Stored } from './state';
import { type HookId, type LiveHook, listHooks, messageOf } from './webhook-api';

/** How stale a "seen live" mark may get before the poll writes a newer one (a save per 10 minutes, not per poll). */
export const SEEN_REFRESH_MS = 10 * 60_000;

/** How long the heal's trouble lasts before a poll says so with a failed execution (before: one line in the log). */
export const FIRST_SIGNAL_MS = 15 * 60_000;

/** While the trouble lasts, a failed execution at most this often after the first. */
export const SIGNAL_EVERY_MS = 60 * 60_000;

/** One poll of the Trigger: heal its registrations, report the restored ones. */
export async function heal(
	ctx: IPollFunctions,
	tuning: Tuning = DEFAULT_TUNING,
): Promise<INodeExecutionData[][] | null> {
	const turn = beginHeal(ctx, tuning.poll.now());
	if (!turn) return null;
	try {
		return await healOnce(new RunScope(ctx, tuning), turn, readStored(ctx));
	} finally {
		endHeal(turn);
	}
}

/** The heal's steps: the chosen events; the platform's list; what each needs; the repair; what changed; the report. */
async function healOnce(
	scope: RunScope<IPollFunctions>,
	turn: HealTurn,
	{ data, seenLive: seenBefore }: Stored,
): Promise<INodeExecutionData[][] | null> {
	const ctx = scope.ctx;
	const { base, secrets } = turn.live;
	const events = selectedEvents(ctx).filter((e) => secrets.has(e));
	if (!events.length) return null;
	for (const secret of secrets.values()) scope.secrets.add(secret);
	const live = () => healState(turn, scope.tuning.poll.now()) === 'live';

	let hooks: LiveHook[];
	try {
		hooks = await listHooks(scope);
	} catch (error) {
		return troubled(scope, turn, messageOf(error));
	}
	if (!live()) return null;
	const now = new Date();
	const nowIso = now.toISOString();
	const checks = checkEvents(hooks, events, secrets, base);
	const { restored: restoredNow, problem } = await repair(scope, turn, hooks, checks, nowIso);
	if (!live()) return null;

	// What changes in static data: hookIds of restored events, marks.
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
	if (changed) {
		data.hookIds = hookIds;
		data.seenLive = seenLive;
	}
	if (data.restored !== undefined) delete data.restored;

	const items = report(turn, events, seenBefore, restoredNow, hookIds);
	// A problem beside restored events: they are delivered, a failed execution waits for a later poll.
	if (problem !== undefined) troubled(scope, turn, problem, items.length === 0);
	else recovered(scope, turn);
	const reportGaps = ctx.getNodeParameter('options.reportRestored', reportsByDefault(ctx)) === true;
	return reportGaps && items.length ? [items] : null;
}

/** One item per event registered again: by this poll, or by the activation (its marks, once). */
function report(
	turn: HealTurn,
	events: string[],
	seenBefore: ReadonlyMap<string, string>,
	restoredNow: Record<string, { hookId: HookId; at: string }>,
	hookIds: Record<string, HookId>,
): INodeExecutionData[] {
	const items: INodeExecutionData[] = [];
	const one = (eventType: string, restoredAt: string, hookId: HookId | undefined) => {
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
	const fromActivation = turn.live.restored;
	for (const [eventType, at] of fromActivation)
		if (events.includes(eventType) && !restoredNow[eventType])
			one(eventType, at, hookIds[eventType]);
	fromActivation.clear();
	for (const eventType of events)
		if (restoredNow[eventType])
			one(eventType, restoredNow[eventType].at, restoredNow[eventType].hookId);
	return items;
}

/**
 * The heal could not do its work: the first poll of the trouble says so in the log; a poll
 * throws (n8n records a failed execution and runs the error workflow) once the trouble has
 * lasted FIRST_SIGNAL_MS, then once every SIGNAL_EVERY_MS while it lasts; the others say nothing.
 */
function troubled(
	scope: RunScope<IPollFunctions>,
	turn: HealTurn,
	problem: string,
	mayThrow = true,
): null {
	const ctx = scope.ctx;
	const now = scope.tuning.poll.now();
	const trouble = turn.trouble;
	const what = clip(problem, 300);
	if (!trouble || now < trouble.since) {
		turn.trouble = { since: now };
		ctx.logger.warn(
			`Business Platform Trigger: could not check its webhook registrations: ${what}. It tries again every minute and says so again only if this lasts ${FIRST_SIGNAL_MS / 60_000} minutes.`,
		);
		return null;
	}
	const due =
		trouble.signalled === undefined
			? trouble.since + FIRST_SIGNAL_MS
			: trouble.signalled + SIGNAL_EVERY_MS;
	if (now < due || !mayThrow) {
		ctx.logger.debug(`Business Platform Trigger: still could not check its registrations: ${what}`);
		return null;
	}
	trouble.signalled = now;
	const minutes = Math.round((now - trouble.since) / 60_000);
	throw new NodeOperationError(
		ctx.getNode(),
		`The Business Platform Trigger could not check its webhook registrations for ${minutes} minutes: ${what}`,
		{
			description: `A registration the platform drops cannot be restored until this is resolved (events of it would not reach n8n). The Trigger tries every minute and reports this at most once an hour while it lasts. Check that the platform is reachable from n8n and that the credential is connected.`,
		},
	);
}

/** The heal did its work again: one line if it had not been able to. */
function recovered(scope: RunScope<IPollFunctions>, turn: HealTurn): void {
	const trouble = turn.trouble;
	if (!trouble) return;
	turn.trouble = undefined;
	const minutes = Math.round(Math.max(0, scope.tuning.poll.now() - trouble.since) / 60_000);
	scope.ctx.logger.info(
		`Business Platform Trigger: can check its webhook registrations again (after ${minutes} minutes)`,
	);
}

/** Whether restored registrations are reported when the option is not set: from version 3 on. */
export const reportsByDefault = (ctx: Pick<IPollFunctions, 'getNode'>): boolean =>
	ctx.getNode().typeVersion >= 3;
