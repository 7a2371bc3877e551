/**
 * How a poll reads the event's list (machine.ts decides which poll reads and what it may deliver):
 * the pages from the newest change down to the cursor within the poll's budget, else the oldest
 * part of the backlog (backlog.ts); cursor.ts then says which changes are new. A list read page by
 * page can move (a record deleted while the poll pages shifts the rest up one place): a poll that
 * read more than one page and saw it move (its length changed between pages, or an item came on
 * two pages; a list without a length always counts as moved) reads it again until a reading finds
 * nothing new (the tuning's poll.maxReadings at most). No list is spread into a call: one poll may find 10^5
 * changes and more (test/unit/layout.test.ts).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { ApplicationError, NodeOperationError } from 'n8n-workflow';

import type { RunScope } from '../run-scope';
import { mustFit, pageFits, readBacklog, roomLeft, timedPage, type Budget } from './backlog';
import { advance, byTime, newChanges, startCursor, type Change, type Cursor } from './cursor';
import type { ParamReader, PollEvent, PollList } from './model';
import { pageTime, sortTime, warnUnsorted, warnUntimed } from './times';

/** The changes on one page of the list (items that are not this event's change are left out), added to `into`. */
function addChanges(
	into: Change<IDataObject>[],
	items: IDataObject[],
	event: PollEvent,
	param: ParamReader,
): Change<IDataObject>[] {
	for (const item of items) {
		if (!item || typeof item !== 'object') continue;
		const time = event.time(item);
		if (time === undefined || (event.is && !event.is(item, param))) continue;
		into.push({ key: event.key(item), time, item });
	}
	return into;
}

interface Reading {
	changes: Change<IDataObject>[];
	pages: number;
	/** Stopped before the cursor, because the budget ran out: the backlog is read instead (backlog.ts). */
	cut: boolean;
	/** The page size the platform serves, and the list's length as the last page gave it. */
	served: number;
	records?: number;
	/** The list may have moved while it was paged: see the file's comment. */
	moved: boolean;
	/** The newest time of any item listed (a change of this event or not); -1 when none has one. */
	newest: number;
	/** A list asked for newest first came in another order: this reading went on to its last page. */
	unsorted: boolean;
	/** The record IDs listed (events that remember records: PollEvent.records). */
	ids?: Set<string>;
	/** The items listed without a usable time (times.ts), and (events that remember records) those items. */
	untimed: number;
	timeless?: IDataObject[];
	/** Went to the list's end, as many items listed as its envelope counts (if it does): a record missing may be gone (P17). */
	whole: boolean;
}

interface ReadLimits {
	/**
	 * Newest first: stop after the page that reaches an item older than this; `newest`: older than
	 * the newest item listed (a first poll reads every item of the newest timestamp, however many pages).
	 */
	since: number | 'newest';
	maxPages?: number;
	/** Stop after the first page that holds a change (Fetch Test Event). */
	firstFound?: boolean;
	/** Stop before a page that does not fit in it, when the rest can be read as a backlog (backlog.ts). */
	budget?: Budget;
	/** The items of the cursor's own timestamp (its `seen`): a backlog read reads through them. */
	atSince?: number;
	/** Stop before a page that does not fit in it (a first poll that remembers every record): the reading is then `cut`. */
	until?: Budget;
}

/** What a reading tracks from page to page beside its result. */
interface Tracking {
	/** The keys listed so far (one listed twice: the list moved). */
	listed: Set<string>;
	/** The time of the last item listed, for a list whose order is checked (PollList.checkOrder). */
	previous: number;
}

