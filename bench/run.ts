/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * `npm run bench`: the pack's speed against two baselines measured in the same run
 * against the same sandbox — a raw undici client at the same concurrency (the
 * limit) and n8n's HTTP Request node (what a user would pick instead, when the n8n
 * runtime is installed) — plus package load time, tarball size and the throughput of
 * n8n's queue mode with 1 and 2 workers (bench/queue-throughput.ts). Prints a ratio
 * table and writes bench/results/latest.md and latest.json. No assertions: figures.
 */
import { spawnSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { writeFileSync } from 'node:fs';

import { startSandboxProcess, type SandboxReady } from '../scripts/sandbox-process';
import { queueThroughput } from './queue-throughput';

const ROOT = resolve(__dirname, '..');
const say = (s: string) => process.stdout.write(`${s}\n`);

type Ready = SandboxReady;

async function admin<T = any>(base: string, method: string, path: string, body?: unknown): Promise<T> {
	const res = await fetch(`${base}/__admin${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
	return (await res.json()) as T;
}

function measure(name: string, args: Record<string, unknown>): Record<string, number> {
	const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(ROOT, 'bench/measure.ts'), name, JSON.stringify(args)], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
	if (r.status !== 0) throw new Error(`${name} failed:\n${r.stderr.slice(-2000)}`);
	return JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, number>;
}

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const secs = (ms: number) => `${fmt(ms / 1000, 2)} s`;

interface Row {
	scenario: string;
	pack: string;
	raw: string;
	httpNode: string;
	ratio: string;
	target: string;
	met: string;
}

async function main() {
	const t0 = Date.now();
	const rows: Row[] = [];
	const json: Record<string, unknown> = {};
	say('Starting the sandbox…');
	const { ready, stop } = await startSandboxProcess(['--rows', '30', '--max-page-size', '500']);
	try {
		const tokenResponse = await admin<Record<string, unknown>>(ready.baseUrl, 'POST', '/tokens/issue', {});
		const accessToken = String(tokenResponse['platform-token']);
		const base = { baseUrl: ready.baseUrl, authUrl: ready.authUrl, clientId: ready.clientId, clientSecret: ready.clientSecret, tokenResponse, accessToken };

		// ---- create 1,000 contacts ------------------------------------------------
		say('Create 1,000 contacts from 1,000 items…');
		const N = 1000;
		const rawDefault = measure('rawCreate', { ...base, count: N, concurrency: 5 });
		const packDefault = measure('packCreate', { ...base, count: N });
		const rawBest = measure('rawCreate', { ...base, count: N, concurrency: 20 });
		const packBest = measure('packCreate', { ...base, count: N, concurrency: 20 });
		const n8nFigures = await httpRequestNodeBaseline(ready, accessToken, N);
		const tput = (ms: number) => (N / ms) * 1000;
		rows.push({
			scenario: 'Create 1,000 contacts, default (5 in parallel)',
			pack: `${fmt(tput(packDefault.ms))}/s`,
			raw: `${fmt(tput(rawDefault.ms))}/s`,
			httpNode: n8nFigures ? `${fmt(tput(n8nFigures.httpNode))}/s (pack in n8n: ${fmt(tput(n8nFigures.packDefault))}/s)` : 'n8n not installed',
			ratio: `${fmt(tput(packDefault.ms) / tput(rawDefault.ms), 2)}× raw${n8nFigures ? `; ${fmt(n8nFigures.httpNode / n8nFigures.packDefault, 2)}× HTTP Request node` : ''}`,
			target: '≥ 0.8× raw; ≥ 4× HTTP Request node',
			met: `${tput(packDefault.ms) / tput(rawDefault.ms) >= 0.8 ? 'yes' : 'no'} / ${n8nFigures ? (n8nFigures.httpNode / n8nFigures.packDefault >= 4 ? 'yes' : 'no') : 'n.a.'}`,
		});
		rows.push({
			scenario: 'Create 1,000 contacts, 20 in parallel',
			pack: `${fmt(tput(packBest.ms))}/s`,
			raw: `${fmt(tput(rawBest.ms))}/s`,
			httpNode: n8nFigures ? `pack in n8n: ${fmt(tput(n8nFigures.packBest))}/s` : 'n.a.',
			ratio: `${fmt(tput(packBest.ms) / tput(rawBest.ms), 2)}× raw${n8nFigures ? `; ${fmt(n8nFigures.httpNode / n8nFigures.packBest, 2)}× HTTP Request node` : ''}`,
			target: '≥ 0.8× raw',
			met: tput(packBest.ms) / tput(rawBest.ms) >= 0.8 ? 'yes' : 'no',
		});
		json.create = { rawDefault, packDefault, rawBest, packBest, n8n: n8nFigures };

		// ---- Return All ---------------------------------------------------------------
		say('Return All over 50,000 records and 20,000 contacts…');
		const tables = await admin<Array<{ _id: string; objectType: string }>>(ready.baseUrl, 'GET', '/state/1/tables');
		const tableId = tables.find((t) => t.objectType === 'CONTACT')!._id;
		const existing = (await admin<unknown[]>(ready.baseUrl, 'GET', `/state/1/records?tableId=${tableId}`)).length;
		await admin(ready.baseUrl, 'POST', '/seed', { kind: 'records', tableId, count: 50_000 - existing });
		const contactsNow = (await admin<unknown[]>(ready.baseUrl, 'GET', '/state/1/contacts')).length;
		if (contactsNow < 20_000) await admin(ready.baseUrl, 'POST', '/seed', { kind: 'contacts', count: 20_000 - contactsNow });
		for (const [label, rawName, packName, extra] of [
			['Return All, 50,000 records (cells also by column name, the default)', 'rawRecords', 'packRecords', {}],
			['Return All, 50,000 records (raw cells only)', 'rawRecords', 'packRecords', { rawCells: true }],
			['Return All, 20,000+ contacts', 'rawContacts', 'packContacts', {}],
		] as const) {
			const raw = measure(rawName, { ...base, tableId, pageSize: 100 });
			const pack = measure(packName, { ...base, tableId, pageSize: 100, ...extra });
			const ratio = pack.ms / raw.ms;
			const memRatio = pack.peakHeapMb / (pack.bytes / 1048576);
			rows.push({
				scenario: `${label} (pages of 100)`,
				pack: `${secs(pack.ms)}, peak heap +${fmt(pack.peakHeapMb)} MB`,
				raw: `${secs(raw.ms)}, peak heap +${fmt(raw.peakHeapMb)} MB`,
				httpNode: '—',
				ratio: `${fmt(ratio, 2)}× raw time; memory ${fmt(memRatio, 2)}× the output (${fmt(pack.bytes / 1048576, 1)} MB of JSON; raw: ${fmt(raw.peakHeapMb / (raw.bytes / 1048576), 2)}× its ${fmt(raw.bytes / 1048576, 1)} MB)`,
				target: '≤ 1.2× raw time; memory ≤ 2× data',
				met: `${ratio <= 1.2 ? 'yes' : 'no'} / ${memRatio <= 2 ? 'yes' : 'no'}`,
			});
			json[`${packName}${'rawCells' in extra ? 'RawCells' : ''}`] = { raw, pack };
		}

		// ---- bulk update 5,000 deals -------------------------------------------------
		say('Bulk update 5,000 deals…');
		const deals = (await admin<Array<{ id: number }>>(ready.baseUrl, 'GET', '/state/1/deals')).length;
		if (deals < 5000) await admin(ready.baseUrl, 'POST', '/seed', { kind: 'deals', count: 5000 - deals });
		const ids = (await admin<Array<{ id: number }>>(ready.baseUrl, 'GET', '/state/1/deals')).slice(0, 5000).map((d) => d.id);
		const rawBulk = measure('rawBulkDeals', { ...base, ids });
		const packBulk = measure('packBulkDeals', { ...base, ids });
		rows.push({ scenario: 'Bulk update 5,000 deals (one request)', pack: secs(packBulk.ms), raw: secs(rawBulk.ms), httpNode: '—', ratio: `${fmt(packBulk.ms / rawBulk.ms, 2)}× raw time`, target: '—', met: '—' });
		json.bulk = { rawBulk, packBulk };

		// ---- trigger -----------------------------------------------------------------
		say('Trigger activation with all 22 events, and deactivation…');
		const rawTrig = measure('rawTrigger', base);
		const packTrig = measure('packTrigger', base);
		rows.push({
			scenario: 'Trigger: activate 22 events / deactivate',
			pack: `${fmt(packTrig.activateMs)} ms / ${fmt(packTrig.deactivateMs)} ms`,
			raw: `${fmt(rawTrig.activateMs)} ms / ${fmt(rawTrig.deactivateMs)} ms`,
			httpNode: '—',
			ratio: `${fmt(packTrig.activateMs / rawTrig.activateMs, 2)}× / ${fmt(packTrig.deactivateMs / rawTrig.deactivateMs, 2)}× raw`,
			target: 'activation < 1 s',
			met: packTrig.activateMs < 1000 ? 'yes' : 'no',
		});
		json.trigger = { rawTrig, packTrig };
	} finally {
		await stop();
	}

	// ---- package -------------------------------------------------------------------
	say('Package load time and tarball size…');
	const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, encoding: 'utf8' });
	if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
	const load = spawnSync(
		process.execPath,
		[
			'-e',
			`require('n8n-workflow');const p=require('./package.json');const t=process.hrtime.bigint();for(const f of [...p.n8n.credentials,...p.n8n.nodes]){const m=require('./'+f);for(const k of Object.keys(m)){if(typeof m[k]==='function'){new m[k]();}}}console.log(Number(process.hrtime.bigint()-t)/1e6)`,
		],
		{ cwd: ROOT, encoding: 'utf8' },
	);
	const loadMs = Number(load.stdout.trim());
	const pack = JSON.parse(spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' }).stdout) as Array<{ size: number; unpackedSize: number; entryCount: number }>;
	rows.push({ scenario: 'Load the package (require every node and the credential, construct them)', pack: `${fmt(loadMs, 1)} ms`, raw: '—', httpNode: '—', ratio: '—', target: '< 50 ms', met: loadMs < 50 ? 'yes' : 'no' });
	rows.push({ scenario: 'Packed tarball', pack: `${fmt(pack[0].size / 1024, 1)} kB (${pack[0].entryCount} files, ${fmt(pack[0].unpackedSize / 1024)} kB unpacked)`, raw: '—', httpNode: '—', ratio: '—', target: '—', met: '—' });
	json.package = { loadMs, tarball: pack[0] };

	// ---- queue mode: throughput with 1 and 2 workers (bench/queue-throughput.ts) ---------
	const queue = await queueThroughput(say);
	if (queue) {
		for (const r of queue.rows) rows.push({ scenario: r.scenario, pack: r.pack, raw: '—', httpNode: '—', ratio: `${r.ratio} (${r.baseline})`, target: r.target, met: r.met });
		json.queue = { rows: queue.rows, ...queue.raw };
	}

	const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${fmt(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
	const date = new Date().toISOString().slice(0, 10);
	const table = [
		`Benchmarks — ${date}, ${machine}; total ${fmt((Date.now() - t0) / 1000)} s`,
		'',
		'| Scenario | Pack | Raw undici (same concurrency) | n8n HTTP Request node | Ratio | Target | Met |',
		'|---|---|---|---|---|---|---|',
		...rows.map((r) => `| ${r.scenario} | ${r.pack} | ${r.raw} | ${r.httpNode} | ${r.ratio} | ${r.target} | ${r.met} |`),
		...(queue ? ['', 'Queue mode: CPU time and peak memory (RSS) per process during each run', '', queue.cpu] : []),
	].join('\n');
	say(`\n${table}\n`);
	writeFileSync(join(ROOT, 'bench/results/latest.md'), `${table}\n`);
	writeFileSync(join(ROOT, 'bench/results/latest.json'), `${JSON.stringify({ date, machine, rows, raw: json }, null, 2)}\n`);
	say('Written to bench/results/latest.md and latest.json');
}

/** The same 1,000 creates in a real n8n: HTTP Request node (default settings) vs the pack's node. */
async function httpRequestNodeBaseline(ready: Ready, token: string, n: number): Promise<{ httpNode: number; packDefault: number; packBest: number } | undefined> {
	const { runtimeReady } = await import('../scripts/n8n-runtime');
	if (!runtimeReady()) return undefined;
	const { startE2e, credential, webhookStart, workflow, pack } = await import('../test/e2e/n8n-env');
	const split = { name: 'Items', type: 'n8n-nodes-base.splitOut', typeVersion: 1, parameters: { fieldToSplitOut: 'body.items', options: {} } };
	const start = (path: string) => ({ ...webhookStart(path), parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', responseData: 'firstEntryJson', options: {} } });
	const wfs = [
		workflow('benchHttpNode001', 'Bench HTTP Request node', [
			start('bench-http'),
			split,
			{
				name: 'HTTP Request',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				parameters: {
					method: 'POST',
					url: `${ready.baseUrl}/v1/crm/contacts`,
					sendHeaders: true,
					headerParameters: { parameters: [{ name: 'x-access-token', value: token }] },
					sendBody: true,
					specifyBody: 'json',
					jsonBody: '={{ JSON.stringify({ name: $json.name, type: "person", email: $json.email }) }}',
					options: {},
				},
			},
		]),
		workflow('benchPackNode001', 'Bench pack default', [start('bench-pack'), split, pack('businessPlatformSales', 'Create', { resource: 'contact', operation: 'create', name: '={{ $json.name }}', type: 'person', additionalFields: { email: '={{ $json.email }}' } })]),
		workflow('benchPackNode020', 'Bench pack 20', [start('bench-pack-20'), split, pack('businessPlatformSales', 'Create', { resource: 'contact', operation: 'create', name: '={{ $json.name }}', type: 'person', additionalFields: { email: '={{ $json.email }}' }, requestOptions: { concurrency: 20 } })]),
	];
	const sb = { baseUrl: ready.baseUrl, authUrl: ready.authUrl, config: { clientId: ready.clientId, clientSecret: ready.clientSecret } } as never;
	const tokens = await admin<Record<string, unknown>>(ready.baseUrl, 'POST', '/tokens/issue', {});
	const e2e = await startE2e([credential(sb, tokens)], wfs, { benchHttpNode001: 'bench-http', benchPackNode001: 'bench-pack', benchPackNode020: 'bench-pack-20' });
	try {
		const time = async (path: string) => {
			const items = Array.from({ length: n }, (_, i) => ({ name: `N8n ${path} ${i}`, email: `${path}${i}@bench.example` }));
			await e2e.call(path, { items: items.slice(0, 5) }); // warm up
			const t = Date.now();
			const res = await e2e.call(path, { items });
			if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
			return Date.now() - t;
		};
		return { httpNode: await time('bench-http'), packDefault: await time('bench-pack'), packBest: await time('bench-pack-20') };
	} finally {
		await e2e.stop();
	}
}

main().catch((e) => {
	process.stderr.write(`bench failed: ${e instanceof Error ? e.stack : String(e)}\n`);
	process.exit(1);
});
