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

/** The reference run in one line: when, where, how loaded, and how many of its judged rows met their target. */
function referenceRun(l: Latest): string {
	const load = l.load?.length
		? `; load average ${l.load.map((x) => fmt(x, 2)).join(' / ')} (1, 5 and 15 minutes) at its end`
		: '';
	const met = l.rows.filter((r) => r.met).length;
	return [
		`The reference run (bench/results/latest.json): ${l.date}, on ${l.machine}${load}.`,
		`${met} of its ${l.rows.length} judged rows met their target${met < l.rows.length ? ' (what fell short, and why: below the tables)' : ''}.`,
		...(l.failed?.length ? [`Sections that failed and gave no rows: ${l.failed.join('; ')}.`] : []),
	].join(' ');
}

const runLine = (l: Latest) =>
	`Run of ${l.date} on ${l.machine}${l.load ? `, load average ${fmt(l.load[0], 1)} at its end` : ''} (bench/results/latest.json).`;

/** Return All's runs of the memory scenarios (raw.*.returnAll), by scenario. */
function returnAllRuns(l: Latest): any {
	const section = Object.values(l.raw ?? {}).find((s: any) => s?.returnAll) as any;
	if (!section)
		throw new Error('bench/results/latest.json has no Return All figures (raw.*.returnAll)');
	return section.returnAll;
}

/** The run of the lowest peak among a scenario's rounds (the judged rows take the same). */
const lowest = (runs: any[]) =>
	runs.reduce((a: any, b: any) => (b.peakHeapMb < a.peakHeapMb ? b : a));

/** n8n's floor for paging and the pack, each as a multiple of the bare client's peak on the same records (raw cells). */
function againstBare(l: Latest): { floor: number; pack: number } {
	const ra = returnAllRuns(l);
	const bare = lowest(ra['return-all-records-raw-cells'].bare).peakHeapMb;
	return {
		floor: lowest(ra.floor).peakHeapMb / bare,
		pack: byId(l.rows, 'return-all-records-raw-cells-memory-vs-floor').ratio,
	};
}

/** Return All's lowest-peak run of each scenario, from the harness section's raw figures. */
function memoryTable(l: Latest): string {
	const ra = returnAllRuns(l);
	const mb = (bytes: number) => `${fmt(bytes / 1048576, 1)} MB`;
	const line = (what: string, r: any) =>
		`| ${what} | ${fmt(r.peakHeapMb, 1)} MB | ${fmt(r.retainedMb, 1)} MB | ${mb(r.bytes)} | ${fmt(r.items)} |`;
	return [
		'| Lowest peak of the rounds | Peak heap growth | Retained after the run | Output as JSON | Items |',
		'|---|---|---|---|---|',
		line('Bare client, records with cells by name', lowest(ra['return-all-records'].bare)),
		line('Pack, records with cells by name (default)', lowest(ra['return-all-records'].pack)),
		line('Bare client, records (raw cells)', lowest(ra['return-all-records-raw-cells'].bare)),
		line('Pack, records (raw cells)', lowest(ra['return-all-records-raw-cells'].pack)),
		line("n8n's floor for paging, records (raw cells)", lowest(ra.floor)),
		line('Bare client, contacts', lowest(ra['return-all-contacts'].bare)),
		line('Pack, contacts', lowest(ra['return-all-contacts'].pack)),
	].join('\n');
}

const MEMORY_ROWS = [
	'return-all-records-memory-vs-floor',
	'return-all-records-raw-cells-memory-vs-floor',
	'return-all-contacts-memory-vs-floor',
];

/** The memory rows in words: the pack against the bare client, and n8n's own floor against it. */
function memoryReading(l: Latest): string {
	const rows = MEMORY_ROWS.map((id) => byId(l.rows, id));
	const { floor, pack } = againstBare(l);
	const met = rows.filter((r) => r.met).length;
	return [
		`The pack's peak is ${ratios(l, MEMORY_ROWS)} the bare client's (records with cells by name / raw cells / contacts;`,
		`goal ≤ ${fmt(rows[0].target, 2)}×: ${met === 3 ? 'met for all three' : `met for ${met} of 3`}). n8n's floor for paging, a node that`,
		`only calls \`helpers.httpRequest\` page after page and returns the records as items, peaks at ${fmt(floor, 2)}×`,
		`the bare client on the same records (raw cells), the pack at ${fmt(pack, 2)}×:`,
		pack <= floor ? "below n8n's own floor." : `${fmt(pack / floor, 2)}× n8n's own floor.`,
	].join(' ');
}

