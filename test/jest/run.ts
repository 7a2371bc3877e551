/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * One test run, seen from jest's main process: its id (every process the run starts
 * carries it, see testbed/processes.ts) and the progress lines of the global setup.
 */
import { randomUUID } from 'node:crypto';

import { ownRun, RUN_ENV, sweepAbandonedRuns } from '../../testbed/processes';

const started = Date.now();
const state = globalThis as { __bpRunBegun?: boolean };

/** Prints one progress line (stdout, so it shows before jest's own output). */
export function say(line: string): void {
	process.stdout.write(
		`[npm test ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}\n`,
	);
}

/** Starts the run once (whichever global setup comes first): a fresh id, and leftovers of killed runs swept. */
export function beginRun(): string {
	if (!state.__bpRunBegun) {
		state.__bpRunBegun = true;
		// BP_NEW_RUN_ID lets a test of the cleanup name the nested run it starts.
		process.env[RUN_ENV] =
			process.env.BP_NEW_RUN_ID || `r${process.pid}-${randomUUID().slice(0, 8)}`;
		ownRun(process.env[RUN_ENV]!);
		const swept = sweepAbandonedRuns();
		if (swept.length)
			say(
				`stopped ${swept.length} process(es) that an earlier, killed run left behind: ${swept.map((s) => `${s.pid} ${s.cmd.slice(0, 60)}`).join('; ')}`,
			);
	}
	return process.env[RUN_ENV]!;
}

/** Runs one setup step with a line before and after (elapsed time); a failure stops the run with its message alone. */
export async function step<T>(name: string, work: () => Promise<T> | T): Promise<T> {
	const t0 = Date.now();
	say(`${name}…`);
	try {
		const result = await work();
		say(`${name}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
		return result;
	} catch (e) {
		const message = e instanceof Error ? e.message : String(e);
		const error = new Error(`npm test stopped at setup step "${name}": ${message}`);
		error.stack = error.message; // the message is the whole story: no stack of the setup code
		throw error;
	}
}
