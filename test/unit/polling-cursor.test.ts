/**
 * The polling cursor (nodes/shared/polling/cursor.ts), pure: which changes are new, and how the
 * cursor moves. A seeded property over any stream of changes whose times never go back past
 * what was already listed (as a platform's clock gives them), read in polls of any size: each
 * change comes out exactly once, in time order, and the cursor stays bounded.
 */
import fc from 'fast-check';

import { advance, changeTime, MAX_SEEN, newChanges, readCursor, startCursor, type Change, type Cursor } from '../../nodes/shared/polling/cursor';
import { checkProperty } from '../helpers/property';

const change = (key: string, time: number): Change => ({ key, time, item: { key } });

describe('changeTime', () => {
	it('reads ISO times and leaves out the zero time, empty and odd values', () => {
		expect(changeTime('2026-11-26T10:00:00Z')).toBe(Date.UTC(2026, 10, 26, 10));
		expect(changeTime('2026-11-26T10:00:00.123456Z')).toBe(Date.UTC(2026, 10, 26, 10, 0, 0, 123));
		for (const odd of ['0001-01-01T00:00:00Z', '', '  ', 'soon', null, undefined, 42, {}, 'toString']) expect(changeTime(odd)).toBeUndefined();
	});
});

describe('readCursor', () => {
	it('gives back what it wrote and refuses anything else (another version, odd shapes, prototype keys)', () => {
		const c: Cursor = { v: 1, since: 5, seen: ['a'] };
		expect(readCursor(JSON.parse(JSON.stringify(c)))).toEqual(c);
		for (const odd of [undefined, null, 'x', [], { v: 2, since: 1, seen: [] }, { v: 1, since: 'x', seen: [] }, { v: 1, since: Infinity, seen: [] }, { v: 1, since: 1 }, JSON.parse('{"__proto__": {"v": 1}}')]) {
			expect(readCursor(odd)).toBeUndefined();
		}
		expect(readCursor({ v: 1, since: 1, seen: ['a', 2, null, 'b'] })).toEqual({ v: 1, since: 1, seen: ['a', 'b'] });
	});
});

describe('a first poll', () => {
	it('marks what is listed as done, and everything older than the newest item listed', () => {
		const c = startCursor([change('a', 10), change('b', 20), change('c', 20)], 20);
		expect(newChanges(c, [change('a', 10), change('b', 20), change('c', 20), change('old', 15)])).toEqual([]);
		expect(newChanges(c, [change('d', 20), change('e', 21)]).map((x) => x.key)).toEqual(['d', 'e']);
		// The newest item listed is not a change of this event: nothing older than it is new.
		expect(newChanges(startCursor([change('a', 10)], 30), [change('b', 29), change('c', 30)]).map((x) => x.key)).toEqual(['c']);
	});
});

it('the cursor keeps at most MAX_SEEN keys of one timestamp', () => {
	const many = Array.from({ length: MAX_SEEN + 50 }, (_, i) => change(`k${i}`, 7));
	expect(advance(startCursor([], -1), many).seen).toHaveLength(MAX_SEEN);
	expect(advance(advance(startCursor([], -1), [change('a', 1)]), [change('b', 2)]).seen).toEqual(['b']);
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
				expect(cursor.seen.length).toBeLessThanOrEqual(MAX_SEEN);
			}),
		);
	});
});
