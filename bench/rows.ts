/**
 * The benchmark's row format and how rows are printed. A row compares the pack with
 * a baseline measured in the same run: `ratio` is pack ÷ baseline for throughputs
 * (higher is better) and pack ÷ baseline for times and memory (lower is better), and
 * `met` says whether it reached `target` in its direction. Every producer of rows
 * (bench/harness.ts, bench/in-n8n.ts, bench/trigger.ts, bench/package.ts, and any other
 * one: a function returning a `Section`) plugs into bench/run.ts.
 */

export type Direction = 'atLeast' | 'atMost';

export interface BenchRow {
	/** Stable id, e.g. `create-in-n8n-vs-http-oauth`. */
	id: string;
	/** What was measured, in words. */
	scenario: string;
	/** The pack's figure, in `unit`. */
	pack: number;
	/** The baseline's figure, in `unit`. */
	baseline: number;
	/** `/s` (throughput), `s` (time), `MB` (memory), `ms`. */
	unit: string;
	ratio: number;
	target: number;
	direction: Direction;
	met: boolean;
	/** The baseline, in words (e.g. "HTTP Request node, pack's OAuth2 credential, batch 5"). */
	baselineLabel: string;
	/** Figures that explain the ratio (in-flight requests, connections, profile shares). */
	note?: string;
}

/** A figure without a target (package size, bulk update time): printed and kept, not judged. */
export interface InfoRow {
	id: string;
	scenario: string;
	value: number;
	unit: string;
	text: string;
}

export interface Section {
	title: string;
	rows: BenchRow[];
	info?: InfoRow[];
	/** Raw measurements, kept in latest.json under `raw.<key>`. */
	raw?: Record<string, unknown>;
	/** Markdown printed after the section's tables (e.g. a CPU table). */
	extra?: string;
}

export interface RowInput {
	id: string;
	scenario: string;
	pack: number;
	baseline: number;
	unit: string;
	/** `higher`: throughput (ratio = pack ÷ baseline, at least the target); `lower`: time or memory (at most). */
	better: 'higher' | 'lower';
	target: number;
	baselineLabel: string;
	note?: string;
}

export function row(r: RowInput): BenchRow {
	// A figure that is not a positive number is a measurement that failed: the section fails and
	// gives no row (never a zero or NaN that would count as met).
	if (!(Number.isFinite(r.pack) && r.pack > 0 && Number.isFinite(r.baseline) && r.baseline > 0))
		throw new Error(
			`${r.id}: no measurement (pack ${String(r.pack)} ${r.unit}, baseline ${String(r.baseline)} ${r.unit})`,
		);
	const ratio = r.pack / r.baseline;
	const direction: Direction = r.better === 'higher' ? 'atLeast' : 'atMost';
	const met =
		Number.isFinite(ratio) && (direction === 'atLeast' ? ratio >= r.target : ratio <= r.target);
	return {
		id: r.id,
		scenario: r.scenario,
		pack: round(r.pack),
		baseline: round(r.baseline),
		unit: r.unit,
		ratio: round(ratio, 3),
		target: r.target,
		direction,
		met,
		baselineLabel: r.baselineLabel,
		...(r.note ? { note: r.note } : {}),
	};
}

/** A comparison kept as information, not judged (the raw-undici rows: a ceiling no node inside n8n can reach). */
export function asInfo(r: BenchRow): InfoRow {
	return {
		id: r.id,
		scenario: r.scenario,
		value: r.ratio,
		unit: '×',
		text: `${fmt(r.ratio, 2)}×: pack ${figure(r.pack, r.unit)} vs ${figure(r.baseline, r.unit)} (${r.baselineLabel})${r.note ? `; ${r.note}` : ''}`,
	};
}

/** The lowest (atLeast) or highest (atMost) ratio of several rows, as one headline row under `id`. */
export function worstOf(id: string, scenario: string, rows: BenchRow[], note: string): BenchRow {
	const worst = rows.reduce((a, b) =>
		(a.direction === 'atLeast' ? b.ratio < a.ratio : b.ratio > a.ratio) ? b : a,
	);
	return {
		...worst,
		id,
		scenario,
		met: rows.every((r) => r.met),
		note: `${note}; worst: ${worst.id}${worst.note ? ` (${worst.note})` : ''}`,
	};
}

const round = (n: number, d = 2) => (Number.isFinite(n) ? Math.round(n * 10 ** d) / 10 ** d : n);

export const fmt = (n: number, d = 0) =>
	n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

export function figure(n: number, unit: string): string {
	if (unit === '/s') return `${fmt(n)}/s`;
	if (unit === 's') return `${fmt(n, 2)} s`;
	if (unit === 'ms') return `${fmt(n, 1)} ms`;
	if (unit === 'MB') return `${fmt(n, 1)} MB`;
	return `${fmt(n, 2)} ${unit}`;
}

export function targetText(r: BenchRow): string {
	return `${r.direction === 'atLeast' ? '≥' : '≤'} ${fmt(r.target, 2)}×`;
}

/** One Markdown table per section; the headline ids first within their section, as produced. */
export function markdown(sections: Section[]): string {
	const out: string[] = [];
	for (const s of sections) {
		out.push(
			`### ${s.title}`,
			'',
			'| Id | Scenario | Pack | Baseline | Ratio | Target | Met | Notes |',
			'|---|---|---|---|---|---|---|---|',
		);
		for (const r of s.rows) {
			out.push(
				`| \`${r.id}\` | ${r.scenario} | ${figure(r.pack, r.unit)} | ${figure(r.baseline, r.unit)} (${r.baselineLabel}) | ${fmt(r.ratio, 2)}× | ${targetText(r)} | ${r.met ? 'yes' : '**no**'} | ${r.note ?? ''} |`,
			);
		}
		if (s.info?.length) {
			out.push('', '| Id | Figure | Value |', '|---|---|---|');
			for (const i of s.info) out.push(`| \`${i.id}\` | ${i.scenario} | ${i.text} |`);
		}
		if (s.extra) out.push('', s.extra);
		out.push('');
	}
	return out.join('\n');
}

/** One line per row for the terminal: id, ratio, target, met. */
export function summaryLines(sections: Section[]): string[] {
	return sections.flatMap((s) =>
		s.rows.map(
			(r) =>
				`${r.met ? 'met ' : 'MISS'}  ${r.id.padEnd(44)} ${fmt(r.ratio, 2).padStart(6)}×  target ${targetText(r).padEnd(8)} pack ${figure(r.pack, r.unit)} vs ${figure(r.baseline, r.unit)}`,
		),
	);
}
