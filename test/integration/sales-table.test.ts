/**
 * Sales node → Table: Get, Get Many, Get by Object Type through n8n-core against the
 * sandbox, on the credential's regional host; plus the table picker and the column
 * pickers that Record uses (through n8n-core's load-options context).
 */
import type { IDataObject, INodeListSearchResult, ResourceMapperFields } from 'n8n-workflow';

import { columnFields } from '../../nodes/BusinessPlatformSales/methods/tables';
import type { PlatformTable } from '../../nodes/BusinessPlatformSales/common/tables';
import { pick } from '../../testbed/harness/pickers';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox({ regional: true });
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb, ctx.sb.demo.tokenResponse, {
		regionalBaseUrl: ctx.sb.regionalBaseUrl!,
	});
});

const NODE = 'businessPlatformSales';
const stored = () => ctx.sb.store.tenant(1).tables.values() as unknown as PlatformTable[];
const tableOf = (objectType: string) => stored().find((t) => t.objectType === objectType)!;
const rl = (value: string) => ({ __rl: true, mode: 'id', value });
/** Every request since the last reset, as [host, method, path]. */
const wire = () => ctx.sb.requests().map((r) => [r.host, r.method, r.path]);

describe('Table → Get', () => {
	it('returns the table with its columns, simplified or raw, from the regional host', async () => {
		const contacts = tableOf('CONTACT');
		ctx.sb.resetStats();
		const run = await h.run(NODE, {
			resource: 'table',
			operation: 'get',
			tableId: rl(contacts._id),
		});
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(1);
		const t = run.json[0];
		expect(t).toMatchObject({
			_id: contacts._id,
			name: 'Contacts',
			objectType: 'CONTACT',
			databaseName: 'crm',
		});
		// Simplified: every column in short, select options by name, ref tables by object type.
		const columns = t.columns as IDataObject[];
		expect(columns.map((c) => c.id)).toEqual(contacts.columnsMetaData!.map((c) => c.id));
		const label = contacts.columnsMetaData!.find((c) => c.name === 'Label')!;
		expect(columns.find((c) => c.id === label.id)).toEqual({
			id: label.id,
			name: 'Label',
			type: 'select',
			options: label.options!.map((o) => o.name),
		});
		expect(Object.keys(t).length).toBeLessThanOrEqual(10);
		expect(wire()).toEqual([['regional', 'GET', `/v1/crm/core/table/${contacts._id}`]]);

		const raw = await h.run(NODE, {
			resource: 'table',
			operation: 'get',
			tableId: rl(contacts._id),
			simplify: false,
		});
		expect(raw.json[0]).toEqual(JSON.parse(JSON.stringify(contacts)));
	});

	it('names the table in a 404, and an empty table field fails before any request', async () => {
		ctx.sb.resetStats();
		const missing = await h.run(NODE, {
			resource: 'table',
			operation: 'get',
			tableId: rl('000000000000000000000000'),
		});
		expect(missing.error?.message).toMatch(/404|not found/i);
		ctx.sb.resetStats();
		const empty = await h.run(NODE, { resource: 'table', operation: 'get', tableId: rl('  ') });
		expect(empty.error?.message).toBe('Table is empty');
		expect(ctx.sb.requests()).toHaveLength(0);
	});
});

describe('Table → Get Many', () => {
	it('filters by object types and database, applies the limit locally, in one request', async () => {
		ctx.sb.resetStats();
		const two = await h.run(NODE, {
			resource: 'table',
			operation: 'getAll',
			objectTypes: ['DEAL', 'CONTACT'],
			databaseName: 'crm',
			returnAll: true,
		});
		expect(two.error).toBeUndefined();
		expect(two.json.map((t) => t.objectType).sort()).toEqual(['CONTACT', 'DEAL']);
		expect(two.json.map((t) => t._id).sort()).toEqual(
			[tableOf('CONTACT')._id, tableOf('DEAL')._id].sort(),
		);
		const sent = ctx.sb.requests();
		expect(sent).toHaveLength(1);
		expect(sent[0].host).toBe('regional');
		expect(new URLSearchParams(sent[0].query).get('objectTypes')).toBe('DEAL,CONTACT');
		expect(new URLSearchParams(sent[0].query).get('databaseName')).toBe('crm');

		const all = await h.run(NODE, {
			resource: 'table',
			operation: 'getAll',
			returnAll: true,
			simplify: false,
		});
		expect(all.json).toHaveLength(stored().length);
		expect(all.json.map((t) => t._id).sort()).toEqual(
			stored()
				.map((t) => t._id)
				.sort(),
		);
		expect(all.json[0].columnsMetaData).toBeDefined();

		ctx.sb.resetStats();
		const limited = await h.run(NODE, {
			resource: 'table',
			operation: 'getAll',
			returnAll: false,
			limit: 3,
		});
		expect(limited.json).toHaveLength(3);
		expect(ctx.sb.requests()).toHaveLength(1);

		const none = await h.run(NODE, {
			resource: 'table',
			operation: 'getAll',
			databaseName: 'no-such-db',
			returnAll: true,
		});
		expect(none.error).toBeUndefined();
		expect(none.json).toHaveLength(0);
	});
});

