/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The editor files' n8ns (test/editor/editor-n8ns.ts): a file claims one for its run; no two
 * files hold the same n8n, and an n8n whose claiming worker died is taken over.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { runScratch } from '../../testbed/processes';
import { claim, claimFolder } from '../editor/editor-n8ns';

const n8ns = () => {
	const dir = runScratch('editor-claims-');
	return [1, 2].map((i) => ({ url: `http://127.0.0.1:${i}`, userFolder: join(dir, `n8n-${i}`) }));
};

/** A pid that no process has any more: a child that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

describe('claiming an editor n8n', () => {
	it('gives each claim another n8n and none while all are held', () => {
		const all = n8ns();
		const first = claim(all);
		const second = claim(all);
		expect(first).toBe(all[0]);
		expect(second).toBe(all[1]);
		expect(claim(all)).toBeUndefined();
		expect(readFileSync(join(claimFolder(all[0]), 'pid'), 'utf8')).toBe(String(process.pid));
		rmSync(claimFolder(all[0]), { recursive: true });
		expect(claim(all)).toBe(all[0]);
	});

	it('takes over an n8n whose claiming worker died, never one whose worker lives', () => {
		const all = n8ns();
		for (const [where, pid] of [
			[all[0], process.ppid],
			[all[1], deadPid()],
		] as const) {
			mkdirSync(claimFolder(where));
			writeFileSync(join(claimFolder(where), 'pid'), String(pid));
		}
		expect(claim(all)).toBe(all[1]);
		expect(readFileSync(join(claimFolder(all[1]), 'pid'), 'utf8')).toBe(String(process.pid));
		expect(claim(all)).toBeUndefined();
	});

	it('leaves alone a claim whose pid is not written yet (being claimed this moment)', () => {
		const all = n8ns().slice(0, 1);
		mkdirSync(claimFolder(all[0]));
		expect(claim(all)).toBeUndefined();
		expect(existsSync(join(claimFolder(all[0]), 'pid'))).toBe(false);
	});
});
