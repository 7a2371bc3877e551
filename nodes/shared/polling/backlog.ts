/**
 * A backlog read within n8n's poll budget: when a poll of a newest-first list cannot reach its
 * cursor before the budget runs out (n8n abandons a poll past it and throws its result away),
 * it reads the oldest part of what is due instead, page by page towards the newest, and stops
 * in time. What it read is delivered, oldest first, and the cursor moves past it; the next poll
 * goes on from there. Every change is delivered once, in order, over as many polls as it takes.
 *
 * How (a list sorted by the change time, newest first, whose envelope gives its length):
 * 1. Find the page where the list crosses the cursor: the first page whose last item is older
 *    than `since` (or the last page), by halving the pages that may hold it: all the pages after
 *    those read, or, from the mark the last backlog read left, pages 1, 2, 4 … further first
 *    (and, when no page confirms the mark, as a stale one, 1, 2, 4 … pages back from it).
 * 2. Read from that page towards page 1. The first page read must hold an item older than
 *    `since` (or be the list's last), which proves that nothing due lies below it.
 * 3. Stop before the budget runs out, and at the first page whose list length differs from the
 *    last one's: a record created or deleted while the poll reads shifts the pages, and a
 *    change could slip onto a page already read. That page is not used; the next poll reads it.
 * What was read is delivered (the cursor's `seen` keeps which changes of its newest time). A poll
 * that did not reach page 1 leaves a mark in the cursor (`behind`) so that the next goes to the
 * backlog at once; the mark only saves pages (docs/polling-triggers.md says when it is lost), and
 * read.ts leaves room for a read without it (`roomLeft`).
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fetchPage } from '../pagination';
import type { RunScope } from '../run-scope';
import type { Budget, PollEvent, PollList } from './model';

export type { Budget } from './model';

/** The poll's budget (n8n's, or the pack's where n8n gives none: machine.ts), measured from now. */
export function budgetFrom(limit: number, now: () => number): Budget {
	const began = now();
	return { elapsed: () => now() - began, limit, slowest: 0 };
}

/**
 * Whether one more page fits in the budget, or in a share of it: a poll gives the first half to
 * reading from the newest change towards the cursor, so that a backlog read has the rest.
 */
export const pageFits = (budget: Budget, share = 1) =>
	budget.elapsed() + budget.slowest <= budget.limit * share;

/**
 * The pages a backlog read without a mark needs at most in a list of `pages` pages: the last
 * page, the halving of the pages between, and one page towards page 1.
 */
export const searchPages = (pages: number) => Math.ceil(Math.log2(Math.max(2, pages))) + 2;

/**
 * Whether one more page from the newest change (read.ts) leaves a backlog read what it needs to
 * deliver without a mark in a list of `length` items: half the budget, and at least the pages
 * that find the backlog and those of the cursor's own timestamp (`atSince` items), which it
 * reads through.
 */
export function roomLeft(budget: Budget, length: number, served: number, atSince: number): boolean {
	const size = Math.max(1, served);
	const pages = searchPages(Math.ceil(length / size)) + Math.ceil(atSince / size) + 1;
	return pageFits(budget, 0.5) && budget.elapsed() + budget.slowest * (1 + pages) <= budget.limit;
}

/**
 * The error of a poll that must read a whole list (Deal Changed: deletions and changes without a
 * time are seen only so) and cannot within n8n's poll budget: n8n would abandon it every time.
 */
export function wholeTooLong(
	scope: RunScope,
	list: PollList,
	pages: number,
	records: number | undefined,
	limit: number,
): NodeOperationError {
	const size = records === undefined ? `more than ${pages} pages` : `${records} records`;
	return new NodeOperationError(
		scope.ctx.getNode(),
		`${list.request.method} ${list.request.path} (${size}) cannot be read whole within the poll budget of ${Math.round(limit / 1000)} s`,
		{
			description: `This event reads the whole list at every poll, and after ${pages} pages its budget was spent: n8n would abandon the poll and deliver nothing, every time. Choose a pipeline to make the list shorter, or give polls more time (N8N_SCHEDULER_POLL_TIMEOUT under n8n's durable scheduler). Nothing was delivered; the next poll tries again (docs/polling-triggers.md).`,
		},
	);
}

/** A whole reading a poll must finish (remembered records) fails before n8n abandons it; one past its budget reads on. */
export function mustFit(
	scope: RunScope,
	list: PollList,
	event: PollEvent,
	budget: Budget | undefined,
	page: number,
	length: number | undefined,
): void {
	if (!event.recordId || list.newestFirst || !budget || budget.elapsed() > budget.limit) return;
	if (!pageFits(budget)) throw wholeTooLong(scope, list, page - 1, length, budget.limit);
}

/**
 * One page of a poll's list, its time counted in the budget when there is one. A 200 whose items
 * are not a list (`{}`, `{data: null}`, an HTML page) is not an empty page: the poll fails (P10),
 * delivers and commits nothing, and says so once in n8n's log; the next poll reads again.
 */
export async function timedPage(
	scope: RunScope,
	list: PollList,
	page: number,
	size: number,
	served: number,
	budget?: Budget,
) {
	const began = budget?.elapsed() ?? 0;
	const got = await fetchPage(scope, list.request, list.style, page, size, served);
	if (budget) budget.slowest = Math.max(budget.slowest, budget.elapsed() - began);
	if (!got.listed) {
		const what = `${list.request.method} ${list.request.path} (page ${page})`;
		scope.ctx.logger?.warn?.(
			`Business Platform: ${what} answered 200 without a list of items; the poll delivered nothing and reads again at the next poll time`,
		);
		throw new NodeOperationError(scope.ctx.getNode(), `${what} answered without a list`, {
			description:
				'The platform answered 200 with a body that holds no list of items where its documents put one (an empty object, a null list, or a page that is not JSON, such as a maintenance page). The poll delivered nothing and kept its cursor; the next poll reads the list again. If this lasts, check the API Base URL of the credential.',
		});
	}
	return got;
}

