/**
 * One poll of a polling trigger: read the event's list, keep the changes the cursor has not
 * seen, hand them to n8n oldest first, and move the cursor past them.
 *
 * Exactly once rests on four things:
 * - The cursor (cursor.ts) lives in the workflow's static data and is changed in the same call
 *   that returns the items. n8n saves static data when it starts the execution of those items
 *   (`__emit` → saveStaticData) and never when the poll fails; a poll that throws returns
 *   nothing and leaves the cursor as it was, so the next poll reads the same changes again.
 * - A list read page by page can move underneath (a record deleted while the poll pages shifts
 *   the rest up one place, so one record is never listed). A poll that read more than one
 *   page, and saw the list move (its length, as the envelope gives it, changed between pages,
 *   or one item came on two pages; a list whose envelope gives no length always counts as
 *   moved), reads it again until a reading finds nothing the earlier ones missed (at most
 *   POLL.maxReadings), and delivers what all readings found.
 * - One poll of a node at a time: n8n starts a poll at every Poll Time without waiting for the
 *   last one, so a poll claims the node in its static data and a poll that finds the claim
 *   delivers nothing (n8n-internals, 6). Under n8n's durable scheduler, where each poll has its
 *   own static data, two polls may also start from one cursor (a task run again beside the next
 *   one, or a poll that loads the cursor before the last delivery's commit lands): in one process
 *   the later one delivers nothing (n8n-internals, 10).
 * - The cursor belongs to one trigger as the user saved it: the event, the saved values of the
 *   fields its list reads (an expression as written, not what it gives: `$now` in a filter gives
 *   another value at every poll) and the account (the credential, its base URLs and tenant).
 *   After a change of any of them, the next poll starts again as a first poll.
 */
import type { IDataObject, INode, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fetchPage, PAGE_SIZE, PAGING } from '../pagination';
import type { RunScope } from '../run-scope';
import { credentialAccount } from '../transport';
import {
	beginPollTurn,
	claimPoll,
	commitOwnCursor,
	endPollTurn,
	holdsPoll,
	holdsTurn,
	pollBudget,
	releasePoll,
	type PollClaimHolder,
} from '../n8n-internals';
import { readBacklog, roomLeft, timedPage, type Budget } from './backlog';
import {
	advance,
	byTime,
	newChanges,
	readCursor,
	startCursor,
	type Change,
	type Cursor,
} from './cursor';
import type { ParamReader, PollEvent, PollList } from './model';

export const POLL = {
	/** Items asked for per page. */
	pageSize: PAGE_SIZE,
	/** Readings of a list that moved while it was paged, at most, per poll. */
	maxReadings: 3,
	/** Pages "Fetch Test Event" looks through for a matching item. */
	testPages: 5,
	/** The clock a poll measures its budget with (milliseconds). */
	now: (): number => Date.now(),
};

export interface PollOptions {
	/** First poll: deliver the items that already exist instead of starting from now. */
	emitExisting: boolean;
}

interface Stored extends PollClaimHolder {
	cursor?: unknown;
	/** Which event and list the cursor belongs to. */
	of?: unknown;
}

/** The changes on one page of the list (items that are not this event's change are left out). */
function changesOf(
	items: IDataObject[],
	event: PollEvent,
	param: ParamReader,
): Change<IDataObject>[] {
	const out: Change<IDataObject>[] = [];
	for (const item of items) {
		if (!item || typeof item !== 'object') continue;
		const time = event.time(item);
		if (time === undefined || (event.is && !event.is(item, param))) continue;
		out.push({ key: event.key(item), time, item });
	}
	return out;
}

/** An item's time on the list's sort order (changes and non-changes alike): where paging may stop. */
const sortTime = (event: PollEvent, item: IDataObject) =>
	item && typeof item === 'object' ? event.time(item) : undefined;

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
}

