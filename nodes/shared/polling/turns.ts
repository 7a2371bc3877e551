/**
 * The turns of a node's polls in this process: which poll may run now (rows P2 and P3 of the
 * polling state machine, machine.ts; P11 is a turn marked superseded), and the webhook Trigger's
 * activation and heal, one at a time. This is the pack's one piece of process-wide state: the
 * `followed` map, keyed by workflow and node, bounded (MAX_FOLLOWED_NODES), and allowed by
 * test/unit/layout.test.ts by name, because polls of one node in one process can only be kept
 * apart here (n8n-internals 6 and 10 below).
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
// shared by every poll the process runs (in queue mode every poll runs on main), and a poll's
// context names its workflow and node (getWorkflow().id, getNode().id). Under the durable
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
	/** When an activation of the node began registering its webhooks (the Trigger's heal waits: beginActivation). */
	activating?: number;
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
	followed.delete(key);
	followed.set(key, node); // the most recently polled last
	for (const oldest of followed.keys()) {
		if (followed.size <= MAX_FOLLOWED_NODES) break;
		followed.delete(oldest);
	}
	return turn;
}

/** Ends the turn on every path; `delivered`: the poll returned changes (handed to n8n at `now`). */
export function endTurn(turn: Turn, delivered: boolean, now: number): void {
	const node = followed.get(turn.key);
	if (!node) return;
	node.running.delete(turn);
	if (delivered) node.delivered = { from: turn.from, at: now };
	if (node.running.size === 0 && !node.delivered && node.activating === undefined)
		followed.delete(turn.key);
}

// ── An activation and the Trigger's heal, one at a time ─────────────────────────
// A webhook trigger that also polls (n8n-internals 11) is activated (checkExists, create) while
// n8n runs its first poll: both would register a missing event, with two secrets. So in this
// process they take turns: an activation waits until the node's running polls end, and a poll
// that begins while an activation runs (for at most ACTIVATION_MS) does nothing.

/** How long an activation keeps the node's polls out at most (a create that never came). */
export const ACTIVATION_MS = 120_000;

/** Whether an activation of the node runs (the poll then does nothing). */
export function activationRuns(turn: Turn, now: number): boolean {
	const at = followed.get(turn.key)?.activating;
	return at !== undefined && Math.abs(now - at) < ACTIVATION_MS;
}

/**
 * An activation begins: later polls do nothing until it ends. Returns whether to wait for the
 * node's running polls: not when it continues an activation that already began (n8n's create
 * after a checkExists that said false), which waited once and keeps its start.
 */
export function beginActivation(key: string, now: number): boolean {
	const node = followed.get(key) ?? { running: new Set<Turn>() };
	const continuing =
		node.activating !== undefined && Math.abs(now - node.activating) < ACTIVATION_MS;
	if (!continuing) node.activating = now;
	followed.set(key, node);
	return !continuing && node.running.size > 0;
}

/**
 * The webhook Trigger's heal takes its turn: a poll of the node's, from the start "heal" (P2:
 * none while another heal of the activation runs), that gives way to an activation (none while
 * one runs). Undefined when it does not run; else the turn, ended by endTurn on every path.
 */
export function beginHeal(
	ctx: Pick<IPollFunctions, 'getNode' | 'getWorkflow'>,
	data: object,
	now: number,
	budget: number,
): Turn | undefined {
	const turn = beginTurn(ctx, data, 'heal', now, budget);
	if (typeof turn === 'string') return undefined;
	if (!activationRuns(turn, now)) return turn;
	endTurn(turn, false, now);
	return undefined;
}

/** Whether polls of the node still run (an activation waits for them). */
export const pollsRun = (key: string): boolean => (followed.get(key)?.running.size ?? 0) > 0;

/** The activation ended (every path). */
export function endActivation(key: string): void {
	const node = followed.get(key);
	if (!node) return;
	delete node.activating;
	if (node.running.size === 0 && !node.delivered) followed.delete(key);
}
