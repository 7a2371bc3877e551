/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * `npm run test:internals[:oldest]`: the pinned-behaviour tests of nodes/shared/n8n-internals/
 * (test/integration/n8n-internals.test.ts), the polling state machine's property
 * (test/integration/polling-machine.property.test.ts), the Sales Trigger's polling events and
 * their property (test/integration/polling-crm.test.ts, polling-crm.property.test.ts) and the
 * Trigger's healing poll (test/integration/trigger-heal.test.ts), against one end of the tested
 * n8n range. The newest
 * end is the devDependencies' n8n-core; any other version (`N8N_TEST_VERSION`, `oldest` for
 * 1.123.81) runs with that version's n8n-core and n8n-workflow from its pinned runtime
 * (installed on first use, as the e2e suite does), through jest's module mapping.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { ensureRuntime, runtimePaths } from '../testbed/runtime/install';
import { DEFAULT_N8N_VERSION, selectedRuntime } from '../testbed/runtime/versions';

async function main(): Promise<number> {
	const { n8n } = selectedRuntime();
	const env: NodeJS.ProcessEnv = { ...process.env };
	if (n8n !== DEFAULT_N8N_VERSION) {
		const paths = await ensureRuntime((l) => process.stdout.write(`${l}\n`), runtimePaths());
		env.BP_N8N_CORE_DIR = join(paths.n8nDir, 'node_modules');
		process.stdout.write(`n8n-core and n8n-workflow of n8n ${n8n}: ${env.BP_N8N_CORE_DIR}\n`);
	} else process.stdout.write(`n8n-core of the devDependencies (n8n ${n8n})\n`);
	const args = [
		require.resolve('jest/bin/jest'),
		'--selectProjects',
		'integration',
		'--testPathPattern',
		'test/integration/(n8n-internals|polling-machine.property|polling-crm|trigger-heal)',
		'--verbose',
	];
	// n8n-core 1.x keeps a handle of its own open after the run (jest: "did not exit one second after"); the
	// sandbox and everything the test started are stopped by then, so jest may end the process.
	if (env.BP_N8N_CORE_DIR) args.push('--forceExit');
	const jest = spawnSync(process.execPath, args, { env, stdio: 'inherit' });
	return jest.status ?? 1;
}

main().then(
	(code) => process.exit(code),
	(e: unknown) => {
		process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
		process.exit(1);
	},
);
