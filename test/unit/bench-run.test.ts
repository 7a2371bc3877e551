/**
 * The bench's bookkeeping, without measuring: a section that throws or gives nothing is
 * failed and gives no row (never a zero that counts as met), a measurement that is not a
 * positive number throws, and the chart (docs/images/bench.svg) is the same text for the same
 * run and shows what was not met and what is missing. The sections themselves run at tiny
 * counts in test/integration/bench-smoke.test.ts and test/e2e/bench-smoke.e2e.test.ts.
 */
import { chartSvg, type LatestJson } from '../../bench/chart';
import { row, type BenchRow, type Section } from '../../bench/rows';
import { runSections } from '../../bench/sections';

const input = {
	id: 'x',
	scenario: 'X',
	unit: '/s',
	better: 'higher' as const,
	target: 2,
	baselineLabel: 'baseline',
};
const good = row({ ...input, pack: 30, baseline: 10 });
const section = (rows: BenchRow[]): Section => ({ title: 'S', rows });
const quiet = () => undefined;

describe('runSections', () => {
	it('keeps the rows of the sections that ran, fails the one that threw, skips the one that had nothing to run against', async () => {
		const run = await runSections(
			[],
			{
				ok: () => section([good]),
				broken: () => {
					throw new Error('the sandbox did not start');
				},
				rejected: async () => await Promise.reject(new Error('n8n answered 500')),
				empty: () => section([]),
				absent: () => undefined,
			},
			quiet,
		);
		expect(run.sections.map((s) => s.rows.map((r) => r.id))).toEqual([['x']]);
		expect(run.failed).toEqual([
			'broken: the sandbox did not start',
			'rejected: n8n answered 500',
			'empty: it gave no row and no figure',
		]);
		expect(run.skipped).toEqual(['absent']);
	});

	it('runs only the sections asked for, and refuses a name it does not know', async () => {
		const ran: string[] = [];
		const producers = {
			a: () => (ran.push('a'), section([good])),
			b: () => (ran.push('b'), section([good])),
		};
		await runSections(['b'], producers);
		expect(ran).toEqual(['b']);
		await expect(runSections(['c'], producers, quiet)).rejects.toThrow(
			/unknown section c; sections: a, b/,
		);
	});

	it('a section whose measurement gave no positive figure fails (row() throws)', async () => {
		for (const [pack, baseline] of [
			[0, 10],
			[10, 0],
			[Number.NaN, 10],
			[10, Number.POSITIVE_INFINITY],
			[-1, 10],
		])
			expect(() => row({ ...input, pack, baseline })).toThrow(/x: no measurement/);
		const run = await runSections(
			[],
			{
				zero: () => section([row({ ...input, pack: 0, baseline: 10 })]),
			},
			quiet,
		);
		expect(run.sections).toEqual([]);
		expect(run.failed).toEqual([expect.stringMatching(/^zero: x: no measurement/)]);
	});
});

describe('the chart', () => {
	const at = (
		id: string,
		ratio: number,
		met: boolean,
		direction: BenchRow['direction'] = 'atLeast',
	) => ({
		...good,
		id,
		ratio,
		met,
		direction,
		target: direction === 'atLeast' ? 2 : 1.05,
	});
	const latest: LatestJson = {
		date: '2026-01-02',
		machine: '2 × Test CPU, 4 GiB, Node v20.0.0',
		failed: ['trigger: boom'],
		rows: [
			at('create-in-n8n-vs-n8n-floor-c1', 5.2, true),
			at('create-in-n8n-vs-n8n-floor-c20', 1.5, false),
			at('return-all-vs-n8n-floor', 1.3, false, 'atMost'),
		],
	};

	it('is the same text for the same run, with the date, the machine and the failed sections', () => {
		const svg = chartSvg(latest);
		expect(chartSvg(JSON.parse(JSON.stringify(latest)) as LatestJson)).toBe(svg);
		expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
		expect(svg).toContain('Run of 2026-01-02 on 2 × Test CPU, 4 GiB, Node v20.0.0');
		expect(svg).toContain('Failed sections: trigger: boom.');
	});

	it('says met, not met or no figure for each headline row', () => {
		const svg = chartSvg(latest);
		expect(svg.match(/✓ met/g)).toHaveLength(1);
		expect(svg.match(/✗ not met/g)).toHaveLength(2);
		// 9 headline rows, 3 in the run.
		expect(svg.match(/no figure in this run/g)).toHaveLength(6);
		// A row that is information now (the HTTP Request node's) is not a headline.
		expect(svg).not.toContain('create-in-n8n-vs-http');
		expect(svg).toContain('≤ 1.05×');
		expect(svg).toContain('5.20×');
	});
});
