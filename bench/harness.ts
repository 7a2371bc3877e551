/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Rows measured in the n8n-core harness (the pack's nodes run in-process through
 * n8n-core, as in the integration tests) against a sandbox in its own process, judged
 * against n8n's own floor (bench/helper-node.ts: a minimal node, n8n's expressions and request helper):
 * creating contacts, and Return All over records. Return All's memory is judged against a
 * bare undici client that pages the same list and keeps the same items (bench/measure-lists.ts):
 * what any client that returns the list as objects holds at least (V8 keeps parsed JSON at about
 * twice its size). As information, not targets: the creates against a raw undici client with
 * keep-alive (the ideal) and without it (a new connection per request, what n8n's request helpers
 * do), Return All's time against the bare client and its memory against the output's JSON, a
 * bulk update and the trigger's activation. Each scenario runs in a fresh process (bench/measure.ts;
 * in a smoke run, in this one, but those whose figures are the heap's).
 */
import { startSandboxProcess } from '../testbed/sandbox-process';
import { admin, baseOf, measure, say, sized, wireStats, type Base, type WireStats } from './common';
import { asInfo, fmt, row, worstOf, type BenchRow, type InfoRow, type Section } from './rows';

const N = sized(1000, 10);
/** Records and contacts Return All reads, deals the bulk update changes (tiny in a smoke run, bench/common.ts). */
const RECORDS = sized(50_000, 250);
const CONTACTS = sized(20_000, 150);
const DEALS = sized(5000, 10);
/** Rounds of each harness measurement (`BENCH_ROUNDS`, default 2); each keeps its best. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2) || 2;

export type { Base } from './common';

/** One measured create run and what the sandbox saw of it. */
async function createRun(
	base: Base,
	scenario: string,
	args: Record<string, unknown>,
): Promise<{ perSecond: number; wire: WireStats }> {
	await admin(base.baseUrl, 'POST', '/stats/reset');
	const r = await measure(scenario, { ...base, count: N, ...args });
	return { perSecond: (N / r.ms) * 1000, wire: await wireStats(base.baseUrl) };
}

const wireNote = (w: WireStats) =>
	`${fmt(w.connections)} connections for ${fmt(w.requests)} requests, at most ${w.maxOpenConnections} open, at most ${w.maxRequestsAtOnce} being answered at once`;

