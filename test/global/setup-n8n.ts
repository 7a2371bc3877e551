/**
 * jest globalSetup of the suites that drive a real n8n (e2e): before any test file
 * starts, and outside every hook's timeout, the pack is built and the pinned n8n
 * runtime installed (first time: about 5 minutes). A failure stops the run with one
 * message that names the step and the fix.
 */
import { buildPack } from '../../scripts/build';
import { ensureRuntime, runtimeReady } from '../../scripts/n8n-runtime';
import { selectedRuntime } from '../../scripts/n8n-versions';
import { beginRun, say, step } from './run';

const state = globalThis as { __bpN8nReady?: boolean };

export default async function setupN8n(): Promise<void> {
	beginRun();
	// The e2e, queue and editor projects all need it: once per run.
	if (state.__bpN8nReady) return;
	state.__bpN8nReady = true;
	const built = await step('build the pack (npm run build)', async () => await buildPack());
	if (!built) say('build the pack: dist/ is newer than every source file, kept');
	const { n8n, node } = selectedRuntime();
	if (runtimeReady()) say(`n8n runtime ${n8n} (Node ${node}): installed`);
	else await step(`install the n8n runtime ${n8n} on Node ${node} (first run only)`, async () => await ensureRuntime((l) => say(`  ${l}`)));
}
