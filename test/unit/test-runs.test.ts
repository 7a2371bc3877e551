/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * `npm test` on a fresh clone runs jest twice (scripts/test.ts): .ci/run reads one JSON report,
 * which must add both runs up and fail when either failed. The files `npm test` leaves to a CI step
 * of their own (OWN_STEP) are each run by that step.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { merge, OWN_STEP } from '../../scripts/test';

const ROOT = join(__dirname, '../..');

const run = (passed: number, failed: number, extra: Record<string, unknown> = {}) => ({
	numPassedTests: passed,
	numFailedTests: failed,
	numTotalTests: passed + failed,
	numTotalTestSuites: 2,
	numRuntimeErrorTestSuites: 0,
	numPendingTests: 0,
	startTime: 1000,
	success: failed === 0,
	testResults: [{ name: `run ${passed}` }],
	...extra,
});

describe('merge (one report of two jest runs)', () => {
	it('adds up the counts, keeps every file result and the earlier start', () => {
		const merged = merge([run(2045, 0, { startTime: 2000 }), run(44, 0, { startTime: 1500 })]);
		expect(merged).toMatchObject({
			numPassedTests: 2089,
			numFailedTests: 0,
			numTotalTests: 2089,
			numTotalTestSuites: 4,
			startTime: 1500,
			success: true,
		});
		expect(merged.testResults).toHaveLength(2);
	});

	it('fails when one run failed, and when the install failed (no second report, a runtime error)', () => {
		expect(merge([run(2045, 0), run(43, 1)])).toMatchObject({ numFailedTests: 1, success: false });
		expect(merge([run(2045, 0), { numRuntimeErrorTestSuites: 1, success: false }])).toMatchObject({
			numPassedTests: 2045,
			numRuntimeErrorTestSuites: 1,
			success: false,
		});
	});
});

describe('the files npm test leaves to a CI step of their own (OWN_STEP)', () => {
	const testFiles = (dir: string): string[] =>
		readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
			e.isDirectory()
				? testFiles(join(dir, e.name))
				: e.name.endsWith('.test.ts')
					? [relative(ROOT, join(dir, e.name))]
					: [],
		);
	const scripts = (
		JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
			scripts: Record<string, string>;
		}
	).scripts;

	it('each names a test file, and .ci/run runs each with the npm script whose pattern selects it', () => {
		const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
		const steps = [...ci.matchAll(/^suite \S+ npm run (\S+)$/gm)].map((m) => m[1]);
		for (const pattern of OWN_STEP) {
			const files = testFiles(join(ROOT, 'test')).filter((f) => new RegExp(pattern).test(f));
			expect(files.length).toBeGreaterThan(0);
			for (const file of files) {
				const runBy = steps.filter((name) => {
					const selected = /--testPathPattern (\S+)/.exec(scripts[name] ?? '')?.[1];
					return selected !== undefined && new RegExp(selected).test(file);
				});
				expect({ file, runBy: runBy.length > 0 }).toEqual({ file, runBy: true });
			}
		}
	});
});