async function createRows(
	base: Base,
): Promise<{ rows: BenchRow[]; info: InfoRow[]; raw: Record<string, unknown> }> {
	const rows: BenchRow[] = [];
	const raw: Record<string, unknown> = {};
	for (const c of sized([5, 20], [5])) {
		say(
			`  harness: create ${N} contacts, ${c} in parallel (pack, n8n's helper alone, raw with and without keep-alive)…`,
		);
		// Rounds interleave the scenarios, so a disturbance of the machine hits all alike; each keeps its best.
		const scenarios = {
			keep: ['rawCreate', { keepAlive: true }],
			noKeep: ['rawCreate', { keepAlive: false }],
			pack: ['packCreate', {}],
			// The same without expressions: how much of the gap is n8n evaluating `{{ $json.name }}` and `{{ $json.email }}` per item.
			fixed: ['packCreate', { fixedParams: true }],
			// n8n's floor for any node: the same two expressions and helpers.httpRequest per item, no engine (bench/helper-node.ts).
			floor: ['helperCreate', {}],
			floorFixed: ['helperCreate', { fixedParams: true }],
		} as const;
		const best: Partial<Record<keyof typeof scenarios, Awaited<ReturnType<typeof createRun>>>> = {};
		for (let round = 0; round < ROUNDS; round++) {
			for (const [key, [scenario, args]] of Object.entries(scenarios) as Array<
				[keyof typeof scenarios, (typeof scenarios)[keyof typeof scenarios]]
			>) {
				const r = await createRun(base, scenario, { concurrency: c, ...args });
				if (!best[key] || r.perSecond > best[key].perSecond) best[key] = r;
			}
		}
		const { keep, noKeep, pack, fixed, floor, floorFixed } = best as Required<typeof best>;
		raw[`c${c}`] = { keep, noKeep, pack, fixed, floor, floorFixed };
		const vs = (x: { perSecond: number }) =>
			`${fmt(x.perSecond)}/s = ${fmt(x.perSecond / keep.perSecond, 2)}× keep-alive, ${fmt(x.perSecond / noKeep.perSecond, 2)}× no keep-alive`;
		const why = `n8n's floor for any node (helpers.httpRequest + the same two expressions, no pack code): ${vs(floor)}; without expressions: ${vs(floorFixed)}; the pack without expressions: ${vs(fixed)}`;
		const common = {
			scenario: `Create ${fmt(N)} contacts in the harness, ${c} in parallel`,
			pack: pack.perSecond,
			unit: '/s',
			better: 'higher' as const,
		};
		rows.push(
			row({
				...common,
				id: `harness-vs-raw-keepalive-c${c}`,
				baseline: keep.perSecond,
				target: 0.6,
				baselineLabel: `raw undici, keep-alive: ${wireNote(keep.wire)}`,
				note: `pack: ${wireNote(pack.wire)}; ${why}`,
			}),
			row({
				...common,
				id: `harness-vs-raw-nokeepalive-c${c}`,
				baseline: noKeep.perSecond,
				target: 0.9,
				baselineLabel: `raw undici, new connection per request: ${wireNote(noKeep.wire)}`,
				note: `pack: ${wireNote(pack.wire)}; ${why}`,
			}),
			row({
				...common,
				id: `harness-vs-n8n-floor-c${c}`,
				baseline: floor.perSecond,
				target: 0.95,
				baselineLabel: `n8n's floor: helpers.httpRequest + two expressions per item, no engine: ${wireNote(floor.wire)}`,
				note: 'what the pack adds to what n8n costs any node: parameters it reads beyond the two fields, the request builder, retries and error handling',
			}),
		);
	}
	const pick = (prefix: string) => rows.filter((r) => r.id.startsWith(`${prefix}-c`));
	const ceiling = rows
		.filter((r) => r.id.startsWith('harness-vs-raw-nokeepalive'))
		.map(
			(r) =>
				`${r.id}: raw without keep-alive is ${fmt(r.baseline / rows.find((k) => k.id === r.id.replace('nokeepalive', 'keepalive'))!.baseline, 2)}× raw with keep-alive`,
		);
	// Raw undici is a ceiling no node inside n8n reaches (n8n's helpers open a connection per request): information, not a target.
	const rawRows = rows.filter((r) => r.id.startsWith('harness-vs-raw'));
	return {
		rows: [
			worstOf(
				'harness-vs-n8n-floor',
				`Create ${fmt(N)} contacts in the harness vs n8n's floor for any node (5 and 20 in parallel)`,
				pick('harness-vs-n8n-floor'),
				'the pack against a minimal node that has n8n evaluate its two expressions per item and calls helpers.httpRequest',
			),
			...pick('harness-vs-n8n-floor'),
		],
		info: [
			asInfo(
				worstOf(
					'harness-vs-raw-keepalive',
					`Create ${fmt(N)} contacts in the harness vs raw undici with keep-alive (5 and 20 in parallel)`,
					pick('harness-vs-raw-keepalive'),
					`n8n's helpers open a connection per request; ${ceiling.join('; ')}`,
				),
			),
			asInfo(
				worstOf(
					'harness-vs-raw-nokeepalive',
					`Create ${fmt(N)} contacts in the harness vs raw undici without keep-alive (5 and 20 in parallel)`,
					pick('harness-vs-raw-nokeepalive'),
					'the ceiling n8n’s request helpers allow',
				),
			),
			...rawRows.map(asInfo),
		],
		raw,
	};
}

export async function seedForReturnAll(base: Base): Promise<string> {
	const tables = await admin<Array<{ _id: string; objectType: string }>>(
		base.baseUrl,
		'GET',
		'/state/1/tables',
	);
	const tableId = tables.find((t) => t.objectType === 'CONTACT')!._id;
	const existing = (
		await admin<unknown[]>(base.baseUrl, 'GET', `/state/1/records?tableId=${tableId}`)
	).length;
	await admin(base.baseUrl, 'POST', '/seed', {
		kind: 'records',
		tableId,
		count: RECORDS - existing,
	});
	const contactsNow = (await admin<unknown[]>(base.baseUrl, 'GET', '/state/1/contacts')).length;
	if (contactsNow < CONTACTS)
		await admin(base.baseUrl, 'POST', '/seed', { kind: 'contacts', count: CONTACTS - contactsNow });
	return tableId;
}

/** The goal for Return All's memory: the pack's peak at most this many times the bare client's. */
export const MEMORY_VS_FLOOR_TARGET = 1.15;

type Measured = Record<string, number>;

/** The lowest of `runs` by `key` (each round's best: its time, or its peak). */
const lowest = (runs: Measured[], key: string) => runs.reduce((a, b) => (b[key] < a[key] ? b : a));

