/**
 * `npm test` on a fresh clone runs jest twice (scripts/test.ts): .ci/run reads one JSON report,
 * which must add both runs up and fail when either failed.
 */
import { merge } from '../../scripts/test';

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
