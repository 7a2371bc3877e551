/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The figures the docs quote from the reference run, written from bench/results/latest.json alone,
 * so that they cannot drift from it: each is a block between `<!-- bench:<name> -->` and
 * `<!-- /bench:<name> -->` in docs/performance.md or CHANGELOG.md, and `npm run bench:docs` (also
 * a full `npm run bench`) rewrites every block from the JSON. test/unit/bench-docs.test.ts checks
 * that every block equals what this file makes of the committed latest.json. A figure of another
 * run stays outside the blocks and says which run it is from.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { fmt, figure, targetText, type BenchRow, type InfoRow } from './rows';

/** What the blocks read of bench/results/latest.json. */
export interface Latest {
	date: string;
	machine: string;
	load?: number[];
	failed?: string[];
	rows: BenchRow[];
	info?: InfoRow[];
	raw?: Record<string, any>;
}

/** The files that hold blocks, from the repository's root. */
export const DOC_FILES = ['docs/performance.md', 'CHANGELOG.md'];

/** The rows the chart and the short table show, in this order. */
export const HEADLINE = [
	'create-in-n8n-vs-n8n-floor',
	'trigger-vs-n8n-floor',
	'harness-vs-n8n-floor',
	'return-all-vs-n8n-floor',
	'return-all-records-memory-vs-floor',
	'return-all-records-raw-cells-memory-vs-floor',
	'return-all-contacts-memory-vs-floor',
	'package-load',
];

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function rowsTable(rows: BenchRow[]): string {
	return [
		'| Row | What | Pack | Baseline | Ratio | Target | Met |',
		'|---|---|---|---|---|---|---|',
		...rows.map(
			(r) =>
				`| \`${r.id}\` | ${cell(r.scenario)} | ${figure(r.pack, r.unit)} | ${figure(r.baseline, r.unit)} | ${fmt(r.ratio, 2)}× | ${targetText(r)} | ${r.met ? 'yes' : '**no**'} |`,
		),
	].join('\n');
}

function byId<T extends { id: string }>(list: T[], id: string): T {
	const found = list.find((x) => x.id === id);
	if (!found) throw new Error(`bench/results/latest.json has no row ${id}`);
	return found;
}

const runLine = (l: Latest) =>
	`Run of ${l.date} on ${l.machine}${l.load ? `, load average ${fmt(l.load[0], 1)} at its end` : ''} (bench/results/latest.json).`;

/** Return All's lowest-peak run of each scenario, from the harness section's raw figures. */
function memoryTable(l: Latest): string {
	const section = Object.values(l.raw ?? {}).find((s: any) => s?.returnAll) as any;
	if (!section)
		throw new Error('bench/results/latest.json has no Return All figures (raw.*.returnAll)');
	const ra = section.returnAll;
	const low = (runs: any[]) =>
		runs.reduce((a: any, b: any) => (b.peakHeapMb < a.peakHeapMb ? b : a));
	const mb = (bytes: number) => `${fmt(bytes / 1048576, 1)} MB`;
	const line = (what: string, r: any) =>
		`| ${what} | ${fmt(r.peakHeapMb, 1)} MB | ${fmt(r.retainedMb, 1)} MB | ${mb(r.bytes)} | ${fmt(r.items)} |`;
	return [
		'| Lowest peak of the rounds | Peak heap growth | Retained after the run | Output as JSON | Items |',
		'|---|---|---|---|---|',
		line('Bare client, records with cells by name', low(ra['return-all-records'].bare)),
		line('Pack, records with cells by name (default)', low(ra['return-all-records'].pack)),
		line('Bare client, records (raw cells)', low(ra['return-all-records-raw-cells'].bare)),
		line('Pack, records (raw cells)', low(ra['return-all-records-raw-cells'].pack)),
		line("n8n's floor for paging, records (raw cells)", low(ra.floor)),
		line('Bare client, contacts', low(ra['return-all-contacts'].bare)),
		line('Pack, contacts', low(ra['return-all-contacts'].pack)),
	].join('\n');
}

/** The memory rows in words: the pack against the bare client, and n8n's own floor against it. */
function memoryReading(l: Latest): string {
	const ids = [
		'return-all-records-memory-vs-floor',
		'return-all-records-raw-cells-memory-vs-floor',
		'return-all-contacts-memory-vs-floor',
	];
	const rows = ids.map((id) => byId(l.rows, id));
	const ra = (Object.values(l.raw ?? {}).find((s: any) => s?.returnAll) as any).returnAll;
	const low = (runs: any[]) => Math.min(...runs.map((r: any) => r.peakHeapMb));
	const bare = low(ra['return-all-records-raw-cells'].bare);
	const [floor, pack] = [low(ra.floor) / bare, rows[1].ratio];
	const met = rows.filter((r) => r.met).length;
	return [
		`The pack's peak is ${ratios(l, ids)} the bare client's (records with cells by name / raw cells / contacts;`,
		`goal ≤ ${fmt(rows[0].target, 2)}×: ${met === 3 ? 'met for all three' : `met for ${met} of 3`}). n8n's floor for paging, a node that`,
		`only calls \`helpers.httpRequest\` page after page and returns the records as items, peaks at ${fmt(floor, 2)}×`,
		`the bare client on the same records (raw cells), the pack at ${fmt(pack, 2)}×:`,
		pack <= floor ? "below n8n's own floor." : `${fmt(pack / floor, 2)}× n8n's own floor.`,
	].join(' ');
}

