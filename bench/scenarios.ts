/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The harness section's measurements (bench/harness.ts): each scenario drives either a raw undici
 * client or the pack's nodes through n8n-core (the harness of the tests) against a sandbox, and
 * gives its figures (the polls section's, bench/poll-measure.ts, with them). `npm run bench` runs
 * each in a fresh process (bench/measure.ts), so memory figures are its own; the smoke run of `npm test` runs them
 * in its own process, but for one (bench/common.ts, SMOKE_OWN_PROCESS).
 */
import type { IDataObject } from 'n8n-workflow';
import { Pool } from 'undici';

import { harness, helperHarness, timed, withMemory, type Args } from './measure-kit';
import { listScenarios } from './measure-lists';
import { pollScenarios } from './poll-measure';

export type { Args };

export const scenarios: Record<string, (a: Args) => Promise<Record<string, unknown>>> = {
	...listScenarios,
	...(pollScenarios as unknown as Record<string, (a: Args) => Promise<Record<string, unknown>>>),
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
