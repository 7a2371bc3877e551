/**
 * The turns of a node's polls in this process: which poll may run now (rows P2 and P3 of the
 * polling state machine, machine.ts; P11 is a turn marked superseded), and the webhook Trigger's
 * activation and heal, one at a time, with what the heal needs of the activation (its live
 * registrations' URL and secrets) and of its own past (an outage under way). This is the pack's
 * one piece of process-wide state: the `followed` map, keyed by workflow and node, bounded
 * (MAX_FOLLOWED_NODES), and allowed by test/unit/layout.test.ts by name, because polls of one
 * node in one process can only be kept apart here (n8n-internals 6 and 10 below).
 */
import type { IPollFunctions } from 'n8n-workflow';

/** The row that ends a poll before it reads (docs/polling-triggers.md): P2 or P3. */
export type Held = 'P2' | 'P3';

// ── n8n-internals 6 and 10: the node's polls in this process ───────────────────
// Relies on (6): n8n runs the polls of an activation on the one Workflow object it built when it
// activated the workflow, so every poll of one activation gets the same static data object
// (n8n-core PollContext → Workflow.getStaticData), and a workflow published again gets a new one,
// loaded from what n8n saved; n8n's default scheduler starts a poll at every Poll Time without
// waiting for the one before (2.x poll-trigger-executor.ts, 1.x active-workflows.ts: no lock).
// Under the durable scheduler (2.41, opt-in) each poll loads the workflow and gets its own copy.
// Relies on (10): n8n loads a community package once per process, so this module's memory is
// shared by every poll the process runs (in queue mode every poll runs on main, as does every
// activation: a webhook trigger's checkExists, create and delete), and a poll's context, like an
// activation hook's, names its workflow and node (getWorkflow().id, getNode().id); a test
// listener's hooks run in mode "manual". Under the durable
// scheduler two tasks of one node can run at once (its claim query has no lock per node: a task
// run again after a restart runs beside the next Poll Time's), and a delivery is committed after
// its poll returns, so a poll may load the cursor from before the last delivery.
// Buys: rows P2, P3 and P11: one writer per start, a later activation (or task) before an
// earlier one, no poll from a cursor a delivery may not have moved yet.
// When it does not hold: polls of one node in two processes (several mains under the durable
// scheduler) share no memory, and nothing here keeps them apart. A restart forgets all: the next
// poll loads what n8n saved or committed.

/** Nodes whose polls are followed at most (the least recently polled are forgotten first). */
export const MAX_FOLLOWED_NODES = 10_000;

/** A poll under way: its node, its start, its static data object, when it began (ms). */
export interface Turn {
	readonly key: string;
	readonly from: string;
	readonly data: object;
	readonly at: number;
	/** A poll of another activation (another static data object) began after it: P11. */
	superseded: boolean;
}

interface Followed {
	running: Set<Turn>;
	/** The last delivery: the start it was read from, and when it was handed to n8n. */
	delivered?: { from: string; at: number };
	/**
	 * When an activation of the node began registering or removing its webhooks (beginActivation),
	 * or, between a checkExists that said false and n8n's create, when that checkExists ended.
	 */
	activating?: number;
	/** The activation's hook calls under way (checkExists, create, delete): while one runs, the activation runs. */
	hooks?: number;
	/** The activation stopped waiting for the node's heal and lists, registers or removes (activationWorks). */
	working?: boolean;
	/** The webhook Trigger's published activation in this process (setLive): what its heal works with. */
	live?: LiveActivation;
	/** The webhook Trigger's heal under way (beginHeal): one at a time, for as long as it runs. */
	healing?: HealTurn;
	/** The heal an activation already waited for as long as it may: a later hook call does not wait for it again. */
	outwaited?: HealTurn;
	/** Since when the heal could not do its work, and when it last said so with a failed execution. */
	trouble?: Trouble;
}

/** Forgets a node with nothing under way and nothing to remember. */
function forgetIfIdle(key: string, node: Followed): void {
	if (
		node.running.size === 0 &&
		!node.delivered &&
		node.activating === undefined &&
		!node.live &&
		!node.healing &&
		!node.trouble
	)
		followed.delete(key);
}

/** The node's entry (`node`, or the one followed, or a new one), made the most recently used; the least recently used past the bound are forgotten. */
function touch(key: string, node = followed.get(key) ?? { running: new Set<Turn>() }): Followed {
	followed.delete(key);
	followed.set(key, node);
	for (const oldest of followed.keys()) {
		if (followed.size <= MAX_FOLLOWED_NODES) break;
		followed.delete(oldest);
	}
	return node;
}

