/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/** The package itself: load time (every node and the credential required and constructed) and the packed tarball. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

import { buildPack } from '../testbed/pack/build';
import { runtimePaths } from '../testbed/runtime/install';
import { ROOT, say } from './common';
import { fmt, row, type Section } from './rows';

export async function packageSection(): Promise<Section> {
	say('Package load time and tarball size…');
	// The package as n8n loads it: dist/ built from the sources (kept when it is newer than every one of them).
	await buildPack();
	// As n8n loads a package: each file of package.json's "n8n" list, the class its name says
	// (BusinessPlatformSales.node.js → BusinessPlatformSales), constructed. Other exports (helper
	// functions) are not classes n8n constructs. In a fresh process, best of 3 (one run may meet a
	// busy core), on the Node that runs n8n (the runtime's, when installed) and on this one.
	const script = `require('n8n-workflow');const p=require('./package.json');const b=Object.keys(require.cache).length;const t=process.hrtime.bigint();for(const f of [...p.n8n.credentials,...p.n8n.nodes]){const m=require('./'+f);const c=f.split('/').pop().replace(/\\.(node|credentials)\\.js$/,'');if(typeof m[c]!=='function')throw new Error(f+' exports no class '+c);new m[c]();}console.log(Number(process.hrtime.bigint()-t)/1e6, Object.keys(require.cache).length-b)`;
	const loadOn = (node: string) => {
		let best = { ms: Infinity, files: 0 };
		for (let round = 0; round < 3; round++) {
			const load = spawnSync(node, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
			const [ms, files] = load.stdout.trim().split(' ').map(Number);
			// A load that failed gives no row (never a zero that passes).
			if (load.status !== 0 || !Number.isFinite(ms) || !(ms > 0) || !Number.isInteger(files))
				throw new Error(
					`loading the built package failed (exit ${String(load.status)}): ${(load.stderr || load.stdout).slice(-1500)}`,
				);
			if (ms < best.ms) best = { ms, files };
		}
		return best;
	};
	const runtime = runtimePaths();
	const n8nNode = existsSync(runtime.node) ? runtime.node : process.execPath;
	const onN8n = loadOn(n8nNode);
	const onThis = n8nNode === process.execPath ? onN8n : loadOn(process.execPath);
	const nodeVersion = (node: string) =>
		spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
	const loadMs = onN8n.ms;
	const files = onN8n.files;
	const [tarball] = JSON.parse(
		spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: ROOT,
			encoding: 'utf8',
		}).stdout,
	) as Array<{ size: number; unpackedSize: number; entryCount: number }>;
	return {
		title: 'Package',
		rows: [
			row({
				id: 'package-load',
				scenario: `Load the package (require every node and the credential, construct them) on n8n's Node (${nodeVersion(n8nNode)}), best of 3`,
				pack: loadMs,
				baseline: 50,
				unit: 'ms',
				better: 'lower',
				target: 1,
				baselineLabel: 'the 50 ms budget',
				note: `${files} module files (the code bundled in one, and a file per node and the credential that n8n requires: scripts/bundle.ts); n8n loads a community package once, at start; on this process's Node (${process.version}) ${fmt(onThis.ms, 1)} ms`,
			}),
		],
		info: [
			{
				id: 'package-tarball',
				scenario: 'Packed tarball',
				value: tarball.size,
				unit: 'bytes',
				text: `${fmt(tarball.size / 1024, 1)} kB (${tarball.entryCount} files, ${fmt(tarball.unpackedSize / 1024)} kB unpacked)`,
			},
		],
		raw: {
			loadMs,
			loadMsThisNode: onThis.ms,
			tarball: {
				size: tarball.size,
				unpackedSize: tarball.unpackedSize,
				entryCount: tarball.entryCount,
			},
		},
	};
}
