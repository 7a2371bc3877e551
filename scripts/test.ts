/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * `npm test`: jest over the layers unit, sandbox, integration, package, e2e and queue, but for the
 * files CI runs in a step of its own (OWN_STEP).
 *
 * - With the n8n runtime installed: one jest run, three workers, the long files first
 *   (test/jest/sequencer.js).
 * - Without it (a fresh clone): the runtime installs in the background (testbed/runtime/install.ts)
 *   while a first jest run takes the layers that need no n8n (unit, sandbox, integration, package;
 *   two workers), so that the minutes of the install are not minutes of an idle core; a second
 *   run takes e2e and queue (two workers) as soon as the runtime is in, beside what is left of
 *   the first. Both always run to their end (a failure in one does not hide the other's); the
 *   install's failure stops the second with the install's message. With `--json --outputFile=F` (what .ci/run passes) F holds both runs' results.
 *
 * Any other argument (a file, a pattern, `--selectProjects`) goes to one jest run as it was given,
 * where the runtime installs in jest's global setup.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ensureRuntime, runtimeReady } from '../testbed/runtime/install';
import { RUN_ENV, withYoungGeneration } from '../testbed/processes';

const ALL = ['unit', 'sandbox', 'integration', 'package', 'e2e', 'queue'];
/**
 * Files of those layers that CI runs in a step of its own instead (.ci/run, README "Two commands"), each
 * because a file left in `npm test` proves the same behaviour: the polling triggers in queue mode
 * (`npm run test:queue:polling`), whose schedulers, restarts, backlogs and CRM polling events
 * polling.e2e runs in one n8n process, while queue.test runs the pack's executions on workers.
 */
export const OWN_STEP = ['test/queue/queue-polling\\.test\\.ts$'];
const WITHOUT_N8N = ['unit', 'sandbox', 'integration', 'package'];
const WITH_N8N = ['e2e', 'queue'];
const JEST = require.resolve('jest/bin/jest');

const running = new Set<ReturnType<typeof spawn>>();

/** One jest run; resolves with its exit code. */
function jest(args: string[]): Promise<number> {
	const env: NodeJS.ProcessEnv = {
		...process.env,
		NODE_OPTIONS: withYoungGeneration(process.env.NODE_OPTIONS),
	};
	delete env[RUN_ENV]; // each jest run is a run of its own (test/jest/run.ts)
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [JEST, ...args], { stdio: 'inherit', env });
		running.add(child);
		child.on('exit', (code, signal) => {
			running.delete(child);
			resolve(code ?? (signal ? 1 : 0));
		});
	});
}

const say = (line: string) => process.stdout.write(`[npm test] ${line}\n`);

type Report = Record<string, unknown> & { testResults?: unknown[] };

/** Both runs' JSON reports as one: counts added up, results side by side. */
export function merge(reports: Report[]): Report {
	const sum = (k: string) => reports.reduce((n, r) => n + (Number(r[k]) || 0), 0);
	const counts = [
		'numFailedTestSuites',
		'numFailedTests',
		'numPassedTestSuites',
		'numPassedTests',
		'numPendingTestSuites',
		'numPendingTests',
		'numRuntimeErrorTestSuites',
		'numTodoTests',
		'numTotalTestSuites',
		'numTotalTests',
	];
	return {
		...reports[0],
		...Object.fromEntries(counts.map((k) => [k, sum(k)])),
		startTime: Math.min(...reports.map((r) => Number(r.startTime) || Date.now())),
		success: reports.every((r) => r.success === true),
		testResults: reports.flatMap((r) => r.testResults ?? []),
	};
}

async function main(): Promise<number> {
	for (const signal of ['SIGINT', 'SIGTERM'] as const)
		process.on(signal, () => {
			for (const child of running) child.kill(signal);
			process.exit(130);
		});
	const args = process.argv.slice(2);
	const outputFile = args.find((a) => a.startsWith('--outputFile='))?.slice('--outputFile='.length);
	const known = args.every((a) => a === '--ci' || a === '--json' || a.startsWith('--outputFile='));
	if (!known) return await jest(['--selectProjects', ...ALL, '--maxWorkers=3', ...args]);
	const ignore = OWN_STEP.map((p) => `--testPathIgnorePatterns=${p}`);
	if (runtimeReady())
		return await jest(['--selectProjects', ...ALL, '--maxWorkers=3', ...ignore, ...args]);

	say(
		'the n8n runtime is not installed: it installs now, while jest runs the tests that need no n8n',
	);
	const t0 = Date.now();
	const installing = ensureRuntime((l) => say(l)).then(
		() => undefined,
		(e: unknown) => (e instanceof Error ? e.message : String(e)),
	);
	const reports: Report[] = [];
	const run = async (projects: string[], workers: number) => {
		const file = outputFile ? join(tmpdir(), `bp-jest-${process.pid}-${projects[0]}.json`) : '';
		const extra = args.filter((a) => !a.startsWith('--outputFile='));
		const code = await jest([
			'--selectProjects',
			...projects,
			`--maxWorkers=${workers}`,
			...ignore,
			...extra,
			...(file ? [`--outputFile=${file}`] : []),
		]);
		if (file) {
			try {
				reports.push(JSON.parse(readFileSync(file, 'utf8')) as Report);
			} catch {
				// no report: the run's exit code says it failed
			}
			rmSync(file, { force: true });
		}
		return code;
	};
	const first = run(WITHOUT_N8N, 2);
	const failed = await installing;
	say(
		failed
			? `the n8n runtime's install failed, so the e2e and queue tests cannot run: ${failed}`
			: `the n8n runtime is installed (${Math.round((Date.now() - t0) / 1000)} s after it began): a second jest run takes the e2e and queue tests, beside the first`,
	);
	if (failed) reports.push({ numRuntimeErrorTestSuites: 1, success: false });
	// Two workers: polling.e2e (minutes, mostly waiting for n8n's minute ticks) on one, queue.test
	// then oauth-trigger on the other, the short e2e files after whichever ends first: about as soon
	// as three, with fewer processes beside the first run on two cores.
	const second = failed ? Promise.resolve(1) : run(WITH_N8N, 2);
	const codes = await Promise.all([first, second]);
	if (outputFile && reports.length) writeFileSync(outputFile, JSON.stringify(merge(reports)));
	return codes.find((c) => c !== 0) ?? 0;
}

if (require.main === module)
	main().then(
		(code) => process.exit(code),
		(e: unknown) => {
			process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
			process.exit(1);
		},
	);
