/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Nested jest runs for the tests of the cleanup (test/e2e/cleanup.e2e.test.ts,
 * test/queue/cleanup.test.ts): fixture files that go wrong on purpose, run with the same
 * environment and global setup/teardown as `npm test`, under a run id of their own.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import { ROOT } from '../../testbed/root';
import { runScratch, spawnGroup, type Managed } from '../../testbed/processes';

const CONFIG = join(ROOT, 'test', 'e2e', 'fixtures', 'cleanup', 'jest.config.js');
const JEST = require.resolve('jest/bin/jest');

/** Runs the named fixtures (`<name>.fixture.ts`); `dir` receives their `<name>.ready` files. */
export function nestedRun(
	fixtures: string[],
	workers = 2,
): { id: string; dir: string; jest: Managed } {
	const id = `cleanup-${randomUUID().slice(0, 8)}`;
	const dir = runScratch('bp-cleanup-');
	const jest = spawnGroup(
		'nested jest',
		process.execPath,
		[
			JEST,
			'--config',
			CONFIG,
			`--maxWorkers=${workers}`,
			'--ci',
			...fixtures.map((f) => `${f}.fixture.ts`),
		],
		{
			cwd: ROOT,
			env: { ...process.env, BP_NEW_RUN_ID: id, BP_FIXTURE_DIR: dir },
		},
	);
	return { id, dir, jest };
}

export async function exitWithin(jest: Managed, ms: number): Promise<number | null> {
	const timer = new Promise<'hung'>((r) => setTimeout(() => r('hung'), ms).unref());
	const result = await Promise.race([jest.exit, timer]);
	if (result === 'hung')
		throw new Error(
			`the nested jest did not exit within ${ms / 1000} s:\n${jest.output().slice(-3000)}`,
		);
	return result.code;
}

/** The fixtures that got as far as writing their ready file. */
export const ready = (dir: string) =>
	readdirSync(dir)
		.filter((f) => f.endsWith('.ready'))
		.map((f) => f.replace(/\.ready$/, ''))
		.sort();
