/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The test environment of every suite: jest's node environment plus a process registry
 * (testbed/processes.ts) for the test file. Everything the file starts through
 * `spawnGroup` or registers with `onCleanup` is stopped after the file's last hook —
 * also when a hook failed or timed out — and anything a still-running hook starts
 * later is stopped at once.
 */
import NodeEnvironment from 'jest-environment-node';

import { closeRegistry, createRegistry, type Registry } from '../../testbed/processes';

export default class TestEnvironment extends NodeEnvironment {
	private readonly registry: Registry = createRegistry();

	async setup(): Promise<void> {
		await super.setup();
		this.global.__bpProcessRegistry = this.registry;
	}

	async teardown(): Promise<void> {
		await closeRegistry(this.registry);
		await super.teardown();
	}
}
