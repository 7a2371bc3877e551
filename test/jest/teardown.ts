/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * jest globalTeardown: whatever a test file left running (a crashed worker, a process
 * that escaped its group) is stopped, and named, and the data folders of queue-mode
 * clusters whose test worker died are removed, so the run ends with nothing behind.
 */
import { RUN_ENV, sweepRun } from '../../testbed/processes';
import { sweepQueueFolders } from '../../testbed/queue/folders';
import { rmSync } from 'node:fs';

import { stopSharedN8n } from '../helpers/shared-n8n';
import { stopEditorN8ns } from '../editor/editor-n8ns';
import { contractRunFolder, runContractCounts } from '../helpers/contract';
import { say } from './run';

/** One line: how much traffic this run held against contract/openapi.yaml. */
function contractLine(): void {
	const files = runContractCounts();
	if (!files.length) return;
	const total = (k: 'nodeRequests' | 'testRequests' | 'responses' | 'events') =>
		files.reduce((n, f) => n + f[k], 0);
	say(
		`contract/openapi.yaml: ${total('nodeRequests')} requests the nodes and n8n sent, ${total('responses')} sandbox answers and ${total('events')} event payloads checked ` +
			`in ${files.length} test files (${total('testRequests')} requests of the tests themselves), no violation left unreported`,
	);
	rmSync(contractRunFolder(), { recursive: true, force: true });
}

export default async function globalTeardown(): Promise<void> {
	// The n8ns the e2e and editor files shared are the run's own, not leftovers: stopped first.
	await stopSharedN8n();
	await stopEditorN8ns();
	const id = process.env[RUN_ENV];
	if (!id) return;
	contractLine();
	const swept = sweepRun(id);
	if (swept.length)
		say(
			`stopped ${swept.length} process(es) a test file left running: ${swept.map((s) => `${s.pid} ${s.cmd.slice(0, 80)}`).join('; ')}`,
		);
	// Queue-mode data folders of test files whose worker was killed (their owner is gone).
	const folders = sweepQueueFolders();
	if (folders.length)
		say(
			`removed ${folders.length} queue-mode data folder(s) a test file left: ${folders.join(', ')}`,
		);
}
