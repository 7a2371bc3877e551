/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * `npm run tarball`: the package as n8n installs it, built from this clone (README, Installation →
 * "From a tarball"). Builds dist/ unless it is newer than every source (testbed/pack/build.ts),
 * packs it (testbed/pack/tarball.ts), checks that the tarball holds every file package.json's "n8n"
 * section names, copies it into the repository's folder and prints its path and the commands that
 * install it.
 *
 * Why not plain `npm pack`: the repository's .npmrc sets `ignore-scripts=true`, so that `npm ci`
 * builds no native addon of the development dependencies (isolated-vm and others fail to build on
 * Node 20). With it, npm runs no `prepack` or `prepare` script on `npm pack`, and npm never fails on
 * a missing `files` entry: on a clone that was not built, `npm pack` writes a package without
 * dist/ (LICENSE, README.md, package.json), which loads no node in n8n. npm 11.16 and later could
 * deny dependency scripts by name (`allowScripts` in package.json) instead, but npm 10, which Node 20
 * and 22 ship and this project's CI uses, ignores that field and would run them all.
 */
import { copyFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { buildPack } from '../testbed/pack/build';
import { missingFromTarball, packTarball } from '../testbed/pack/tarball';
import { ROOT } from '../testbed/root';

async function main(): Promise<void> {
	console.log('Building dist/ (tsc and esbuild; about 15 s the first time)…');
	await buildPack();
	const packed = packTarball();
	const missing = missingFromTarball(packed);
	if (missing.length)
		throw new Error(
			`the tarball lacks ${missing.length} file(s) package.json's "n8n" section names: ${missing.join(', ')}. Run npm run build and look at its output.`,
		);
	const target = join(ROOT, basename(packed));
	copyFileSync(packed, target);
	console.log(`Packed: ${target}`);
	console.log(
		[
			'Install it into n8n (in the folder n8n keeps its data in), then restart n8n:',
			'  mkdir -p ~/.n8n/nodes && cd ~/.n8n/nodes',
			`  npm install --legacy-peer-deps --no-audit --no-fund ${target}`,
		].join('\n'),
	);
}

if (require.main === module)
	main().catch((error: unknown) => {
		console.error(
			`npm run tarball failed: ${error instanceof Error ? error.message : String(error)}`,
		);
		process.exit(1);
	});
