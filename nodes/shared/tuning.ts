/**
 * The pack's tunables and clocks: how a request is retried and timed, how a poll pages and
 * measures its budget. n8n runs every node with `DEFAULT_TUNING` (frozen: nothing changes it
 * at run time). A node built with other values (`new BusinessPlatformSales(tuning)`, as the
 * tests' harness builds its nodes) passes them to its run scope, so a test moves through
 * retries and polls with its own clock and page size without any module variable rewritten.
 */
import { sleep } from 'n8n-workflow';

export interface RetryTuning {
	/** Attempts in all, including the first. */
	readonly attempts: number;
	/** First backoff; doubled each time, with jitter. */
	readonly baseDelayMs: number;
	/** Longest single wait, also the cap for Retry-After. */
	readonly maxDelayMs: number;
	/** Total waiting between attempts of one request. */
	readonly maxTotalWaitMs: number;
	/** One attempt's wait for an answer, unless the node's Timeout says otherwise. */
	readonly timeoutMs: number;
	/** All attempts of one request together, answers and waits included: no retry starts past it. */
	readonly maxTotalMs: number;
}

export interface PollTuning {
	/** Items asked for per page. */
	readonly pageSize: number;
	/** Readings of a list that moved while it was paged, at most, per poll. */
	readonly maxReadings: number;
	/** Pages "Fetch Test Event" looks through for a matching item. */
	readonly testPages: number;
	/** The characters what an event remembers of its records may take (polling/memory.ts, MAX_MEMORY_CHARS). */
	readonly memoryChars: number;
	/** The clock a poll measures its budget and its turn with (milliseconds). */
	readonly now: () => number;
}

export interface PagingTuning {
	/**
	 * A safety stop for a server that never says "last page": past it, Return All (and a poll) fails
	 * and says so rather than return part of the list as if it were all of it.
	 */
	readonly maxPages: number;
	/**
	 * Return All over an envelope that tells the total: pages requested ahead of the one being
	 * read, so n8n's per-request cost (a new connection each time) overlaps the platform's answer
	 * time instead of adding to it. Never past the last page.
	 */
	readonly readAhead: number;
}

export interface Clock {
	/** Milliseconds: one request's attempts together are measured with it. */
	readonly now: () => number;
	/** The wait between attempts (backoff, Retry-After): n8n-workflow's `sleep`. */
	readonly sleep: (ms: number) => Promise<void>;
}

export interface Tuning {
	readonly retry: RetryTuning;
	readonly paging: PagingTuning;
	readonly poll: PollTuning;
	/** The transport's time: a request's total time and the waits between its attempts. */
	readonly retryClock: Clock;
}

/**
 * The most characters what a polling event remembers of its records may take in the node's static
 * data (polling/memory.ts): past it, the records changed longest ago are forgotten first.
 */
export const MAX_MEMORY_CHARS = 2_000_000;

/** Items asked for per page (Return All, pickers, polls). The spec documents no maximum; 100 is accepted by every list of the sandbox. */
export const PAGE_SIZE = 100;

export const DEFAULT_TUNING: Tuning = Object.freeze({
	retry: Object.freeze({
		attempts: 5,
		baseDelayMs: 300,
		maxDelayMs: 20_000,
		maxTotalWaitMs: 60_000,
		timeoutMs: 30_000,
		maxTotalMs: 120_000,
	}),
	paging: Object.freeze({ maxPages: 100_000, readAhead: 2 }),
	poll: Object.freeze({
		pageSize: PAGE_SIZE,
		maxReadings: 3,
		testPages: 5,
		memoryChars: MAX_MEMORY_CHARS,
		now: Date.now,
	}),
	retryClock: Object.freeze({
		now: Date.now,
		sleep: async (ms: number) => await sleep(ms),
	}),
});
