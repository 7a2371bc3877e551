/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Queue mode's cleanup, tested with nested jest runs whose files go wrong on purpose
 * while Redis and PostgreSQL run (test/queue/fixtures/cleanup): a hook that times out
 * while they start, a failing test, a test worker killed with SIGKILL, Ctrl-C. Afterwards
 * no process of that run may be left and no data folder of that run may remain. (The n8n
 * processes of a cluster are managed like any other: test/e2e/cleanup.e2e.test.ts.)
 */
import { spawnSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { processesOfRun, RUNS_DIR, runId } from '../../testbed/processes';
import { QUEUE_TMP_PREFIX, sweepQueueFolders } from '../../testbed/queue/folders';
import { eventually } from '../../testbed/n8n/env';
import { exitWithin, nestedRun, ready } from '../helpers/nested-jest';
import { describeQueue } from './queue-env';

jest.setTimeout(900_000);

/** Queue data folders whose owner file names the run. */
function foldersOfRun(id: string): string[] {
	return readdirSync(tmpdir())
		.filter((n) => n.startsWith(QUEUE_TMP_PREFIX))
		.filter((n) => {
			try {
				return JSON.parse(readFileSync(join(tmpdir(), n, 'owner.json'), 'utf8')).run === id;
			} catch {
				return false;
			}
		});
}

const folderOf = (dir: string, name: string) =>
	(JSON.parse(readFileSync(join(dir, `${name}.ready`), 'utf8')) as { folder: string }).folder;

describeQueue('queue mode: nothing is left behind', () => {
	it('a hook that times out while the servers start, a failing test and a killed test worker leave no process and no data folder', async () => {
		const { id, dir, jest } = nestedRun(['servers-timeout', 'servers-fail', 'servers-crash']);
		const code = await exitWithin(jest, 120_000);
		const out = jest.output();
		// The timed-out hook's servers may have come up before it timed out (its folder is checked below too).
		const outcome = { code, ready: ready(dir).filter((n) => n !== 'servers-timeout') };
		const expected = { code: 1, ready: ['servers-crash', 'servers-fail'] }; // the fixtures fail on purpose
		if (JSON.stringify(outcome) !== JSON.stringify(expected))
			console.log(`the nested jest printed:\n${out.slice(-4000)}`);
		expect(outcome).toEqual(expected);
		expect(out).toMatch(/Test Suites:\s+3 failed, 3 total/);
		// The killed worker could remove nothing: the global teardown did, and says so. (The
		// timed-out hook's folder may be there too: a worker that jest force-exits before its
		// exit cleanup ends leaves it to the same sweep, as on a slow CI machine.)
		const swept = /removed \d+ queue-mode data folder\(s\) a test file left: (.*)/.exec(out);
		expect(swept?.[1].trim().split(', ')).toContain(folderOf(dir, 'servers-crash'));
		expect(processesOfRun(id)).toEqual([]);
		expect(foldersOfRun(id)).toEqual([]);
		for (const name of ready(dir)) expect(existsSync(folderOf(dir, name))).toBe(false);
	});

	// A run's sweep takes its own folders and those of runs that ended, never those of a run
	// that goes on: its worker may be dead, but its teardown will name the folder (a CI run
	// failed when a nested e2e run's teardown swept the folder the queue run was to sweep).
	it('the sweep leaves the folders of a run that goes on to that run', () => {
		const dead = spawnSync(process.execPath, ['-e', 'process.pid']).pid; // a worker that is gone
		const goesOn = `cleanup-goes-on-${process.pid}`;
		mkdirSync(join(RUNS_DIR, goesOn), { recursive: true });
		writeFileSync(join(RUNS_DIR, goesOn, 'owner.json'), JSON.stringify({ pid: process.pid }));
		const folder = (run: string) => {
			const dir = mkdtempSync(join(tmpdir(), QUEUE_TMP_PREFIX));
			writeFileSync(join(dir, 'owner.json'), JSON.stringify({ pid: dead, run }));
			return dir;
		};
		const [other, ended, own] = [goesOn, 'r999999999-ended', runId()].map(folder);
		try {
			const swept = sweepQueueFolders();
			expect([other, ended, own].map((d) => swept.includes(d))).toEqual([false, true, true]);
			expect([other, ended, own].map(existsSync)).toEqual([true, false, false]);
			rmSync(join(RUNS_DIR, goesOn), { recursive: true, force: true }); // that run ends
			expect(sweepQueueFolders()).toContain(other);
			expect(existsSync(other)).toBe(false);
		} finally {
			for (const d of [other, ended, own, join(RUNS_DIR, goesOn)])
				rmSync(d, { recursive: true, force: true });
		}
	});

	it('Ctrl-C while the servers run leaves no process and no data folder', async () => {
		const { id, dir, jest } = nestedRun(['servers-ctrl-c'], 1);
		await eventually(() => expect(ready(dir)).toEqual(['servers-ctrl-c']), 60_000);
		expect(
			processesOfRun(id)
				.map((p) => p.cmd)
				.join('\n'),
		).toMatch(/redis-server[\s\S]*postgres|postgres[\s\S]*redis-server/);
		process.kill(-jest.pid, 'SIGINT'); // what a terminal does: the whole foreground group
		await exitWithin(jest, 30_000);
		await eventually(() => expect(processesOfRun(id)).toEqual([]), 10_000);
		expect(foldersOfRun(id)).toEqual([]);
		expect(existsSync(folderOf(dir, 'servers-ctrl-c'))).toBe(false);
	});
});
