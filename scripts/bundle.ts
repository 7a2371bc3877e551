/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The second step of `npm run build` (after `n8n-node build`, which compiles with tsc and copies
 * the pictures): the published code as one file. esbuild bundles the sources of every node and the
 * credential into `dist/business-platform.js` (n8n-workflow left to n8n's own copy), and each file
 * package.json's "n8n" list names becomes a line that hands n8n that file's exports from the
 * bundle. tsc's per-file output is removed from dist/ (tsc stays the type checker).
 *
 * Why: n8n requires a community package's files at every start, and each require costs time
 * beyond compiling its code (resolving, reading, wrapping the file), so the same code loads
 * faster from one file (measured by bench/package.ts: docs/performance.md, package-load). Every
 * node's file reads the same bundle, so a module the nodes share is one instance.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

import { build } from 'esbuild';

import { ROOT } from '../testbed/root';

export const BUNDLE = 'dist/business-platform.js';

interface PackageN8n {
	n8n: { nodes: string[]; credentials: string[] };
}

/** `dist/nodes/X/X.node.js` → its key in the bundle (`nodes/X/X.node`), and the source it comes from. */
function entries(pkg: PackageN8n): Array<{ dist: string; key: string; source: string }> {
	return [...pkg.n8n.credentials, ...pkg.n8n.nodes].map((dist) => {
		const key = dist.replace(/^dist\//, '').replace(/\.js$/, '');
		return { dist, key, source: `./${key}.ts` };
	});
}

/** Every file under dist/ that tsc wrote (its JavaScript, maps and declarations). */
function compiledFiles(dir: string): string[] {
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((e) => e.isFile() && /\.(js|js\.map|d\.ts)$/.test(e.name))
		.map((e) => join(e.parentPath, e.name));
}

export async function bundle(root = ROOT): Promise<void> {
	const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageN8n;
	const files = entries(pkg);
	// One namespace per listed file: `nodes/X/X.node` → everything that file exports.
	const contents = files
		.map((f, i) => `import * as m${i} from ${JSON.stringify(f.source)};`)
		.concat(
			`export const files = {${files.map((f, i) => `${JSON.stringify(f.key)}: m${i}`).join(', ')}};`,
		)
		.join('\n');
	for (const file of compiledFiles(join(root, 'dist'))) rmSync(file);
	await build({
		stdin: { contents, resolveDir: root, sourcefile: 'package-entry.ts', loader: 'ts' },
		bundle: true,
		platform: 'node',
		format: 'cjs',
		target: 'node20',
		external: ['n8n-workflow'],
		outfile: join(root, BUNDLE),
		keepNames: true,
		sourcemap: true,
		sourcesContent: false,
		legalComments: 'none',
		logLevel: 'warning',
		tsconfig: join(root, 'tsconfig.json'),
	});
	for (const f of files) {
		const target = join(root, f.dist);
		// A path require() reads as a file, not a package name, with / on every system.
		const rel = relative(join(target, '..'), join(root, BUNDLE)).split(sep).join('/');
		const from = rel.startsWith('.') ? rel : `./${rel}`;
		writeFileSync(
			target,
			`"use strict";\n// The pack's code is one file, ${from} (scripts/bundle.ts).\nmodule.exports = require(${JSON.stringify(from)}).files[${JSON.stringify(f.key)}];\n`,
		);
	}
}

if (require.main === module)
	bundle().catch((error: unknown) => {
		console.error(error);
		process.exit(1);
	});
