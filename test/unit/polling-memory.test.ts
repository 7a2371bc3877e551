/**
 * What a polling event remembers per record (nodes/shared/polling/memory.ts), pure: the kept
 * values and what changed between two of them (absent and null told apart, long values by their
 * hash), the memory's bound (the least recently changed forgotten first, and counted), and the
 * text static data holds, read back as written; seeded fast-check properties over any values,
 * hostile IDs and field names.
 */
import fc from 'fast-check';

import {
	canonicalJson,
	changesOf,
	keep,
	keepableId,
	MAX_KEPT_CHARS,
	MEMORY_VERSION,
	RecordMemory,
	textHash,
	type FieldValue,
} from '../../nodes/shared/polling/memory';
import { checkProperty, hostileString, PROTOTYPE_KEYS } from '../helpers/property';

const present = (value: unknown): FieldValue => ({ present: true, value });
const absent: FieldValue = { present: false };

/** A field's value as a record may give it: absent, null, numbers past 2^53, text, nested objects, long text. */
const fieldValue = (): fc.Arbitrary<FieldValue> =>
	fc.oneof(
		fc.constant(absent),
		fc.constant(present(null)),
		fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.constant(2 ** 53 + 2)).map(present),
		fc.string().map(present),
		fc.string({ minLength: MAX_KEPT_CHARS, maxLength: MAX_KEPT_CHARS + 50 }).map(present),
		fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.integer(), fc.string())).map(present),
		fc.array(fc.integer(), { maxLength: 5 }).map(present),
	);

describe('canonical JSON and the hash', () => {
	it('key order means nothing; values and types do', () => {
		expect(canonicalJson({ b: 1, a: { d: 2, c: [3, { f: 1, e: 0 }] } })).toBe(
			canonicalJson({ a: { c: [3, { e: 0, f: 1 }], d: 2 }, b: 1 }),
		);
		expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
		expect(canonicalJson(null)).not.toBe(canonicalJson(undefined));
	});

	it('a value nested past the stack compares as one unreadable value, not a crash', () => {
		let deep: unknown = 1;
		for (let i = 0; i < 200_000; i++) deep = [deep];
		expect(typeof canonicalJson(deep)).toBe('string');
	});

	it('hashes: the same text the same, other texts (also one character apart) not', () => {
		expect(textHash('abc')).toBe(textHash('abc'));
		expect(textHash('abc')).not.toBe(textHash('abd'));
		expect(textHash('')).toMatch(/^[0-9a-z]{1,11}$/);
		const seen = new Set<string>();
		for (let i = 0; i < 50_000; i++) seen.add(textHash(`{"stage_id":${i}}`));
		expect(seen.size).toBe(50_000);
	});
});

describe('kept values and what changed', () => {
	it('absent, null and a value are three things; a long value is kept as its hash', () => {
		expect(keep(absent)).toEqual([]);
		expect(keep(present(null))).toEqual([null]);
		expect(keep(present(3))).toEqual([3]);
		const long = keep(present('x'.repeat(MAX_KEPT_CHARS + 1)));
		expect(long).toHaveLength(2);
		const fields = ['a', 'b', 'c', 'd'];
		const before = [keep(absent), keep(present(null)), keep(present(1)), long];
		const now = [keep(present(null)), keep(absent), keep(present(1)), keep(present('short'))];
		expect(changesOf(fields, before, now)).toEqual({
			changedFields: ['a', 'b', 'd'],
			previous: { b: null },
			previousNotKept: ['d'],
		});
	});

	it('a watched field named like a prototype key is an own key of previous, and sets no prototype', () => {
		const fields = ['__proto__', 'constructor', 'toString'];
		const before = fields.map(() => keep(present({ polluted: true })));
		const result = changesOf(
			fields,
			before,
			fields.map(() => keep(present(1))),
		);
		expect(result.changedFields).toEqual(fields);
		for (const f of fields)
			expect(Object.getOwnPropertyDescriptor(result.previous, f)?.value).toEqual({
				polluted: true,
			});
		expect(Object.getPrototypeOf(result.previous)).toBe(Object.prototype);
		expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
		expect(JSON.parse(JSON.stringify(result.previous))).toEqual(
			JSON.parse(
				'{"__proto__":{"polluted":true},"constructor":{"polluted":true},"toString":{"polluted":true}}',
			),
		);
	});

	it('property: a field is in changedFields exactly when its value changed, and previous holds exactly its kept value before', async () => {
		await checkProperty(
			300,
			fc.asyncProperty(
				fc.array(fc.tuple(fieldValue(), fieldValue()), { minLength: 1, maxLength: 8 }),
				async (pairs) => {
					const fields = pairs.map((_, i) => `f${i}`);
					const result = changesOf(
						fields,
						pairs.map(([b]) => keep(b)),
						pairs.map(([, a]) => keep(a)),
					);
					pairs.forEach(([b, a], i) => {
						const changed =
							b.present !== a.present ||
							(b.present && a.present && canonicalJson(b.value) !== canonicalJson(a.value));
						expect(result.changedFields.includes(fields[i])).toBe(changed);
						const short = b.present && canonicalJson(b.value).length <= MAX_KEPT_CHARS;
						expect(fields[i] in result.previous).toBe(changed && short);
						if (changed && short)
							expect(result.previous[fields[i]]).toEqual((b as { value: unknown }).value);
						expect(result.previousNotKept.includes(fields[i])).toBe(changed && b.present && !short);
					});
				},
			),
		);
	});
});

