/**
 * What the Sales Trigger's polling events deliver for the changes a poll found: each new change
 * (the cursor decided it is new: shared/polling/cursor.ts) compared with what the trigger remembers
 * of its record (shared/polling/memory.ts), as one item with what changed and the values before;
 * or nothing, when it is not a change the node watches. Pure: the memory is updated here and
 * written back by the state machine with the cursor. docs/polling-triggers.md, "Contacts, deals
 * and activities".
 */
import type { IDataObject } from 'n8n-workflow';

import { changeTime, type Change } from '../../shared/polling/cursor';
import { changesOf, keep, type Kept, type RecordMemory } from '../../shared/polling/memory';
import {
	fieldValue,
	fingerprint,
	keyId,
	recordId,
	type ChangeKind,
	type RecordKind,
} from './records';

export interface Watch {
	kind: RecordKind;
	/** Only When These Fields Change: none, every update counts (and nothing is kept for contacts and activities). */
	fields: string[];
	/** The changes that start the workflow. */
	changes: ReadonlySet<ChangeKind>;
}

/** Where the cursor stood when the poll began: its time, and the records it delivered at that time. */
export interface Position {
	since: number;
	seen: readonly string[];
}

export interface DeliveredChange extends IDataObject {
	change: ChangeKind;
	recordType: string;
	id: IDataObject['id'];
	changedAt: string | null;
	changedFields: string[] | null;
	previous: IDataObject | null;
	record: IDataObject | null;
}

/** The watched fields of a record, as the memory keeps them. */
export const keptOf = (record: IDataObject, fields: string[]): Kept[] =>
	fields.map((f) => keep(fieldValue(record, f)));

/** Why what changed is not known, for a record the memory does not hold (undefined: nothing is kept at all). */
function unknownBecause(memory: RecordMemory | undefined): string | undefined {
	if (!memory) return undefined;
	if (memory.forgotten > 0)
		return `The trigger does not remember this record: its memory holds the records changed most recently and forgot ${memory.forgotten} to stay within its bound (docs/polling-triggers.md), or the record was not listed before. What changed, and the values before, are not known.`;
	if (memory.partial)
		return 'The trigger does not remember this record: its first poll could not read every record within the poll budget, or the record was not listed before. What changed, and the values before, are not known.';
	return 'The trigger did not see this record before (it was not listed, for example in another pipeline): what changed, and the values before, are not known.';
}

/**
 * Whether a record the memory does not hold was created since the cursor: created after its time,
 * or at its very time and not among what was delivered then.
 */
function isCreated(record: IDataObject, from: Position, seenIds: ReadonlySet<string>): boolean {
	const created = changeTime(record.created_at);
	if (created === undefined) return false;
	return created > from.since || (created === from.since && !seenIds.has(recordId(record) ?? ''));
}

/** The newest change of each record, oldest first: several edits between two polls are one item. */
function newestPerRecord(fresh: Array<Change<IDataObject>>): Array<Change<IDataObject>> {
	const last = new Map<string, number>();
	fresh.forEach((c, i) => last.set(recordId(c.item) ?? `\u0000${i}`, i));
	return fresh.filter((c, i) => last.get(recordId(c.item) ?? `\u0000${i}`) === i);
}

/**
 * The items of a poll's new changes (oldest first), and the memory moved past them: every change
 * is remembered, whether it starts the workflow or not.
 */
export function itemsOf(
	fresh: Array<Change<IDataObject>>,
	memory: RecordMemory | undefined,
	watch: Watch,
	from: Position,
): DeliveredChange[] {
	const seenIds = new Set(from.seen.map(keyId));
	const items: DeliveredChange[] = [];
	const { fields } = watch;
	for (const { item: record } of newestPerRecord(fresh)) {
		const id = recordId(record);
		const now = keptOf(record, fields);
		const before = id === undefined ? undefined : memory?.get(id);
		if (id !== undefined) memory?.set(id, now);
		const base = {
			recordType: watch.kind.type,
			id: record.id,
			changedAt: typeof record.updated_at === 'string' ? record.updated_at : null,
		};
		if (before) {
			const diff = changesOf(fields, before, now);
			if (!watch.changes.has('updated') || (fields.length > 0 && !diff.changedFields.length))
				continue;
			items.push({
				change: 'updated',
				...base,
				changedFields: fields.length ? diff.changedFields : null,
				previous: fields.length ? diff.previous : null,
				...(diff.previousNotKept.length ? { previousNotKept: diff.previousNotKept } : {}),
				record,
			});
			continue;
		}
		const created = isCreated(record, from, seenIds);
		if (!watch.changes.has(created ? 'created' : 'updated')) continue;
		const notice = id === undefined ? ID_NOTICE : created ? undefined : unknownBecause(memory);
		items.push({
			change: created ? 'created' : 'updated',
			...base,
			changedFields:
				created && fields.length ? fields.filter((f) => fieldValue(record, f).present) : null,
			previous: created && fields.length ? {} : null,
			...(notice && (fields.length || id === undefined) ? { notice } : {}),
			record,
		});
	}
	return items;
}

