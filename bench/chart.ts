/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The bench's headline rows as a chart (hand-written SVG, no dependency): one horizontal bar
 * per row, its ratio (pack ÷ baseline) against the target line, met or not met in words and in
 * colour, and a caption with the machine and the date of the run. Built from
 * bench/results/latest.json alone: `npm run bench` writes it after a full run and
 * `npm run bench:chart` rebuilds it without measuring. The same JSON gives the same bytes.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import type { BenchRow } from './rows';

/** Where the chart goes (shown by README.md and docs/performance.md). */
export const CHART_FILE = 'docs/images/bench.svg';

/** What the chart reads of bench/results/latest.json. */
export interface LatestJson {
	date: string;
	machine: string;
	failed?: string[];
	rows: BenchRow[];
}

interface Panel {
	title: string;
	rows: Array<{ id: string; label: string }>;
}

const PANELS: Panel[] = [
	{
		title: "Inside n8n: create 1,000 contacts vs n8n's floor for any node (higher is better)",
		rows: [
			{ id: 'create-in-n8n-vs-n8n-floor-c1', label: '1 in parallel' },
			{ id: 'create-in-n8n-vs-n8n-floor-c5', label: '5 in parallel' },
			{ id: 'create-in-n8n-vs-n8n-floor-c20', label: '20 in parallel' },
		],
	},
	{
		title: "Against n8n's floors: minimal bench nodes with no pack code",
		rows: [
			{ id: 'harness-vs-n8n-floor', label: 'Create in the harness (worst of 5, 20 at once)' },
			{ id: 'return-all-vs-n8n-floor', label: 'Return All, 50,000 records (time: lower)' },
			{ id: 'trigger-vs-n8n-floor', label: 'Trigger, finished executions per second' },
		],
	},
	{
		title: "Return All's peak memory vs a bare client holding the same items (lower is better)",
		rows: [
			{ id: 'return-all-records-memory-vs-floor', label: '50,000 records, cells by name' },
			{ id: 'return-all-records-raw-cells-memory-vs-floor', label: '50,000 records, raw cells' },
			{ id: 'return-all-contacts-memory-vs-floor', label: '20,000+ contacts' },
		],
	},
];

const WIDTH = 860;
const LABEL_W = 290;
const BAR_X = LABEL_W + 10;
const BAR_W = 340;
const ROW_H = 26;
const BAR_H = 14;
const COLOURS = { met: '#2e7d32', miss: '#c62828', none: '#9e9e9e', target: '#212121' };

const esc = (s: string) =>
	s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A number with a fixed count of decimals, the same on every machine (no locale). */
const num = (n: number, d = 2) => n.toFixed(d);

/** The axis' end: the next of 1, 2, 2.5, 5 (× a power of ten) above the largest figure, with room. */
function niceMax(n: number): number {
	const raw = n * 1.08;
	const p = 10 ** Math.floor(Math.log10(raw));
	const step = [1, 2, 2.5, 5, 10].find((s) => s * p >= raw) ?? 10;
	return step * p;
}

function ticksOf(max: number): number[] {
	// The smallest step that gives at most 5 intervals.
	const p = 10 ** Math.floor(Math.log10(max));
	const step = [0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10].map((s) => s * p).find((s) => max / s <= 5)!;
	const out: number[] = [];
	for (let t = 0; t <= max + step / 1000; t += step) out.push(Math.round(t * 1000) / 1000);
	return out;
}

const target = (r: BenchRow) => `${r.direction === 'atLeast' ? '≥' : '≤'} ${num(r.target)}×`;

