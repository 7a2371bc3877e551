/* eslint-disable @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Sales node → Record with Cells "From JSON" and Conditions Input "From JSON" (issue 35),
 * through n8n-core against the sandbox: one JSON value (as a model's `$fromAI()` or an
 * expression gives it) keyed by column name stores exactly what the Columns mapper stores;
 * the table may be named; every bad or hostile value fails the item with an error whose
 * message names the column and lists the valid ones (a model reads only the message), and
 * nothing is written. Outcomes are read from the sandbox's store.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { columnFields } from '../../nodes/BusinessPlatformSales/methods/tables';
import type { PlatformTable, TableColumn } from '../../nodes/BusinessPlatformSales/common/tables';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { checkProperty, hostileString, PROTOTYPE_KEYS } from '../helpers/property';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox({ regional: true });
let h: Harness;

const NODE = 'businessPlatformSales';
type Rec = { _id: string; cells: Record<string, any> };

const tenant = () => ctx.sb.store.tenant(1);
const tableOf = (objectType: string) =>
	(tenant().tables.values() as unknown as PlatformTable[]).find(
		(t) => t.objectType === objectType,
	)!;
const contacts = () => tableOf('CONTACT');
const column = (name: string): TableColumn =>
	contacts().columnsMetaData!.find((c) => c.name === name)!;
const cid = (name: string) => column(name).id;
const optionId = (colName: string, optionName: string) =>
	column(colName).options!.find((o) => o.name === optionName)!.id;
const stored = () => tenant().records.get(contacts()._id)!.values() as unknown as Rec[];
const rl = (value: string) => ({ __rl: true, mode: 'id', value });
const writes = () =>
	ctx.sb
		.requests()
		.filter(
			(r) =>
				r.method === 'PUT' ||
				r.method === 'DELETE' ||
				(r.method === 'POST' && r.path.endsWith('/record')),
		);
const mapper = (value: IDataObject, forCreate = true) => ({
	mappingMode: 'defineBelow',
	value,
	matchingColumns: [],
	schema: columnFields(contacts(), forCreate),
	attemptToConvertTypes: false,
	convertFieldsToString: false,
});

const run = async (parameters: IDataObject, continueOnFail = false, input?: IDataObject[]) =>
	await h.run(
		NODE,
		{ resource: 'record', ...parameters },
		input?.map((json) => ({ json })),
		{ continueOnFail },
	);
const createJson = async (cellsJson: unknown, table = contacts()._id, continueOnFail = false) =>
	await run(
		{
			operation: 'create',
			tableId: rl(table),
			cellsInput: 'json',
			cellsJson: cellsJson as IDataObject[string],
		},
		continueOnFail,
	);

beforeAll(() => {
	h = createHarness(ctx.sb, ctx.sb.demo.tokenResponse, {
		regionalBaseUrl: ctx.sb.regionalBaseUrl!,
	});
});

describe('Record → Create, Cells From JSON', () => {
	it('stores cells by column name, option names as option ids: the same request as the mapper', async () => {
		const cells = {
			Name: 'Json Lovelace',
			Label: 'Customer',
			Tags: ['VIP', 'Inbound'],
			Score: 42,
			Subscribed: true,
			'Last contacted': '2026-03-01T10:00:00Z',
		};
		ctx.sb.resetStats();
		const viaJson = await createJson(JSON.stringify(cells));
		const viaMapper = await run({
			operation: 'create',
			tableId: rl(contacts()._id),
			columns: mapper(cells),
		});
		expect([viaJson.error, viaMapper.error]).toEqual([undefined, undefined]);
		const [a, b] = writes();
		expect(JSON.parse(a.body!)).toEqual(JSON.parse(b.body!));
		const rec = stored().find((r) => r._id === viaJson.json[0]._id)!;
		expect(rec.cells).toEqual({
			[cid('Name')]: 'Json Lovelace',
			[cid('Label')]: [optionId('Label', 'Customer')],
			[cid('Tags')]: [optionId('Tags', 'VIP'), optionId('Tags', 'Inbound')],
			[cid('Score')]: 42,
			[cid('Subscribed')]: true,
			[cid('Last contacted')]: '2026-03-01T10:00:00.000Z',
		});
		expect(viaJson.json[0]).toMatchObject({ Name: 'Json Lovelace', Label: 'Customer', Score: 42 });
	});

	it('takes an object as a model’s $fromAI gives it, or a list of {column, value}; the table by name', async () => {
		const asObject = await createJson({ Name: 'Object Form', score: '7' }, 'contacts');
		expect(asObject.error).toBeUndefined();
		const asList = await createJson(
			[
				{ column: 'Name', value: 'List Form' },
				{ column: cid('Score'), value: 8 },
			],
			'Contacts',
		);
		expect(asList.error).toBeUndefined();
		expect(stored().find((r) => r.cells[cid('Name')] === 'Object Form')!.cells[cid('Score')]).toBe(
			7,
		);
		expect(stored().find((r) => r.cells[cid('Name')] === 'List Form')!.cells[cid('Score')]).toBe(8);
		// Table → Get by name too: the columns a model reads before it writes.
		const table = await h.run(NODE, { resource: 'table', operation: 'get', tableId: rl('deals') });
		expect(table.json[0]).toMatchObject({
			_id: tableOf('DEAL')._id,
			name: 'Deals',
			columns: expect.arrayContaining([
				{
					id: expect.any(String),
					name: 'Sources',
					type: 'multi-select',
					options: ['Web', 'Referral', 'Event', 'Cold call'],
				},
			]),
		});
	});

	it('an unknown table name fails, listing the tables', async () => {
		ctx.sb.resetStats();
		const res = await createJson({ Name: 'X' }, 'Contactz');
		expect(res.error?.message).toMatch(
			/^No table is named "Contactz" and it is not a table ID\. Tables: .*Contacts \(\w{24}\).*Deals/,
		);
		expect(writes()).toHaveLength(0);
	});
});

describe('bad cells fail the item, naming the column and the valid ones in the message, with nothing written', () => {
	const cases: Array<[string, unknown, RegExp]> = [
		[
			'an unknown column',
			{ Name: 'X', Stauts: 'Won' },
			/^Column "Stauts" is not in table "Contacts"\. The table's columns are: Name \(text, required\), .*Label \(select: Hot lead, Customer, Partner\).*Score \(number\)/,
		],
		[
			'an option the column lacks',
			{ Name: 'X', Label: 'Gold' },
			/^Column "Label" has no option "Gold"\. Allowed options: Hot lead, Customer, Partner\.$/,
		],
		[
			'a value of the wrong type',
			{ Name: 'X', Score: 'lots' },
			/^Column "Score" takes a number, got "lots"\. Give a number such as 42/,
		],
		[
			'a required column missing',
			{ Score: 1 },
			/^Column "Name" is required\. Give every required column a value\.$/,
		],
		[
			'a column named twice (by name and by ID)',
			() => ({ Name: 'X', [cid('Name')]: 'Y' }),
			/^Column "Name" is given twice/,
		],
		['a column named twice (two cases)', { Name: 'X', name: 'Y' }, /^Column "Name" is given twice/],
		[
			'a key written twice in the JSON text',
			'{"Name": "X", "Name": "Y"}',
			/^Cells \(JSON\) names "Name" twice/,
		],
		[
			'text that is no JSON',
			'{"Name": ',
			/^Cells \(JSON\) is not valid JSON: .*Write JSON such as \{"Name"/,
		],
		['a number', '42', /^Cells \(JSON\) is a number \(42\), not an object keyed by column name/],
		['a string', '"Name"', /^Cells \(JSON\) is a string \("Name"\), not an object/],
		['true', true, /^Cells \(JSON\) is a boolean/],
		['null', 'null', /^Cells \(JSON\) is empty/],
		['nothing', '', /^Cells \(JSON\) is empty/],
		[
			'a list with a bad entry',
			[{ column: 'Name', value: 'X' }, null],
			/^Cells \(JSON\), entry 2 is null, not \{"column"/,
		],
		['a list with a nested list', [['Name', 'X']], /^Cells \(JSON\), entry 1 is a list/],
		[
			'a list entry without a column',
			[{ value: 'X' }],
			/^Cells \(JSON\), entry 1 has no column name/,
		],
		[
			'a list entry whose column is no text',
			[{ column: 5, value: 'X' }],
			/^Cells \(JSON\), entry 1 has no column name/,
		],
		[
			'a list entry with another key',
			[{ column: 'Name', value: 'X', op: 'set' }],
			/^Cells \(JSON\), entry 1 has unknown key "op"/,
		],
		[
			'a nested object for a text column',
			{ Name: { first: 'A' } },
			/^Column "Name" takes text, got \{"first":"A"\}/,
		],
		[
			'a huge key',
			() => ({ Name: 'X', ['k'.repeat(100_000)]: 1 }),
			/^Column "k{60}…" is not in table "Contacts"/,
		],
		[
			'a huge value',
			() => ({ Name: 'X', Score: '9x'.repeat(100_000) }),
			/^Column "Score" takes a number, got "(9x){40}…"\. /,
		],
	];

	it.each(cases)('%s', async (_what, value, message) => {
		const before = stored().length;
		ctx.sb.resetStats();
		const res = await createJson(typeof value === 'function' ? (value as () => unknown)() : value);
		expect(res.error?.message).toMatch(message);
		expect(res.error!.message.length).toBeLessThan(2_000);
		expect((res.error as { context?: IDataObject }).context?.itemIndex).toBe(0);
		expect(writes()).toHaveLength(0);
		expect(stored()).toHaveLength(before);
	});

	// ("name" is a column of Contacts: a name, not a prototype key, there.)
	it.each(PROTOTYPE_KEYS.filter((k) => k !== 'name'))(
		'the prototype key %j as a column is an unknown column, and pollutes nothing',
		async (key) => {
			ctx.sb.resetStats();
			const res = await createJson(`{"Name": "X", ${JSON.stringify(key)}: {"polluted": true}}`);
			expect(res.error?.message).toMatch(
				new RegExp(
					`^Column "${key.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&')}" is not in table "Contacts"`,
				),
			);
			expect(({} as IDataObject).polluted).toBeUndefined();
			expect(Object.prototype).not.toHaveProperty('polluted');
			expect(writes()).toHaveLength(0);
		},
	);

	it('with Continue On Fail the bad item gets its error and index, the good one is created', async () => {
		const before = stored().length;
		const res = await run(
			{
				operation: 'create',
				tableId: rl(contacts()._id),
				cellsInput: 'json',
				cellsJson: '={{ $json.cells }}',
			},
			true,
			[
				{ cells: { Name: 'Bad', Label: 'Gold' } },
				{ cells: { Name: 'Good One', Label: 'Partner' } },
			],
		);
		expect(res.json[0]).toMatchObject({
			error: expect.stringMatching(/^Column "Label" has no option "Gold"\. Allowed options/),
			itemIndex: 0,
		});
		expect(res.json[1]).toMatchObject({ Name: 'Good One', Label: 'Partner' });
		expect(res.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(stored()).toHaveLength(before + 1);
	});
});

describe('Record → Update, Cells From JSON', () => {
	it('changes only the given cells', async () => {
		const target = stored().find((r) => r.cells[cid('Name')] === 'Json Lovelace')!;
		const res = await run({
			operation: 'update',
			tableId: rl('Contacts'),
			recordId: rl(target._id),
			cellsInput: 'json',
			cellsJson: '{"Score": 99, "Label": "Partner"}',
		});
		expect(res.error).toBeUndefined();
		const rec = stored().find((r) => r._id === target._id)!;
		expect(rec.cells).toMatchObject({
			[cid('Name')]: 'Json Lovelace',
			[cid('Score')]: 99,
			[cid('Label')]: [optionId('Label', 'Partner')],
		});
		const empty = await run({
			operation: 'update',
			tableId: rl(contacts()._id),
			recordId: rl(target._id),
			cellsInput: 'json',
			cellsJson: '{}',
		});
		expect(empty.error?.message).toMatch(/^Nothing to update\. Give at least one column/);
	});
});

describe('Record → Search, Conditions From JSON', () => {
	const search = async (conditionsJson: unknown) =>
		await run({
			operation: 'search',
			tableId: rl('Contacts'),
			conditionsInput: 'json',
			conditionsJson: conditionsJson as IDataObject[string],
			returnAll: true,
		});

	it('finds the records that match every condition, by column and option name; operators as codes, names or signs', async () => {
		const expected = stored()
			.filter(
				(r) =>
					(r.cells[cid('Label')] ?? []).includes(optionId('Label', 'Partner')) &&
					Number(r.cells[cid('Score')]) > 50,
			)
			.map((r) => r._id)
			.sort();
		expect(expected.length).toBeGreaterThan(0);
		for (const gt of ['gt', 'Greater Than', '>']) {
			const res = await search([
				{ column: 'Label', operator: 'eq', value: 'Partner' },
				{ column: 'score', operator: gt, value: 50 },
			]);
			expect(res.error).toBeUndefined();
			expect(res.json.map((r) => r._id).sort()).toEqual(expected);
		}
		const equals = await search({ Name: 'Object Form' });
		expect(equals.json.map((r) => r.Name)).toEqual(['Object Form']);
	});

	it.each([
		[
			'an unknown column',
			[{ column: 'Stauts', operator: 'eq', value: 'Won' }],
			/^Condition 1: column "Stauts" is not in table "Contacts"\. The table's columns are: Name \(text\), .*Label \(select: Hot lead, Customer, Partner\)/,
		],
		[
			'an unknown option',
			[{ column: 'Label', value: 'Won' }],
			/^Condition 1: column "Label" has no option "Won"\. Allowed options: Hot lead, Customer, Partner\.$/,
		],
		[
			'an unknown operator',
			[{ column: 'Label', operator: 'like', value: 'x' }],
			/^Condition 1 has an unknown operator "like"/,
		],
		['a number', '5', /^Conditions \(JSON\) is a number/],
		[
			'a bad entry',
			[{ column: 'Name', operator: 'eq', value: 'x', extra: 1 }],
			/^Conditions \(JSON\), entry 1 has unknown key "extra"/,
		],
		[
			'a prototype key',
			'{"__proto__": "x"}',
			/^Condition 1: column "__proto__" is not in table "Contacts"/,
		],
	])(
		'%s fails with the valid ones in the message, and no search is sent',
		async (_what, value, message) => {
			ctx.sb.resetStats();
			const res = await search(value);
			expect(res.error?.message).toMatch(message);
			expect(ctx.sb.requests().filter((r) => r.path.endsWith('/paged-record'))).toHaveLength(0);
		},
	);
});

describe('properties (seeded)', () => {
	const cellsArb = fc.record(
		{
			Name: fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== ''),
			Score: fc.integer({ min: -1_000_000, max: 1_000_000 }),
			Subscribed: fc.boolean(),
			Label: fc.constantFrom('Hot lead', 'Customer', 'Partner'),
			Tags: fc.subarray(['VIP', 'Newsletter', 'Trade show', 'Inbound'], { minLength: 1 }),
			Address: fc.string({ maxLength: 30 }).filter((s) => s.trim() !== ''),
		},
		{ requiredKeys: ['Name'] },
	);

	it('property: From JSON sends the same request as the mapper for the same cells', async () => {
		await checkProperty(
			15,
			fc.asyncProperty(cellsArb, async (cells) => {
				ctx.sb.resetStats();
				const a = await createJson(JSON.stringify(cells));
				const b = await run({
					operation: 'create',
					tableId: rl(contacts()._id),
					columns: mapper(cells as IDataObject),
				});
				expect([a.error?.message, b.error?.message]).toEqual([undefined, undefined]);
				const [wa, wb] = writes();
				expect(JSON.parse(wa.body!)).toEqual(JSON.parse(wb.body!));
			}),
		);
	});

	it('property: From JSON rejects any unknown column, naming it, and writes nothing', async () => {
		const known = new Set(
			contacts().columnsMetaData!.flatMap((c) => [c.name.toLowerCase(), c.id.toLowerCase()]),
		);
		const unknown = fc
			.oneof(hostileString(), fc.string())
			.filter((k) => k.trim() !== '' && !known.has(k.trim().toLowerCase()));
		await checkProperty(
			30,
			fc.asyncProperty(cellsArb, unknown, async (cells, key) => {
				ctx.sb.resetStats();
				const res = await createJson(JSON.stringify({ ...cells, [key]: 'x' }));
				expect(res.error?.message).toMatch(
					/^Column ".*" is not in table "Contacts"\. The table's columns are: /s,
				);
				expect(writes()).toHaveLength(0);
				expect(({} as IDataObject).x).toBeUndefined();
			}),
		);
	});
});

describe('bounds of the errors a model reads', () => {
	it('an unknown table name lists the first 50 tables (of 54), each with its ID', async () => {
		const added = Array.from({ length: 50 }, (_, i) => ({
			...contacts(),
			_id: `${String(i).padStart(4, '0')}${'e'.repeat(20)}`,
			name: `Extra ${i + 1}`,
			columnsMetaData: [],
		}));
		for (const t of added) tenant().tables.set(t._id, t as never);
		try {
			const res = await createJson({ Name: 'X' }, 'Nowhere');
			const listed = /Tables: (.*)$/.exec(res.error!.message)![1].split(/\), /);
			expect(listed).toHaveLength(50);
			expect(res.error!.message).not.toContain('Extra 47');
		} finally {
			for (const t of added) tenant().tables.delete(t._id);
		}
	});
});
