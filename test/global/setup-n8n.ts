/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * jest globalSetup of the suites that drive a real n8n (e2e): before any test file
 * starts, and outside every hook's timeout, the pack is built and packed (the e2e tests
 * install that tarball into n8n as users do); the pinned n8n runtime is installed in the
 * background while the files that need no n8n run (`N8N_TEST_VERSION` picks it; the first
 * time only: docs/development.md has the time). A failed build stops the run with one message
 * that names the step and the fix. The e2e project's setup then starts the n8n its files share
 * (test/e2e/shared-n8n.ts), once the runtime is there.
 */
import { ensureRuntime, runtimeReady } from '../../scripts/n8n-runtime';
import { selectedRuntime } from '../../scripts/n8n-versions';
import { beginRun, say, step } from './run';
import { buildAndPack } from './setup-pack';
import { startSharedN8n } from '../e2e/shared-n8n';

const state = globalThis as { __bpN8nReady?: boolean; __bpRuntime?: Promise<void> };

/**
 * The pack built and packed, the n8n runtime being installed: what the e2e, queue and editor
 * projects need. The install (minutes, on a fresh machine) runs in the background, so the unit,
 * integration and package files run meanwhile; whatever starts an n8n waits for it
 * (scripts/n8n-runtime.ts startN8n and the shared n8n call ensureRuntime, which waits on the
 * install's lock). A failed install is said here, and each file that needs n8n fails with it.
 */
export async function prepareN8n(): Promise<void> {
	beginRun();
	// The e2e, queue and editor projects all need it: once per run.
	if (state.__bpN8nReady) return;
	state.__bpN8nReady = true;
	await buildAndPack();
	const { n8n, node } = selectedRuntime();
	if (runtimeReady()) {
		say(`n8n runtime ${n8n} (Node ${node}): installed`);
		return;
	}
	const t0 = Date.now();
	say(
		`install the n8n runtime ${n8n} on Node ${node} (first run only): in the background; the files that start an n8n wait for it`,
	);
	state.__bpRuntime = ensureRuntime((l) => say(`  ${l}`)).then(
		() => say(`n8n runtime ${n8n}: installed in ${Math.round((Date.now() - t0) / 1000)} s`),
		(e: unknown) =>
			say(
				`n8n runtime ${n8n}: the install FAILED (the files that start an n8n fail with it): ${e instanceof Error ? e.message : String(e)}`,
			),
	);
}

/** The background install, if one runs (the global teardown waits for it: nothing half installed is left). */
export async function runtimeInstall(): Promise<void> {
	await state.__bpRuntime;
}

/** The e2e project's global setup: the above, and the n8n its files share, booting while the first files run. */
export default async function setupE2e(): Promise<void> {
	await prepareN8n();
	await step(
		'the shared n8n for the e2e files (started; it boots in the background)',
		startSharedN8n,
	);
}
