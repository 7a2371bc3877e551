/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The figures the docs quote cannot drift from the reference run: every `<!-- bench:<name> -->`
 * block of docs/performance.md and CHANGELOG.md equals what bench/docs.ts makes of the committed
 * bench/results/latest.json (`npm run bench:docs` writes them), every table of docs/performance.md
 * with a Ratio column is such a block, the matrix names every judged row of the run with the
 * target the run judged it by and no row the run does not have, no placeholder is left in the
 * docs, and the CHANGELOG's Speed section quotes no ratio outside a block unless its sentence
 * says which run it is from. A synthetic change to a figure is shown to fail.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { blockNames, BLOCKS, DOC_FILES, renderBlocks, type Latest } from '../../bench/docs';
import { fmt, targetText } from '../../bench/rows';

const ROOT = join(__dirname, '../..');
const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');
const latest = JSON.parse(read('bench/results/latest.json')) as Latest;

/** The text with every block's content left out. */
const outsideBlocks = (text: string) =>
	text.replace(/<!-- bench:([a-z-]+) -->\n[\s\S]*?<!-- \/bench:\1 -->/g, '');

describe.each(DOC_FILES)('%s', (file) => {
	const text = read(file);

	it('has blocks of figures, each equal to what bench/docs.ts makes of bench/results/latest.json (npm run bench:docs)', () => {
		expect(blockNames(text).length).toBeGreaterThan(0);
		expect(renderBlocks(text, latest)).toBe(text);
	});
});

it('a figure changed by hand in a block, or a row the run does not have, is found', () => {
	const doc = ['x', '<!-- bench:headline -->', 'old', '<!-- /bench:headline -->', 'y'].join('\n');
	const current = renderBlocks(doc, latest);
	expect(current).not.toBe(doc);
	const row = latest.rows[0];
	const edited = current.replace(`${fmt(row.ratio, 2)}×`, `${fmt(row.ratio + 1, 2)}×`);
	if (current.includes(`${fmt(row.ratio, 2)}×`))
		expect(renderBlocks(edited, latest)).not.toBe(edited);
	expect(() =>
		renderBlocks(doc, { ...latest, rows: latest.rows.filter((r) => r.id !== 'package-load') }),
	).toThrow(/has no row package-load/);
	expect(() => renderBlocks('<!-- bench:nothing -->\nz\n<!-- /bench:nothing -->', latest)).toThrow(
		/unknown bench block "nothing"/,
	);
	expect(Object.keys(BLOCKS)).toEqual(
		expect.arrayContaining(['rows', 'info', 'memory', 'run', 'shortfall', 'headline', 'changelog']),
	);
});

it('the shortfall names every row the run did not meet, with its figures, and says so when every row met', () => {
	const unmet = latest.rows.filter((r) => !r.met);
	const text = BLOCKS.shortfall(latest);
	for (const r of unmet)
		expect(text).toContain(`\`${r.id}\`: ${fmt(r.ratio, 2)}× against a target of ${targetText(r)}`);
	const met = latest.rows.filter((r) => r.met);
	for (const r of met) expect(text).not.toContain(`- \`${r.id}\``);
	const allMet = { ...latest, rows: latest.rows.map((r) => ({ ...r, met: true })) };
	expect(BLOCKS.shortfall(allMet)).toBe(
		`Every judged row of the run of ${latest.date} met its target.`,
	);
	const onlyLoad = {
		...latest,
		rows: latest.rows.map((r) => ({ ...r, met: r.id !== 'package-load' })),
	};
	expect(BLOCKS.shortfall(onlyLoad)).toContain('- `package-load`:');
	expect(BLOCKS.shortfall(onlyLoad)).not.toContain('Why the memory rows fall short');
});

describe('docs/performance.md', () => {
	const text = read('docs/performance.md');

	it('has no table with a Ratio column outside a block', () => {
		const heads = outsideBlocks(text)
			.split('\n')
			.filter((l) => /^\|.*\bRatio\b.*\|$/.test(l));
		expect(heads).toEqual([]);
	});

	/** The matrix's lines, each with the row ids its first cell names (one or more, each in backticks). */
	const matrix = (() => {
		const start = text.indexOf('## The matrix');
		return text
			.slice(start, text.indexOf('\n## ', start + 5))
			.split('\n')
			.filter((l) => l.startsWith('| `'))
			.map((line) => ({
				line,
				ids: [...line.split('|')[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]),
			}));
	})();

	it("the matrix names every judged row of the run, each with the run's target", () => {
		const wrong = latest.rows.flatMap((r) => {
			const found = matrix.find((m) => m.ids.includes(r.id));
			if (!found) return [`${r.id}: not in the matrix`];
			return found.line.includes(targetText(r))
				? []
				: [`${r.id}: the matrix does not say ${targetText(r)}`];
		});
		expect(wrong).toEqual([]);
	});

	it('every judged row the matrix names is a row of the run (bench/results/latest.json)', () => {
		const rows = new Set(latest.rows.map((r) => r.id));
		expect(matrix.flatMap((m) => m.ids).filter((id) => !rows.has(id))).toEqual([]);
	});
});

it('no placeholder (@@NAME@@) is left in the docs', () => {
	const docs = [
		...new Set([
			...DOC_FILES,
			'README.md',
			'CONTRIBUTING.md',
			...readdirSync(join(ROOT, 'docs'), { recursive: true })
				.map(String)
				.filter((f) => f.endsWith('.md'))
				.map((f) => join('docs', f)),
		]),
	];
	const left = docs.flatMap((f) =>
		[...read(f).matchAll(/@@[A-Z][A-Z0-9_]*@@/g)].map((m) => `${f}: ${m[0]}`),
	);
	expect(left).toEqual([]);
});

describe('CHANGELOG.md', () => {
	it('quotes no ratio in its Speed section outside a block, unless the sentence names its run (a date)', () => {
		const text = read('CHANGELOG.md');
		const speed = text.slice(
			text.indexOf('### Speed'),
			text.indexOf('\n### ', text.indexOf('### Speed') + 5),
		);
		const loose = outsideBlocks(speed)
			.split(/(?<=\.)\s+(?=[A-Z(])/)
			.filter((sentence) => /\d×/.test(sentence) && !/\b20\d\d-\d\d-\d\d\b/.test(sentence));
		expect(loose).toEqual([]);
	});
});
