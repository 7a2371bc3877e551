/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The bench's sections by the name that selects them (`npm run bench -- harness n8n`), and
 * running them: bench/run.ts writes what they give; the smoke tests (BENCH_SMOKE=1, see
 * bench/common.ts) run them at tiny counts and check that each still gives its rows. Each
 * section is imported when it runs, so running one loads only its own code.
 */
import { say } from './common';
import type { Section } from './rows';

export type Producer = () => Promise<Section | undefined> | Section | undefined;

/** Queue-mode throughput (bench/queue-throughput.ts) as figures without a target, and its CPU table. */
async function queueSection(): Promise<Section | undefined> {
	const { buildPack } = await import('../testbed/pack/build');
	const { queueThroughput } = await import('./queue-throughput');
	// The package section builds with `npm run build` (n8n-node build), which leaves no stamp of testbed/pack/build.ts.
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

/** Every section, in the order they run. Other producers plug in here. */
export const PRODUCERS: Record<string, Producer> = {
	harness: async () => (await import('./harness')).harnessSection(),
	n8n: async () =>
		(await import('./in-n8n')).inN8nSection(Number(process.env.BENCH_ROUNDS ?? 3) || 3),
	trigger: async () => (await import('./trigger')).triggerSection(),
	polls: async () => (await import('./polls')).pollsSection(),
	package: async () => (await import('./package')).packageSection(),
	queue: queueSection,
};

export interface SectionsRun {
	sections: Section[];
	/** `name: why`, one per section that threw or gave nothing to show. */
	failed: string[];
	/** Sections that had nothing to run against (e.g. no n8n runtime installed) and said so. */
	skipped: string[];
}

/**
 * Runs the `wanted` sections (all when empty) one after the other. A section that throws, or
 * that returns a section without a single row or figure, is failed: it gives no rows, and the
 * others still run (their rows are kept). One that returns undefined is skipped (it said why).
 */
export async function runSections(
	wanted: string[] = [],
	producers: Record<string, Producer> = PRODUCERS,
	log: (line: string) => void = say,
): Promise<SectionsRun> {
	const unknown = wanted.filter((w) => !(w in producers));
	if (unknown.length)
		throw new Error(
			`unknown section ${unknown.join(', ')}; sections: ${Object.keys(producers).join(', ')}`,
		);
	const run: SectionsRun = { sections: [], failed: [], skipped: [] };
	for (const [name, produce] of Object.entries(producers)) {
		if (wanted.length && !wanted.includes(name)) continue;
		try {
			const s = await produce();
			if (!s) run.skipped.push(name);
			else if (!s.rows.length && !s.info?.length) throw new Error('it gave no row and no figure');
			else run.sections.push(s);
		} catch (e) {
			run.failed.push(`${name}: ${e instanceof Error ? e.message : String(e)}`);
			log(`Section ${name} failed: ${e instanceof Error ? e.stack : String(e)}`);
		}
	}
	return run;
}