describe('the memory', () => {
	it('remembers, reads back what static data held, and starts anew for other fields', () => {
		const m = new RecordMemory(['stage_id', 'amount']);
		m.set('1', [keep(present(3)), keep(absent)]);
		m.set('2', [keep(present(4)), keep(present(10))]);
		const stored = JSON.parse(JSON.stringify(m.toStored())) as unknown;
		const back = RecordMemory.read(stored, ['stage_id', 'amount'])!;
		expect(back.get('1')).toEqual([[3], []]);
		expect(back.get('2')).toEqual([[4], [10]]);
		expect(back.size).toBe(2);
		expect(RecordMemory.read(stored, ['amount', 'stage_id'])).toBeUndefined();
		expect(RecordMemory.read(stored, ['stage_id'])).toBeUndefined();
		for (const odd of [null, 1, 'x', {}, { v: MEMORY_VERSION + 1, fields: [], recs: '', rev: 0 }])
			expect(RecordMemory.read(odd, [])).toBeUndefined();
		expect(back.toStored().rev).toBe(m.toStored().rev + 1);
	});

	it('keeps prototype names and hostile IDs apart from its own workings, and refuses IDs that do not fit a line', async () => {
		const m = new RecordMemory(['x']);
		for (const id of PROTOTYPE_KEYS.filter(keepableId)) m.set(id, [keep(present(id))]);
		for (const id of PROTOTYPE_KEYS.filter(keepableId)) expect(m.get(id)).toEqual([[id]]);
		await checkProperty(
			200,
			fc.asyncProperty(hostileString(), async (id) => {
				const n = new RecordMemory(['x']);
				n.set(id, [keep(present(1))]);
				const back = RecordMemory.read(n.toStored(), ['x'])!;
				expect(back.get(id)).toEqual(keepableId(id) ? [[1]] : undefined);
				expect(back.size).toBe(keepableId(id) ? 1 : 0);
			}),
		);
	});

	it('property: past its bound it forgets the least recently changed first, counts them, never the record just set, and stays within the bound', async () => {
		await checkProperty(
			100,
			fc.asyncProperty(
				fc.array(fc.tuple(fc.integer({ min: 1, max: 40 }), fieldValue()), { maxLength: 200 }),
				fc.integer({ min: 300, max: 3000 }),
				async (writes, limit) => {
					const m = new RecordMemory(['v'], new Map(), 0, false, 0, limit);
					const order: string[] = [];
					for (const [n, value] of writes) {
						const id = String(n);
						m.set(id, [keep(value)]);
						order.splice(order.indexOf(id) >>> 0, order.includes(id) ? 1 : 0);
						order.push(id);
						expect(m.has(id)).toBe(true);
						expect(m.length <= limit || m.size === 1).toBe(true);
					}
					// What is left is the most recently changed, in change order.
					const kept = [...m.ids()];
					expect(kept).toEqual(order.slice(order.length - kept.length));
					const distinct = new Set(writes.map(([n]) => n)).size;
					expect(m.forgotten).toBeGreaterThanOrEqual(distinct - kept.length);
					const back = RecordMemory.read(m.toStored(), ['v'], limit)!;
					expect([...back.ids()]).toEqual(kept);
					expect(back.forgotten).toBe(m.forgotten);
				},
			),
		);
	});
});
