/**
 * The harness's retry of n8n's pre-run check (testbed/harness/run.ts checkedRun): a run whose
 * check timed out in n8n's safe regex before any node ran is started again, also when the check
 * throws synchronously (as n8n's does, before processRunExecutionData returns its promise), up to
 * CHECK_ATTEMPTS times; any other failure is not retried.
 */
import fc from 'fast-check';
import type { IRun } from 'n8n-workflow';

import { CHECK_ATTEMPTS, checkedRun } from '../../testbed/harness/run';
import { checkProperty } from '../helpers/property';

const run = { finished: true } as unknown as IRun;

/** n8n's check as it fails under load: the safe regex's timeout, thrown inside checkReadyForExecution. */
function checkReadyForExecution(): never {
	throw new Error('Regular expression execution timed out');
}

/** A start that fails `failures` times (synchronously, or as a rejection), then gives the run. */
function flaky(failures: number, how: 'throws' | 'rejects', fail = checkReadyForExecution) {
	const calls = { n: 0 };
	const start = (): Promise<IRun> => {
		calls.n++;
		if (calls.n <= failures) {
			if (how === 'throws') fail();
			return Promise.resolve().then(() => fail());
		}
		return Promise.resolve(run);
	};
	return { start, calls };
}

describe('checkedRun: the pre-run check that timed out is started again', () => {
	it.each(['throws', 'rejects'] as const)(
		'a check that %s twice, then passes, gives the run at the third start',
		async (how) => {
			const { start, calls } = flaky(2, how);
			await expect(checkedRun(start)).resolves.toBe(run);
			expect(calls.n).toBe(3);
		},
	);

	it.each(['throws', 'rejects'] as const)(
		`a check that %s every time fails after ${CHECK_ATTEMPTS} starts, with n8n's error`,
		async (how) => {
			const { start, calls } = flaky(Infinity, how);
			await expect(checkedRun(start)).rejects.toThrow('Regular expression execution timed out');
			expect(calls.n).toBe(CHECK_ATTEMPTS);
		},
	);

	it('any other failure is not started again', async () => {
		const { start, calls } = flaky(1, 'throws', () => {
			throw new Error('Regular expression execution timed out'); // not in n8n's check
		});
		await expect(checkedRun(start)).rejects.toThrow('Regular expression execution timed out');
		expect(calls.n).toBe(1);
		const other = flaky(1, 'rejects', () => {
			throw new Error('ECONNREFUSED');
		});
		await expect(checkedRun(other.start)).rejects.toThrow('ECONNREFUSED');
		expect(other.calls.n).toBe(1);
	});

	it(`property: any number of timed-out checks, past ${CHECK_ATTEMPTS}, thrown or rejected, gives the run or n8n's error after at most ${CHECK_ATTEMPTS} starts`, async () => {
		await checkProperty(
			200,
			fc.asyncProperty(
				fc.integer({ min: 0, max: 3 * CHECK_ATTEMPTS }),
				fc.constantFrom('throws' as const, 'rejects' as const),
				async (failures, how) => {
					const { start, calls } = flaky(failures, how);
					const outcome = await checkedRun(start).then(
						(r) => r,
						(e: Error) => e,
					);
					if (failures < CHECK_ATTEMPTS) {
						expect(outcome).toBe(run);
						expect(calls.n).toBe(failures + 1);
					} else {
						expect((outcome as Error).message).toBe('Regular expression execution timed out');
						expect(calls.n).toBe(CHECK_ATTEMPTS);
					}
				},
			),
		);
	});
});