describe('Table → Get by Object Type', () => {
	it('answers one item per table, keyed answer unpacked', async () => {
		ctx.sb.resetStats();
		const run = await h.run(NODE, {
			resource: 'table',
			operation: 'getByObjectType',
			objectTypes: ['STAGE', 'PIPELINE'],
			simplify: false,
		});
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(2);
		const byType = Object.fromEntries(run.json.map((t) => [t.objectType, t]));
		expect(byType.STAGE).toEqual(JSON.parse(JSON.stringify(tableOf('STAGE'))));
		expect(byType.PIPELINE).toEqual(JSON.parse(JSON.stringify(tableOf('PIPELINE'))));
		expect(wire()).toEqual([['regional', 'GET', '/v1/crm/core/table/by-object-type']]);

		const every = await h.run(NODE, { resource: 'table', operation: 'getByObjectType' });
		expect(every.json.map((t) => t.objectType).sort()).toEqual([
			'CONTACT',
			'DEAL',
			'PIPELINE',
			'STAGE',
		]);
		// Paired: all four items come from the one input item.
		expect(every.items.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
	});
});

describe('table pickers', () => {
	it('lists tables by name and object type, filtered by the search text', async () => {
		const all = await pick<INodeListSearchResult>(h, NODE, 'listSearch', 'searchTables', {
			resource: 'table',
			operation: 'get',
		});
		expect(all.results.map((r) => r.value).sort()).toEqual(
			stored()
				.map((t) => t._id)
				.sort(),
		);
		expect(all.results.find((r) => r.value === tableOf('DEAL')._id)!.name).toBe('Deals (DEAL)');
		const some = await pick<INodeListSearchResult>(
			h,
			NODE,
			'listSearch',
			'searchTables',
			{ resource: 'table', operation: 'get' },
			'stag',
		);
		expect(some.results).toEqual([{ name: 'Stages (STAGE)', value: tableOf('STAGE')._id }]);
	});

	it('builds the Columns mapper from the chosen table: names, types, options by name, required on create only', async () => {
		const contacts = tableOf('CONTACT');
		const params = { resource: 'record', operation: 'create', tableId: rl(contacts._id) };
		const create = await pick<ResourceMapperFields>(
			h,
			NODE,
			'resourceMapping',
			'getRecordColumnsForCreate',
			params,
		);
		expect(create.fields).toEqual(columnFields(contacts, true));
		const byId = Object.fromEntries(create.fields.map((f) => [f.id, f]));
		expect(byId.Name).toMatchObject({
			displayName: 'Name',
			type: 'string',
			required: true,
			display: true,
		});
		expect(byId.Label).toMatchObject({
			type: 'options',
			options: [
				{ name: 'Hot lead', value: 'Hot lead' },
				{ name: 'Customer', value: 'Customer' },
				{ name: 'Partner', value: 'Partner' },
			],
		});
		expect(byId.Score.type).toBe('number');
		expect(byId.Subscribed.type).toBe('boolean');
		expect(byId['Last contacted'].type).toBe('dateTime');
		expect(byId.Tags.type).toBe('string');
		expect(byId.Extra).toMatchObject({ type: 'object', removed: true });
		const update = await pick<ResourceMapperFields>(
			h,
			NODE,
			'resourceMapping',
			'getRecordColumnsForUpdate',
			{ ...params, operation: 'update' },
		);
		expect(update.fields.every((f) => f.required === false)).toBe(true);

		const columns = await pick<Array<{ name: string; value: string }>>(
			h,
			NODE,
			'loadOptions',
			'getFilterColumns',
			params,
		);
		expect(columns.map((c) => c.value)).toEqual([
			...contacts.columnsMetaData!.map((c) => c.id),
			'createdAt',
			'updatedAt',
		]);
		const refs = await pick<Array<{ name: string; value: string }>>(
			h,
			NODE,
			'loadOptions',
			'getRefColumns',
			{ ...params, tableId: rl(tableOf('DEAL')._id) },
		);
		expect(refs.map((c) => c.name)).toEqual(['Contact', 'Stage']);
		const noTable = await pick<ResourceMapperFields>(
			h,
			NODE,
			'resourceMapping',
			'getRecordColumnsForCreate',
			{ resource: 'record', operation: 'create' },
		);
		expect(noTable.fields).toEqual([]);
	});
});