async function returnAllRows(
	base: Base,
): Promise<{ rows: BenchRow[]; info: InfoRow[]; raw: Record<string, unknown> }> {
	say('  harness: Return All over 50,000 records and 20,000 contacts…');
	const tableId = await seedForReturnAll(base);
	const rows: BenchRow[] = [];
	const info: InfoRow[] = [];
	const raw: Record<string, unknown> = {};
	// [id, scenario, the bare client's scenario, the pack's, the pack's arguments]: the bare client gives
	// the same items as the pack (with cells by name, built by the same function): the floor for memory.
	const cases = [
		[
			'return-all-records',
			'Return All, 50,000 records (cells also by column name, the default), pages of 100',
			'rawRecordsByName',
			'packRecords',
			{},
		],
		[
			'return-all-records-raw-cells',
			'Return All, 50,000 records (raw cells only), pages of 100',
			'rawRecords',
			'packRecords',
			{ rawCells: true },
		],
		[
			'return-all-contacts',
			'Return All, 20,000+ contacts, pages of 100',
			'rawContacts',
			'packContacts',
			{},
		],
	] as const;
	// Each scenario in a fresh process; rounds interleave the scenarios (n8n's floor, then each case's
	// bare client and pack), so a disturbance of the machine hits all alike; each row takes each side's best.
	const once = async (name: string, args: Record<string, unknown>) =>
		(await measure(name, { ...base, tableId, pageSize: 100, ...args })) as Measured;
	const runs: Record<string, Measured[]> = {};
	const add = (key: string, m: Measured) => (runs[key] = [...(runs[key] ?? []), m]);
	for (let round = 0; round < ROUNDS; round++) {
		// n8n's floor for Return All over records: helpers.httpRequest page after page, no pack code (bench/helper-node.ts).
		add('floor', await once('helperRecords', {}));
		for (const [id, , bareName, packName, extra] of cases) {
			add(`${id}/bare`, await once(bareName, {}));
			add(`${id}/pack`, await once(packName, extra));
		}
	}
	const floorRuns = runs.floor;
	const floor = lowest(floorRuns, 'ms');
	raw.floor = floorRuns;
	for (const [id, scenario, bareName] of cases) {
		const bareRuns = runs[`${id}/bare`];
		const packRuns = runs[`${id}/pack`];
		raw[id] = { bare: bareRuns, pack: packRuns };
		const [r, p] = [lowest(bareRuns, 'ms'), lowest(packRuns, 'ms')];
		const [rMem, pMem] = [lowest(bareRuns, 'peakHeapMb'), lowest(packRuns, 'peakHeapMb')];
		const mb = (bytes: number) => bytes / 1048576;
		const sameOutput =
			rMem.items === pMem.items && rMem.bytes === pMem.bytes
				? `the same ${fmt(pMem.items)} items, ${fmt(mb(pMem.bytes), 1)} MB as JSON`
				: `NOT the same output: bare ${fmt(rMem.items)} items ${fmt(rMem.bytes)} bytes, pack ${fmt(pMem.items)} items ${fmt(pMem.bytes)} bytes`;
		const helperMem = lowest(floorRuns, 'peakHeapMb');
		const n8nFloorNote =
			bareName === 'rawRecords'
				? `; n8n's floor for paging (helpers.httpRequest page after page, the records as items, no pack code) peaks at ${fmt(helperMem.peakHeapMb, 1)} MB = ${fmt(helperMem.peakHeapMb / rMem.peakHeapMb, 2)}× the bare client`
				: '';
		rows.push(
			row({
				id: `${id}-memory-vs-floor`,
				scenario: `${scenario}: peak heap growth vs a bare client holding the same items`,
				pack: pMem.peakHeapMb,
				baseline: rMem.peakHeapMb,
				unit: 'MB',
				better: 'lower',
				target: MEMORY_VS_FLOOR_TARGET,
				baselineLabel:
					'bare undici client paging the same list, keeping the parsed items, in its own process',
				note: `${sameOutput}; retained after the run: pack ${fmt(pMem.retainedMb, 1)} MB, bare client ${fmt(rMem.retainedMb, 1)} MB (n8n's item wrappers, { json, pairedItem }, are the pack's part of the difference)${n8nFloorNote}; lowest peak of ${ROUNDS} rounds each`,
			}),
		);
		const floorNote =
			bareName === 'rawRecords'
				? `; n8n's floor (helpers.httpRequest page after page, no pack code) ${fmt(floor.ms / 1000, 2)} s = ${fmt(floor.ms / r.ms, 2)}× the bare client: the pack reads two pages ahead, which no single-page client does`
				: '';
		info.push(
			asInfo(
				row({
					id,
					scenario,
					pack: p.ms / 1000,
					baseline: r.ms / 1000,
					unit: 's',
					better: 'lower',
					target: 1.2,
					baselineLabel: 'bare undici client paging, keep-alive',
					note: `${fmt(p.items)} items${floorNote}`,
				}),
			),
			// What the former goal compared with: the output's JSON (any client's parsed items take about
			// twice their JSON in V8's heap) and the output's own heap.
			asInfo(
				row({
					id: `${id}-memory`,
					scenario: `${scenario}: peak heap growth vs the output's JSON size`,
					pack: pMem.peakHeapMb,
					baseline: mb(pMem.bytes),
					unit: 'MB',
					better: 'lower',
					target: 2,
					baselineLabel: 'output as JSON',
					note: `bare client: peak ${fmt(rMem.peakHeapMb, 1)} MB = ${fmt(rMem.peakHeapMb / mb(rMem.bytes), 2)}× its JSON; its parsed output alone ${fmt(rMem.retainedMb, 1)} MB = ${fmt(rMem.retainedMb / mb(rMem.bytes), 2)}× its JSON`,
				}),
			),
		);
		// Like for like with n8n's floor: the same records, raw cells (the floor maps no cells), pages of 100.
		if (id === 'return-all-records-raw-cells')
			rows.push(
				row({
					id: 'return-all-vs-n8n-floor',
					scenario:
						'Return All, 50,000 records (raw cells), pages of 100, vs n8n’s floor for paging',
					pack: p.ms / 1000,
					baseline: floor.ms / 1000,
					unit: 's',
					better: 'lower',
					target: 1.05,
					baselineLabel:
						"n8n's floor: helpers.httpRequest page after page, the records as items, no pack code",
					note: `${fmt(p.items)} items; the pack reads two pages ahead once the total is known, keeps each ID once and checks the answer`,
				}),
			);
	}
	return { rows, info, raw };
}

