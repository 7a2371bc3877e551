/**
 * What the Sales Trigger's polling events deliver for the changes a poll found
 * (nodes/BusinessPlatformSalesTrigger/polling/compare.ts, records.ts), pure: created or updated,
 * the watched fields (custom fields too) and their values before, absent and null told apart,
 * several edits between two polls as one item, a deletion, the changes a node leaves out, and
 * field names that are prototype keys.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	deletedItem,
	itemsOf,
	keptOf,
	missing,
	type Watch,
} from '../../nodes/BusinessPlatformSalesTrigger/polling/compare';
import {
	changeKey,
	fieldValue,
	fingerprint,
	keyId,
	RECORD_KINDS,
	recordId,
} from '../../nodes/BusinessPlatformSalesTrigger/polling/records';
import { RecordMemory } from '../../nodes/shared/polling/memory';
import type { Change } from '../../nodes/shared/polling/cursor';
import { pollingAlternative } from '../../nodes/BusinessPlatformSalesTrigger/events';
import { PROTOTYPE_KEYS } from '../helpers/property';

const T0 = Date.parse('2026-12-04T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

const deal = (id: number, at: number, extra: IDataObject = {}, created = T0 - 60_000) => ({
	id,
	name: `Deal ${id}`,
	stage_id: 1,
	amount: 100,
	created_at: iso(created),
	updated_at: iso(at),
	...extra,
});
const change = (record: IDataObject): Change<IDataObject> => ({
	key: changeKey(record, RECORD_KINDS.deal),
	time: Date.parse(String(record.updated_at)),
	item: record,
});
const watch = (fields: string[], changes = ['created', 'updated', 'deleted']): Watch => ({
	kind: RECORD_KINDS.deal,
	fields,
	changes: new Set(changes) as Watch['changes'],
});
const from = { since: T0, seen: [] as string[] };

describe('created or updated', () => {
	it('a record created after the cursor is created; one created before, updated; with nothing kept, changedFields and previous are null', () => {
		const items = itemsOf(
			[change(deal(1, T0 + 1000, {}, T0 + 500)), change(deal(2, T0 + 2000))],
			undefined,
			watch([]),
			from,
		);
		expect(items.map((i) => [i.id, i.change, i.changedFields, i.previous])).toEqual([
			[1, 'created', null, null],
			[2, 'updated', null, null],
		]);
	});

	it('created at the cursor’s very time: created unless the cursor delivered that record then', () => {
		const record = deal(3, T0, {}, T0);
		expect(itemsOf([change(record)], undefined, watch([]), from)[0].change).toBe('created');
		const seen = {
			since: T0,
			seen: [changeKey(deal(3, T0, { amount: 1 }, T0), RECORD_KINDS.deal)],
		};
		expect(itemsOf([change(record)], undefined, watch([]), seen)[0].change).toBe('updated');
	});

	it('several edits of one record found in one poll are one item, with the record as the newest edit left it', () => {
		const items = itemsOf(
			[change(deal(4, T0 + 1000, { stage_id: 2 })), change(deal(4, T0 + 3000, { stage_id: 3 }))],
			undefined,
			watch([]),
			from,
		);
		expect(items).toHaveLength(1);
		expect(items[0].record).toMatchObject({ stage_id: 3 });
	});
});

describe('only when these fields change', () => {
	it('an update that leaves the watched fields as they were starts nothing; one that changes them says what and what before', () => {
		const memory = new RecordMemory(['stage_id', 'amount']);
		memory.set('5', keptOf(deal(5, T0), ['stage_id', 'amount']));
		const w = watch(['stage_id', 'amount']);
		expect(itemsOf([change(deal(5, T0 + 1000, { name: 'Renamed' }))], memory, w, from)).toEqual([]);
		const [item] = itemsOf([change(deal(5, T0 + 2000, { stage_id: 4 }))], memory, w, from);
		expect(item).toMatchObject({
			change: 'updated',
			changedFields: ['stage_id'],
			previous: { stage_id: 1 },
			record: { stage_id: 4 },
		});
		// The memory moved with it: the same stage again is no change.
		expect(itemsOf([change(deal(5, T0 + 3000, { stage_id: 4 }))], memory, w, from)).toEqual([]);
	});

	it('absent and null are told apart: a field that appears is changed and not in previous; one that was null is', () => {
		const memory = new RecordMemory(['reason', 'closing_date']);
		const before = deal(6, T0, { closing_date: null });
		memory.set('6', keptOf(before, ['reason', 'closing_date']));
		const [item] = itemsOf(
			[change(deal(6, T0 + 1000, { reason: null, closing_date: '2027-01-01' }))],
			memory,
			watch(['reason', 'closing_date']),
			from,
		);
		expect(item.changedFields).toEqual(['reason', 'closing_date']);
		expect(item.previous).toEqual({ closing_date: null });
		expect('reason' in item.previous!).toBe(false);
	});

	it('custom fields: c_field.<name>, custom_field.<short name> (a list or its JSON text), and a bare short name', () => {
		const contact = {
			id: 7,
			c_field: { tier: 'gold' },
			custom_field: [{ shortName: 'region', code: 'r1', value: 'EU' }],
		};
		expect(fieldValue(contact, 'c_field.tier')).toEqual({ present: true, value: 'gold' });
		expect(fieldValue(contact, 'tier')).toEqual({ present: true, value: 'gold' });
		expect(fieldValue(contact, 'custom_field.region')).toEqual({ present: true, value: 'EU' });
		expect(fieldValue(contact, 'custom_field.r1')).toEqual({ present: true, value: 'EU' });
		expect(fieldValue(contact, 'region')).toEqual({ present: true, value: 'EU' });
		expect(fieldValue(contact, 'c_field.region')).toEqual({ present: false });
		const asText = { id: 8, custom_field: JSON.stringify([{ shortName: 'x', value: 1 }]) };
		expect(fieldValue(asText, 'custom_field.x')).toEqual({ present: true, value: 1 });
		expect(fieldValue({ id: 9, custom_field: '{not json' }, 'custom_field.x')).toEqual({
			present: false,
		});
	});

	it('a field named like a prototype key is read from the record only', () => {
		const record = { id: 10, c_field: {}, custom_field: [] };
		for (const name of PROTOTYPE_KEYS) {
			expect(fieldValue(record, name)).toEqual({ present: false });
			expect(fieldValue(record, `c_field.${name}`)).toEqual({ present: false });
		}
		expect(fieldValue({ ...record, toString: 'mine' }, 'toString')).toEqual({
			present: true,
			value: 'mine',
		});
	});

	it('a record the memory does not hold: delivered, with what changed not known and a notice that says why', () => {
		const memory = new RecordMemory(['stage_id']);
		memory.forgotten = 3;
		const [item] = itemsOf([change(deal(11, T0 + 1000))], memory, watch(['stage_id']), from);
		expect(item).toMatchObject({ change: 'updated', changedFields: null, previous: null });
		expect(item.notice).toMatch(/forgot 3/);
		expect(memory.get('11')).toEqual([[1]]);
	});

	it('a record created since the cursor: changedFields the watched fields it has, previous empty', () => {
		const [item] = itemsOf(
			[change(deal(12, T0 + 1000, {}, T0 + 1000))],
			new RecordMemory(['stage_id', 'reason']),
			watch(['stage_id', 'reason']),
			from,
		);
		expect(item).toMatchObject({ change: 'created', changedFields: ['stage_id'], previous: {} });
	});
});

describe('the changes a node watches', () => {
	it('a change left out still moves the memory', () => {
		const memory = new RecordMemory(['stage_id']);
		memory.set('13', [[1]]);
		expect(
			itemsOf(
				[change(deal(13, T0 + 1000, { stage_id: 2 }))],
				memory,
				watch(['stage_id'], ['created']),
				from,
			),
		).toEqual([]);
		expect(memory.get('13')).toEqual([[2]]);
	});

	it('a deletion: the record forgotten, its watched values in previous; none when deletions are left out', () => {
		const memory = new RecordMemory(['stage_id']);
		memory.set('14', [[5]]);
		memory.set('15', [[6]]);
		expect(missing(memory, new Set(['15']))).toEqual(['14']);
		expect(deletedItem('14', memory, watch(['stage_id']))).toEqual({
			change: 'deleted',
			recordType: 'deal',
			id: 14,
			changedAt: null,
			changedFields: ['stage_id'],
			previous: { stage_id: 5 },
			record: null,
		});
		expect(memory.has('14')).toBe(false);
		expect(deletedItem('15', memory, watch(['stage_id'], ['updated']))).toBeUndefined();
		expect(memory.has('15')).toBe(false);
	});
});

describe('keys and fingerprints', () => {
	it('two edits within one update stamp are two keys; what the platform derives or stamps is not part of it', () => {
		const a = deal(16, T0, { stage_id: 1 });
		const b = deal(16, T0, { stage_id: 2 });
		expect(changeKey(a, RECORD_KINDS.deal)).not.toBe(changeKey(b, RECORD_KINDS.deal));
		expect(fingerprint({ ...a, stage: { name: 'Won' }, updated_by: 9 }, RECORD_KINDS.deal)).toBe(
			fingerprint(a, RECORD_KINDS.deal),
		);
		expect(keyId(changeKey(a, RECORD_KINDS.deal))).toBe('16');
	});

	it('an ID a poll can use: a safe integer, or digits', () => {
		expect(recordId({ id: 3 })).toBe('3');
		expect(recordId({ id: ' 42 ' })).toBe('42');
		for (const odd of [2 ** 53, -1.5, '4a', '', null, undefined, {}, '__proto__'])
			expect(recordId({ id: odd as never })).toBeUndefined();
	});
});

describe("the webhook Trigger's restored-registration item", () => {
	it('names the polling events for a sales contact or deal event, nothing for the others', () => {
		for (const e of ['CREATE_CRM_CONTACT', 'UPDATE_CRM_DEAL', 'DELETE_CRM_DEAL'])
			expect(pollingAlternative(e)).toMatch(
				/Contact Changed and Deal Changed \(Polling\).*exactly once/,
			);
		for (const e of ['CREATE_INVOICE', 'STOCK_IN', 'toString', '__proto__', ''])
			expect(pollingAlternative(e)).toBe('');
	});
});
