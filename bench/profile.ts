/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * `npm run bench:profile`: CPU profiles (`node --cpu-prof`) of creating 1,000 contacts,
 * 5 in parallel,
 * - in the n8n-core harness (the pack), next to a raw undici client with keep-alive;
 * - inside a real n8n (its main process runs the workflow): the pack, then the HTTP
 *   Request node with the pack's OAuth2 credential, in the same process;
 * each summarised over the measured run only (bench/cpuprofile.ts) into
 * bench/results/profile.md; the .cpuprofile files stay in a temp folder (printed) for
 * Chrome DevTools or speedscope.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

import { buildPack } from '../testbed/pack/build';
import { stopAll } from '../testbed/processes';
import { startSandboxProcess, type SandboxReady } from '../testbed/sandbox-process';
import { admin, baseOf, measure, restoreEnv, ROOT, say } from './common';
import { readProfile, summarise, summaryMarkdown } from './cpuprofile';
import { seedForReturnAll } from './harness';
import { credentials, httpNode } from './in-n8n';
import { fmt } from './rows';

const N = 1000;
const INTERVAL_US = '250';

/** The main thread's profile (CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile, thread 0) of a process. */
function newestProfile(dir: string, pid?: number): string {
	const files = readdirSync(dir).filter((f) => {
		const parts = f.split('.');
		return (
			f.endsWith('.cpuprofile') &&
			parts[4] === '0' &&
			(pid === undefined || parts[3] === String(pid))
		);
	});
	if (!files.length) throw new Error(`no CPU profile in ${dir}${pid ? ` for process ${pid}` : ''}`);
	return join(dir, files.sort().pop()!);
}