async function infoRows(base: Base): Promise<{ info: InfoRow[]; raw: Record<string, unknown> }> {
	say('  harness: bulk update 5,000 deals; trigger activation…');
	const deals = (await admin<Array<{ id: number }>>(base.baseUrl, 'GET', '/state/1/deals')).length;
	if (deals < DEALS)
		await admin(base.baseUrl, 'POST', '/seed', { kind: 'deals', count: DEALS - deals });
	const ids = (await admin<Array<{ id: number }>>(base.baseUrl, 'GET', '/state/1/deals'))
		.slice(0, DEALS)
		.map((d) => d.id);
	const rawBulk = await measure('rawBulkDeals', { ...base, ids });
	const packBulk = await measure('packBulkDeals', { ...base, ids });
	const rawTrig = await measure('rawTrigger', base);
	const packTrig = await measure('packTrigger', base);
	return {
		info: [
			{
				id: 'bulk-update-deals',
				scenario: 'Bulk update 5,000 deals (one request), pack ÷ raw time',
				value: packBulk.ms / rawBulk.ms,
				unit: '×',
				text: `${fmt(packBulk.ms)} ms vs raw ${fmt(rawBulk.ms)} ms (${fmt(packBulk.ms / rawBulk.ms, 2)}×)`,
			},
			{
				id: 'trigger-activation',
				scenario: 'Trigger: activate 22 events / deactivate (target: activation < 1 s)',
				value: packTrig.activateMs,
				unit: 'ms',
				text: `${fmt(packTrig.activateMs)} ms / ${fmt(packTrig.deactivateMs)} ms (raw ${fmt(rawTrig.activateMs)} / ${fmt(rawTrig.deactivateMs)} ms)`,
			},
		],
		raw: { rawBulk, packBulk, rawTrig, packTrig },
	};
}

/** Every harness row, against one sandbox process. */
export async function harnessSection(): Promise<Section> {
	say('Harness (n8n-core in-process) against a sandbox process…');
	const { ready, stop } = await startSandboxProcess(['--rows', '30', '--max-page-size', '500']);
	try {
		const base = await baseOf(ready);
		const create = await createRows(base);
		const returnAll = await returnAllRows(base);
		const info = await infoRows(base);
		return {
			title: `In the n8n-core harness (nodes in-process, sandbox in its own process; best of ${ROUNDS} rounds)`,
			rows: [...create.rows, ...returnAll.rows],
			info: [...create.info, ...returnAll.info, ...info.info],
			raw: { create: create.raw, returnAll: returnAll.raw, ...info.raw },
		};
	} finally {
		await stop();
	}
}