const followed = new Map<string, Followed>();

/** How many nodes are followed (for tests of the bound). */
export const followedNodes = (): number => followed.size;

/** How long a delivery's cursor may take to land (P3): twice the poll budget, a minute at least. */
export const pendingDeliveryMs = (budget: number) => Math.max(60_000, 2 * budget);

export function nodeKey(ctx: Pick<IPollFunctions, 'getNode' | 'getWorkflow'>): string {
	const workflow = typeof ctx.getWorkflow === 'function' ? ctx.getWorkflow()?.id : undefined;
	const node = ctx.getNode();
	return JSON.stringify([
		workflow ?? '',
		typeof node.id === 'string' && node.id ? node.id : node.name,
	]);
}

/** The poll's turn (P4, P5 follow), or the row that ends it before it reads (P2, P3). Exported for its property test. */
export function beginTurn(
	ctx: Pick<IPollFunctions, 'getNode' | 'getWorkflow'>,
	data: object,
	from: string,
	now: number,
	budget: number,
): Turn | Held {
	const key = nodeKey(ctx);
	const node = followed.get(key) ?? { running: new Set<Turn>() };
	for (const t of node.running)
		if (t.data === data && t.from === from && Math.abs(now - t.at) < budget) return 'P2';
	// Also after P15: a delivery n8n threw away holds the polls from its start as long, then they read again.
	const last = node.delivered;
	if (last?.from === from && Math.abs(now - last.at) < pendingDeliveryMs(budget)) return 'P3';
	delete node.delivered; // a poll from another start: the last delivery has landed (or expired)
	for (const t of node.running) if (t.data !== data) t.superseded = true;
	const turn: Turn = { key, from, data, at: now, superseded: false };
	node.running.add(turn);
	touch(key, node); // the most recently polled last
	return turn;
}

/** Ends the turn on every path; `delivered`: the poll returned changes (handed to n8n at `now`). */
export function endTurn(turn: Turn, delivered: boolean, now: number): void {
	const node = followed.get(turn.key);
	if (!node) return;
	node.running.delete(turn);
	if (delivered) node.delivered = { from: turn.from, at: now };
	forgetIfIdle(turn.key, node);
}

// ── An activation and the Trigger's heal, one at a time ─────────────────────────
// A webhook trigger that also polls (n8n-internals 11) is activated (checkExists, create) while
// n8n runs its first poll, and unpublished (delete) while a poll may run: both would register or
// remove what the other relies on. So in this process they take turns: an activation waits until
// the node's heal ends (the heal gives way at its next step: beforeEach of its requests), and a
// heal that begins while an activation runs does nothing. An activation runs while one of its hook
// calls runs, however long, and between a checkExists that said false and n8n's create for at
// most ACTIVATION_MS (a create that never came). An unpublish ends the heal's activation at once
// (endLive, before it waits). One heal of a node runs at a time, for as long as it runs, whatever
// n8n's poll budget: no budget to outrun.
// The heal works with what the activation registered in this process (setLive: the node's URL
// and each event's secret), not with the static data its poll sees, which under n8n's durable
// cursors is a copy frozen at the node's first poll (n8n-internals 10); with no activation of the
// node in this process (another main, a restart that did not activate it) it does nothing.

/**
 * How long the gap between a checkExists that said false and n8n's create keeps the node's polls
 * out at most (a create that never came); a hook call under way keeps them out however long it runs.
 */
export const ACTIVATION_MS = 120_000;

/** What the webhook Trigger's published activation registered, as its heal uses it. */
export interface LiveActivation {
	/** The node's webhook URL without query: where its registrations point. */
	readonly base: string;
	/** Each chosen event's secret, as the activation kept it. */
	readonly secrets: ReadonlyMap<string, string>;
	/** Events the activation found dropped and registered again, and when: the heal reports each once. */
	readonly restored: Map<string, string>;
}

/**
 * A heal under way: its node, the activation it heals for, when it began, and the heal's trouble
 * (read when it begins, kept by endHeal: one heal of a node at a time, so it is the heal's own).
 */
export interface HealTurn {
	readonly key: string;
	readonly live: LiveActivation;
	readonly at: number;
	trouble?: Trouble;
}

/** The heal's trouble: since when it could not do its work, when it last said so with a failed execution. */
export interface Trouble {
	since: number;
	signalled?: number;
}

const activationRunsFor = (node: Followed | undefined, now: number): boolean =>
	node?.activating !== undefined &&
	((node.hooks ?? 0) > 0 || Math.abs(now - node.activating) < ACTIVATION_MS);

