/**
 * Shortcuts 7 and 12 of n8n-internals (index.ts): the cursor commit and the poll budget, what a polling trigger's poll
 * gets from n8n beyond `poll()` returning items. Shortcuts 6 and 10 (how n8n shares a node's
 * static data between polls, and that all of a node's polls run in one process) are described
 * where the polls' turns rely on them: polling/turns.ts.
 */
import type { IPollFunctions } from 'n8n-workflow';

// ── n8n-internals 12. The poll budget ──────────────────────────────────────────────────
// n8n 2.41 gives IPollFunctions.getPollBudgetMs(): the time a poll may take before n8n abandons
// it and throws its result away (min(poll timeout, lease) less a margin under the durable
// scheduler, 36 s by default; five minutes under the default scheduler). n8n 1.x gives none, and
// its default scheduler starts a poll at every Poll Time (every minute at the shortest) without
// waiting for the last one: the pack then keeps to a budget of its own, below that minute, so a
// backlog drains over several polls there as it does on 2.41 (polling/backlog.ts).

/** The pack's poll budget where n8n gives none (n8n 1.x): below the shortest Poll Time, a minute. */
export const OWN_POLL_BUDGET_MS = 45_000;

type BudgetedPoll = { getPollBudgetMs?: () => number };

/** The time a poll may take: n8n's budget where it gives a sensible one, else the pack's own. */
export function pollBudgetMs(ctx: BudgetedPoll): number {
	const budget = typeof ctx.getPollBudgetMs === 'function' ? ctx.getPollBudgetMs() : undefined;
	return typeof budget === 'number' && Number.isFinite(budget) && budget > 0
		? budget
		: OWN_POLL_BUDGET_MS;
}

// ── n8n-internals 7. A poll that delivers nothing commits its own cursor ──────────────────────
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
// (n8n-core's own is then a no-op), nothing happens and n8n saves static data as it does without
// the hook: with a poll's execution. A commit that fails is left to n8n's own after the poll (a failed first
// commit: as without it).

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
