/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * jest globalSetup of the editor suite (test/editor): what the e2e suite needs (the pack
 * built, the n8n runtime installed), plus Debian's Chromium, installed with apt-get the
 * first time when this runs as root, and the suite's n8ns (one per worker, booting in the
 * background: test/editor/editor-n8ns.ts).
 */
import type { Config } from '@jest/types';

import { CHROMIUM, ensureChromium } from '../../testbed/chromium';
import { startEditorN8ns } from '../editor/editor-n8ns';
import { say, step } from './run';
import { prepareDatabase, prepareN8n } from './setup-n8n';

export default async function setupEditor(config: Config.GlobalConfig): Promise<void> {
	await prepareN8n();
	await prepareDatabase();
	// One n8n per worker: files claim one each for their run. One only when a pattern picks files.
	const count = config.testPathPattern ? 1 : Math.max(1, Math.min(config.maxWorkers, 2));
	await step(
		`the editor files' n8ns (${count}, started; they boot in the background)`,
		async () => await startEditorN8ns(count),
	);
	const version = await step(
		`Chromium for the editor tests (${CHROMIUM})`,
		async () => await ensureChromium((l) => say(`  ${l}`)),
	);
	say(`  ${version}`);
}
