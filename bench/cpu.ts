/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * CPU time per component (a process and everything it started), from /proc (Linux):
 * utime + stime of each process, sampled while a benchmark runs so that processes that
 * exit in between (PostgreSQL backends, task runners) still count up to their last sample.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS = (() => {
	try {
		return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
	} catch {
		return 100;
	}
})();

interface Stat {
	pid: number;
	ppid: number;
	ticks: number;
	/** Start time since boot (ticks): tells a reused pid apart. */
	start: number;
	rssBytes: number;
}

const PAGE = 4096;

function readStats(): Stat[] {
	const out: Stat[] = [];
	for (const p of readdirSync('/proc')) {
		if (!/^\d+$/.test(p)) continue;
		try {
			const raw = readFileSync(`/proc/${p}/stat`, 'latin1');
			// The command name (field 2) may contain spaces and parentheses: split after its last ')'.
			const f = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
			out.push({
				pid: Number(p),
				ppid: Number(f[1]),
				ticks: Number(f[11]) + Number(f[12]),
				start: Number(f[19]),
				rssBytes: Number(f[21]) * PAGE,
			});
		} catch {
			// gone meanwhile
		}
	}
	return out;
}

export interface CpuTracker {
	/** Takes a sample now (call often while the work runs; `start` runs one every `everyMs`). */
	sample(): void;
	/** Stops sampling; CPU seconds per component since the tracker started. */
	stop(): Record<string, number>;
	/** Highest resident memory seen per component (all its processes together), in MB. */
	peakRssMb(): Record<string, number>;
}

/** Tracks each component: a root pid and its descendants except other roots (found anew at every sample). */
export function trackCpu(roots: Record<string, number>, everyMs = 250): CpuTracker {
	const baseline = new Map<string, number>(); // pid:start → ticks at the first sight, for processes alive at the start
	const latest = new Map<string, { component: string; ticks: number }>();
	let first = true;
	const peak: Record<string, number> = Object.fromEntries(Object.keys(roots).map((c) => [c, 0]));
	const sample = () => {
		const stats = readStats();
		const children = new Map<number, Stat[]>();
		for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
		const byPid = new Map(stats.map((s) => [s.pid, s]));
		const rootPids = new Set(Object.values(roots));
		for (const [component, root] of Object.entries(roots)) {
			const stack = byPid.has(root) ? [byPid.get(root)!] : [];
			let rss = 0;
			while (stack.length) {
				const s = stack.pop()!;
				rss += s.rssBytes;
				const key = `${s.pid}:${s.start}`;
				if (first) baseline.set(key, s.ticks);
				latest.set(key, { component, ticks: s.ticks });
				// A child that is another component's root counts there (the driver starts everything).
				stack.push(...(children.get(s.pid) ?? []).filter((c) => !rootPids.has(c.pid)));
			}
			peak[component] = Math.max(peak[component], rss / 2 ** 20);
		}
		first = false;
	};
	sample();
	const timer = setInterval(sample, everyMs);
	return {
		sample,
		stop() {
			clearInterval(timer);
			sample();
			const totals: Record<string, number> = Object.fromEntries(
				Object.keys(roots).map((c) => [c, 0]),
			);
			for (const [key, { component, ticks }] of latest)
				totals[component] += (ticks - (baseline.get(key) ?? 0)) / TICKS;
			return totals;
		},
		peakRssMb: () => ({ ...peak }),
	};
}