const ratios = (l: Latest, ids: string[]) =>
	ids.map((id) => `${fmt(byId(l.rows, id).ratio, 2)}×`).join(' / ');

/** Each block's text, made from the run's JSON alone. */
export const BLOCKS: Record<string, (l: Latest) => string> = {
	/** Every judged row of the reference run. */
	rows: (l) =>
		[
			runLine(l),
			...(l.failed?.length ? ['', `Failed sections: ${l.failed.join('; ')}.`] : []),
			'',
			rowsTable(l.rows),
		].join('\n'),
	/** Every figure without a target. */
	info: (l) =>
		[
			'| Figure | What | Value |',
			'|---|---|---|',
			...(l.info ?? []).map((i) => `| \`${i.id}\` | ${cell(i.scenario)} | ${cell(i.text)} |`),
		].join('\n'),
	/** Return All's memory, scenario by scenario, and what the judged rows make of it. */
	memory: (l) => [runLine(l), '', memoryTable(l), '', memoryReading(l)].join('\n'),
	/** The headline rows only. */
	headline: (l) => [runLine(l), '', rowsTable(HEADLINE.map((id) => byId(l.rows, id)))].join('\n'),
	/** The CHANGELOG's figures of the release. */
	changelog: (l) => {
		const load = byId(l.rows, 'package-load');
		const floor = ['c1', 'c5', 'c20'].map((c) => `create-in-n8n-vs-n8n-floor-${c}`);
		const http = ['c1', 'c5', 'c20'].map((c) =>
			(l.info ?? []).find((i) => i.id === `create-in-n8n-vs-http-static-${c}`),
		);
		const memory = [
			'return-all-records-memory-vs-floor',
			'return-all-records-raw-cells-memory-vs-floor',
			'return-all-contacts-memory-vs-floor',
		];
		return [
			`- In the reference run (bench/results/latest.json, ${l.date}): creates inside n8n at ${ratios(l, floor)} of n8n's floor for any node (1 / 5 / 20 in parallel)`,
			http.every(Boolean)
				? ` and ${http.map((i) => `${fmt(i!.value, 2)}×`).join(' / ')} of n8n's HTTP Request node with a static header (the median of the rounds)`
				: '',
			`; Return All's peak heap at ${ratios(l, memory)} of a bare client holding the same records, raw cells and contacts`,
			`; the package loads in ${figure(load.pack, load.unit)} on n8n's Node.`,
		].join('');
	},
};

/** A block: its opening mark, its text (none in a new block), its closing mark, each on lines of their own. */
const BLOCK = /(<!-- bench:([a-z-]+) -->\n)([\s\S]*?\n)?(<!-- \/bench:\2 -->)/g;

/** The names of the blocks in a text, in order. */
export const blockNames = (text: string): string[] => [...text.matchAll(BLOCK)].map((m) => m[2]);

/** The text with every block rewritten from the run's JSON. */
export function renderBlocks(text: string, latest: Latest): string {
	return text.replace(BLOCK, (_all, open: string, name: string, _old: string, close: string) => {
		const make = BLOCKS[name];
		if (!make)
			throw new Error(`unknown bench block "${name}" (known: ${Object.keys(BLOCKS).join(', ')})`);
		return `${open}${make(latest)}\n${close}`;
	});
}

/** Rewrites the blocks of DOC_FILES under `root` from its bench/results/latest.json; returns the files changed. */
export function writeDocs(root: string, latest?: Latest): string[] {
	const run =
		latest ?? (JSON.parse(readFileSync(join(root, 'bench/results/latest.json'), 'utf8')) as Latest);
	return DOC_FILES.filter((f) => {
		const text = readFileSync(join(root, f), 'utf8');
		const next = renderBlocks(text, run);
		if (next !== text) writeFileSync(join(root, f), next);
		return next !== text;
	});
}

// `npm run bench:docs`: the docs' blocks from bench/results/latest.json, no benchmark run.
if (require.main === module) {
	const changed = writeDocs(join(__dirname, '..'));
	process.stdout.write(
		changed.length ? `Rewritten: ${changed.join(', ')}\n` : 'Every block was current.\n',
	);
}
