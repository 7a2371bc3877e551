/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Reads a V8 CPU profile (`node --cpu-prof`) and tells where the time went inside a
 * window (the measured run, on the monotonic clock the profile uses): shares by package,
 * the top frames by self time, the top frames by inclusive time, and the CPU time per
 * request. `tsx bench/cpuprofile.ts <file> [fromUs toUs requests]` prints it as Markdown.
 */
import { readFileSync } from 'node:fs';

import { ROOT } from './common';
import { fmt } from './rows';

interface CallFrame {
	functionName: string;
	url: string;
	lineNumber: number;
}

interface ProfileNode {
	id: number;
	callFrame: CallFrame;
	children?: number[];
}

interface CpuProfile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples: number[];
	timeDeltas: number[];
}

export interface Share {
	name: string;
	ms: number;
	share: number;
}

export interface ProfileSummary {
	/** Sampled time in the window, and how much of it the process was busy (not idle). */
	windowMs: number;
	busyMs: number;
	busyShare: number;
	requests: number;
	/** Busy CPU time per request, in ms. */
	msPerRequest: number;
	byPackage: Share[];
	topSelf: Share[];
	topInclusive: Share[];
}

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/** The package (or area) a frame's source belongs to. */
export function areaOf(frame: CallFrame): string {
	if (SPECIAL.has(frame.functionName) && !frame.url) return frame.functionName;
	const url = frame.url.replace(/^file:\/\//, '');
	if (!url) return '(native)';
	if (url.startsWith('node:'))
		return `node:${
			url
				.slice(5)
				.replace(/^internal\//, '')
				.split('/')[0]
		}`;
	const nm = url.lastIndexOf('/node_modules/');
	if (nm >= 0) {
		const rest = url.slice(nm + 14).split('/');
		return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
	}
	if (url.startsWith(ROOT) || /\/(dist\/)?(nodes|credentials)\//.test(url)) return 'the pack';
	return 'other';
}

const frameName = (f: CallFrame) =>
	`${f.functionName || '(anonymous)'} ${areaOf(f)}${f.url ? `:${f.url.split('/').pop()}:${f.lineNumber + 1}` : ''}`;

function top(map: Map<string, number>, total: number, n: number): Share[] {
	return [...map.entries()]
		.sort((a, b) => b[1] - a[1])
		.slice(0, n)
		.map(([name, us]) => ({ name, ms: us / 1000, share: us / total }));
}

export function summarise(
	profile: CpuProfile,
	window?: { fromUs: number; toUs: number },
	requests = 0,
	n = 25,
): ProfileSummary {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
	const self = new Map<string, number>();
	const inclusive = new Map<string, number>();
	const area = new Map<string, number>();
	let t = profile.startTime;
	let windowUs = 0;
	let idleUs = 0;
	for (let i = 0; i < profile.samples.length; i++) {
		const dt = profile.timeDeltas[i] ?? 0;
		t += dt;
		if (window && (t < window.fromUs || t > window.toUs)) continue;
		const node = byId.get(profile.samples[i])!;
		windowUs += dt;
		if (node.callFrame.functionName === '(idle)') {
			idleUs += dt;
			continue;
		}
		const name = frameName(node.callFrame);
		self.set(name, (self.get(name) ?? 0) + dt);
		const a = areaOf(node.callFrame);
		area.set(a, (area.get(a) ?? 0) + dt);
		// Inclusive: every distinct frame on the stack gets the sample once.
		const seen = new Set<string>();
		for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
			const f = byId.get(id)!.callFrame;
			if (f.functionName === '(root)') continue;
			const key = frameName(f);
			if (!seen.has(key)) {
				seen.add(key);
				inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
			}
		}
	}
	const busyUs = windowUs - idleUs;
	return {
		windowMs: windowUs / 1000,
		busyMs: busyUs / 1000,
		busyShare: windowUs ? busyUs / windowUs : 0,
		requests,
		msPerRequest: requests ? busyUs / 1000 / requests : 0,
		byPackage: top(area, busyUs, 20),
		topSelf: top(self, busyUs, n),
		topInclusive: top(inclusive, busyUs, n),
	};
}

export function readProfile(file: string): CpuProfile {
	return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

/** The summary as Markdown tables (shares of the busy time; per request when the request count is known). */
export function summaryMarkdown(title: string, s: ProfileSummary): string {
	const per = (ms: number) => (s.requests ? ` | ${fmt((ms / s.requests) * 1000)} µs` : '');
	const head = s.requests
		? '| | Busy share | Per request |\n|---|---|---|'
		: '| | Busy share |\n|---|---|';
	const table = (rows: Share[]) =>
		rows
			.map(
				(r) => `| \`${r.name.replace(/\|/g, '\\|')}\` | ${fmt(r.share * 100, 1)} %${per(r.ms)} |`,
			)
			.join('\n');
	return [
		`#### ${title}`,
		'',
		`Window ${fmt(s.windowMs)} ms, busy ${fmt(s.busyMs)} ms (${fmt(s.busyShare * 100)} %)${s.requests ? `; ${fmt(s.requests)} requests: ${fmt(s.msPerRequest * 1000)} µs of CPU per request` : ''}.`,
		'',
		'By package (self time)',
		'',
		head,
		table(s.byPackage),
		'',
		'Top frames by self time',
		'',
		head,
		table(s.topSelf),
		'',
		'Top frames by inclusive time (the frame and what it calls)',
		'',
		head,
		table(s.topInclusive),
		'',
	].join('\n');
}

if (require.main === module) {
	const [file, from, to, requests] = process.argv.slice(2);
	const window = from && to ? { fromUs: Number(from), toUs: Number(to) } : undefined;
	process.stdout.write(
		summaryMarkdown(file, summarise(readProfile(file), window, Number(requests ?? 0))),
	);
}
