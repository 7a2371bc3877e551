/**
 * Shortcuts 6 and 7 of n8n-internals (index.ts): how n8n runs a polling trigger's polls and
 * keeps its static data.
 */
import type { IPollFunctions } from 'n8n-workflow';

// ── 6. Polls of one node share its static data, and may overlap ────────────────
// Relies on: n8n runs every poll of an active workflow's node on the one Workflow object built
// when the workflow was activated, so getWorkflowStaticData('node') gives each poll the same
// object in memory (n8n-core PollContext → Workflow.getStaticData); and n8n's default scheduler
// starts a poll at every Poll Time without waiting for the one before (a cron job per Poll Time,
// packages/core/src/execution-engine/poll-trigger-executor.ts in 2.x, active-workflows.ts
// `activatePolling` in 1.x: no lock). A poll still paging through a large backlog when the next
// Poll Time comes would otherwise read the same cursor as the new poll, and both would deliver.
// Buys: a poll that starts while one of the same node runs delivers nothing and leaves the
// cursor alone (polling/poll.ts); the next Poll Time reads what it would have read.
// When it does not hold: under n8n's durable scheduler (opt-in in 2.41: N8N_SCHEDULER_ENABLED,
// N8N_SCHEDULER_POLL_TRIGGERS_ENABLED; n8n/dist/scheduling/poll-trigger-node/) each poll loads
// the workflow and works on its own copy of the static data, so no poll ever sees another's
// claim: the claim does nothing there; 10 keeps such polls apart in one process (n8n's own lease
// fences each task, not the node: two tasks of one node may run at once). A claim is taken as left behind by a poll that died after n8n's poll budget (below): a
// later poll takes it over, and the poll that lost it delivers nothing. A claim that n8n happened
// to save with the static data (another trigger of the workflow started an execution during the
// poll) only delays polls after a restart by that budget.

/** The node's static data, where `polling` holds the running poll's claim (its start, in ms since 1970). */
export interface PollClaimHolder {
	polling?: unknown;
}
/** n8n's poll budget where IPollFunctions has no getPollBudgetMs (n8n before 2.41). */
export const DEFAULT_POLL_BUDGET_MS = 5 * 60_000;

export interface PollClaim {
	readonly at: number;
}

type BudgetedPoll = Pick<IPollFunctions, 'getNode'> & { getPollBudgetMs?: () => number };

/**
 * The time a poll may take before n8n abandons it (IPollFunctions.getPollBudgetMs, documented
 * from n8n 2.41: min(poll timeout, lease) less a margin under the durable scheduler, five
 * minutes under the default one); five minutes where this n8n has none.
 */
export function pollBudgetMs(ctx: BudgetedPoll): number {
	return pollBudget(ctx) ?? DEFAULT_POLL_BUDGET_MS;
}

/** n8n's poll budget, or undefined where this n8n has none (the poll then reads as it did before n8n had one). */
export function pollBudget(ctx: BudgetedPoll): number | undefined {
	const budget = typeof ctx.getPollBudgetMs === 'function' ? ctx.getPollBudgetMs() : undefined;
	return typeof budget === 'number' && Number.isFinite(budget) && budget > 0 ? budget : undefined;
}

/**
 * Claims the node's poll in its static data, or returns undefined when another poll of the node
 * holds a claim younger than the poll budget. Reads and writes without awaiting in between, so
 * two polls of one process cannot both claim.
 */
export function claimPoll(
	ctx: BudgetedPoll,
	data: PollClaimHolder,
	now = Date.now(),
): PollClaim | undefined {
	const held = data.polling;
	if (typeof held === 'number' && Math.abs(now - held) < pollBudgetMs(ctx)) return undefined;
	data.polling = now;
	return { at: now };
}

/** Whether the claim is still this poll's (not taken over after the budget). */
export const holdsPoll = (data: PollClaimHolder, claim: PollClaim): boolean =>
	data.polling === claim.at;

/** Ends the claim, if it is still this poll's. */
export function releasePoll(data: PollClaimHolder, claim: PollClaim): void {
	if (holdsPoll(data, claim)) delete data.polling;
}

// ── 7. A poll that delivers nothing commits its own cursor ──────────────────────
// Relies on: with durable cursors (N8N_POLLER_DURABLE_CURSORS_ENABLED, n8n 2.41 opt-in on top of
// the durable scheduler) the node's static data is a staged copy of the poller_state cursor
// (n8n/dist/workflows/triggers/trigger-execution-context.factory.js, getExecutePollFunctions):
// n8n commits it with the execution of the poll's items, or after a poll that returned nothing
// by calling IPollFunctions.__commitCursor (n8n-core poll-cursor-hooks.js) — except for the poll
// it runs when the workflow is published, a test poll (PollTriggerExecutor, `testingTrigger`),
// after which it commits nothing. __commitCursor commits what was staged since the last commit,
// once (a second call finds nothing new), fenced on the poll's lease where it has one.
// Buys: the cursor of the first poll (start from now) survives publishing. Without it the first
// scheduled poll starts from now again, and what changed in between (up to a Poll Time) is lost.
// When it does not hold: where n8n has no __commitCursor (before 2.41) or no durable cursors
// (n8n-core's own is then a no-op), nothing happens and n8n saves static data as before: with
// a poll's execution. Under the durable scheduler without durable cursors each poll loads that,
// so nothing a poll without items changed reaches the next poll (no backlog mark: polling/
// backlog.ts delivers without one). A commit that fails is left to n8n's own after the poll
// (a failed first commit: as without it).

