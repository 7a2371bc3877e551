/**
 * What a polling trigger remembers between polls, and the pure rule that decides which changes
 * are new. No request, no n8n: the poll reads the list (read.ts, backlog.ts), this file decides.
 *
 * A change is one record at one moment: its `key` (for "created" the record ID, for "updated"
 * the ID and the update time, for a payrun state the ID and what changed) and its `time` (in
 * milliseconds). The cursor says: every change older than `since` is done, and so is every
 * change whose key is in `seen` (all of them at `since` or later). So:
 * - two changes with the same time are both delivered (the second one's key is not in `seen`);
 * - the cursor only grows by the changes of one timestamp (`seen` keeps the keys at `since`,
 *   never every ID ever seen). It keeps every one of them, however many share the timestamp: a
 *   key left out would count as new at the next poll and be delivered again. Its size is the
 *   platform's (how many records one timestamp holds), not a bound of the pack's;
 * - a change is new when it is at `since` or later and its key is not in `seen`.
 */
export const CURSOR_VERSION = 1;

export interface Change<T = unknown> {
	key: string;
	/** The change's time in milliseconds since 1970. */
	time: number;
	item: T;
}

export interface Cursor {
	v: typeof CURSOR_VERSION;
	/** Changes older than this (milliseconds) are done; -1 before anything was seen. */
	since: number;
	/** Keys of the changes at `since` or later that are done. */
	seen: string[];
	/** Events that remember (model.ts `remember`): keys of the last changes delivered, whatever their time. */
	recent?: string[];
	/** A backlog is left to read (polling/backlog.ts): the next poll reads it first, from this page on. */
	behind?: number;
}

/**
 * The most keys a remembering cursor keeps of the last changes delivered: those of the newest
 * changes (by their time), so that a change of a recent record is never announced again.
 */
export const MAX_RECENT = 1000;

/**
 * The time a platform field gives, or undefined when it gives none: missing, not a date, or
 * the zero time the platform writes for "not yet" (0001-01-01T00:00:00Z).
 */
export function changeTime(value: unknown): number | undefined {
	if (typeof value !== 'string' || value.trim() === '' || !realDate(value)) return undefined;
	const ms = Date.parse(value);
	return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/** Whether a text's leading year-month-day, if it has one, is a day of the calendar: Date.parse reads 2024-02-30 as 1 March. */
function realDate(text: string): boolean {
	const ymd = /^\s*(\d{4})-(\d{2})-(\d{2})/.exec(text);
	if (!ymd) return true;
	const [year, month, day] = [Number(ymd[1]), Number(ymd[2]), Number(ymd[3])];
	return (
		month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate()
	);
}

/** A cursor read back from static data, or undefined when there is none (or it is not one this code wrote). */
export function readCursor(stored: unknown): Cursor | undefined {
	if (!stored || typeof stored !== 'object') return undefined;
	const c = stored as Partial<Cursor>;
	if (
		c.v !== CURSOR_VERSION ||
		typeof c.since !== 'number' ||
		!Number.isFinite(c.since) ||
		!Array.isArray(c.seen)
	)
		return undefined;
	const keys = (list: unknown[]) => list.filter((k): k is string => typeof k === 'string');
	return {
		v: CURSOR_VERSION,
		since: c.since,
		seen: keys(c.seen),
		...(Array.isArray(c.recent) ? { recent: keys(c.recent) } : {}),
		...(typeof c.behind === 'number' && Number.isSafeInteger(c.behind) && c.behind >= 1
			? { behind: c.behind }
			: {}),
	};
}

/** Oldest first; changes of one time in key order, so the output order is the same on every poll. */
export const byTime = <T>(a: Change<T>, b: Change<T>) =>
	a.time - b.time || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Keeps one change per key (a record listed twice while the list moved). */
function unique<T>(changes: Array<Change<T>>): Array<Change<T>> {
	const byKey = new Map<string, Change<T>>();
	for (const c of changes) if (!byKey.has(c.key)) byKey.set(c.key, c);
	return [...byKey.values()];
}

/**
 * The cursor of a first poll that starts from now: every change listed is done, and so is
 * everything older than the newest item listed (`newest`, the time of any item of the list,
 * a change of this event or not: -1 when the list is empty).
 */
export function startCursor(changes: Change[], newest: number, remember = false): Cursor {
	const done = advance({ v: CURSOR_VERSION, since: -1, seen: [] }, changes, remember);
	return newest > done.since ? { ...done, since: newest, seen: [] } : done;
}

/** The changes not yet delivered, oldest first. */
export function newChanges<T>(cursor: Cursor, changes: Array<Change<T>>): Array<Change<T>> {
	const seen = new Set([...cursor.seen, ...(cursor.recent ?? [])]);
	return unique(changes)
		.filter((c) => c.time >= cursor.since && !seen.has(c.key))
		.sort(byTime);
}

/**
 * The cursor after `done` were delivered: `since` moves to the newest time delivered and
 * `seen` keeps the keys at that time (with those already there when `since` did not move).
 */
export function advance(cursor: Cursor, done: Change[], remember = false): Cursor {
	// A loop, not Math.max(...): a poll may find 10^5 changes and more (a bulk import), past what a call's arguments hold.
	let newest = -Infinity;
	for (const c of done) if (c.time > newest) newest = c.time;
	if (done.length === 0 || newest < cursor.since) return cursor;
	const seen = new Set(newest === cursor.since ? cursor.seen : []);
	for (const c of done) if (c.time === newest) seen.add(c.key);
	const next: Cursor = { v: CURSOR_VERSION, since: newest, seen: [...seen] };
	// Oldest first, so that the newest keys are the ones kept (a first poll lists newest first).
	if (remember) {
		const recent = new Set(cursor.recent);
		for (const c of [...done].sort(byTime)) recent.add(c.key);
		next.recent = [...recent].slice(-MAX_RECENT);
	}
	return next;
}