/**
 * Why memory rows fall short of their goal against the bare client: fixed words (n8n's item
 * wrappers, n8n's request helper per page, n8n's own floor for paging) beside the run's figures
 * (what the pack retains beyond the bare client, the floor's and the pack's peak against it).
 */
function memoryShortfall(l: Latest, unmet: BenchRow[]): string[] {
	const memory = unmet.filter((r) => MEMORY_ROWS.includes(r.id));
	if (!memory.length) return [];
	const ra = returnAllRuns(l);
	const retained = memory.map((r) => {
		const runs = ra[r.id.replace(/-memory-vs-floor$/, '')];
		const [pack, bare] = [lowest(runs.pack).retainedMb, lowest(runs.bare).retainedMb];
		return `\`${r.id}\`: ${fmt(pack - bare, 1)} MB more, ${fmt(pack, 1)} MB against ${fmt(bare, 1)} MB`;
	});
	const { floor, pack } = againstBare(l);
	return [
		'',
		[
			`Why the memory rows fall short: after the run the pack retains a few MB more than the bare client holding the`,
			`same items (${retained.join('; ')}): n8n's item wrappers, \`{ json, pairedItem }\` around each output item, which`,
			`n8n requires. The rest of the difference in peak is what n8n's request helper holds per page while the pages come`,
			`in (axios: the response as a Buffer, a string, then the parsed page). n8n's own floor for paging, a node with no`,
			`pack code that calls \`helpers.httpRequest\` page after page and returns the records as items, peaks at`,
			`${fmt(floor, 2)}× the bare client on the same records (raw cells), the pack at ${fmt(pack, 2)}×.`,
		].join(' '),
	];
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
	/** The reference run: date, machine and Node, load average, how many rows met their target. */
	run: referenceRun,
	/** Every judged row that did not meet its target, with its figures, and why (memory rows). */
	shortfall: (l) => {
		const unmet = l.rows.filter((r) => !r.met);
		if (!unmet.length) return `Every judged row of the run of ${l.date} met its target.`;
		return [
			`Not met in the run of ${l.date}: ${unmet.length} of ${l.rows.length} judged rows.`,
			'',
			...unmet.map(
				(r) =>
					`- \`${r.id}\`: ${fmt(r.ratio, 2)}× against a target of ${targetText(r)}; pack ${figure(r.pack, r.unit)}, baseline ${figure(r.baseline, r.unit)} (${cell(r.baselineLabel)}).`,
			),
			...memoryShortfall(l, unmet),
		].join('\n');
	},
	/** The headline rows only. */
	headline: (l) => [runLine(l), '', rowsTable(HEADLINE.map((id) => byId(l.rows, id)))].join('\n'),
	/** The CHANGELOG's figures of the release. */
	changelog: (l) => {
		const load = byId(l.rows, 'package-load');
		const floor = ['c1', 'c5', 'c20'].map((c) => `create-in-n8n-vs-n8n-floor-${c}`);
		const http = ['c1', 'c5', 'c20'].map((c) =>
			(l.info ?? []).find((i) => i.id === `create-in-n8n-vs-http-static-${c}`),
		);
		return [
			`- In the reference run (bench/results/latest.json, ${l.date}): creates inside n8n at ${ratios(l, floor)} of n8n's floor, a minimal node that has n8n evaluate its two expressions for every item and calls n8n's request helper (1 / 5 / 20 in parallel)`,
			http.every(Boolean)
				? ` and ${http.map((i) => `${fmt(i!.value, 2)}×`).join(' / ')} of n8n's HTTP Request node with a static header (the median of the rounds)`
				: '',
			`; Return All's peak heap at ${ratios(l, MEMORY_ROWS)} of a bare client holding the same records, raw cells and contacts`,
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
