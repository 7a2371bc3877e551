/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The cleanup itself, tested: nested jest runs whose test files go wrong on purpose while
 * what they started runs (a hook that times out while n8n starts, a hook that fails and a failing
 * test that never stops the sandbox's process, a worker that crashes and Ctrl-C while a real
 * n8n runs). Afterwards no process
 * of that run may be left (every process the run starts carries its run id), nor its scratch
 * folder (n8n's user folders), and jest must have exited by itself.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { processesOfRun, RUN_FILES_DIR, sweepAbandonedRuns } from '../../testbed/processes';
import { exitWithin, nestedRun, ready } from '../helpers/nested-jest';
import { eventually } from '../../testbed/n8n/env';

jest.setTimeout(1_200_000);

it('a hook that times out, a hook that fails, a failing test and a crashed worker leave no process behind, and jest exits by itself', async () => {
	const { id, dir, jest } = nestedRun(['hook-timeout', 'hook-fails', 'test-fails', 'worker-crash']);
	const code = await exitWithin(jest, 1_080_000);
	const out = jest.output();
	expect(code).toBe(1); // the fixtures fail on purpose
	expect(out).toMatch(/Test Suites:\s+4 failed, 4 total/);
	// What they start was up in the three files that waited for it: the sandbox's process in the failing hook and
	// test, n8n in the crashed worker (the timed-out hook was cut off while n8n started).
	const started = ready(dir);
	if (started.join() !== 'hook-fails,test-fails,worker-crash')
		console.log(`the nested jest printed:\n${out.slice(-6000)}`);
	expect(started).toEqual(['hook-fails', 'test-fails', 'worker-crash']);
	expect(out).not.toMatch(/did not exit one second after|failed to exit gracefully/);
	// The crashed worker's n8n was stopped by the global teardown, and says so.
	expect(out).toMatch(/stopped \d+ process\(es\) a test file left running/);
	expect(processesOfRun(id)).toEqual([]);
	// The n8ns' user folders went with the run (its global teardown).
	expect(existsSync(join(RUN_FILES_DIR, id))).toBe(false);
});

it('Ctrl-C while n8n runs leaves no process behind', async () => {
	const { id, dir, jest } = nestedRun(['interrupted'], 1);
	await eventually(() => expect(existsSync(join(dir, 'interrupted.ready'))).toBe(true), 660_000);
	expect(processesOfRun(id).some((p) => /n8n/.test(p.cmd))).toBe(true);
	process.kill(-jest.pid, 'SIGINT'); // what a terminal does: the whole foreground group
	await exitWithin(jest, 30_000);
	await eventually(() => expect(processesOfRun(id)).toEqual([]), 10_000);
	// What an interrupted run's teardown did not remove, the next run's global setup does (as here).
	sweepAbandonedRuns();
	expect(existsSync(join(RUN_FILES_DIR, id))).toBe(false);
});
