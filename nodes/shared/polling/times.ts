/**
 * Which change times a poll can use (read.ts reads the list with them): a record without one
 * (missing, not a date) or with one more than a day past n8n's clock ("9999-12-31", a platform
 * clock gone wrong) is not a change a cursor may move to. A page is judged by its last item that
 * has a time; a page where none has one does not end a reading. Such records are counted, and a
 * poll says once in n8n's log how many it met. docs/polling-triggers.md, "Records without a
 * usable time".
 */
import type { IDataObject } from 'n8n-workflow';

import type { RunScope } from '../run-scope';
import type { PollEvent, PollList } from './model';

/** A change time further than this past n8n's clock is not usable. */
export const MAX_AHEAD_MS = 24 * 60 * 60 * 1000;

/** The event with its times bounded by n8n's clock at the poll's start (`now`). */
export function withUsableTimes(event: PollEvent, now: number): PollEvent {
	const latest = now + MAX_AHEAD_MS;
	return {
		...event,
		time: (item) => {
			const time = event.time(item);
			return time !== undefined && time > latest ? undefined : time;
		},
	};
}

/** An item's time on the list's sort order (changes and non-changes alike), if it has one. */
export const sortTime = (event: PollEvent, item: IDataObject) =>
	item && typeof item === 'object' ? event.time(item) : undefined;

/** The time of the last item of a page that has one (where a newest-first reading may stop), or undefined. */
export function pageTime(event: PollEvent, items: IDataObject[]): number | undefined {
	for (let i = items.length - 1; i >= 0; i--) {
		const time = sortTime(event, items[i]);
		if (time !== undefined) return time;
	}
	return undefined;
}

/** Says once per poll how many records of the list had no usable time (n8n's log). */
export function warnUntimed(scope: RunScope, list: PollList, count: number, then: string): void {
	if (count <= 0) return;
	scope.ctx.logger?.warn?.(
		`Business Platform: ${count} items of ${list.request.method} ${list.request.path} have no usable change time (none, not a date, or more than a day past n8n's clock); ${then} (docs/polling-triggers.md)`,
	);
}

/** Says once per poll that a list asked for newest first came in another order (n8n's log). */
export function warnUnsorted(scope: RunScope, list: PollList, pages: number): void {
	scope.ctx.logger?.warn?.(
		`Business Platform: ${list.request.method} ${list.request.path} did not list the newest change first, as asked; this poll read the whole list (${pages} pages) instead`,
	);
}