/** One reading of the list: every page, or (newest first) the pages down to the first item older than `since`. */
async function read(
	scope: RunScope,
	list: PollList,
	event: PollEvent,
	param: ParamReader,
	limits: ReadLimits,
): Promise<Reading> {
	const reading: Reading = {
		changes: [],
		pages: 0,
		moved: false,
		newest: -1,
		cut: false,
		served: 0,
	};
	const listed = new Set<string>();
	let length: number | undefined;
	// The page size the platform really serves (it may be smaller than asked: pagination.ts, fetchPage).
	let served = 0;
	const budget = limits.budget;
	for (let page = 1; page <= (limits.maxPages ?? Number.MAX_SAFE_INTEGER); page++) {
		if (page > PAGING.maxPages) {
			// A poll that fails delivers nothing and keeps its cursor: better than a part of the changes taken for all.
			throw new NodeOperationError(
				scope.ctx.getNode(),
				`The list did not end after ${PAGING.maxPages} pages`,
				{
					description: `The platform kept answering full pages of ${list.request.method} ${list.request.path}. The poll delivered nothing and will read the list again at the next poll time.`,
				},
			);
		}
		// A backlog read needs a list sorted newest first whose envelope gives its length; it gets
		// half the budget, and at least the pages it needs to deliver without a mark (backlog.ts).
		if (
			page > 1 &&
			budget &&
			list.newestFirst &&
			length !== undefined &&
			!roomLeft(budget, length, served, limits.atSince ?? 0)
		) {
			reading.cut = true;
			break;
		}
		const { items, more, records } = budget
			? await timedPage(scope, list, page, POLL.pageSize, served, budget)
			: await fetchPage(scope, list.request, list.style, page, POLL.pageSize, served);
		served = Math.max(served, items.length);
		Object.assign(reading, { served, records });
		reading.pages++;
		reading.moved ||= records === undefined || (page > 1 && records !== length);
		length = records;
		reading.changes.push(...changesOf(items, event, param));
		for (const item of items) {
			if (!item || typeof item !== 'object') continue;
			reading.newest = Math.max(reading.newest, sortTime(event, item) ?? -1);
			const key = event.key(item);
			reading.moved ||= listed.has(key);
			listed.add(key);
		}
		if (!more || items.length === 0 || (limits.firstFound && reading.changes.length > 0)) break;
		if (list.newestFirst) {
			const last = sortTime(event, items[items.length - 1]);
			if (last === undefined || last < (limits.since === 'newest' ? reading.newest : limits.since))
				break;
		}
	}
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
	const all = [...first.changes];
	const keys = new Set(all.map((c) => c.key));
	for (let n = 2; n <= POLL.maxReadings; n++) {
		const again = await read(scope, list, event, param, { since });
		const missed = again.changes.filter((c) => !keys.has(c.key));
		if (missed.length === 0) break;
		for (const c of missed) keys.add(c.key);
		all.push(...missed);
	}
	return all;
}

/** A saved parameter value as the owner compares it: a picker's value without what the picker shows (its cached name, its mode). */
function savedValue(value: unknown): unknown {
	if (value === null || typeof value !== 'object') return value;
	if (Array.isArray(value)) return value.map(savedValue);
	const object = value as IDataObject;
	if (object.__rl === true) return { __rl: savedValue(object.value) };
	return Object.fromEntries(
		Object.keys(object)
			.sort()
			.map((k) => [k, savedValue(object[k])]),
	);
}

/**
 * Which trigger a cursor belongs to (see the file's comment): the event, the saved values of the
 * parameters its list read (`read`), and the account.
 */
function ownerOf(node: INode, event: PollEvent, read: Iterable<string>, account: string): string {
	const saved = [...new Set(read)]
		.sort()
		.map((name) => [
			name,
			savedValue(
				Object.prototype.hasOwnProperty.call(node.parameters, name) ? node.parameters[name] : null,
			),
		]);
	return JSON.stringify(['v2', event.value, saved, account]);
}

/** The owner cursors had before the owner above (the evaluated request): such a cursor is carried over once, not dropped. */
function formerOwnerOf(event: PollEvent, list: PollList): string {
	const { method, path, qs, body } = list.request;
	return JSON.stringify([event.value, method, path, qs ?? {}, body ?? null]);
}

/** The event's list, and the owner of its cursor: the event reads its fields through a reader that notes their names. */
async function listAndOwner(
	scope: RunScope<IPollFunctions>,
	event: PollEvent,
	param: ParamReader,
): Promise<{ list: PollList; owner: string; former: string }> {
	const read = new Set<string>(['event']);
	const list = event.list((name, fallback) => {
		read.add(name);
		return param(name, fallback);
	});
	return {
		list,
		owner: ownerOf(scope.node, event, read, await credentialAccount(scope)),
		former: formerOwnerOf(event, list),
	};
}

/** "Fetch Test Event": the newest matching item, without touching the cursor. */
async function testItem(
	scope: RunScope,
	event: PollEvent,
	list: PollList,
	param: ParamReader,
): Promise<INodeExecutionData[][]> {
	const { changes } = await read(scope, list, event, param, {
		since: -1,
		maxPages: list.newestFirst ? POLL.testPages : undefined,
		firstFound: list.newestFirst,
	});
	const newest = changes.sort(byTime).pop();
	if (!newest) {
		throw new NodeOperationError(scope.ctx.getNode(), `No ${event.noun} matches this event yet`, {
			description: `Make the change in Business Platform (or check the event's filters), then click "Fetch Test Event" again. The trigger looked at the ${list.newestFirst ? `newest ${POLL.testPages * POLL.pageSize} ` : ''}items the platform lists.`,
		});
	}
	return [[{ json: newest.item }]];
}

