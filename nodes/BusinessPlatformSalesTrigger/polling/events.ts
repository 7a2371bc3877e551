/**
 * The Sales Trigger's polling events (node version 4): Contact, Deal and Activity Changed, each a
 * PollEvent of the shared polling state machine (nodes/shared/polling/) that remembers what the
 * watched fields of each record hold (PollEvent.records; memory.ts) and makes its items with what
 * changed (compare.ts). Deals are listed whole at every poll, so a deal remembered and no longer
 * listed is asked for on its own: a 404 is its deletion. docs/polling-triggers.md, "Contacts,
 * deals and activities".
 */
import type { IDataObject } from 'n8n-workflow';

import { readFailure } from '../../shared/errors';
import { pageFits, type Budget } from '../../shared/polling/backlog';
import { changeTime, type Cursor } from '../../shared/polling/cursor';
import { RecordMemory } from '../../shared/polling/memory';
import type { ParamReader, PollEvent, PollList, RecordsHook } from '../../shared/polling/model';
import type { RunScope } from '../../shared/run-scope';
import { apiRequest } from '../../shared/transport';
import {
	deletedItem,
	ID_NOTICE,
	itemsOf,
	markedDeleted,
	keptOf,
	missing,
	printedOf,
	timelessItems,
	type DeliveredChange,
	type Watch,
} from './compare';
import {
	changeKey,
	RECORD_KINDS,
	recordId,
	type ChangeKind,
	type RecordKind,
	type RecordType,
} from './records';

/** The Events values of the polling events (saved in workflows, never changed). */
export const POLL_EVENT_VALUES: Record<RecordType, string> = {
	contact: 'POLL_CRM_CONTACTS',
	deal: 'POLL_CRM_DEALS',
	activity: 'POLL_CRM_ACTIVITIES',
};

/** Deals remembered and missing from a whole reading, asked for on their own per poll at most (the rest at the next). */
export const MAX_DELETION_CHECKS = 100;

/** Watched fields at most, and the longest name. */
export const MAX_WATCHED_FIELDS = 50;
const MAX_FIELD_NAME = 200;
/** Names n8n's deepCopy leaves out of an item downstream: refused as watched fields. */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const NAMES: Record<RecordType, string> = {
	contact: 'Contact',
	deal: 'Deal',
	activity: 'Activity',
};

/** The watched fields as the node holds them: a list (the picker), or a text of names separated by commas (an expression). */
export function watchedFields(raw: unknown, fail: (message: string) => Error): string[] {
	const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [];
	const names = [
		...new Set(list.map((f) => (typeof f === 'string' ? f.trim() : '')).filter(Boolean)),
	];
	if (names.length > MAX_WATCHED_FIELDS)
		throw fail(
			`Only When These Fields Change names ${names.length} fields; at most ${MAX_WATCHED_FIELDS}`,
		);
	const odd = names.find((n) => PROTOTYPE_KEYS.has(n));
	if (odd)
		throw fail(
			`The field name "${odd}" cannot be watched: n8n drops a key of that name when it copies an item, so previous would lose it`,
		);
	const long = names.find((n) => n.length > MAX_FIELD_NAME);
	if (long)
		throw fail(
			`The field name "${long.slice(0, 40)}…" is longer than ${MAX_FIELD_NAME} characters`,
		);
	return names;
}

/** The changes the node watches, of those the list can show. */
export function watchedChanges(raw: unknown, kind: RecordKind, fail: (message: string) => Error) {
	const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [];
	const picked = new Set(
		list
			.map((c) => (typeof c === 'string' ? c.trim() : ''))
			.filter((c): c is ChangeKind => (kind.changes as string[]).includes(c)),
	);
	if (picked.size === 0) throw fail(`Choose at least one of ${kind.changes.join(', ')} in Changes`);
	return picked;
}