interface Page {
	items: IDataObject[];
	records?: number;
	last: boolean;
}

/**
 * What a backlog read found: the items read (some not this event's changes), whether it reached
 * page 1 (nothing left behind), and the newest page it read (where the next one starts looking).
 */
export interface BacklogRead {
	items: IDataObject[];
	complete: boolean;
	stoppedAt: number;
}

/**
 * Where the backlog read starts: the pages already read (all newer than `since`), the page size
 * served, the list's length, and where the last backlog read stopped (the crossing is there, or
 * later by the records created since).
 */
export interface Known {
	pages: number;
	served: number;
	records: number;
	hint?: number;
}

type Read = (page: number) => Promise<Page | undefined>;

/**
 * Step 1 of the file's comment: the first page that crosses the cursor, or, when the budget ran
 * out before one did, the mark for the next poll (nothing read to deliver).
 */
async function findCrossing(
	read: Read,
	crosses: (at: Page) => boolean,
	known: Known,
	served: number,
): Promise<{ page: number; at: Page } | BacklogRead> {
	// From where the last backlog read stopped, pages 1, 2, 4 … further until one crosses (without
	// a mark: the last page at once); then halving the pages between for the first that does.
	// Only the page read first in 2. must cross: a later crossing costs pages, never a change.
	const lastPage = Math.max(1, Math.ceil(known.records / served));
	// A mark past the list's last page (the list shrank, or a stale value) counts as that page.
	let below = Math.max(known.pages, Math.min(known.hint ?? 0, lastPage) - 1);
	// Whether a page read shows that the pages up to `below` are newer than the cursor (a mark only says so).
	let shown = below === known.pages;
	let crossing: { page: number; at: Page } | undefined;
	const first = known.hint === undefined ? Math.max(1, lastPage - below) : 1;
	for (let step = first; !crossing; step *= 2) {
		// Not past the last page the list's length gives, unless that page did not cross (the list grew).
		const page = below < lastPage ? Math.min(below + step, lastPage) : below + 1;
		const at = await read(page);
		// Out of budget before a page crossed: the pages up to `below` are newer than the cursor,
		// and the next poll goes on from there (a mark, as after a read that did not reach page 1).
		if (!at) return { items: [], complete: false, stoppedAt: below + 1 };
		if (crosses(at)) crossing = { page, at };
		else [below, shown] = [page, true];
	}
	// A mark that no page showed (stale, or the list shrank): down from the crossing 1, 2, 4 …
	// pages until one does not cross, instead of reading every page in between towards page 1.
	for (let step = 1; !shown; step *= 2) {
		const page = Math.max(known.pages + 1, crossing.page - step);
		const at: Page | undefined = page < crossing.page ? await read(page) : undefined;
		if (!at) break;
		if (crosses(at)) crossing = { page, at };
		else [below, shown] = [page, true];
	}
	below = Math.min(below, crossing.page - 1);
	for (let low = below + 1, high = crossing.page - 1; low <= high; ) {
		const mid = Math.floor((low + high) / 2);
		const at = await read(mid);
		if (!at) break;
		if (crosses(at)) {
			crossing = { page: mid, at };
			high = mid - 1;
		} else low = mid + 1;
	}
	return crossing;
}

/**
 * Reads the oldest part of the backlog (see the file's comment), `size` asked per page.
 * Undefined: the page where the list crosses the cursor did not prove it (the list moved under
 * it; the next poll tries again).
 */
export async function readBacklog(
	scope: RunScope,
	list: PollList,
	event: PollEvent,
	since: number,
	size: number,
	known: Known,
	budget: Budget,
): Promise<BacklogRead | undefined> {
	const served = Math.max(1, known.served);
	const time = (item: IDataObject | undefined) =>
		item && typeof item === 'object' ? event.time(item) : undefined;
	// Each page once per poll: the search and the read towards page 1 share what they read.
	const pages = new Map<number, Page>();
	const read = async (page: number): Promise<Page | undefined> => {
		const cached = pages.get(page);
		if (cached) return cached;
		if (!pageFits(budget)) return undefined;
		const got = await timedPage(scope, list, page, size, served, budget);
		const at = { items: got.items, records: got.records, last: !got.more };
		pages.set(page, at);
		return at;
	};
	const crosses = (at: Page) => {
		const oldest = time(at.items[at.items.length - 1]);
		return at.items.length === 0 || at.last || oldest === undefined || oldest < since;
	};
	const found = await findCrossing(read, crosses, known, served);
	if ('stoppedAt' in found) return found;
	const crossing = found;
	// 2. and 3.: from the crossing towards page 1.
	const items: IDataObject[] = [];
	let page = crossing.page;
	let at: Page | undefined = crossing.at;
	const length = at.records;
	const proves = at.last || at.items.some((i) => (time(i) ?? -1) < since);
	if (!proves) return undefined;
	for (;;) {
		for (const item of at.items) items.push(item);
		if (page === 1) return { items, complete: true, stoppedAt: 1 };
		at = await read(page - 1);
		if (!at || at.records !== length) return { items, complete: false, stoppedAt: page };
		page--;
	}
}
