/**
 * When a failed attempt is sent again: the rule for which failures may be repeated and what the
 * error says when one is not (retryRule, pure), and the attempts, delays and total wait the tuning
 * allows (nextAttempt). The transport (transport.ts apiRequest) runs the attempts; errors.ts reads
 * each failure into its facts and makes the error a failure ends as.
 */
import { isNetworkFailure, type FailureFacts } from './errors';
import type { RetryTuning } from './tuning';

/** What the retry rule reads of a request (transport.ts ApiRequest). */
export interface RetryPolicy {
	method: string;
	retry?: 'auto' | 'never';
	idempotent?: boolean;
}

function isIdempotent(req: RetryPolicy): boolean {
	if (req.idempotent !== undefined) return req.idempotent;
	return ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'].includes(req.method);
}

/** The wait before the next attempt: doubling from the base delay, ±25 % jitter, at most the longest delay. */
function backoff(attempt: number, retry: RetryTuning): number {
	const exp = retry.baseDelayMs * 2 ** (attempt - 1);
	return Math.min(retry.maxDelayMs, Math.round(exp * (0.75 + Math.random() * 0.5)));
}

/** A failure after which the platform may have carried the request out: a dropped connection (not a refused one) or a 5xx. */
export const leavesOutcomeUnknown = (facts: FailureFacts) =>
	(isNetworkFailure(facts) && facts.code !== 'ECONNREFUSED') ||
	(facts.status !== undefined && facts.status >= 500);

/** Whether a failed attempt may be sent again, and what the error says if it fails for good. */
export interface RetryRule {
	retry: boolean;
	/** Why it was not repeated, or how long the platform asked to wait; none when there is nothing to add. */
	note?: string;
}

/**
 * The retry rule (pure): a 429 and a refused connection (nothing was sent) may be sent again
 * for every method; a dropped connection or a 5xx only for an idempotent request, since the
 * platform may have carried it out; never with `retry: 'never'` or when the credential must be
 * reconnected. The note says which of these kept a request that failed for good from being repeated.
 */
export function retryRule(req: RetryPolicy, facts: FailureFacts): RetryRule {
	const unknown = leavesOutcomeUnknown(facts);
	// A refused connection sent nothing: like a 429, even a create can be sent again.
	const neverSent = facts.status === undefined && facts.code === 'ECONNREFUSED';
	const idempotent = isIdempotent(req);
	const retry =
		req.retry !== 'never' &&
		!facts.reconnect &&
		(facts.status === 429 || neverSent || (idempotent && unknown));
	if (!idempotent && unknown)
		return {
			retry,
			note: `The request was not repeated automatically: the platform may already have carried it out, and repeating a ${req.method} could create a duplicate. Check the platform before running it again.`,
		};
	if (req.retry === 'never' && (facts.status === 429 || unknown || neverSent))
		return {
			retry,
			note: 'This operation is never retried automatically: check whether it took effect in the platform before running it again.',
		};
	if (facts.status === 429 && facts.retryAfterMs !== undefined)
		return {
			retry,
			note: `The platform asked to wait ${Math.round(facts.retryAfterMs / 1000)} s before retrying.`,
		};
	return { retry };
}

/**
 * Whether the attempt `attempt`, which failed with `facts`, is sent again and after how long:
 * when the rule allows it, within the tuning's attempts, longest delay and total wait and time
 * (`spent`: what the earlier attempts waited and took). Else the rule's note for the error.
 */
export function nextAttempt(
	req: RetryPolicy,
	facts: FailureFacts,
	attempt: number,
	spent: { waitedMs: number; elapsedMs: number },
	tuning: RetryTuning,
): { delayMs: number } | { note?: string } {
	const rule = retryRule(req, facts);
	const delayMs =
		facts.status === 429 && facts.retryAfterMs !== undefined
			? facts.retryAfterMs
			: backoff(attempt, tuning);
	const inBudget =
		spent.waitedMs + delayMs <= tuning.maxTotalWaitMs &&
		spent.elapsedMs + delayMs <= tuning.maxTotalMs;
	if (rule.retry && attempt < tuning.attempts && delayMs <= tuning.maxDelayMs && inBudget)
		return { delayMs };
	return { note: rule.note };
}
