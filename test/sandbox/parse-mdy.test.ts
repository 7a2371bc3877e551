/**
 * The sandbox's month/day/year reader remembers its answers (sandbox/src/modules/payroll/common.ts):
 * whatever it was asked before, and past its 4,096 remembered answers, it answers as on a first
 * reading. Impossible dates (30 February) stay undefined, prototype keys are plain text.
 */
import fc from 'fast-check';

import { parseMdy } from '../../sandbox/src/modules/payroll/common';

/** The reference: month/day/year → UTC midnight, or undefined when it is no real date. */
function reference(s: string): number | undefined {
	const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s.trim());
	if (!m) return undefined;
	const [mo, d, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
	const t = Date.UTC(y, mo - 1, d);
	const back = new Date(t);
	return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d
		? t
		: undefined;
}

describe('sandbox: parseMdy', () => {
	it('answers as on a first reading, before and past its 4,096 remembered answers', () => {
		const date = fc
			.tuple(
				fc.integer({ min: 0, max: 13 }),
				fc.integer({ min: 0, max: 32 }),
				fc.integer({ min: 1000, max: 9999 }),
			)
			.map(([mo, d, y]) => `${mo}/${d}/${y}`);
		const odd = fc.constantFrom(
			'toString',
			'__proto__',
			'',
			'..',
			'02/30/2026',
			'2/29/2025',
			'2/29/2024',
			' 1/1/2026 ',
		);
		fc.assert(
			fc.property(fc.array(fc.oneof(date, odd), { minLength: 5000, maxLength: 6000 }), (inputs) => {
				for (const s of [...inputs, ...inputs]) expect(parseMdy(s)).toBe(reference(s));
			}),
			{ seed: 20261202, numRuns: 3 },
		);
		expect(parseMdy('02/30/2026')).toBeUndefined();
		expect(parseMdy('2/29/2024')).toBe(Date.UTC(2024, 1, 29));
	});
});