async function harnessProfiles(ready: SandboxReady, out: string[]): Promise<void> {
	const base = await baseOf(ready);
	for (const [label, scenario, args] of [
		['The pack in the n8n-core harness', 'packCreate', { concurrency: 5 }],
		[
			"n8n's floor for any node: helpers.httpRequest and the same two expressions, no pack code (for comparison)",
			'helperCreate',
			{ concurrency: 5 },
		],
		[
			'Raw undici with keep-alive (for comparison)',
			'rawCreate',
			{ concurrency: 5, keepAlive: true },
		],
		[
			'Raw undici without keep-alive (for comparison)',
			'rawCreate',
			{ concurrency: 5, keepAlive: false },
		],
	] as const) {
		say(`  profiling: ${label}…`);
		const dir = mkdtempSync(join(tmpdir(), 'bp-prof-'));
		const r = await measure(
			scenario,
			{ ...base, count: N, ...args },
			{ nodeFlags: ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', INTERVAL_US] },
		);
		const file = newestProfile(dir);
		say(`    ${file}`);
		out.push(
			summaryMarkdown(
				`${label}: ${fmt(N)} creates, 5 in parallel, ${fmt((N / r.ms) * 1000)}/s`,
				summarise(readProfile(file), { fromUs: r.fromUs, toUs: r.toUs }, N),
			),
		);
	}
}

/** Return All over 50,000 records (raw cells, then cells by name too), one request per page of 100, next to raw paging. */
async function returnAllProfiles(ready: SandboxReady, out: string[]): Promise<void> {
	const base = await baseOf(ready);
	const tableId = await seedForReturnAll(base);
	for (const [label, scenario, args] of [
		[
			'Return All in the harness, 50,000 records, raw cells only',
			'packRecords',
			{ rawCells: true },
		],
		[
			'Return All in the harness, 50,000 records, cells also by column name (the default)',
			'packRecords',
			{},
		],
		['Raw undici paging with keep-alive (for comparison), 50,000 records', 'rawRecords', {}],
	] as const) {
		say(`  profiling: ${label}…`);
		const dir = mkdtempSync(join(tmpdir(), 'bp-prof-'));
		const r = await measure(
			scenario,
			{ ...base, tableId, pageSize: 100, ...args },
			{ nodeFlags: ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', INTERVAL_US] },
		);
		const file = newestProfile(dir);
		say(`    ${file}`);
		out.push(
			summaryMarkdown(
				`${label}: ${fmt(r.ms)} ms, 500 pages`,
				summarise(readProfile(file), { fromUs: r.fromUs, toUs: r.toUs }, 500),
			),
		);
	}
}

async function n8nProfiles(out: string[]): Promise<void> {
	const { runtimeReady } = await import('../testbed/runtime/install');
	if (!runtimeReady()) {
		out.push('n8n runtime not installed: no profile inside n8n.');
		return;
	}
	await buildPack(); // n8n loads the pack from dist/
	const { ready, stop } = await startSandboxProcess([
		'--mode',
		'v2',
		'--accept-bearer',
		'--rows',
		'10',
	]);
	const dir = mkdtempSync(join(tmpdir(), 'bp-prof-n8n-'));
	const previous = process.env.NODE_OPTIONS;
	try {
		const tokens = await admin<Record<string, unknown>>(ready.baseUrl, 'POST', '/tokens/issue', {});
		const { startE2e, workflow, webhookStart, pack } = await import('../testbed/n8n/env');
		const split = {
			name: 'Items',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'body.items', options: {} },
		};
		const start = (p: string) => ({
			...webhookStart(p),
			parameters: {
				httpMethod: 'POST',
				path: p,
				responseMode: 'lastNode',
				responseData: 'firstEntryJson',
				options: {},
			},
		});
		const { node, credentials: httpCredentials } = httpNode(ready, 'httpOAuth', 5);
		const http = workflow('profHttpOAuth0001', 'Profile HTTP Request node', [
			start('prof-http'),
			split,
			node,
		]);
		for (const n of http.nodes as Array<Record<string, unknown>>)
			if (n.name === node.name) n.credentials = httpCredentials;
		const packWf = workflow('profPackCreate001', 'Profile pack', [
			start('prof-pack'),
			split,
			pack('businessPlatformSales', 'Create', {
				resource: 'contact',
				operation: 'create',
				name: '={{ $json.name }}',
				type: 'person',
				additionalFields: { email: '={{ $json.email }}' },
			}),
		]);
		// n8n (Node 24) profiles itself; its CLI imports write profiles of their own, told apart by pid.
		process.env.NODE_OPTIONS =
			`${previous ?? ''} --cpu-prof --cpu-prof-dir=${dir} --cpu-prof-interval=${INTERVAL_US}`.trim();
		// n8n's CLI keeps the tokens given: the pack and n8n's OAuth2 path send the same one.
		const e2e = await startE2e(
			await credentials(ready, tokens),
			[packWf, http],
			{ profPackCreate001: 'prof-pack', profHttpOAuth0001: 'prof-http' },
			{},
			{ via: 'cli' },
		);
		restoreEnv('NODE_OPTIONS', previous);
		const windows: Array<{ label: string; fromUs: number; toUs: number; perSecond: number }> = [];
		try {
			for (const [label, p] of [
				['The pack inside n8n', 'prof-pack'],
				[
					"n8n's HTTP Request node through n8n's OAuth2 path (generic OAuth2 credential, same tokens), batch 5 (for comparison)",
					'prof-http',
				],
			] as const) {
				say(`  profiling: ${label}…`);
				await e2e.call(p, { items: [{ name: 'Warm', email: 'warm@bench.example' }] });
				const items = Array.from({ length: N }, (_, i) => ({
					name: `Prof ${p} ${i}`,
					email: `${p}-${i}@bench.example`,
				}));
				const t0 = process.hrtime.bigint();
				const res = await e2e.call(p, { items });
				const t1 = process.hrtime.bigint();
				if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
				windows.push({
					label,
					fromUs: Number(t0 / 1000n),
					toUs: Number(t1 / 1000n),
					perSecond: N / (Number(t1 - t0) / 1e9),
				});
			}
		} finally {
			// The profile is written when n8n exits: stop it gently and give it time.
			await e2e.n8n.process.stop(60_000);
		}
		const file = newestProfile(dir, e2e.n8n.process.pid);
		say(`    ${file}`);
		for (const w of windows)
			out.push(
				summaryMarkdown(
					`${w.label}: ${fmt(N)} creates, ${fmt(w.perSecond)}/s`,
					summarise(readProfile(file), w, N),
				),
			);
	} finally {
		restoreEnv('NODE_OPTIONS', previous);
		await stop();
	}
}

/** n8n turning 1,000 platform deliveries into executions: its Webhook node, then the pack's Trigger (profile of n8n's main process). */
async function triggerProfiles(out: string[]): Promise<void> {
	const { runtimeReady } = await import('../testbed/runtime/install');
	if (!runtimeReady()) {
		out.push('n8n runtime not installed: no profile of the trigger.');
		return;
	}
	const { withTriggerBench } = await import('./trigger');
	const dir = mkdtempSync(join(tmpdir(), 'bp-prof-trigger-'));
	const EVENTS = 1000;
	await withTriggerBench(async (deliverTo, n8n) => {
		const runs: Array<{ label: string; fromUs: number; toUs: number; perSecond: number }> = [];
		for (const [label, leg] of [
			["n8n's Webhook node (for comparison)", 'webhook'],
			["n8n's floor for a credentialed trigger (for comparison)", 'floor'],
			["The pack's Trigger", 'trigger'],
		] as const) {
			say(`  profiling: ${label}…`);
			await deliverTo(leg, 20); // warm up
			const o = await deliverTo(leg, EVENTS);
			runs.push({ label, fromUs: o.fromUs, toUs: o.toUs, perSecond: o.perSecond });
		}
		// The profile is written when n8n exits: stop it gently.
		await n8n.stop();
		const file = newestProfile(dir, n8n.pid);
		say(`    ${file}`);
		for (const r of runs)
			out.push(
				summaryMarkdown(
					`${r.label}: ${fmt(EVENTS)} deliveries → executions, ${fmt(r.perSecond, 1)}/s`,
					summarise(readProfile(file), r, EVENTS),
				),
			);
	}, `--cpu-prof --cpu-prof-dir=${dir} --cpu-prof-interval=${INTERVAL_US}`);
}

async function main() {
	const out: string[] = [
		`CPU profiles — ${new Date().toISOString().slice(0, 10)}; load average ${loadavg()
			.map((l) => fmt(l, 1))
			.join(
				' / ',
			)} at the start (figures from a loaded machine: read the shares, not the times). Sampling every ${INTERVAL_US} µs, only the measured run counted.`,
		'',
	];
	const wanted = process.argv.slice(2);
	if (!wanted.length || wanted.includes('harness')) {
		say('Profiles in the harness…');
		const { ready, stop } = await startSandboxProcess(['--rows', '10', '--max-page-size', '500']);
		try {
			await harnessProfiles(ready, out);
			await returnAllProfiles(ready, out);
		} finally {
			await stop();
		}
	}
	if (!wanted.length || wanted.includes('n8n')) {
		say('Profiles inside n8n…');
		await n8nProfiles(out);
	}
	if (!wanted.length || wanted.includes('trigger')) {
		say('Profiles of the trigger inside n8n…');
		await triggerProfiles(out);
	}
	const file = join(
		ROOT,
		wanted.length ? 'bench/results/profile-partial.md' : 'bench/results/profile.md',
	);
	writeFileSync(file, `${out.join('\n')}\n`);
	say(`Written to ${file}`);
}

main()
	.catch((e) => {
		process.stderr.write(`profile failed: ${e instanceof Error ? e.stack : String(e)}\n`);
		process.exitCode = 1;
	})
	.finally(() => void stopAll().then(() => process.exit()));