/** One page's items into the reading: its changes, its newest time, whether the list moved or came out of order, the IDs. */
function takePage(
	reading: Reading,
	track: Tracking,
	items: IDataObject[],
	list: PollList,
	event: PollEvent,
	param: ParamReader,
): void {
	for (const item of items) {
		if (!item || typeof item !== 'object') continue;
		const time = event.time(item);
		// Each item's key once: a key may cost a fingerprint of the record (the Sales Trigger's events).
		const key = event.key(item);
		if (time !== undefined && (!event.is || event.is(item, param)))
			reading.changes.push({ key, time, item });
		if (time !== undefined && time > reading.newest) reading.newest = time;
		if (time === undefined && ++reading.untimed) reading.timeless?.push(item);
		if (list.checkOrder && time !== undefined) {
			reading.unsorted ||= time > track.previous;
			track.previous = time;
		}
		reading.moved ||= track.listed.has(key);
		track.listed.add(key);
		const id = reading.ids && event.recordId?.(item);
		if (id !== undefined) reading.ids?.add(id);
	}
}

/** Whether the reading stops before the next page: it would not fit in the budget (a backlog read, or a first poll's seeding). */
function outOfBudget(
	reading: Reading,
	list: PollList,
	limits: ReadLimits,
	length: number | undefined,
): boolean {
	if (limits.until && !pageFits(limits.until)) return true;
	// A backlog read needs a list sorted newest first whose envelope gives its length; it gets
	// half the budget, and at least the pages it needs to deliver without a mark (backlog.ts).
	return (
		!!limits.budget &&
		list.newestFirst &&
		!reading.unsorted &&
		length !== undefined &&
		!roomLeft(limits.budget, length, reading.served, limits.atSince ?? 0)
	);
}

/**
 * Whether a list asked for newest first, whose reading stopped before its last page, is not in
 * that order after all: its last page holds a change newer than the oldest one read. A platform
 * that ignores the sort and lists by ID would show its first page in order by chance when that
 * page's records were updated newest first; its last page (the newest IDs) tells. One request.
 */
async function outOfOrderBelow(
	scope: RunScope,
	list: PollList,
	event: PollEvent,
	reading: Reading,
	oldestRead: number,
): Promise<boolean> {
	if (reading.records === undefined || reading.served <= 0) return false;
	const last = Math.ceil(reading.records / reading.served);
	if (last <= reading.pages) return false;
	const size = scope.tuning.poll.pageSize;
	const { items } = await timedPage(scope, list, last, size, reading.served);
	return items.some((i) => !!i && typeof i === 'object' && (sortTime(event, i) ?? -1) > oldestRead);
}

/** The list with its request complete (PollList.prepare, asked for once): what a poll reads. */
export const readyList = async (scope: RunScope, list: PollList): Promise<PollList> =>
	list.prepare ? { ...list, request: await list.prepare(scope), prepare: undefined } : list;

