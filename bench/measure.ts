/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * One measurement in a fresh process (so memory figures are not polluted by other scenarios):
 * `tsx bench/measure.ts <scenario> <json args>` prints one JSON line. Scenarios (these, and the
 * polls' in bench/poll-measure.ts) drive a raw undici client or the pack's nodes through n8n-core
 * (the harness of the tests) against a sandbox started by bench/run.ts. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-bench-'));
process.env.N8N_LOG_LEVEL ??= 'silent';

import type { IDataObject } from 'n8n-workflow';
import { Pool } from 'undici';

interface Args {
	baseUrl: string;
	tokenResponse: Record<string, unknown>;
	accessToken: string;
	clientId: string;
	clientSecret: string;
	authUrl: string;
	count?: number;
	concurrency?: number;
	tableId?: string;
	pageSize?: number;
	ids?: number[];
	rawCells?: boolean;
	/** rawCreate: false opens a new connection for every request (`connection: close`), as n8n's request helpers do. */
	keepAlive?: boolean;
	/** packCreate: fixed parameter values instead of `{{ $json.… }}` expressions (what n8n's expression engine costs). */
	fixedParams?: boolean;
}

/** Runs `fn`; its time, and its start and end on the monotonic clock in µs (the clock of a --cpu-prof profile). */
async function timed<T>(
	fn: () => Promise<T>,
): Promise<{ value: T; ms: number; fromUs: number; toUs: number }> {
	const t0 = process.hrtime.bigint();
	const value = await fn();
	const t1 = process.hrtime.bigint();
	return { value, ms: Number(t1 - t0) / 1e6, fromUs: Number(t0 / 1000n), toUs: Number(t1 / 1000n) };
}

/** Peak heap above the starting point, sampled while `fn` runs (after a GC when available). */
async function withMemory<T>(fn: () => Promise<T>): Promise<{
	value: T;
	ms: number;
	peakHeapMb: number;
	retainedMb: number;
	fromUs: number;
	toUs: number;
}> {
	const gc = (globalThis as { gc?: () => void }).gc;
	gc?.();
	const base = process.memoryUsage().heapUsed;
	let peak = base;
	const timer = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage().heapUsed);
	}, 5);
	const t0 = process.hrtime.bigint();
	const value = await fn();
	const t1 = process.hrtime.bigint();
	const ms = Number(t1 - t0) / 1e6;
	clearInterval(timer);
	peak = Math.max(peak, process.memoryUsage().heapUsed);
	gc?.();
	const retained = process.memoryUsage().heapUsed - base;
	return {
		value,
		ms,
		peakHeapMb: (peak - base) / 1048576,
		retainedMb: retained / 1048576,
		fromUs: Number(t0 / 1000n),
		toUs: Number(t1 / 1000n),
	};
}

function fakeSandbox(a: Args) {
	// The harness needs only these fields of a Sandbox to build its stored credential.
	return {
		baseUrl: a.baseUrl,
		authUrl: a.authUrl,
		config: { clientId: a.clientId, clientSecret: a.clientSecret },
		demo: { tokenResponse: a.tokenResponse },
	} as never;
}

async function harness(a: Args) {
	const { createHarness } = await import('../testbed/harness/run');
	return createHarness(fakeSandbox(a), a.tokenResponse);
}

/** The harness with bench/helper-node.ts registered beside the pack's nodes. */
async function helperHarness(a: Args) {
	const { NODE_TYPES, PACKAGE } = await import('../testbed/harness/nodes');
	const { BenchHelperOnly } = await import('./helper-node');
	NODE_TYPES[`${PACKAGE}.benchHelperOnly`] = new BenchHelperOnly();
	return await harness(a);
}

/** Pages through a list with undici, the way a careful hand-written client would. */
async function rawPages(
	pool: Pool,
	token: string,
	page: (n: number) => { method: 'GET' | 'POST'; path: string; body?: string },
	items: (b: any) => unknown[],
	size: number,
): Promise<unknown[]> {
	const all: unknown[] = [];
	for (let n = 1; ; n++) {
		const p = page(n);
		const res = await pool.request({
			method: p.method,
			path: p.path,
			body: p.body,
			headers: { 'x-access-token': token, 'content-type': 'application/json' },
		});
		const list = items(await res.body.json());
		all.push(...list);
		if (list.length < size) break;
	}
	return all;
}

