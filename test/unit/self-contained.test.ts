/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The repository needs nothing beside it: no test, script, sandbox, node or benchmark
 * file names the platform's API documents or the notes they came with (the contract,
 * contract/openapi.yaml, holds what the code relies on), and no relative path in them
 * climbs out of the repository. Each relative path is resolved from its file: the nodes'
 * imports of their common folder, nodes/shared/ (from nodes/<Node>/methods/ for instance),
 * stay inside the repository, which a plain text search for the folder name cannot tell.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const FOLDERS = [
	'test',
	'scripts',
	'testbed',
	'demo',
	'sandbox',
	'nodes',
	'bench',
	'credentials',
	'contract',
	'.ci',
];
const OUTSIDE_NAMES = [['shared', 'spec'].join('/'), ['shared', 'notes'].join('/')];

function files(dir: string): string[] {
	const out: string[] = [];
	for (const name of readdirSync(dir)) {
		if (name === 'node_modules' || name === 'results') continue;
		const p = join(dir, name);
		if (statSync(p).isDirectory()) out.push(...files(p));
		else if (/\.(ts|js|mjs|cjs|json|ya?ml|sh|md)$/.test(name) || !name.includes('.')) out.push(p);
	}
	return out;
}

const all = FOLDERS.flatMap((f) => {
	try {
		return files(join(ROOT, f));
	} catch {
		return [];
	}
}).concat(['jest.config.js', 'package.json'].map((f) => join(ROOT, f)));

const escapes = (from: string, target: string) =>
	relative(ROOT, resolve(from, target)).startsWith('..');

describe('the repository is self-contained', () => {
	it('names neither the API documents nor the notes beside the repository', () => {
		const found = all.flatMap((f) =>
			readFileSync(f, 'utf8')
				.split('\n')
				.map((line, i) => ({ line, at: `${relative(ROOT, f)}:${i + 1}` }))
				.filter(({ line }) => OUTSIDE_NAMES.some((n) => line.includes(n)))
				.map(({ at }) => at),
		);
		expect(found).toEqual([]);
	});

	it('has no relative path that leaves the repository', () => {
		const found: string[] = [];
		for (const f of all) {
			const text = readFileSync(f, 'utf8');
			for (const m of text.matchAll(/(['"`])((?:\.\.\/)+[^'"`\s]*)\1/g))
				if (escapes(dirname(f), m[2])) found.push(`${relative(ROOT, f)}: ${m[2]}`);
			for (const m of text.matchAll(/(?:join|resolve)\(__dirname((?:,\s*'[^']*')+)\)/g)) {
				const parts = [...m[1].matchAll(/'([^']*)'/g)].map((x) => x[1]);
				if (escapes(dirname(f), join(...parts))) found.push(`${relative(ROOT, f)}: ${m[0]}`);
			}
		}
		expect(found).toEqual([]);
	});
});
