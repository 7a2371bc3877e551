/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Builds the pack into dist/ (`npm run build`: tsc, then scripts/bundle.ts) unless dist/ is newer than every source
 * file that goes into it. Used by `npm test`'s global setup, `npm start` and the benchmarks.
 */
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { ROOT } from '../root';
import { spawnGroup } from '../processes';

const STAMP = join(ROOT, 'dist', '.built');
const INPUTS = ['nodes', 'credentials', 'package.json', 'tsconfig.json', 'scripts/bundle.ts'];

function newest(path: string): number {
	const s = statSync(path);
	if (!s.isDirectory()) return s.mtimeMs;
	return Math.max(s.mtimeMs, ...readdirSync(path).map((f) => newest(join(path, f))));
}

export function buildIsCurrent(): boolean {
	if (!existsSync(STAMP)) return false;
	return statSync(STAMP).mtimeMs >= Math.max(...INPUTS.map((i) => newest(join(ROOT, i))));
}

/** Builds when needed; returns whether it built. Throws with the compiler's output on failure. */
export async function buildPack(force = false): Promise<boolean> {
	if (!force && buildIsCurrent()) return false;
	const child = spawnGroup('npm run build', 'npm', ['run', '--silent', 'build'], { cwd: ROOT });
	const { code } = await child.exit;
	await child.stop(0);
	const out = child.output();
	if (code !== 0)
		throw new Error(
			`npm run build failed (exit ${code}): fix the compile errors below, then run again.\n${out.slice(-4000)}`,
		);
	writeFileSync(STAMP, new Date().toISOString());
	return true;
}