/** The SVG text of the chart, from the run's JSON. */
export function chartSvg(latest: LatestJson): string {
	const byId = new Map(latest.rows.map((r) => [r.id, r]));
	const out: string[] = [];
	let y = 40;
	for (const panel of PANELS) {
		const rows = panel.rows.map((p) => ({ ...p, row: byId.get(p.id) }));
		const figures = rows.flatMap((r) => (r.row ? [r.row.ratio, r.row.target] : [1]));
		const max = niceMax(Math.max(...figures));
		const x = (v: number) => BAR_X + (Math.min(v, max) / max) * BAR_W;
		out.push(
			`<text x="10" y="${y}" class="panel">${esc(panel.title)}</text>`,
			`<text x="${WIDTH - 10}" y="${y}" class="head" text-anchor="end">ratio · target · result</text>`,
		);
		y += 14;
		const top = y;
		const bottom = top + rows.length * ROW_H;
		for (const t of ticksOf(max)) {
			out.push(
				`<line x1="${num(x(t), 1)}" y1="${top}" x2="${num(x(t), 1)}" y2="${bottom}" class="grid"/>`,
				`<text x="${num(x(t), 1)}" y="${bottom + 13}" class="tick" text-anchor="middle">${t}×</text>`,
			);
		}
		rows.forEach(({ id, label, row }, i) => {
			const rowY = top + i * ROW_H;
			const mid = rowY + ROW_H / 2;
			out.push(
				`<text x="${LABEL_W}" y="${mid + 4}" class="label" text-anchor="end"><title>${esc(id)}</title>${esc(label)}</text>`,
			);
			if (!row) {
				out.push(
					`<text x="${BAR_X + 4}" y="${mid + 4}" class="none">no figure in this run (section failed or not run)</text>`,
				);
				return;
			}
			const colour = row.met ? COLOURS.met : COLOURS.miss;
			const w = Math.max(1, x(row.ratio) - BAR_X);
			const tx = x(row.target);
			out.push(
				`<rect x="${BAR_X}" y="${mid - BAR_H / 2}" width="${num(w, 1)}" height="${BAR_H}" fill="${colour}"><title>${esc(`${row.id}: ${num(row.ratio, 3)}× (target ${target(row)})`)}</title></rect>`,
				`<line x1="${num(tx, 1)}" y1="${rowY + 2}" x2="${num(tx, 1)}" y2="${rowY + ROW_H - 2}" class="target"/>`,
				`<text x="${BAR_X + BAR_W + 12}" y="${mid + 4}" class="value">${num(row.ratio)}×</text>`,
				`<text x="${BAR_X + BAR_W + 66}" y="${mid + 4}" class="tick">${esc(target(row))}</text>`,
				`<text x="${WIDTH - 10}" y="${mid + 4}" class="${row.met ? 'met' : 'miss'}" text-anchor="end">${row.met ? '✓ met' : '✗ not met'}</text>`,
			);
		});
		y = bottom + 40;
	}
	const failed = latest.failed?.length ? ` Failed sections: ${latest.failed.join('; ')}.` : '';
	const caption = [
		`Ratio = pack ÷ baseline, measured in the same run; black line: the target (≥: the bar must reach it; ≤, a time: must stay below it).`,
		`Run of ${latest.date} on ${latest.machine} (bench/results/latest.json).${failed}`,
	];
	caption.forEach((c, i) =>
		out.push(`<text x="10" y="${y - 14 + i * 16}" class="caption">${esc(c)}</text>`),
	);
	const height = y + 2 * 16 - 6;
	return [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="Benchmark ratios against their targets, ${esc(latest.date)}">`,
		'<style>',
		'text { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; fill: #212121; }',
		'.title { font-size: 16px; font-weight: 600; }',
		'.panel { font-size: 13px; font-weight: 600; }',
		'.head, .tick { font-size: 11px; fill: #616161; }',
		'.label, .value { font-size: 12px; }',
		'.value { font-weight: 600; }',
		`.met { font-size: 12px; font-weight: 600; fill: ${COLOURS.met}; }`,
		`.miss { font-size: 12px; font-weight: 600; fill: ${COLOURS.miss}; }`,
		`.none { font-size: 12px; font-style: italic; fill: ${COLOURS.none}; }`,
		'.caption { font-size: 11px; fill: #424242; }',
		'.grid { stroke: #e0e0e0; stroke-width: 1; }',
		`.target { stroke: ${COLOURS.target}; stroke-width: 2; }`,
		'</style>',
		`<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
		`<text x="10" y="20" class="title">n8n-nodes-business-platform: benchmark against its targets</text>`,
		...out,
		'</svg>',
		'',
	].join('\n');
}

/** Writes the chart of a run's JSON to docs/images/bench.svg (under `root`); returns its path. */
export function writeChart(root: string, latest: LatestJson): string {
	const file = join(root, CHART_FILE);
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, chartSvg(latest));
	return file;
}

// `npm run bench:chart`: the chart of bench/results/latest.json, no benchmark run.
if (require.main === module) {
	const root = join(__dirname, '..');
	const latest = JSON.parse(
		readFileSync(join(root, 'bench/results/latest.json'), 'utf8'),
	) as LatestJson;
	process.stdout.write(`Written to ${writeChart(root, latest)}\n`);
}
