/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * jest globalSetup (every run): the run's id, processes of earlier killed runs stopped, a folder
 * of the run where the platform contract is kept parsed for every test file's sandboxes, and the
 * young generation of every worker and what it starts (set before jest forks its workers).
 */
import { runScratch, withYoungGeneration } from '../../testbed/processes';
import { CONTRACT_CACHE_ENV } from '../../sandbox/src/contract/load';
import { beginRun } from './run';

export default function globalSetup(): void {
	beginRun();
	process.env[CONTRACT_CACHE_ENV] ??= runScratch('contract-');
	process.env.NODE_OPTIONS = withYoungGeneration(process.env.NODE_OPTIONS);
}
