/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * `npm run bench`: the pack against baselines measured in the same run, section by
 * section (each a producer returning rows, see bench/rows.ts):
 * - in the n8n-core harness: creates against raw undici with and without keep-alive,
 *   Return All against raw paging (bench/harness.ts);
 * - inside a real n8n: creates against n8n's HTTP Request node with the pack's OAuth2
 *   credential, a static header and n8n's generic OAuth2 credential (bench/in-n8n.ts),
 *   and the Trigger against n8n's Webhook node (bench/trigger.ts);
 * - the package's load time and size (bench/package.ts);
 * - n8n's queue mode with 1 and 2 workers, as figures (bench/queue-throughput.ts).
 * Prints every row with its ratio and target and writes bench/results/latest.md and
 * latest.json (`rows`: { id, pack, baseline, ratio, target, met, … } as numbers).
 * No assertions: figures. `npm run bench -- harness n8n` runs only those sections.
 * `BENCH_ROUNDS` (default 2): rounds of the in-n8n create matrix, the best of each kept.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';

import { stopAll } from '../scripts/processes';
import { ROOT, say } from './common';
import { harnessSection } from './harness';
import { inN8nSection } from './in-n8n';
import { packageSection } from './package';
import { fmt, markdown, summaryLines, type Section } from './rows';
import { queueThroughput } from './queue-throughput';
import { buildPack } from '../scripts/build';
import { triggerSection } from './trigger';

/** Queue-mode throughput (bench/queue-throughput.ts) as figures without a target, and its CPU table. */
async function queueSection(): Promise<Section | undefined> {
	// The package section builds with `npm run build` (n8n-node build), which leaves no stamp of scripts/build.ts.
	await buildPack();
	const queue = await queueThroughput(say);
	if (!queue) return undefined;
	return {
		title: 'Queue mode (figures)',
		rows: [],
		// rows[i] is runs[i + 1] (runs: regular mode, 1 worker, 2 workers): contacts per second.
		info: queue.rows.map((r, i) => ({
			id: r.id,
			scenario: r.scenario,
			value: queue.runs[i + 1]?.contactsPerSecond ?? 0,
			unit: '/s',
			text: `${r.pack}; ${r.ratio} (${r.baseline})`,
		})),
		extra: `Queue mode: CPU time and peak memory (RSS) per process during each run\n\n${queue.cpu}`,
		raw: { rows: queue.rows, ...queue.raw },
	};
}

/** Every section, by the name that selects it on the command line. Other producers plug in here. */
const PRODUCERS: Record<string, () => Promise<Section | undefined> | Section> = {
	harness: harnessSection,
	n8n: () => inN8nSection(Number(process.env.BENCH_ROUNDS ?? 2) || 2),
	trigger: triggerSection,
	package: packageSection,
	queue: queueSection,
};

async function main() {
	const t0 = Date.now();
	const wanted = process.argv.slice(2);
	const unknown = wanted.filter((w) => !(w in PRODUCERS));
	if (unknown.length)
		throw new Error(
			`unknown section ${unknown.join(', ')}; sections: ${Object.keys(PRODUCERS).join(', ')}`,
		);
	const loadBefore = loadavg()[0];
	const sections: Section[] = [];
	const failed: string[] = [];
	for (const [name, produce] of Object.entries(PRODUCERS)) {
		if (wanted.length && !wanted.includes(name)) continue;
		// A section that fails is reported and the others still run (their rows are kept).
		const s = await Promise.resolve()
			.then(produce)
			.catch((e: unknown) => {
				failed.push(`${name}: ${e instanceof Error ? e.message : String(e)}`);
				say(`Section ${name} failed: ${e instanceof Error ? e.stack : String(e)}`);
				return undefined;
			});
		if (s) sections.push(s);
	}
	const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${fmt(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
	const load = `load average ${fmt(loadBefore, 1)} at the start, ${fmt(loadavg()[0], 1)} at the end`;
	const date = new Date().toISOString().slice(0, 10);
	const head = `Benchmarks — ${date}, ${machine}; ${load}; total ${fmt((Date.now() - t0) / 1000)} s. Ratio: pack ÷ baseline (throughput: higher is better; time and memory: lower is better).`;
	const table = `${head}${failed.length ? `\n\n**Failed sections (no rows):** ${failed.join('; ')}` : ''}\n\n${markdown(sections)}`;
	say(`\n${table}`);
	say(summaryLines(sections).join('\n'));
	const partial = wanted.length > 0;
	const file = partial ? 'partial' : 'latest';
	writeFileSync(join(ROOT, `bench/results/${file}.md`), `${table}\n`);
	writeFileSync(
		join(ROOT, `bench/results/${file}.json`),
		`${JSON.stringify({ date, machine, load: loadavg(), failed, rows: sections.flatMap((s) => s.rows), info: sections.flatMap((s) => s.info ?? []), raw: Object.fromEntries(sections.map((s) => [s.title, s.raw ?? {}])) }, null, 2)}\n`,
	);
	say(`Written to bench/results/${file}.md and ${file}.json`);
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
