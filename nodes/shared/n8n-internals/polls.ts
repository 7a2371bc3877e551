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
// claim: the claim does nothing there. What keeps two polls of one node from both delivering is
// then n8n's: one poll task per node under a lease, a poll past its timeout abandoned (its result
// thrown away), and, with durable cursors, the cursor committed with the execution, fenced on the
// lease. A claim is taken as left behind by a poll that died after n8n's poll budget (below): a
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