/** One reading of the list: every page, or (newest first) the pages down to the first item older than `since`. */
async function read(
	scope: RunScope,
	list: PollList,
	event: PollEvent,
	param: ParamReader,
	limits: ReadLimits,
): Promise<Reading> {
	if (list.prepare) throw new ApplicationError('A poll read its list before preparing it'); // unprepared: no filter
	const reading: Reading = {
		changes: [],
		pages: 0,
		moved: false,
		newest: -1,
		cut: false,
		served: 0,
		unsorted: false,
		whole: false,
		untimed: 0,
		...(event.recordId ? { timeless: [] } : {}),
		...(event.recordId ? { ids: new Set<string>() } : {}),
	};
	const track: Tracking = { listed: new Set<string>(), previous: Number.POSITIVE_INFINITY };
	let length: number | undefined;
	const timer = limits.budget ?? limits.until;
	/** Pages from `first` on; whether the reading went to the list's end. */
	const walk = async (first: number): Promise<boolean> => {
		for (let page = first; page <= (limits.maxPages ?? Number.MAX_SAFE_INTEGER); page++) {
			if (page > scope.tuning.paging.maxPages) {
				// A poll that fails delivers nothing and keeps its cursor: better than a part of the changes taken for all.
				throw new NodeOperationError(
					scope.ctx.getNode(),
					`The list did not end after ${scope.tuning.paging.maxPages} pages`,
					{
						description: `The platform kept answering full pages of ${list.request.method} ${list.request.path}. The poll delivered nothing and will read the list again at the next poll time.`,
					},
				);
			}
			if (page > 1) mustFit(scope, list, event, limits.budget, page, length);
			if (page > 1 && outOfBudget(reading, list, limits, length)) {
				reading.cut = true;
				return false;
			}
			// The page size the platform really serves (it may be smaller than asked: pagination.ts, fetchPage).
			const { served } = reading;
			const size = scope.tuning.poll.pageSize;
			const { items, more, records } = await timedPage(scope, list, page, size, served, timer);
			Object.assign(reading, { served: Math.max(served, items.length), records });
			reading.pages++;
			reading.moved ||= records === undefined || (page > 1 && records !== length);
			length = records;
			takePage(reading, track, items, list, event, param);
			if (!more || items.length === 0) return true;
			if (limits.firstFound && reading.changes.length > 0) return false;
			// A list asked for newest first that is not: every page (the platform ignored the order).
			// A page is judged by its last item with a usable time; a page without one reads on (times.ts).
			if (list.newestFirst && !reading.unsorted) {
				const last = pageTime(event, items);
				const since = limits.since === 'newest' ? reading.newest : limits.since;
				if (last !== undefined && last < since) return false;
			}
		}
		return false;
	};
	const ended = await walk(1);
	if (
		!ended &&
		list.checkOrder &&
		!reading.unsorted &&
		!limits.firstFound &&
		(await outOfOrderBelow(scope, list, event, reading, track.previous))
	) {
		reading.unsorted = true;
		reading.cut = false;
		reading.whole = await walk(reading.pages + 1);
	} else reading.whole = ended;
	// A list whose envelope counts other than what was listed (a 200 with a short or empty page) is not whole.
	reading.whole &&= reading.records === undefined || reading.records === track.listed.size;
	return reading;
}

/** Reads until a reading adds nothing the earlier ones missed (see the file's comment), from the first reading. */
async function readSettled(
	scope: RunScope,
	list: PollList,
	event: PollEvent,
	param: ParamReader,
	since: number,
	first: Reading,
): Promise<Change<IDataObject>[]> {
	if (first.pages <= 1 || !first.moved) return first.changes;
	const all = first.changes;
	const keys = new Set(all.map((c) => c.key));
	for (let n = 2; n <= scope.tuning.poll.maxReadings; n++) {
		const again = await read(scope, list, event, param, { since });
		for (const id of again.ids ?? []) first.ids?.add(id);
		const before = all.length;
		for (const c of again.changes) {
			if (keys.has(c.key)) continue;
			keys.add(c.key);
			all.push(c);
		}
		if (all.length === before) break;
	}
	return all;
}

/** "Fetch Test Event": the newest matching item, without touching the cursor. */
export async function testItem(
	scope: RunScope,
	event: PollEvent,
	list: PollList,
	param: ParamReader,
): Promise<INodeExecutionData[][]> {
	list = await readyList(scope, list);
	const { changes } = await read(scope, list, event, param, {
		since: -1,
		maxPages: list.newestFirst ? scope.tuning.poll.testPages : undefined,
		firstFound: list.newestFirst,
	});
	const newest = changes.sort(byTime).pop();
	if (!newest) {
		throw new NodeOperationError(scope.ctx.getNode(), `No ${event.noun} matches this event yet`, {
			description: `Make the change in Business Platform (or check the event's filters), then click "Fetch Test Event" again. The trigger looked at the ${list.newestFirst ? `newest ${scope.tuning.poll.testPages * scope.tuning.poll.pageSize} ` : ''}items the platform lists.`,
		});
	}
	return [[{ json: newest.item }]];
}