/** The notice of an item whose record ID the trigger cannot keep. */
export const ID_NOTICE =
	'The record has no ID the trigger can keep (a whole number below 2^53: past it JSON loses digits): it is not remembered, so what changed, the values before and (deals) its deletion are not known.';

/**
 * Records the platform marks `is_deleted: true` (DealResponse has the field): a deletion item for
 * each one remembered (then forgotten), into `into`; the other entries of `list` are returned.
 */
export function markedDeleted<T>(
	list: T[],
	recordOf: (entry: T) => IDataObject,
	memory: RecordMemory | undefined,
	watch: Watch,
	into: IDataObject[],
): T[] {
	const rest: T[] = [];
	for (const entry of list) {
		const record = recordOf(entry);
		if (record.is_deleted !== true) {
			rest.push(entry);
			continue;
		}
		const id = recordId(record);
		const item = id !== undefined && memory?.has(id) ? deletedItem(id, memory, watch) : undefined;
		if (item) into.push(item);
	}
	return rest;
}

/** A record's kept values with its fingerprint after them: how a record without a usable time is remembered. */
export const printedOf = (record: IDataObject, watch: Watch): Kept[] =>
	keptOf(record, watch.fields).concat([[0, fingerprint(record, watch.kind)]]);

/**
 * The items of the records of a whole reading that have no usable time (a deal as the spec's
 * DealResponse gives it, without `updated_at`): a record whose fingerprint differs from the one
 * remembered is a change; one remembered without a fingerprint (listed with a time before) gets
 * one, and no item. A record not remembered is new, unless the memory forgot records past its
 * bound (it may be one of them): it is then not followed, and counted in `unfollowed`.
 */
export function timelessItems(
	records: IDataObject[],
	memory: RecordMemory,
	watch: Watch,
	from: Position,
): { items: DeliveredChange[]; unfollowed: number } {
	const items: DeliveredChange[] = [];
	let unfollowed = 0;
	const at = watch.fields.length;
	for (const record of records) {
		const id = recordId(record);
		if (id === undefined) continue;
		const now = printedOf(record, watch);
		const before = memory.get(id);
		if (before && before.length > at && JSON.stringify(before[at]) === JSON.stringify(now[at]))
			continue;
		if (!before && memory.forgotten > 0) {
			unfollowed++;
			continue;
		}
		if (before && before.length <= at) {
			memory.set(id, now);
			continue;
		}
		const change = { key: `${id}@#${String(now[at][1])}`, time: -1, item: record };
		for (const item of itemsOf([change], memory, watch, from)) items.push(item);
		memory.set(id, now);
	}
	return { items, unfollowed };
}

/** The remembered records no reading of a whole list showed: deleted, or moved where the list does not look. */
export function missing(memory: RecordMemory, listed: ReadonlySet<string>): string[] {
	const out: string[] = [];
	for (const id of memory.ids()) if (!listed.has(id)) out.push(id);
	return out;
}

/** The item of a deletion the platform confirmed (404); the record is forgotten. */
export function deletedItem(
	id: string,
	memory: RecordMemory,
	watch: Watch,
): DeliveredChange | undefined {
	const before = memory.get(id);
	memory.delete(id);
	if (!watch.changes.has('deleted')) return undefined;
	const { fields } = watch;
	const diff = before
		? changesOf(
				fields,
				before,
				fields.map(() => [] as Kept),
			)
		: undefined;
	return {
		change: 'deleted',
		recordType: watch.kind.type,
		id: Number.isSafeInteger(Number(id)) ? Number(id) : id,
		changedAt: null,
		changedFields: fields.length && diff ? diff.changedFields : null,
		previous: fields.length && diff ? diff.previous : null,
		...(diff?.previousNotKept.length ? { previousNotKept: diff.previousNotKept } : {}),
		record: null,
	};
}

/**
 * The test button's item (a manual run): the newest record the list holds, shaped as a delivery.
 * Created when it was never updated; what changed and the values before come with real polls.
 */
export function sampleItem(record: IDataObject, kind: RecordKind): DeliveredChange {
	const created = changeTime(record.created_at);
	return {
		change:
			created !== undefined && created === changeTime(record.updated_at) ? 'created' : 'updated',
		recordType: kind.type,
		id: record.id,
		changedAt: typeof record.updated_at === 'string' ? record.updated_at : null,
		changedFields: null,
		previous: null,
		notice:
			'A test event: the newest record of the list as it is now. Once the workflow is published, each change comes once, with changedFields and previous for the watched fields.',
		record,
	};
}
