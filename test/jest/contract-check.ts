/**
 * Runs in every test file (jest setupFilesAfterEnv): after each test, the traffic of the
 * file's sandboxes is held against the platform contract (test/helpers/contract.ts);
 * after the file, its counts go to the run's folder.
 */
import { assertContract, recordContractCounts } from '../helpers/contract';

afterEach(() => {
	assertContract();
});

afterAll(() => {
	recordContractCounts(expect.getState().testPath ?? 'unknown');
});