type CommittingPoll = { __commitCursor?: () => Promise<void> };

/** Commits the static data a poll that returns nothing staged (see 7). */
export async function commitOwnCursor(ctx: IPollFunctions): Promise<void> {
	const commit = (ctx as unknown as CommittingPoll).__commitCursor;
	if (typeof commit !== 'function') return;
	try {
		await commit.call(ctx);
	} catch {
		// n8n commits again after a scheduled poll, and logs its own failure there.
	}
}

// ── 10. A node's polls run in one process, and a delivery lands after its poll ──
// Relies on: n8n loads a community package once per process, so this module's memory is shared
// by every poll the process runs (in queue mode every poll runs on main), and a poll's context
// names its workflow and node (getWorkflow().id, getNode().id). Under n8n's durable scheduler
// (2.41, opt-in) two polls of one node can run from the same cursor: the scheduler claims every
// due task with no lock per node (@n8n/db scheduled-task.repository.js, claimDueTasks), so a task
// run again after its lease expired (a restart) runs beside the next Poll Time's; and a delivery
// is committed after its poll returns (__emit starts the execution and commits the cursor with
// it later: trigger-execution-context.factory.js, workflow-execution.service.js
// runPolledWorkflow), so the next poll may load the cursor from before it. Each commit is fenced
// on its own task's lease only: both executions are kept. Seen in a real n8n 2.41.1 with durable
// cursors on a busy machine: 140 records delivered by two executions after a restart.
// Buys: in this process a poll delivers nothing while another poll of the node runs, or when it
// starts from the very cursor that a delivery of the node started from less than
// `pendingDeliveryMs` ago (as far as it can see, that delivery's cursor has not landed yet); the
// next poll reads what n8n committed. Polls of one node in one process also stop each other
// where the static-data claim (6) cannot: under the durable scheduler.
// When it does not hold: polls of one node in two processes (multi-main) share no memory, and
// nothing here keeps them apart. A delivery n8n threw away (a poll abandoned past its budget, a
// commit refused) holds back the polls from its cursor for `pendingDeliveryMs`: its changes come
// that much later, never lost. A restart forgets all: the next poll loads what n8n committed.

/** Nodes whose polls are followed at most (the least recently polled are forgotten first). */
export const MAX_FOLLOWED_NODES = 10_000;

interface NodeTurns {
	/** The running poll's start (ms). */
	polling?: number;
	/** The last delivery: the cursor its poll started from, and when it returned. */
	delivered?: { from: string; at: number };
}
const followed = new Map<string, NodeTurns>();

/** A poll's turn: its node, the cursor it started from, its start. */
export interface PollTurn {
	readonly key: string;
	readonly from: string;
	readonly at: number;
}

type IdentifiedPoll = BudgetedPoll & Partial<Pick<IPollFunctions, 'getWorkflow'>>;

function nodeKey(ctx: IdentifiedPoll): string | undefined {
	const workflow = typeof ctx.getWorkflow === 'function' ? ctx.getWorkflow()?.id : undefined;
	const node = ctx.getNode();
	const id = typeof node?.id === 'string' && node.id ? node.id : node?.name;
	if (typeof workflow !== 'string' || !workflow || typeof id !== 'string') return undefined;
	return JSON.stringify([workflow, id]);
}

/** How long a delivery's cursor may take to land (see 10): twice the poll budget, a minute at least. */
export const pendingDeliveryMs = (ctx: BudgetedPoll) => Math.max(60_000, 2 * pollBudgetMs(ctx));

/**
 * The poll's turn, or undefined when it must deliver nothing (see 10): another poll of the node
 * runs in this process (younger than the poll budget), or a delivery started from `from` lately.
 */
export function beginPollTurn(
	ctx: IdentifiedPoll,
	from: string,
	now: number,
): PollTurn | undefined {
	const key = nodeKey(ctx);
	if (key === undefined) return { key: '', from, at: now };
	const turns = followed.get(key) ?? {};
	if (typeof turns.polling === 'number' && Math.abs(now - turns.polling) < pollBudgetMs(ctx))
		return undefined;
	const last = turns.delivered;
	if (last?.from === from && Math.abs(now - last.at) < pendingDeliveryMs(ctx)) return undefined;
	delete turns.delivered; // a poll from another cursor: the last delivery has landed (or expired)
	turns.polling = now;
	followed.delete(key);
	followed.set(key, turns); // the most recently polled last
	for (const oldest of followed.keys()) {
		if (followed.size <= MAX_FOLLOWED_NODES) break;
		followed.delete(oldest);
	}
	return { key, from, at: now };
}

/** Whether the turn is still the node's running poll (not taken over after the poll budget). */
export const holdsTurn = (turn: PollTurn): boolean =>
	turn.key === '' || followed.get(turn.key)?.polling === turn.at;

/** Ends the turn; `delivered`: the poll returned changes (handed to n8n at `now`). */
export function endPollTurn(turn: PollTurn, delivered: boolean, now: number): void {
	const turns = followed.get(turn.key);
	if (!turns || turns.polling !== turn.at) return;
	delete turns.polling;
	if (delivered) turns.delivered = { from: turn.from, at: now };
	if (!turns.delivered) followed.delete(turn.key);
}

/** How many nodes are followed (for tests of the bound). */
export const followedNodes = (): number => followed.size;