/** One poll (this of the node's `poll`). Returns null when nothing changed, or when another poll of the node runs. */
export async function pollOnce(
	scope: RunScope<IPollFunctions>,
	event: PollEvent,
	param: ParamReader,
	options: PollOptions,
): Promise<INodeExecutionData[][] | null> {
	const ctx = scope.ctx;
	if (ctx.getMode() === 'manual') return await testItem(scope, event, event.list(param), param);
	const stored = ctx.getWorkflowStaticData('node') as Stored;
	const before = JSON.stringify([stored.cursor, stored.of]);
	// One poll of the node at a time, and none from a cursor a delivery may not have moved yet
	// (n8n-internals, 6 and 10).
	const turn = beginPollTurn(ctx, before, POLL.now());
	if (!turn) return null;
	const claim = claimPoll(ctx, stored);
	if (!claim) {
		endPollTurn(turn, false, POLL.now());
		return null;
	}
	let result: INodeExecutionData[][] | null = null;
	try {
		const { list, owner, former } = await listAndOwner(scope, event, param);
		const mine = stored.of === owner || (stored.of === former && typeof stored.of === 'string');
		const found = await readChanges(
			scope,
			event,
			list,
			param,
			mine ? readCursor(stored.cursor) : undefined,
			{ ...options, budget: budgetOf(ctx) },
		);
		// A poll that lost its claim (it ran past n8n's poll budget and a later poll took over) delivers nothing.
		if (!holdsPoll(stored, claim) || !holdsTurn(turn)) return null;
		stored.cursor = found.cursor;
		stored.of = owner;
		if (found.fresh.length > 0) result = [found.fresh.map((c) => ({ json: c.item }))];
	} finally {
		releasePoll(stored, claim);
		endPollTurn(turn, result !== null, POLL.now());
	}
	// With durable cursors n8n may not commit what a poll without items changed (n8n-internals, 7).
	if (result === null && JSON.stringify([stored.cursor, stored.of]) !== before)
		await commitOwnCursor(ctx);
	return result;
}

/** The poll's budget where n8n gives one (getPollBudgetMs; n8n-internals, 6), measured from now. */
function budgetOf(ctx: IPollFunctions): Budget | undefined {
	const limit = pollBudget(ctx);
	if (limit === undefined) return undefined;
	const began = POLL.now();
	return { elapsed: () => POLL.now() - began, limit, slowest: 0 };
}

/** What a poll found from the stored cursor (undefined: a first poll): the changes to deliver (oldest first) and the cursor past them. */
async function readChanges(
	scope: RunScope<IPollFunctions>,
	event: PollEvent,
	list: PollList,
	param: ParamReader,
	cursor: Cursor | undefined,
	options: PollOptions & { budget?: Budget },
): Promise<{ fresh: Change<IDataObject>[]; cursor: Cursor }> {
	if (!cursor && !options.emitExisting) {
		// First poll, starting from now: the newest changes are done, nothing is delivered.
		// A remembering event reads every page once, so that no old change is announced as new later.
		const first = await read(scope, list, event, param, { since: event.remember ? -1 : 'newest' });
		return { fresh: [], cursor: startCursor(first.changes, first.newest, event.remember) };
	}
	const { behind, ...from } = cursor ?? startCursor([], -1);
	const { budget } = options;
	// Behind (backlog.ts): page 1 only, for the list's length, then the backlog with the whole budget.
	const maxPages = behind && budget ? 1 : undefined;
	const first = await read(scope, list, event, param, {
		since: from.since,
		budget,
		maxPages,
		atSince: from.seen.length,
	});
	let changes = first.changes;
	let left: number | undefined;
	if (!first.cut && !maxPages)
		changes = await readSettled(scope, list, event, param, from.since, first);
	else if (budget && list.newestFirst && first.records !== undefined && first.served > 0) {
		// The budget ran out before the cursor (or did at the last poll): the oldest part of the backlog.
		const known = {
			pages: first.pages,
			served: first.served,
			records: first.records,
			hint: behind,
		};
		const backlog = await readBacklog(scope, list, event, from.since, POLL.pageSize, known, budget);
		changes = backlog ? changesOf(backlog.items, event, param) : [];
		left = backlog?.complete ? undefined : (backlog?.stoppedAt ?? behind ?? 1);
	}
	const fresh = newChanges(from, changes);
	const next = fresh.length === 0 ? from : advance(from, fresh, event.remember);
	return { fresh, cursor: left ? { ...next, behind: left } : next };
}
