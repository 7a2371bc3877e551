/* eslint-disable @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The scenarios of bench/scenarios.ts that read a whole list (Return All over records and contacts),
 * each with its time and its heap: the pack's node through n8n-core, n8n's floor for paging
 * (bench/helper-node.ts: helpers.httpRequest page after page), and a bare undici client that pages
 * the same list and keeps the parsed items, the floor for memory: what any client that returns the
 * list as objects holds at least. For records with cells by column name (the pack's default) the
 * bare client builds the same items with the same function (recordByName), so both hold the same
 * output (their `bytes` are equal).
 */
import type { IDataObject } from 'n8n-workflow';
import { Pool, request } from 'undici';

import { recordByName } from '../nodes/BusinessPlatformSales/resources/record/cells';
import type { PlatformTable } from '../nodes/BusinessPlatformSales/common/tables';
import { harness, helperHarness, listFigures, withMemory, type Args } from './measure-kit';

/** Pages through a list with undici, the way a careful hand-written client would; `map` shapes each page's items. */
async function rawPages(
	pool: Pool,
	token: string,
	page: (n: number) => { method: 'GET' | 'POST'; path: string; body?: string },
	items: (b: any) => unknown[],
	size: number,
	map: (item: any) => unknown = (item) => item,
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
		for (const item of list) all.push(map(item));
		if (list.length < size) break;
	}
	return all;
}

/** The bare client over a table's records; with `byName`, each record with its cells also by column name, as the pack gives them. */
async function bareRecords(a: Args, byName: boolean): Promise<Record<string, number>> {
	const pool = new Pool(a.baseUrl, { connections: 1 });
	const headers = { 'x-access-token': a.accessToken };
	const size = a.pageSize!;
	const r = await withMemory(async () => {
		let map: ((item: IDataObject) => unknown) | undefined;
		if (byName) {
			const res = await pool.request({
				method: 'GET',
				path: `/v1/crm/core/table/${a.tableId}`,
				headers,
			});
			const table = (await res.body.json()) as PlatformTable;
			map = (record) => recordByName(record, table);
		}
		return await rawPages(
			pool,
			a.accessToken,
			(n) => ({
				method: 'POST',
				path: `/v1/crm/core/table/${a.tableId}/paged-record?pageNo=${n}&pageSize=${size}`,
				body: '{"logicalOperator":"and","conditions":[]}',
			}),
			(b) => b.data,
			size,
			map,
		);
	});
	await pool.close();
	return listFigures(r, r.value);
}

export const listScenarios: Record<string, (a: Args) => Promise<Record<string, unknown>>> = {
	/** n8n's floor for Return All: helpers.httpRequest page after page, the records as items, no pack code. */
	async helperRecords(a) {
		const h = await helperHarness(a);
		const params: IDataObject = {
			url: `${a.baseUrl}/v1/crm/core/table/${a.tableId}/paged-record`,
			token: a.accessToken,
			pageSize: a.pageSize,
		};
		// Warm up n8n's request helper (as packRecords does with a 5-record search): the same paging
		// over a small table, which changes nothing (creates would add contacts between the rounds of
		// the contacts scenarios, and the bare client and the pack would not hold the same items).
		const res = await request(`${a.baseUrl}/v1/crm/core/table`, {
			headers: { 'x-access-token': a.accessToken },
		});
		const tables = ((await res.body.json()) as { data: Array<{ _id: string }> }).data;
		const small = tables.find((t) => t._id !== a.tableId)!._id;
		await h.run('benchHelperOnly', {
			...params,
			url: `${a.baseUrl}/v1/crm/core/table/${small}/paged-record`,
		});
		const r = await withMemory(() => h.run('benchHelperOnly', params));
		if (r.value.error) throw new Error(r.value.error.message);
		return listFigures(r, r.value.json);
	},
	/** The bare client: the records as the platform sends them (raw cells). */
	rawRecords: async (a) => await bareRecords(a, false),
	/** The bare client: the records with their cells also by column name (the pack's default output). */
	rawRecordsByName: async (a) => await bareRecords(a, true),
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
		return listFigures(r, r.value.json);
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
		return listFigures(r, r.value);
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
		return listFigures(r, r.value.json);
	},
};
