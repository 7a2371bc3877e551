/**
 * The polling cursor (nodes/shared/polling/cursor.ts), pure: which changes are new, and how the
 * cursor moves. A seeded property over any stream of changes whose times never go back past
 * what was already listed (as a platform's clock gives them), read in polls of any size: each
 * change comes out exactly once, in time order, and the cursor stays bounded.
 */
import fc from 'fast-check';

import {
	advance,
	changeTime,
	CURSOR_VERSION,
	MAX_RECENT,
	newChanges,
	readCursor,
	startCursor,
	type Change,
	type Cursor,
} from '../../nodes/shared/polling/cursor';
import { checkProperty } from '../helpers/property';

const change = (key: string, time: number): Change => ({ key, time, item: { key } });

describe('changeTime', () => {
	it('reads ISO times and leaves out the zero time, empty and odd values', () => {
		expect(changeTime('2026-11-26T10:00:00Z')).toBe(Date.UTC(2026, 10, 26, 10));
		expect(changeTime('2026-11-26T10:00:00.123456Z')).toBe(Date.UTC(2026, 10, 26, 10, 0, 0, 123));
		for (const odd of [
			'0001-01-01T00:00:00Z',
			'',
			'  ',
			'soon',
			null,
			undefined,
			42,
			{},
			'toString',
		])
			expect(changeTime(odd)).toBeUndefined();
	});

	it('takes no impossible date as a time (Date.parse would read 30 February as 1 March), and every real one', async () => {
		for (const odd of [
			'2024-02-30T10:00:00Z',
			'2023-02-29 10:00:00',
			'2026-13-01T00:00:00Z',
			'2026-04-31',
		])
			expect(changeTime(odd)).toBeUndefined();
		expect(changeTime('2024-02-29T10:00:00Z')).toBe(Date.UTC(2024, 1, 29, 10));
		await checkProperty(
			500,
			fc.asyncProperty(
				fc.integer({ min: 1970, max: 9999 }),
				fc.integer({ min: 0, max: 13 }),
				fc.integer({ min: 0, max: 32 }),
				async (year, month, day) => {
					const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T12:00:00Z`;
					const real =
						month >= 1 &&
						month <= 12 &&
						day >= 1 &&
						day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
					expect(changeTime(text)).toBe(real ? Date.UTC(year, month - 1, day, 12) : undefined);
				},
			),
		);
	});
});

describe('readCursor', () => {
	it('gives back what it wrote and refuses anything else (another version, odd shapes, prototype keys)', () => {
		const c: Cursor = { v: 1, since: 5, seen: ['a'] };
		expect(readCursor(JSON.parse(JSON.stringify(c)))).toEqual(c);
		for (const odd of [
			undefined,
			null,
			'x',
			[],
			{ v: 2, since: 1, seen: [] },
			{ v: 1, since: 'x', seen: [] },
			{ v: 1, since: Infinity, seen: [] },
			{ v: 1, since: 1 },
			JSON.parse('{"__proto__": {"v": 1}}'),
		]) {
			expect(readCursor(odd)).toBeUndefined();
		}
		expect(readCursor({ v: 1, since: 1, seen: ['a', 2, null, 'b'] })).toEqual({
			v: 1,
			since: 1,
			seen: ['a', 'b'],
		});
	});
});

describe('readCursor: the backlog mark', () => {
	it('keeps a page number from 1 to 2^53 - 1 and drops anything else (0, negative, fractions, past 2^53, text, true)', () => {
		const base = { v: CURSOR_VERSION, since: 5, seen: ['a'] };
		for (const page of [1, 13, Number.MAX_SAFE_INTEGER])
			expect(readCursor({ ...base, behind: page })).toEqual({ ...base, behind: page });
		for (const odd of [0, -1, 1.5, 2 ** 53, Number.NaN, '3', true, null, {}])
			expect(readCursor({ ...base, behind: odd })).toEqual(base);
	});
});

describe('a first poll', () => {
	it('marks what is listed as done, and everything older than the newest item listed', () => {
		const c = startCursor([change('a', 10), change('b', 20), change('c', 20)], 20);
		expect(
			newChanges(c, [change('a', 10), change('b', 20), change('c', 20), change('old', 15)]),
		).toEqual([]);
		expect(newChanges(c, [change('d', 20), change('e', 21)]).map((x) => x.key)).toEqual(['d', 'e']);
		// The newest item listed is not a change of this event: nothing older than it is new.
		expect(
			newChanges(startCursor([change('a', 10)], 30), [change('b', 29), change('c', 30)]).map(
				(x) => x.key,
			),
		).toEqual(['c']);
	});
});

it('the cursor keeps every key of the newest timestamp (however many: a key left out would come again), and only those', () => {
	// 1,050: past the 1,000 keys the cursor once kept (issue 32, finding 1), which then came again at every poll.
	for (const n of [999, 1000, 1001, 1050, 5000]) {
		const many = Array.from({ length: n }, (_, i) => change(`k${i}`, 7));
		const cursor = advance(startCursor([], -1), many);
		expect(cursor.seen).toHaveLength(n);
		expect(newChanges(cursor, many)).toEqual([]);
		expect(newChanges(startCursor(many, 7), many)).toEqual([]);
	}
	expect(advance(advance(startCursor([], -1), [change('a', 1)]), [change('b', 2)]).seen).toEqual([
		'b',
	]);
});

it('a remembering cursor keeps the keys of the newest changes, whatever order they were listed in (a first poll lists newest first)', () => {
	const count = MAX_RECENT + 50;
	const newestFirst = Array.from({ length: count }, (_, i) => change(`p${count - i}`, count - i));
	const cursor = startCursor(newestFirst, count, true);
	expect(cursor.recent).toHaveLength(MAX_RECENT);
	// The newest posting changes again later (a newer time, the same key): not announced again.
	expect(newChanges(cursor, [change(`p${count}`, count + 5)])).toEqual([]);
	expect(cursor.recent).not.toContain('p1');
});

describe('exactly once (property)', () => {
	it('any stream of changes in non-decreasing time, listed in polls of any size, some listed again: each comes out once, in order', async () => {
		const stream = fc.array(fc.tuple(fc.nat(3), fc.nat(4)), { minLength: 1, maxLength: 60 }); // [time step, polls to wait]
		await checkProperty(
			300,
			fc.asyncProperty(stream, fc.nat(5), async (steps, relist) => {
				let cursor = startCursor([], -1);
				let time = 0;
				const made: Change[] = [];
				const out: Change[] = [];
				let index = 0;
				for (const [dt, wait] of steps) {
					time += dt;
					made.push(change(`c${index++}`, time));
					if (wait === 0) continue;
					// A poll lists every change made so far (and, like a list that moved, some of them twice).
					const listed = [...made, ...made.slice(0, relist)];
					const fresh = newChanges(cursor, listed);
					out.push(...fresh);
					cursor = advance(cursor, fresh);
				}
				const fresh = newChanges(cursor, made);
				out.push(...fresh);
				expect(out.map((c) => c.key).sort()).toEqual(made.map((c) => c.key).sort());
				expect(out.map((c) => c.time)).toEqual([...out.map((c) => c.time)].sort((a, b) => a - b));
				// The cursor holds the keys of one timestamp only.
				expect(cursor.seen.length).toBeLessThanOrEqual(
					made.filter((c) => c.time === cursor.since).length,
				);
			}),
		);
	});
});

describe('exactly once past every bound (property)', () => {
	it("bursts of one timestamp below, at and past the cursor's own numbers (1,000 kept recent keys) and a time beyond 2^53 ms: each change once", async () => {
		const burst = fc.oneof(
			{ weight: 3, arbitrary: fc.integer({ min: 1, max: 3 }) },
			{
				weight: 1,
				arbitrary: fc.constantFrom(MAX_RECENT - 1, MAX_RECENT, MAX_RECENT + 1, 2 * MAX_RECENT + 7),
			},
		);
		const stream = fc.array(fc.tuple(fc.nat(2), burst, fc.nat(2)), { minLength: 1, maxLength: 8 }); // [time step, changes at that time, polls to wait]
		await checkProperty(
			60,
			fc.asyncProperty(
				stream,
				fc.boolean(),
				fc.constantFrom(0, 2 ** 31, 2 ** 53 - 10),
				async (steps, remember, start) => {
					let cursor = startCursor([], -1);
					let time = start;
					const made: Change[] = [];
					const out: Change[] = [];
					for (const [dt, count, wait] of steps) {
						time += dt;
						for (let i = 0; i < count; i++) made.push(change(`c${made.length}`, time));
						if (wait === 0) continue;
						const fresh = newChanges(cursor, made);
						out.push(...fresh);
						cursor = advance(cursor, fresh, remember);
						// Polls that find nothing new stay empty, however many share the newest timestamp.
						expect(newChanges(cursor, made)).toEqual([]);
					}
					out.push(...newChanges(cursor, made));
					expect(out.map((c) => c.key).sort()).toEqual(made.map((c) => c.key).sort());
					expect(new Set(out.map((c) => c.key)).size).toBe(out.length);
				},
			),
		);
	});
});
