/**
 * The heal's repair (heal.ts): what one heal poll registers and removes, from the platform's list
 * and the secrets of the node's published activation (polling/turns.ts setLive), and only while
 * that activation is still the published one (turns.ts healState: checked before each removal
 * and each register, and after each register). For each chosen event:
 *   - no registration at the node's URL with the event's secret → registered again with it (so
 *     deliveries keep being accepted);
 *   - there twice with the secret (a registration made twice) → the newer removed, the oldest kept;
 *   - one at the node's URL with another secret (an old registration a removal missed when the
 *     workflow was published again: the Trigger refuses its deliveries) → removed, once the event
 *     has one with its secret; one line in the log says so. So is one at the node's URL of an
 *     event the activation did not register (a removal missed when the events were changed).
 * A register the platform answers after the activation stopped being the published one is removed
 * again (`late`), so nothing the heal registers outlives an unpublish.
 */
import type { IPollFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { ACTIVATION_MS, type HealTurn, healState, liveActivation } from '../shared/polling/turns';
import type { RunScope } from '../shared/run-scope';
import { clip } from '../shared/text-readers';
import {
	byAge,
	deregister,
	type HookId,
	type LiveHook,
	listHooks,
	messageOf,
	registerHook,
	registrationTokens,
	type Tokens,
} from './webhook-api';

/** Lists a late register's `late` cleanup tries when the list fails, a growing wait between (1 s, 2 s). */
export const LATE_LIST_ATTEMPTS = 3;

/** What a poll found for one chosen event. */
export interface EventCheck {
	eventType: string;
	/** The registrations of the event at this node's URL that carry the event's secret (deliveries are accepted), oldest first. */
	mine: LiveHook[];
	/** The others at this node's URL: another secret, or none (the Trigger refuses their deliveries). */
	stale: LiveHook[];
}

/**
 * The node's registrations per chosen event, from the platform's list and the activation's
 * secrets (pure). An event counts as registered only while a registration at the node's URL
 * (`base`, unique to the node) carries its secret: one with another secret delivers nothing.
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
		const ours = (h: LiveHook) => secret !== undefined && h.url!.secret === secret;
		return {
			eventType,
			mine: atNode.filter(ours).sort(byAge),
			stale: atNode.filter((h) => !ours(h)),
		};
	});
}

/** What a repair did: the events registered again, and the first thing that went wrong (tried again at the next poll). */
export interface Repair {
	restored: Record<string, { hookId: HookId; at: string }>;
	problem?: string;
}

type PollScope = RunScope<IPollFunctions>;
type Removal = { eventType: string; hook: LiveHook };

/**
 * Repairs the node's registrations as the checks of the platform's list (`hooks`) say, while the
 * heal's activation is the published one.
 */
export async function repair(
	scope: PollScope,
	turn: HealTurn,
	hooks: LiveHook[],
	checks: EventCheck[],
	at: string,
): Promise<Repair> {
	const live = () => healState(turn, scope.tuning.poll.now()) === 'live';
	const out: Repair = { restored: {} };
	const twins = checks.flatMap((c) =>
		c.mine.slice(1).map((hook) => ({ eventType: c.eventType, hook })),
	);
	if (!(await removeEach(scope, live, twins, out, 'a second registration'))) return out;
	if (!(await registerMissing(scope, turn, checks, at, out, live))) return out;
	const checked = new Set(checks.flatMap((c) => [...c.mine, ...c.stale]));
	const stale = [
		...checks.flatMap((c) =>
			c.mine.length || out.restored[c.eventType]
				? c.stale.map((hook) => ({ eventType: c.eventType, hook }))
				: [],
		),
		...hooks
			.filter((h) => h.url?.base === turn.live.base && !checked.has(h))
			.map((hook) => ({ eventType: hook.eventType, hook })),
	];
	const removed = await removeEach(scope, live, stale, out, 'an old registration');
	if (removed?.length)
		scope.ctx.logger.info(
			`Business Platform Trigger: removed ${removed.length} registration(s) at this workflow's webhook URL with an old secret or of an event it no longer listens to (their deliveries were refused): ${removed.map((r) => `${r.eventType} (${String(r.hook.hookId)})`).join(', ')}`,
		);
	return out;
}

/** Removes each registration while the heal may act (the first failure is the repair's problem); undefined when it stood down. */
async function removeEach(
	scope: PollScope,
	live: () => boolean,
	hooks: Removal[],
	out: Repair,
	what: string,
): Promise<Removal[] | undefined> {
	const removed: Removal[] = [];
	for (const one of hooks) {
		if (!live()) return undefined;
		const reason = await deregister(scope, one.hook.hookId);
		if (reason)
			out.problem ??= `could not remove ${what} (${String(one.hook.hookId)}) of ${one.eventType}: ${reason}`;
		else removed.push(one);
	}
	return removed;
}

/** Registers the events without a registration that carries their secret; false when the heal stood down. */
async function registerMissing(
	scope: PollScope,
	turn: HealTurn,
	checks: EventCheck[],
	at: string,
	out: Repair,
	live: () => boolean,
): Promise<boolean> {
	const { base, secrets } = turn.live;
	const missing = checks.filter((c) => c.mine.length === 0).map((c) => c.eventType);
	if (!missing.length) return true;
	let tokens: Tokens;
	try {
		tokens = await registrationTokens(scope.ctx);
	} catch (error) {
		out.problem ??= messageOf(error);
		return true;
	}
	for (const eventType of missing) {
		if (!live()) return false;
		const secret = secrets.get(eventType)!;
		try {
			const kept = await registerHook(scope, tokens, base, eventType, secret);
			if (!live()) {
				await late(scope, turn, eventType, secret, kept.hookId);
				return false;
			}
			out.restored[eventType] = { hookId: kept.hookId, at };
		} catch (error) {
			if (!live()) {
				await late(scope, turn, eventType, secret);
				return false;
			}
			out.problem ??= `could not register ${eventType} again: ${messageOf(error)}`;
		}
	}
	return true;
}

/**
 * A register answered (or failed, its outcome unknown) after the heal's activation stopped being
 * the published one: an activation that still waits for this heal lists after it (it adopts or
 * removes it); otherwise, once no activation runs, the registration stays only if the published
 * activation holds its secret, and is removed if the workflow was unpublished or published with
 * other secrets. A list that cannot be read (LATE_LIST_ATTEMPTS times) leaves one warning that
 * names the event. So nothing the heal registers outlives an unpublish unsaid, whatever the timing.
 */
async function late(
	scope: PollScope,
	turn: HealTurn,
	eventType: string,
	secret: string,
	hookId?: HookId,
): Promise<void> {
	const now = scope.tuning.poll.now;
	const began = now();
	let state = healState(turn, now());
	while (state === 'working' && Math.abs(now() - began) < ACTIVATION_MS) {
		await sleep(100);
		state = healState(turn, now());
	}
	if (state === 'waiting' || state === 'live') return;
	const { base } = turn.live;
	const holder = liveActivation(turn.key);
	if (holder?.base === base && holder.secrets.get(eventType) === secret) return;
	const ids = hookId !== undefined ? [hookId] : await lateIds(scope, base, eventType, secret);
	if (typeof ids === 'string') {
		scope.ctx.logger.warn(
			`Business Platform Trigger: ${eventType} may still be registered at this workflow's webhook URL: the platform answered a register request only after the workflow was unpublished or published again, and its list, to find and remove that registration, could not be read (${clip(ids, 300)}). Unpublishing the workflow removes it (publishing it again adopts or removes it).`,
		);
		return;
	}
	for (const id of ids) {
		const reason = await deregister(scope, id);
		scope.ctx.logger.warn(
			`Business Platform Trigger: ${eventType} was registered again (${String(id)}) as the workflow was unpublished or published again; ${reason ? `removing it failed: ${clip(reason, 300)}. Publishing the workflow again removes it.` : 'it was removed.'}`,
		);
	}
}

/** The registrations of a late register (at `base`, of the event, with its secret), or why the list could not be read. */
async function lateIds(
	scope: PollScope,
	base: string,
	eventType: string,
	secret: string,
): Promise<HookId[] | string> {
	let why = '';
	for (let attempt = 1; attempt <= LATE_LIST_ATTEMPTS; attempt++) {
		try {
			return (await listHooks(scope))
				.filter((h) => h.url?.base === base && h.eventType === eventType && h.url.secret === secret)
				.map((h) => h.hookId);
		} catch (error) {
			why = messageOf(error);
			if (attempt < LATE_LIST_ATTEMPTS) await scope.tuning.retryClock.sleep(1_000 * attempt);
		}
	}
	return why;
}
