/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Writes the description snapshot (test/descriptions/*.json) from the current code:
 * every parameter of every node version and of the credential.
 *
 *   npm run descriptions:update                      records additive changes
 *   npm run descriptions:update -- --accept-breaking records breaking ones too (only for
 *                                                    a version that never shipped)
 *
 * It refuses to record a change that breaks saved workflows: add a node version
 * instead (CONTRIBUTING.md). `npm run test:descriptions` checks the snapshot.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { breakingMessage, compareSnapshots } from '../testbed/descriptions/compare';
import {
	currentSnapshots,
	render,
	SNAPSHOT_DIR,
	snapshotFile,
	type Snapshot,
} from '../testbed/descriptions/snapshot';
import { ROOT } from '../testbed/root';

const acceptBreaking = process.argv.includes('--accept-breaking');
const current = currentSnapshots();
const wanted = new Set(current.map(snapshotFile));
const stale = readdirSync(SNAPSHOT_DIR)
	.filter((f) => f.endsWith('.json'))
	.map((f) => join(SNAPSHOT_DIR, f))
	.filter((f) => !wanted.has(f));

let refused = false;
const check = (old: Snapshot, now: Snapshot | undefined) => {
	const { breaking, additive } = compareSnapshots(old, now);
	if (breaking.length && !acceptBreaking) {
		console.error(`${breakingMessage(breaking, old.kind)}\n`);
		refused = true;
	}
	return breaking.length + additive.length;
};

let changes = 0;
for (const file of stale)
	changes += check(JSON.parse(readFileSync(file, 'utf8')) as Snapshot, undefined);
for (const now of current) {
	const file = snapshotFile(now);
	if (existsSync(file)) changes += check(JSON.parse(readFileSync(file, 'utf8')) as Snapshot, now);
	else changes++;
}
if (refused) {
	console.error(
		'Nothing was written. Rerun with --accept-breaking only for a node version that was never released.',
	);
	process.exit(1);
}
for (const file of stale) rmSync(file);
for (const now of current) {
	const file = snapshotFile(now);
	const text = render(now);
	if (!existsSync(file) || readFileSync(file, 'utf8') !== text) {
		writeFileSync(file, text);
		console.log(`wrote ${relative(ROOT, file)}`);
	}
}
console.log(changes ? `${changes} change(s) recorded.` : 'The snapshot already matches the code.');
