/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * `npm run bench:hops`: which of the pack's files and functions a piece of work runs through,
 * and its moves between them (bench/call-trace.ts), for two paths a reader follows: one item of
 * Deal → Create, and one poll of the webhook Trigger that heals a dropped registration (heal.ts).
 * Each runs in the n8n-core harness of the tests against an in-process sandbox, first to load and
 * warm everything, then once more under V8's precise coverage: every function of `nodes/` and
 * `credentials/` that ran for that second run is listed, by file (tsx's export getters and
 * constants left out), then a third time under the call trace. For Deal → Create, first the files a
 * reader opens for the operation itself: its file and the node's files it imports (labels,
 * helpers), the engine aside. Printed, not written: it measures the code, not the machine.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-hops-'));
process.env.N8N_LOG_LEVEL ??= 'silent';

import { PollContext } from 'n8n-core';
import type { IPollFunctions } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../sandbox/src/server';
import { activateWebhook, triggerWorkflow, webhookData } from '../testbed/harness/triggers';
import { additionalData } from '../testbed/harness/additional-data';
import { createHarness } from '../testbed/harness/run';
import { countMoves, traceCalls, type TracedFunction } from './call-trace';
import { ROOT, say } from './common';

const OWN = /^(nodes|credentials)\//;
/** What tsx's module wrapper adds (export getters are named after the export; `get`, `__name`), and class field initialisers. */
const WRAPPER = /^(get|__name|<instance_members_initializer>|[A-Z0-9_]+)$/;

const OPERATION = 'nodes/BusinessPlatformSales/resources/deal/create.ts';
const NODE_FOLDER = 'nodes/BusinessPlatformSales/';

/** The node's own files an operation's file reaches through its imports (labels, helpers): what a reader opens besides the engine. */
function nodeFilesOf(file: string, seen = new Set<string>()): Set<string> {
	seen.add(file);
	const text = readFileSync(join(ROOT, file), 'utf8');
	for (const [, spec] of text.matchAll(/from '(\.[^']+)'/g)) {
		const target = relative(ROOT, resolve(join(ROOT, dirname(file)), spec));
		const path = `${target}.ts`;
		if (path.startsWith(NODE_FOLDER) && !seen.has(path)) nodeFilesOf(path, seen);
	}
	return seen;
}

/** What one piece of work ran of the pack, by file, and its moves between the files (traced). */
async function measure(label: string, work: () => Promise<void>): Promise<void> {
	await work(); // loads and warms everything
	const session = new Session();
	session.connect();
	await session.post('Profiler.enable');
	await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
	await session.post('Profiler.takePreciseCoverage'); // resets the counts
	await work();
	const { result } = await session.post('Profiler.takePreciseCoverage');
	await session.post('Profiler.stopPreciseCoverage');
	session.disconnect();
	const byFile = new Map<string, string[]>();
	const traced: TracedFunction[] = [];
	for (const script of result) {
		if (!script.url.startsWith('file://')) continue;
		const file = relative(ROOT, fileURLToPath(script.url));
		if (!OWN.test(file)) continue;
		// The module's top level (the range from offset 0) ran when it loaded; an unnamed function is an arrow function of an object literal (an operation's hook, a map).
		const ran = script.functions
			.filter(
				(f) =>
					f.ranges[0]?.count > 0 && f.ranges[0].startOffset > 0 && !WRAPPER.test(f.functionName),
			)
			.map((f) => f.functionName);
		for (const f of script.functions)
			if (f.ranges[0]?.count > 0 && f.ranges[0].startOffset > 0)
				traced.push({
					scriptId: script.scriptId,
					file,
					name: f.functionName,
					start: f.ranges[0].startOffset,
					end: f.ranges[0].endOffset,
				});
		// A named one appears twice when its module exports it (the export's getter has its name too).
		const named = [...new Set(ran.filter(Boolean))];
		const arrows = ran.filter((n) => !n).length;
		if (ran.length)
			byFile.set(
				file,
				arrows ? [...named, `${arrows} arrow function${arrows > 1 ? 's' : ''}`] : named,
			);
	}
	const files = [...byFile.keys()].sort();
	say(`${label} runs through ${files.length} files of the pack`);
	for (const f of files) say(`  ${f}: ${byFile.get(f)!.join(', ')}`);
	const moves = await traceCalls(traced, work);
	const c = countMoves(moves);
	say(
		`Its moves between those files as a reader follows them (a call into another file, each call site once; returns are not moves): ${c.moves}`,
	);
	for (const line of c.lines) say(line);
	say(`Moves back into a file already entered: ${c.back}`);
	say(`(Every call counted, loops included: ${c.calls} moves, ${c.callsBack} back.)`);
}

/** One item of Deal → Create, through the executor. */
async function dealCreate(sb: Sandbox): Promise<void> {
	const own = [...nodeFilesOf(OPERATION)];
	say(
		`Deal → Create's own files (the operation's file and the node files it imports): ${own.length}`,
	);
	for (const f of own) say(`  ${f}`);
	const h = createHarness(sb, sb.issueTokens());
	let n = 0;
	await measure('Deal → Create, one item', async () => {
		const r = await h.run('businessPlatformSales', {
			resource: 'deal',
			operation: 'create',
			name: `Deal ${++n}`,
			additionalFields: {},
		});
		if (r.error) throw r.error;
	});
}

/**
 * One poll of the webhook Trigger that heals (nodes/BusinessPlatformSalesTrigger/heal.ts): a
 * published Trigger whose registration of one event the platform dropped; the poll lists the
 * registrations, registers the event again and reports it. Each run drops it first.
 */
async function healPoll(sb: Sandbox): Promise<void> {
	const h = createHarness(sb, sb.issueTokens());
	const node = h.node(
		'businessPlatformSalesTrigger',
		{ events: ['CREATE_CRM_DEAL', 'CREATE_INVOICE'], options: {} },
		'Platform Trigger',
		3,
	);
	node.webhookId = 'hops-heal';
	const wf = triggerWorkflow(node, {}, 'wf-hops-heal');
	const data = additionalData(h.credentials);
	const [wd] = webhookData(wf, node, data);
	await activateWebhook(wf, wd);
	const nodeType = wf.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const token = sb.platformToken(sb.demo.tokenResponse);
	const drop = async () => {
		const hook = sb.store
			.tenant(1)
			.webhooks.values()
			.find(
				(w) =>
					!w.deleted &&
					w.eventType === 'CREATE_INVOICE' &&
					String(w.webhookUrl).includes(`/${node.webhookId}/`),
			);
		if (!hook) throw new Error('no registration of CREATE_INVOICE to drop');
		const res = await fetch(`${sb.baseUrl}/v1/webhooks/delete/${String(hook.hookId)}`, {
			method: 'DELETE',
			headers: { 'x-access-token': token },
		});
		if (!res.ok) throw new Error(`the sandbox refused the drop: ${res.status}`);
	};
	await measure(
		"The heal's poll (one event's registration dropped, restored, reported)",
		async () => {
			await drop();
			const context = new PollContext(
				wf,
				node,
				data,
				'trigger',
				'activate',
			) as unknown as IPollFunctions;
			const out = await nodeType.poll!.call(context);
			if (out?.[0]?.[0]?.json.eventType !== 'CREATE_INVOICE')
				throw new Error(
					`the poll did not report the restored registration: ${JSON.stringify(out)}`,
				);
		},
	);
}

async function main(): Promise<void> {
	const sb = await startSandbox({});
	try {
		await dealCreate(sb);
		say('');
		await healPoll(sb);
	} finally {
		await sb.stop();
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(
			`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
		);
		process.exit(1);
	},
);