/** Fails the poll with what is wrong and how to fix it (the node's error where the reader has one). */
const failWith = (param: ParamReader) => (message: string) =>
	param.dated?.fail(
		message,
		'Fix this field of the Business Platform Trigger, then save the workflow.',
	) ?? new Error(message);

/** The chosen pipeline of Deal Changed, or undefined (every pipeline). */
function pipelineOf(param: ParamReader): number | undefined {
	const raw = String(param('pipelineId', '') ?? '').trim();
	if (raw === '') return undefined;
	const id = Number(raw);
	if (!/^\d{1,15}$/.test(raw) || !Number.isSafeInteger(id))
		throw failWith(param)(
			`Pipeline must be a pipeline ID (a whole number), not "${raw.slice(0, 40)}"`,
		);
	return id;
}

function listOf(kind: RecordKind, param: ParamReader): PollList {
	const pipeline = kind.type === 'deal' ? pipelineOf(param) : undefined;
	const qs: IDataObject =
		kind.type === 'deal'
			? { show_closed_deals: true, ...(pipeline === undefined ? {} : { pipeline_id: pipeline }) }
			: { ...kind.newestFirst };
	return {
		// Reading a page changes nothing: a dropped connection may be retried.
		request: { method: 'GET', path: kind.path, qs, idempotent: true },
		style: kind.style,
		newestFirst: kind.newestFirst !== undefined,
		checkOrder: kind.newestFirst !== undefined,
	};
}

type Asked = { gone: true } | { gone: false; record: IDataObject } | undefined;

/** A deal on its own: gone (404), there (its record), or undefined when the platform did not say (the next poll asks again). */
async function askDeal(scope: RunScope, id: string, budget: Budget): Promise<Asked> {
	const began = budget.elapsed();
	try {
		const record = await apiRequest<unknown>(scope, { method: 'GET', path: `/v1/crm/deals/${id}` });
		if (record && typeof record === 'object' && recordId(record as IDataObject) === id)
			return (record as IDataObject).is_deleted === true
				? { gone: true }
				: { gone: false, record: record as IDataObject };
		// A 200 that is not this deal (an empty body, a maintenance page): not known; asked again.
		scope.ctx.logger?.warn?.(
			`Business Platform Trigger: GET /v1/crm/deals/${id} answered 200 without that deal; whether it was deleted is asked again at the next poll`,
		);
		return undefined;
	} catch (error) {
		if (readFailure(error).status === 404) return { gone: true };
		scope.ctx.logger?.warn?.(
			`Business Platform Trigger: could not tell whether deal ${id} was deleted (${(error as Error).message.slice(0, 200)}); the next poll asks again`,
		);
		return undefined;
	} finally {
		budget.slowest = Math.max(budget.slowest, budget.elapsed() - began);
	}
}

/**
 * The deletions among the remembered deals a whole reading did not list (P17): each asked for on
 * its own while the budget lasts; a 404 is a deletion; a deal still there (another pipeline than
 * the chosen one, or hidden from the list) is an update when it changed since the cursor, and is
 * forgotten either way.
 */
async function deletions(
	scope: RunScope,
	memory: RecordMemory,
	listed: ReadonlySet<string>,
	watch: Watch,
	from: Cursor,
	budget: Budget,
): Promise<{ items: DeliveredChange[]; asked: number }> {
	const out: DeliveredChange[] = [];
	let asked = 0;
	for (const id of missing(memory, listed)) {
		if (asked >= MAX_DELETION_CHECKS || !pageFits(budget)) break;
		asked++;
		const answer = await askDeal(scope, id, budget);
		if (!answer) break;
		if (answer.gone) {
			const item = deletedItem(id, memory, watch);
			if (item) out.push(item);
			continue;
		}
		const record = answer.record;
		const time = changeTime(record.updated_at);
		if (time !== undefined && time > from.since) {
			const moved = { key: changeKey(record, watch.kind), time, item: record };
			for (const item of itemsOf([moved], memory, watch, from)) out.push(item);
		} else if (time === undefined)
			for (const item of timelessItems([record], memory, watch, from).items) out.push(item);
		memory.delete(id);
	}
	return { items: out, asked };
}

