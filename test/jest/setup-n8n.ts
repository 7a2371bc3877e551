/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * jest globalSetup of the suites that drive a real n8n (e2e): before any test file
 * starts, and outside every hook's timeout, the pack is built and packed (the e2e tests
 * install that tarball into n8n as users do) and the pinned n8n runtime installed
 * (`N8N_TEST_VERSION` picks it; the first time only: docs/development.md has the time). A failure stops the run
 * with one message that names the step and the fix. The e2e project's setup then starts the
 * n8n its files share (test/helpers/shared-n8n.ts).
 */
import { ensureDatabaseTemplate } from '../../testbed/n8n/database';
import { ensureRuntime, runtimeReady } from '../../testbed/runtime/install';
import { selectedRuntime } from '../../testbed/runtime/versions';
import { beginRun, say, step } from './run';
import { buildAndPack } from './setup-pack';
import { startSharedN8n } from '../helpers/shared-n8n';

const state = globalThis as { __bpN8nReady?: boolean };

/** The pack built and packed, the n8n runtime installed: what the e2e, queue and editor projects need. */
export async function prepareN8n(): Promise<void> {
	beginRun();
	// The e2e, queue and editor projects all need it: once per run.
	if (state.__bpN8nReady) return;
	state.__bpN8nReady = true;
	await buildAndPack();
	const { n8n, node } = selectedRuntime();
	if (runtimeReady()) say(`n8n runtime ${n8n} (Node ${node}): installed`);
	else
		await step(
			`install the n8n runtime ${n8n} on Node ${node} (first run only)`,
			async () => await ensureRuntime((l) => say(`  ${l}`)),
		);
}

/**
 * n8n's migrated database, which a new user folder starts from (testbed/n8n/database.ts): made once
 * per n8n version, before the first n8n of the run starts.
 */
export async function prepareDatabase(): Promise<void> {
	await step("n8n's database as its migrations leave it, for new user folders", async () =>
		say(`  ${await ensureDatabaseTemplate()}`),
	);
}

/** The e2e project's global setup: the above, and the n8n its files share, booting while the first files run. */
export default async function setupE2e(): Promise<void> {
	await prepareN8n();
	await prepareDatabase();
	await step(
		'the shared n8n for the e2e files (started; it boots in the background)',
		startSharedN8n,
	);
}
