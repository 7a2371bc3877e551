/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * `npm run bench`: the pack against baselines measured in the same run, section by
 * section (each a producer returning rows, see bench/rows.ts):
 * - in the n8n-core harness: creates and Return All against n8n's floor for any node, Return
 *   All's memory against a bare client holding the same items; raw undici as information
 *   (bench/harness.ts);
 * - inside a real n8n: creates against n8n's floor (a minimal custom node), n8n's HTTP Request
 *   node with a static header and through n8n's OAuth2 path as information (bench/in-n8n.ts),
 *   and the Trigger against n8n's floor for a credentialed trigger (bench/trigger.ts);
 * - the package's load time and size (bench/package.ts);
 * - n8n's queue mode with 1 and 2 workers, as figures (bench/queue-throughput.ts).
 * Prints every row with its ratio and target and writes bench/results/latest.md and
 * latest.json (`rows`: { id, pack, baseline, ratio, target, met, … } as numbers), the chart of
 * the headline rows, docs/images/bench.svg (bench/chart.ts; `npm run bench:chart` redraws it
 * from latest.json), and the figures docs/performance.md and CHANGELOG.md quote (bench/docs.ts;
 * `npm run bench:docs` writes them again from latest.json). No assertions: figures.
 * `npm run bench -- harness n8n` runs only those sections (into partial.md and partial.json, no
 * chart, no docs). A section that throws gives no rows, is listed under "Failed sections" and
 * the run exits with 1.
 * `BENCH_ROUNDS`: rounds of each measurement (default 2; 3 inside n8n, whose HTTP Request rows
 * take the median).
 * `BENCH_SMOKE=1`: tiny counts, nothing written (bench/common.ts).
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';

import { stopAll } from '../testbed/processes';
import { writeChart } from './chart';
import { writeDocs } from './docs';
import { ROOT, SMOKE, say } from './common';
import { fmt, markdown, summaryLines } from './rows';
import { runSections } from './sections';

async function main() {
	const t0 = Date.now();
	const wanted = process.argv.slice(2);
	const loadBefore = loadavg()[0];
	// A section that fails is reported and the others still run (their rows are kept).
	const { sections, failed } = await runSections(wanted);
	const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${fmt(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
	const load = `load average ${fmt(loadBefore, 1)} at the start, ${fmt(loadavg()[0], 1)} at the end`;
	const date = new Date().toISOString().slice(0, 10);
	const head = `Benchmarks — ${date}, ${machine}; ${load}; total ${fmt((Date.now() - t0) / 1000)} s. Ratio: pack ÷ baseline (throughput: higher is better; time and memory: lower is better).`;
	const table = `${head}${failed.length ? `\n\n**Failed sections (no rows):** ${failed.join('; ')}` : ''}\n\n${markdown(sections)}`;
	say(`\n${table}`);
	say(summaryLines(sections).join('\n'));
	if (SMOKE) {
		// Tiny counts: the sections ran and gave rows, the figures mean nothing and are not kept.
		say('Smoke run (BENCH_SMOKE=1): nothing written.');
		if (failed.length) process.exitCode = 1;
		return;
	}
	const partial = wanted.length > 0;
	const file = partial ? 'partial' : 'latest';
	writeFileSync(join(ROOT, `bench/results/${file}.md`), `${table}\n`);
	const latest = {
		date,
		machine,
		load: loadavg(),
		failed,
		rows: sections.flatMap((s) => s.rows),
		info: sections.flatMap((s) => s.info ?? []),
		raw: Object.fromEntries(sections.map((s) => [s.title, s.raw ?? {}])),
	};
	writeFileSync(join(ROOT, `bench/results/${file}.json`), `${JSON.stringify(latest, null, 2)}\n`);
	say(`Written to bench/results/${file}.md and ${file}.json`);
	// The chart and the docs' figures show the reference run: a full one (`npm run bench:chart` and
	// `npm run bench:docs` make them again from latest.json).
	if (!partial) {
		say(`Chart: ${writeChart(ROOT, latest)}`);
		const docs = writeDocs(ROOT, latest);
		say(`Docs' figures (bench/docs.ts): ${docs.length ? docs.join(', ') : 'unchanged'}`);
	}
	if (failed.length) {
		say(`Failed sections (no rows): ${failed.join('; ')}`);
		process.exitCode = 1;
	}
}

main()
	.catch((e) => {
		process.stderr.write(`bench failed: ${e instanceof Error ? e.stack : String(e)}\n`);
		process.exitCode = 1;
	})
	.finally(() => void stopAll().then(() => process.exit()));