/** Whether an activation of the node runs (a poll that begins then does nothing). */
export function activationRuns(turn: { key: string }, now: number): boolean {
	return activationRunsFor(followed.get(turn.key), now);
}

/**
 * A hook call of an activation begins: later polls do nothing until the activation ends, and a
 * running heal gives way at its next step. Returns whether to wait for the node's running polls:
 * not when it continues an activation that already runs (n8n's create after a checkExists that
 * said false), which waited once.
 */
export function beginActivation(key: string, now: number): boolean {
	const node = touch(key);
	const continuing = activationRunsFor(node, now);
	if (!continuing) {
		node.activating = now;
		node.working = false;
	}
	node.hooks = (node.hooks ?? 0) + 1;
	const heals = node.healing !== undefined && node.healing !== node.outwaited;
	return !continuing && (node.running.size > 0 || heals);
}

/**
 * The activation stopped waiting for the node's running heal (its bound passed): n8n's next hook
 * call (a teardown tried again) does not wait for that heal again, so the waits do not add up.
 */
export function outwaitHeal(key: string): void {
	const node = followed.get(key);
	if (node?.healing) node.outwaited = node.healing;
}

/** The activation stopped waiting and lists, registers or removes: what a heal registers now, it will not see. */
export function activationWorks(key: string): void {
	const node = followed.get(key);
	if (node?.activating !== undefined) node.working = true;
}

/**
 * A hook call of the activation ended (every path). `awaitsCreateAt`: it was a checkExists that
 * said false, so n8n calls create next: the activation goes on, for at most ACTIVATION_MS from then.
 * The activation ends with its last hook call under way.
 */
export function endActivation(key: string, awaitsCreateAt?: number): void {
	const node = followed.get(key);
	if (!node) return;
	node.hooks = Math.max(0, (node.hooks ?? 1) - 1);
	if (node.hooks > 0) return;
	delete node.hooks;
	if (awaitsCreateAt !== undefined && node.activating !== undefined) {
		node.activating = awaitsCreateAt;
		return;
	}
	delete node.activating;
	delete node.working;
	forgetIfIdle(key, node);
}

/** Whether polls of the node still run, its heal included (an activation waits for them). */
export const pollsRun = (key: string): boolean => {
	const node = followed.get(key);
	return (node?.running.size ?? 0) > 0 || node?.healing !== undefined;
};

/** The node's published activation in this process, if any. */
export const liveActivation = (key: string): LiveActivation | undefined => followed.get(key)?.live;

/** The activation registered the node's events at `live.base`: the heal works with it from now on. */
export function setLive(key: string, live: LiveActivation): void {
	touch(key).live = live;
}

/** The node's registrations at `base` were removed (unpublished, or a failed create rolled back): nothing to heal there. */
export function endLive(key: string, base: string): void {
	const node = followed.get(key);
	if (node?.live?.base !== base) return;
	delete node.live;
	delete node.trouble;
	forgetIfIdle(key, node);
}

/**
 * The webhook Trigger's heal takes its turn: none while another heal of the node runs (however
 * long it has run), while an activation runs, or without a published activation of the node in
 * this process. Undefined when it does not run; else the turn, ended by endHeal on every path.
 */
export function beginHeal(
	ctx: Pick<IPollFunctions, 'getNode' | 'getWorkflow'>,
	now: number,
): HealTurn | undefined {
	const key = nodeKey(ctx);
	const node = followed.get(key);
	if (!node?.live || node.healing || activationRunsFor(node, now)) return undefined;
	const turn: HealTurn = { key, live: node.live, at: now, trouble: node.trouble };
	touch(key).healing = turn;
	return turn;
}

/**
 * Whether the heal may act: its activation is still the node's published one and no activation
 * runs. `waiting`: an activation began but still waits for this heal, so it will list after
 * anything the heal registers now.
 */
export function healState(turn: HealTurn, now: number): 'live' | 'waiting' | 'working' | 'gone' {
	const node = followed.get(turn.key);
	if (activationRunsFor(node, now)) return node!.working ? 'working' : 'waiting';
	return node?.live === turn.live ? 'live' : 'gone';
}

/** The heal ended (every path): its trouble is kept for the next heal of the same activation. */
export function endHeal(turn: HealTurn): void {
	const node = followed.get(turn.key);
	if (node?.healing !== turn) return;
	delete node.healing;
	delete node.outwaited;
	if (turn.trouble && node.live === turn.live) node.trouble = turn.trouble;
	else delete node.trouble;
	forgetIfIdle(turn.key, node);
}