const scenarios: Record<string, (a: Args) => Promise<Record<string, unknown>>> = {
	async rawCreate(a) {
		const pool = new Pool(a.baseUrl, { connections: a.concurrency });
		const reset = a.keepAlive === false;
		const create = async (i: number) => {
			const res = await pool.request({
				method: 'POST',
				path: '/v1/crm/contacts',
				reset,
				body: JSON.stringify({ name: `Raw ${i}`, type: 'person', email: `raw${i}@bench.example` }),
				headers: { 'x-access-token': a.accessToken, 'content-type': 'application/json' },
			});
			await res.body.dump();
			if (res.statusCode !== 200) throw new Error(`raw create answered ${res.statusCode}`);
		};
		// Warm up, as the pack's scenario does (undici loads parts of itself on first use).
		for (let i = 0; i < 20; i++) await create(-1 - i);
		let next = 0;
		const { ms, fromUs, toUs } = await timed(async () => {
			await Promise.all(
				Array.from({ length: a.concurrency! }, async () => {
					while (next < a.count!) await create(next++);
				}),
			);
		});
		await pool.close();
		return { ms, fromUs, toUs };
	},
	async packCreate(a) {
		const h = await harness(a);
		const input = Array.from({ length: a.count! }, (_, i) => ({
			json: { name: `Pack ${i}`, email: `pack${i}@bench.example` },
		}));
		const params: IDataObject = a.fixedParams
			? {
					resource: 'contact',
					operation: 'create',
					name: 'Pack fixed',
					type: 'person',
					additionalFields: { email: 'fixed@bench.example' },
				}
			: {
					resource: 'contact',
					operation: 'create',
					name: '={{ $json.name }}',
					type: 'person',
					additionalFields: { email: '={{ $json.email }}' },
				};
		if (a.concurrency) params.requestOptions = { concurrency: a.concurrency };
		// Warm up (n8n-core loads parts of itself on first use; a running n8n has them loaded).
		await h.run(
			'businessPlatformSales',
			params,
			input.slice(0, 20).map((i) => ({ json: { ...i.json, name: `Warm ${String(i.json.name)}` } })),
		);
		const { value, ms, fromUs, toUs } = await timed(() =>
			h.run('businessPlatformSales', params, input),
		);
		if (value.error || value.json.length !== a.count)
			throw new Error(`pack create: ${value.error?.message ?? value.json.length}`);
		return { ms, fromUs, toUs };
	},
	/** n8n's own floor for any node: two fields read (expressions unless fixedParams) and helpers.httpRequest per item, nothing else. */
	async helperCreate(a) {
		const h = await helperHarness(a);
		const input = Array.from({ length: a.count! }, (_, i) => ({
			json: { name: `Helper ${i}`, email: `helper${i}@bench.example` },
		}));
		const fields = a.fixedParams
			? { name: 'Helper fixed', email: 'fixed@bench.example' }
			: { name: '={{ $json.name }}', email: '={{ $json.email }}' };
		const params: IDataObject = {
			url: `${a.baseUrl}/v1/crm/contacts`,
			token: a.accessToken,
			concurrency: a.concurrency ?? 5,
			...fields,
		};
		await h.run('benchHelperOnly', params, input.slice(0, 20)); // warm up, as packCreate
		const { value, ms, fromUs, toUs } = await timed(() => h.run('benchHelperOnly', params, input));
		if (value.error || value.json.length !== a.count || !value.json.every((j) => j.id))
			throw new Error(`helper create: ${value.error?.message ?? value.json.length}`);
		return { ms, fromUs, toUs };
	},
	/** n8n's floor for Return All: helpers.httpRequest page after page, the records as items, no pack code. */
	async helperRecords(a) {
		const h = await helperHarness(a);
		const params: IDataObject = {
			url: `${a.baseUrl}/v1/crm/core/table/${a.tableId}/paged-record`,
			token: a.accessToken,
			pageSize: a.pageSize,
		};
		// Warm up n8n's request helper (as packRecords does with a 5-record search): three creates.
		await h.run(
			'benchHelperOnly',
			{
				url: `${a.baseUrl}/v1/crm/contacts`,
				token: a.accessToken,
				concurrency: 1,
				name: 'Warm',
				email: 'warm@bench.example',
			},
			[{ json: {} }, { json: {} }, { json: {} }],
		);
		const r = await withMemory(() => h.run('benchHelperOnly', params));
		if (r.value.error) throw new Error(r.value.error.message);
		return {
			ms: r.ms,
			items: r.value.json.length,
			bytes: Buffer.byteLength(JSON.stringify(r.value.json)),
			peakHeapMb: r.peakHeapMb,
			retainedMb: r.retainedMb,
			fromUs: r.fromUs,
			toUs: r.toUs,
		};
	},
	async rawRecords(a) {
		const pool = new Pool(a.baseUrl, { connections: 1 });
		const size = a.pageSize!;
		const r = await withMemory(() =>
			rawPages(
				pool,
				a.accessToken,
				(n) => ({
					method: 'POST',
					path: `/v1/crm/core/table/${a.tableId}/paged-record?pageNo=${n}&pageSize=${size}`,
					body: '{"logicalOperator":"and","conditions":[]}',
				}),
				(b) => b.data,
				size,
			),
		);
		await pool.close();
		return {
			ms: r.ms,
			items: r.value.length,
			bytes: Buffer.byteLength(JSON.stringify(r.value)),
			peakHeapMb: r.peakHeapMb,
			retainedMb: r.retainedMb,
			fromUs: r.fromUs,
			toUs: r.toUs,
		};
	},
	async packRecords(a) {
		const h = await harness(a);
		const params: IDataObject = {
			resource: 'record',
			operation: 'search',
			tableId: { __rl: true, mode: 'id', value: a.tableId },
			returnAll: true,
		};
		if (a.rawCells) params.cellsByName = false;
		await h.run('businessPlatformSales', { ...params, returnAll: false, limit: 5 }); // warm up, as a running n8n is
		const r = await withMemory(() => h.run('businessPlatformSales', params));
		if (r.value.error) throw new Error(r.value.error.message);
		return {
			ms: r.ms,
			items: r.value.json.length,
			bytes: Buffer.byteLength(JSON.stringify(r.value.json)),
			peakHeapMb: r.peakHeapMb,
			retainedMb: r.retainedMb,
			fromUs: r.fromUs,
			toUs: r.toUs,
		};
	},
	async rawContacts(a) {
		const pool = new Pool(a.baseUrl, { connections: 1 });
		const size = a.pageSize!;
		const r = await withMemory(() =>
			rawPages(
				pool,
				a.accessToken,
				(n) => ({ method: 'GET', path: `/v1/crm/contacts?page=${n}&limit=${size}` }),
				(b) => b.data,
				size,
			),
		);
		await pool.close();
		return {
			ms: r.ms,
			items: r.value.length,
			bytes: Buffer.byteLength(JSON.stringify(r.value)),
			peakHeapMb: r.peakHeapMb,
			retainedMb: r.retainedMb,
			fromUs: r.fromUs,
			toUs: r.toUs,
		};
	},
	async packContacts(a) {
		const h = await harness(a);
		await h.run('businessPlatformSales', {
			resource: 'contact',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
		}); // warm up
		const r = await withMemory(() =>
			h.run('businessPlatformSales', {
				resource: 'contact',
				operation: 'getAll',
				returnAll: true,
				simplify: false,
			}),
		);
		if (r.value.error) throw new Error(r.value.error.message);
		return {
			ms: r.ms,
			items: r.value.json.length,
			bytes: Buffer.byteLength(JSON.stringify(r.value.json)),
			peakHeapMb: r.peakHeapMb,
			retainedMb: r.retainedMb,
			fromUs: r.fromUs,
			toUs: r.toUs,
		};
	},
	async rawBulkDeals(a) {
		const pool = new Pool(a.baseUrl, { connections: 1 });
		const { ms } = await withMemory(async () => {
			const res = await pool.request({
				method: 'PATCH',
				path: '/v1/crm/deals',
				body: JSON.stringify({ ids: a.ids, status: 1, reason: 'bench' }),
				headers: { 'x-access-token': a.accessToken, 'content-type': 'application/json' },
			});
			await res.body.json();
		});
		await pool.close();
		return { ms };
	},
	async packBulkDeals(a) {
		const h = await harness(a);
		await h.run('businessPlatformSales', {
			resource: 'deal',
			operation: 'get',
			dealId: { __rl: true, mode: 'id', value: String(a.ids![0]) },
		}); // warm up
		const { value, ms } = await withMemory(() =>
			h.run('businessPlatformSales', {
				resource: 'deal',
				operation: 'bulkUpdate',
				dealIds: a.ids!.join(','),
				updateFields: { status: 2, reason: 'bench' },
			}),
		);
		if (value.error || value.json.length !== a.ids!.length)
			throw new Error(`pack bulk update: ${value.error?.message ?? value.json.length}`);
		return { ms };
	},
	async packTrigger(a) {
		const { additionalData } = await import('../testbed/harness/additional-data');
		const { triggerWorkflow, webhookData, activateWebhook, webhookMethod } = await import(
			'../testbed/harness/triggers'
		);
		const h = await harness(a);
		const node = h.node(
			'businessPlatformSalesTrigger',
			{ events: ['ALL_SALES_EVENTS', 'ALL_ACCOUNTING_EVENTS'], options: {} },
			'Trigger',
		);
		node.webhookId = 'bench-0000-4000-8000-000000000001';
		const wf = triggerWorkflow(node);
		const [wd] = webhookData(wf, node, additionalData(h.credentials));
		const t0 = process.hrtime.bigint();
		await activateWebhook(wf, wd);
		const activateMs = Number(process.hrtime.bigint() - t0) / 1e6;
		const t1 = process.hrtime.bigint();
		await webhookMethod('delete', wf, wd, 'trigger', 'update');
		const deactivateMs = Number(process.hrtime.bigint() - t1) / 1e6;
		return { activateMs, deactivateMs };
	},
	async rawTrigger(a) {
		const { EVENT_TYPES } = await import('../sandbox/src/webhooks');
		const pool = new Pool(a.baseUrl, { connections: 22 });
		const headers = { 'x-access-token': a.accessToken, 'content-type': 'application/json' };
		const t0 = process.hrtime.bigint();
		const list = await pool.request({ method: 'GET', path: '/v1/webhooks', headers });
		await list.body.dump();
		const ids = await Promise.all(
			EVENT_TYPES.map(async (eventType) => {
				const res = await pool.request({
					method: 'POST',
					path: '/v1/webhooks/register',
					headers,
					body: JSON.stringify({
						clientId: a.clientId,
						clientSecret: a.clientSecret,
						accessToken: a.accessToken,
						refreshToken: 'x',
						eventType,
						webhookUrl: `http://127.0.0.1:9/${eventType}`,
					}),
				});
				return ((await res.body.json()) as { hookId: number }).hookId;
			}),
		);
		const activateMs = Number(process.hrtime.bigint() - t0) / 1e6;
		const t1 = process.hrtime.bigint();
		await Promise.all(
			ids.map(async (id) =>
				(
					await pool.request({ method: 'DELETE', path: `/v1/webhooks/delete/${id}`, headers })
				).body.dump(),
			),
		);
		const deactivateMs = Number(process.hrtime.bigint() - t1) / 1e6;
		await pool.close();
		return { activateMs, deactivateMs };
	},
};

async function main() {
	const [name, json] = process.argv.slice(2);
	const polls = (await import('./poll-measure')).pollScenarios as typeof scenarios;
	const fn = scenarios[name] ?? polls[name];
	if (!fn) throw new Error(`unknown scenario ${name}`);
	const result = await fn(JSON.parse(json) as Args);
	process.stdout.write(`${JSON.stringify(result)}\n`);
	process.exit(0);
}

main().catch((e) => {
	process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
	process.exit(1);
});
