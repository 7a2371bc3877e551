/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * `npm run test:editor:load [-- runs]`: the editor suite on a busy machine, run as `npm run test:editor` runs it (2 workers). Two other processes keep both cores
 * busy (a loop each) while the suite runs `runs` times in a row (3 by default); it prints each run's result and time
 * and fails if any run failed. A test that reads the page once instead of waiting for what it asserts shows here.
 * The loops are stopped on every path (a failed run, Ctrl-C).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

const runs = Math.max(1, Number(process.argv[2] ?? 3) || 3);
const loops: ChildProcess[] = [];
const stopLoops = () => {
	for (const loop of loops) if (loop.exitCode === null) loop.kill('SIGKILL');
};
process.on('exit', stopLoops);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

for (let i = 0; i < 2; i++)
	loops.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));

let failed = 0;
for (let run = 1; run <= runs; run++) {
	const started = Date.now();
	const jest = spawnSync(
		process.execPath,
		[require.resolve('jest/bin/jest'), '--selectProjects', 'editor', '--maxWorkers=2', '--ci'],
		{ stdio: 'inherit' },
	);
	const seconds = Math.round((Date.now() - started) / 1000);
	if (jest.status !== 0) failed++;
	process.stdout.write(
		`\neditor suite under load, run ${run} of ${runs}: ${jest.status === 0 ? 'passed' : `FAILED (exit ${String(jest.status)})`} in ${seconds} s\n`,
	);
}
stopLoops();
process.stdout.write(
	`${runs - failed} passed, ${failed} failed (runs of the editor suite with both cores busy)\n`,
);
process.exit(failed ? 1 : 0);
