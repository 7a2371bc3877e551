/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The temp folders of queue mode's clusters (databases, user folders): each removed by its owner, at an exit
 * that runs no cleanup, or by the next run's sweep.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { alive, onExitSync, runAlive, runId } from '../processes';

export const QUEUE_TMP_PREFIX = 'bp-queue-';
/** Set by the queue suite's global setup, with the reason, where queue mode cannot run. */
export const QUEUE_SKIP_ENV = 'BP_QUEUE_SKIP';
function removeFolder(dir: string): void {
	rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}

/**
 * A temp folder for one cluster's data (databases, user folders), removed by `remove()`,
 * at an exit that runs no cleanup (Ctrl-C: the process registry stops the servers first,
 * then removes it), and otherwise by the next run's `sweepQueueFolders()` (its owner file
 * names a process that is gone).
 */
export function queueTempFolder(): { dir: string; remove: () => void } {
	const dir = mkdtempSync(join(tmpdir(), QUEUE_TMP_PREFIX));
	writeFileSync(join(dir, 'owner.json'), JSON.stringify({ pid: process.pid, run: runId() }));
	const forget = onExitSync(() => removeFolder(dir));
	return {
		dir,
		remove: () => {
			removeFolder(dir);
			forget();
		},
	};
}

const youngerThan = (path: string, ms: number) => {
	try {
		return Date.now() - statSync(path).mtimeMs < ms;
	} catch {
		return true; // gone meanwhile: nothing to remove
	}
};

/**
 * Removes the queue folders whose owner process is gone (a test worker killed with SIGKILL)
 * and whose run is this one or has ended: a folder of another run that still goes on is
 * left to that run's own teardown, so runs side by side (the nested runs of the cleanup
 * tests) never sweep each other's. Returns them.
 */
export function sweepQueueFolders(): string[] {
	const removed: string[] = [];
	for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(QUEUE_TMP_PREFIX))) {
		const dir = join(tmpdir(), name);
		let owner = { pid: 0, run: '' };
		try {
			owner = JSON.parse(readFileSync(join(dir, 'owner.json'), 'utf8')) as typeof owner;
		} catch {
			// no owner file: a folder whose creation was interrupted, or is going on right now
			if (youngerThan(dir, 60_000)) continue;
		}
		if (owner.pid && alive(Number(owner.pid))) continue;
		if (owner.run && owner.run !== runId() && runAlive(String(owner.run))) continue;
		removeFolder(dir);
		removed.push(dir);
	}
	return removed;
}
