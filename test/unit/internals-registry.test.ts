/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The registry of n8n's internals (the table in nodes/shared/n8n-internals/index.ts) against the
 * code: every row names a file that exists, names that file holds, and a test that exists; every
 * "n8n-internals <number>" the node code says has its row; every numbered test of
 * test/integration/n8n-internals.test.ts has its row. A new shortcut cannot go unlisted.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const INDEX = 'nodes/shared/n8n-internals/index.ts';

interface Row {
	n: number;
	relies: string;
	file: string;
	names: string[];
	fallback: string;
	testFile: string;
	testTitle: string;
}

function registry(): Row[] {
	const text = readFileSync(join(ROOT, INDEX), 'utf8');
	const rows: Row[] = [];
	for (const line of text.split('\n')) {
		const m = /^ \* \| (\d+) \| (.+?) \| (.+?) \| (.+?) \| (.+?) \|$/.exec(line);
		if (!m) continue;
		const [file, names = ''] = m[3].split(' › ');
		const [testFile, testTitle = ''] = m[5].split(' › ');
		rows.push({
			n: Number(m[1]),
			relies: m[2],
			file: `nodes/${file}`,
			// A parenthesis explains instead of naming.
			names: names.startsWith('(') ? [] : names.split(',').map((s) => s.trim()),
			fallback: m[4],
			testFile,
			testTitle,
		});
	}
	return rows;
}

/** Every "n8n-internals N" (also "N and M") the code of nodes/ and credentials/ says, with where. */
function mentions(): Array<{ n: number; where: string }> {
	const out: Array<{ n: number; where: string }> = [];
	for (const dir of ['nodes', 'credentials'])
		for (const e of readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })) {
			if (!e.isFile() || !e.name.endsWith('.ts')) continue;
			const file = relative(ROOT, join(e.parentPath, e.name));
			const text = readFileSync(join(ROOT, file), 'utf8');
			for (const m of text.matchAll(/n8n[- ]internals?,? (\d+)(?: and (\d+))?/g))
				for (const n of [m[1], m[2]].filter(Boolean)) out.push({ n: Number(n), where: file });
		}
	return out;
}

describe('the registry of n8n internals (nodes/shared/n8n-internals/index.ts)', () => {
	const rows = registry();

	it('numbers its rows 1, 2, 3, … with nothing left empty', () => {
		expect(rows.length).toBeGreaterThanOrEqual(12);
		expect(rows.map((r) => r.n)).toEqual(rows.map((_, i) => i + 1));
		for (const r of rows) {
			for (const cell of [r.relies, r.fallback]) expect(cell.trim().length).toBeGreaterThan(5);
			expect(r.testTitle.trim()).not.toBe('');
		}
	});

	it.each(rows.map((r) => [r.n, r]))(
		'row %s: its file holds its names and says "n8n-internals <number>"',
		(_n, r) => {
			expect(existsSync(join(ROOT, r.file))).toBe(true);
			const text = readFileSync(join(ROOT, r.file), 'utf8');
			for (const name of r.names) expect(text).toMatch(new RegExp(`\\b${name}\\b`));
			expect(mentions().some((m) => m.n === r.n && m.where === r.file)).toBe(true);
		},
	);

	it.each(rows.map((r) => [r.n, r]))('row %s: the test that pins it exists', (_n, r) => {
		const path = join(ROOT, r.testFile);
		expect(existsSync(path)).toBe(true);
		const titles = [...readFileSync(path, 'utf8').matchAll(/\bit\(\s*(['"`])(.*?)\1/gs)].map(
			(m) => m[2],
		);
		const pinned = /^\d+\.$/.test(r.testTitle)
			? titles.filter((t) => t.startsWith(`${r.testTitle} `))
			: titles.filter((t) => t.includes(r.testTitle));
		expect(pinned.length).toBeGreaterThan(0);
	});

	it('has a row for every "n8n-internals <number>" in the code and every numbered test', () => {
		const known = new Set(rows.map((r) => r.n));
		expect(mentions().filter((m) => !known.has(m.n))).toEqual([]);
		const numbered = [
			...readFileSync(join(ROOT, 'test/integration/n8n-internals.test.ts'), 'utf8').matchAll(
				/\bit\(\s*['"`](\d+)\. /g,
			),
		].map((m) => Number(m[1]));
		expect(numbered.length).toBeGreaterThan(0);
		expect(numbered.filter((n) => !known.has(n))).toEqual([]);
	});
});