/** Says once per poll how many items came with an ID the trigger cannot keep (n8n's log; each item's notice says it too). */
function warnIds(scope: RunScope, items: IDataObject[]): void {
	const odd = items.filter((i) => i.notice === ID_NOTICE).length;
	if (odd > 0)
		scope.ctx.logger?.warn?.(
			`Business Platform Trigger: ${odd} records came with an ID that is not a whole number below 2^53; they are delivered but not remembered (docs/polling-triggers.md)`,
		);
}

function hookOf(kind: RecordKind, param: ParamReader): RecordsHook {
	const fail = failWith(param);
	const fields = watchedFields(param('watchFields', []), fail);
	const changes = watchedChanges(param('changes', ['created', 'updated']), kind, fail);
	const watch: Watch = { kind, fields, changes };
	// Deals: their IDs at least (a deletion is a deal no longer listed); the others only what the fields need.
	const remembers = kind.type === 'deal' || fields.length > 0;
	return {
		fields,
		seed: remembers,
		start(items, complete, limit) {
			if (!remembers) return undefined;
			const memory = new RecordMemory(fields, new Map(), 0, !complete, 0, limit);
			for (const item of items) {
				const id = item.is_deleted === true ? undefined : recordId(item);
				// A deal without a time is remembered with its fingerprint: its next change is one of content.
				const timed = kind.type !== 'deal' || changeTime(item.updated_at) !== undefined;
				if (id !== undefined) memory.set(id, timed ? keptOf(item, fields) : printedOf(item, watch));
			}
			return memory;
		},
		async deliver({ scope, fresh, memory, from, listed, timeless, budget }) {
			const items: IDataObject[] = [];
			const live = markedDeleted(fresh, (c) => c.item, memory, watch, items);
			for (const item of itemsOf(live, memory, watch, from)) items.push(item);
			warnIds(scope, items);
			if (kind.type !== 'deal' || !memory || !listed) return { items, asked: 0 };
			const rest = markedDeleted(timeless ?? [], (r) => r, memory, watch, items);
			const byContent = timelessItems(rest, memory, watch, from);
			for (const item of byContent.items) items.push(item);
			if (byContent.unfollowed > 0)
				scope.ctx.logger?.warn?.(
					`Business Platform Trigger: ${byContent.unfollowed} deals without updated_at are not followed: the trigger's memory is past its bound and cannot tell a new deal from one it forgot (docs/polling-triggers.md)`,
				);
			const gone = await deletions(scope, memory, listed, watch, from, budget);
			for (const item of gone.items) items.push(item);
			return { items, asked: gone.asked };
		},
	};
}

function crmEvent(kind: RecordKind): PollEvent {
	const name = NAMES[kind.type];
	return {
		value: POLL_EVENT_VALUES[kind.type],
		name: `${name} Changed (Polling)`,
		description: `A ${kind.type} is ${kind.changes.join(', ').replace(/, (\w+)$/, ' or $1')}: checked every minute, each change once, no public address needed`,
		noun: kind.type,
		list: (param) => listOf(kind, param),
		time: (r) => changeTime(r.updated_at),
		key: (r) => changeKey(r, kind),
		recordId,
		records: (param) => hookOf(kind, param),
	};
}

export const CRM_POLL_EVENTS: PollEvent[] = [
	crmEvent(RECORD_KINDS.contact),
	crmEvent(RECORD_KINDS.deal),
	crmEvent(RECORD_KINDS.activity),
];

/** The polling event of an Events value, if it is one. */
export const crmPollEvent = (value: unknown): PollEvent | undefined =>
	CRM_POLL_EVENTS.find((e) => e.value === value);