/** What a poll found: the changes to deliver (oldest first), the cursor past them, and whether it read a backlog. */
export interface Found {
	fresh: Change<IDataObject>[];
	cursor: Cursor;
	/** The budget ran out before the cursor (or the cursor said so): the oldest part of the backlog was read. */
	backlog: boolean;
	/** The record IDs of a whole reading of the list (events that remember records); undefined when the poll read part of it. */
	listed?: Set<string>;
	/** The records of that whole reading without a usable time (times.ts): an event that remembers records compares them by content. */
	timeless?: IDataObject[];
}

/** A first poll's start: its cursor, and (events that remember records) the items it read and whether it read them all. */
export interface Start {
	cursor: Cursor;
	items: IDataObject[];
	complete: boolean;
}

/**
 * A first poll that starts from now: its cursor (the newest changes are done, nothing is
 * delivered). `seed` (an event that remembers what each record holds): every page once, as far
 * as the budget goes, and the items read.
 */
export async function readStartItems(
	scope: RunScope,
	event: PollEvent,
	list: PollList,
	param: ParamReader,
	seed?: Budget,
): Promise<Start> {
	// A remembering event reads every page once, so that no old change is announced as new later.
	const first = await read(scope, list, event, param, {
		since: event.remember || seed ? -1 : 'newest',
		until: seed,
	});
	if (first.unsorted) warnUnsorted(scope, list, first.pages);
	if (!first.timeless) warnUntimed(scope, list, first.untimed, 'they are not delivered');
	return {
		cursor: startCursor(first.changes, first.newest, event.remember),
		// Records without a usable time too: an event that remembers records compares them by content.
		items: seed ? first.changes.map((c) => c.item).concat(first.timeless ?? []) : [],
		complete: !first.cut && first.whole,
	};
}

/** What is new since `cursor` (an empty one: Emit Existing Items), within the budget. */
export async function readChanges(
	scope: RunScope,
	event: PollEvent,
	list: PollList,
	param: ParamReader,
	cursor: Cursor,
	budget: Budget,
): Promise<Found> {
	const { behind, ...from } = cursor;
	const limits = (maxPages?: number) => ({
		since: from.since,
		budget,
		maxPages,
		atSince: from.seen.length,
	});
	// A backlog read needs a list sorted newest first whose envelope gives its length (backlog.ts).
	const readable = (r: Reading) =>
		list.newestFirst && !r.unsorted && r.records !== undefined && r.served > 0;
	// Behind (backlog.ts): page 1 only, for the list's length, then the backlog with the whole budget.
	let first = await read(scope, list, event, param, limits(behind ? 1 : undefined));
	if (behind && !readable(first)) first = await read(scope, list, event, param, limits());
	const backlog = (first.cut || behind !== undefined) && readable(first);
	let changes = first.changes;
	let left: number | undefined;
	if (!backlog) changes = await readSettled(scope, list, event, param, from.since, first);
	else {
		const known = {
			pages: first.pages,
			served: first.served,
			records: first.records ?? 0,
			hint: behind,
		};
		const got = await readBacklog(
			scope,
			list,
			event,
			from.since,
			scope.tuning.poll.pageSize,
			known,
			budget,
		);
		changes = got ? addChanges([], got.items, event, param) : [];
		left = got?.complete ? undefined : (got?.stoppedAt ?? behind ?? 1);
	}
	if (first.unsorted) warnUnsorted(scope, list, first.pages);
	const fresh = newChanges(from, changes);
	const next = fresh.length === 0 ? from : advance(from, fresh, event.remember);
	const whole = !backlog && (!list.newestFirst || first.unsorted) && first.whole;
	const timeless = whole ? first.timeless : undefined;
	if (!timeless) warnUntimed(scope, list, first.untimed, 'they are not delivered');
	return {
		fresh,
		cursor: left ? { ...next, behind: left } : next,
		backlog,
		...(whole && first.ids ? { listed: first.ids } : {}),
		...(timeless ? { timeless } : {}),
	};
}
