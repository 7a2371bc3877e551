/* eslint-disable @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Sales node → Record: Create, Get, Search, Count, Update, Delete through n8n-core
 * against the sandbox (regional host). Outcomes are read from the sandbox's store:
 * the cells really stored (option ids for option names), the rows a filter really
 * matches (computed here from the store, operator by operator), what went on the wire.
 */
import type { IDataObject, INodeListSearchResult } from 'n8n-workflow';

import { columnFields } from '../../nodes/BusinessPlatformSales/methods/tables';
import type { PlatformTable, TableColumn } from '../../nodes/BusinessPlatformSales/common/tables';
import { pick } from '../../testbed/harness/pickers';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { call, useSandbox } from '../helpers/sandbox';

const ctx = useSandbox({ regional: true });
let h: Harness;

const NODE = 'businessPlatformSales';
type Cells = Record<string, any>;
type Rec = {
	_id: string;
	cells: Cells;
	createdAt: string;
	updatedAt: string;
	createdBy: number;
	permissions?: { owners: number[] };
};

const tenant = () => ctx.sb.store.tenant(1);
const tableOf = (objectType: string) =>
	(tenant().tables.values() as unknown as PlatformTable[]).find(
		(t) => t.objectType === objectType,
	)!;
const contacts = () => tableOf('CONTACT');
const column = (t: PlatformTable, name: string): TableColumn =>
	t.columnsMetaData!.find((c) => c.name === name)!;
/** Column id of a CONTACT column, by name. */
const cid = (name: string) => column(contacts(), name).id;
const optionId = (colName: string, optionName: string, t = contacts()) =>
	column(t, colName).options!.find((o) => o.name === optionName)!.id;
const stored = (t: PlatformTable = contacts()) =>
	tenant().records.get(t._id)!.values() as unknown as Rec[];
const storedRecord = (id: string, t: PlatformTable = contacts()) =>
	tenant().records.get(t._id)!.get(id) as unknown as Rec | undefined;
const rl = (value: string) => ({ __rl: true, mode: 'id', value });
const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
/** The Columns parameter as n8n's editor stores it (defineBelow, with the schema the mapper loaded). */
const mapper = (
	value: IDataObject,
	t: PlatformTable = contacts(),
	forCreate = true,
	schema = true,
) => ({
	mappingMode: 'defineBelow',
	value,
	matchingColumns: [],
	schema: schema ? columnFields(t, forCreate) : [],
	attemptToConvertTypes: false,
	convertFieldsToString: false,
});
const writes = () =>
	ctx.sb
		.requests()
		.filter(
			(r) =>
				r.method === 'PUT' ||
				r.method === 'DELETE' ||
				(r.method === 'POST' && r.path.endsWith('/record')),
		);
const pagedRequests = () => ctx.sb.requests().filter((r) => r.path.endsWith('/paged-record'));
const blank = (v: unknown) =>
	v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : '');

const run = async (parameters: IDataObject, input?: IDataObject[], continueOnFail = false) =>
	await h.run(
		NODE,
		{ resource: 'record', ...parameters },
		input?.map((json) => ({ json })),
		{ continueOnFail },
	);

beforeAll(async () => {
	h = createHarness(ctx.sb, ctx.sb.demo.tokenResponse, {
		regionalBaseUrl: ctx.sb.regionalBaseUrl!,
	});
	// Fixtures (through the raw API) so every operator has matching and non-matching rows.
	const fixtures: Cells[] = [
		{
			[cid('Name')]: 'Alpha Fixture',
			[cid('Score')]: 50,
			[cid('Label')]: [optionId('Label', 'Customer')],
			[cid('Tags')]: [optionId('Tags', 'VIP')],
		},
		{
			[cid('Name')]: 'zulu fixture',
			[cid('Email')]: 'zulu@corp.example',
			[cid('Score')]: 7,
			[cid('Last contacted')]: '2023-01-01T00:00:00Z',
		},
		{
			[cid('Name')]: 'Mid Fixture',
			[cid('Email')]: '',
			[cid('Address')]: 'Nowhere Lane',
			[cid('Label')]: [optionId('Label', 'Partner')],
		},
	];
	for (const cells of fixtures) {
		const res = await call(ctx.sb, 'POST', `/v1/crm/core/table/${contacts()._id}/record`, {
			body: { cells },
		});
		expect(res.status).toBe(201);
	}
});

// ------------------------------------------------------------- create -----

describe('Record → Create', () => {
	it('stores cells by column id, option names as option ids, values converted to the column types', async () => {
		const owner = tenant().crmUsers[1].id;
		const before = stored().length;
		ctx.sb.resetStats();
		const res = await run(
			{
				operation: 'create',
				tableId: rl(contacts()._id),
				columns: mapper({
					Name: 'Ada Lovelace',
					Email: 'ada@corp.example',
					Phone: null,
					Type: null,
					Label: '={{ $json.label }}',
					Tags: 'VIP, Trade show',
					Score: '42',
					Subscribed: true,
					'Last contacted': '2026-03-01T10:00:00Z',
					Owner: String(owner),
					Address: null,
					Extra: '{"source": "n8n"}',
				}),
			},
			[{ label: 'Customer' }],
		);
		expect(res.error).toBeUndefined();
		expect(res.json).toHaveLength(1);
		const out = res.json[0];
		expect(stored()).toHaveLength(before + 1);
		const rec = storedRecord(String(out._id))!;
		expect(rec.cells).toEqual({
			[cid('Name')]: 'Ada Lovelace',
			[cid('Email')]: 'ada@corp.example',
			[cid('Label')]: [optionId('Label', 'Customer')],
			[cid('Tags')]: [optionId('Tags', 'VIP'), optionId('Tags', 'Trade show')],
			[cid('Score')]: 42,
			[cid('Subscribed')]: true,
			[cid('Last contacted')]: '2026-03-01T10:00:00.000Z',
			[cid('Owner')]: [owner],
			[cid('Extra')]: { source: 'n8n' },
		});
		// On the wire: cells keyed by column id, the option as its id; on the regional host.
		const post = writes();
		expect(post).toHaveLength(1);
		expect(post[0].host).toBe('regional');
		expect(JSON.parse(post[0].body!)).toEqual({ cells: plain(rec.cells) });
		// Output: the record, its cells also by column name with option names.
		expect(out).toMatchObject({
			_id: rec._id,
			Name: 'Ada Lovelace',
			Label: 'Customer',
			Tags: ['VIP', 'Trade show'],
			Score: 42,
			Subscribed: true,
			Owner: [owner],
			Phone: null,
			Extra: { source: 'n8n' },
			cells: plain(rec.cells),
			createdBy: rec.createdBy,
		});
	});

	it('maps input fields by column name (Map Automatically), leaving out fields that are not columns', async () => {
		const before = stored().length;
		ctx.sb.resetStats();
		const res = await run(
			{
				operation: 'create',
				tableId: rl(contacts()._id),
				columns: {
					mappingMode: 'autoMapInputData',
					value: null,
					schema: columnFields(contacts(), true),
				},
				cellsByName: false,
			},
			[
				{ Name: 'Auto One', label: 'partner', Score: 3, notAColumn: 'x' },
				{ Name: 'Auto Two', Tags: ['Newsletter', 'Inbound'], 'last contacted': '2026-01-02' },
			],
		);
		expect(res.error).toBeUndefined();
		expect(res.json).toHaveLength(2);
		expect(stored()).toHaveLength(before + 2);
		expect(storedRecord(String(res.json[0]._id))!.cells).toEqual({
			[cid('Name')]: 'Auto One',
			[cid('Label')]: [optionId('Label', 'Partner')],
			[cid('Score')]: 3,
		});
		expect(storedRecord(String(res.json[1]._id))!.cells).toEqual({
			[cid('Name')]: 'Auto Two',
			[cid('Tags')]: [optionId('Tags', 'Newsletter'), optionId('Tags', 'Inbound')],
			// A date without a zone is read in the workflow's time zone (the harness has none set:
			// n8n's default, America/New_York, UTC-5 in January).
			[cid('Last contacted')]: '2026-01-02T05:00:00.000Z',
		});
		// Raw output (Cells by Column Name off) is the platform's record as stored.
		expect(res.json[0]).toEqual(plain(storedRecord(String(res.json[0]._id))));
		// Items keep their pairing; the table is read once for both items.
		expect(res.items.map((i) => (i.pairedItem as { item: number }).item)).toEqual([0, 1]);
		expect(ctx.sb.requests().filter((r) => r.method === 'GET')).toHaveLength(1);
	});
});

// --------------------------------------------------------- bad input -----

describe('bad input fails before anything is written, naming the column and the item', () => {
	const create = async (
		value: IDataObject,
		schema = true,
		continueOnFail = false,
		input?: IDataObject[],
	) =>
		await run(
			{
				operation: 'create',
				tableId: rl(contacts()._id),
				columns: mapper(value, contacts(), true, schema),
			},
			input,
			continueOnFail,
		);

	it('an unknown column name fails with no request at all', async () => {
		const before = stored().length;
		ctx.sb.resetStats();
		const res = await create({ Name: 'X', Nmae: 'typo' });
		expect(res.error?.message).toBe('Column "Nmae" is not in the table');
		expect(res.error?.description).toContain('Name, Email, Phone');
		expect((res.error as { context?: IDataObject }).context?.itemIndex).toBe(0);
		expect(ctx.sb.requests()).toHaveLength(0);
		expect(stored()).toHaveLength(before);
	});

	it('an unknown column given without a saved schema fails after reading the columns, with no write', async () => {
		const before = stored().length;
		ctx.sb.resetStats();
		const res = await create({ Name: 'X', Nmae: 'typo' }, false);
		expect(res.error?.message).toBe('Column "Nmae" is not in table "Contacts"');
		expect(writes()).toHaveLength(0);
		expect(ctx.sb.requests().map((r) => r.method)).toEqual(['GET']);
		expect(stored()).toHaveLength(before);
	});

	// Fixed values of the wrong type are refused by n8n itself before the node runs (the
	// mapper's schema has the types); values from expressions and input items reach the node.
	const fromInput = async (value: IDataObject, v: unknown) =>
		await create(value, true, false, [{ v } as IDataObject]);

	it('an unknown option name fails listing the allowed names, with no write', async () => {
		const before = stored().length;
		ctx.sb.resetStats();
		const res = await fromInput({ Name: 'X', Label: '={{ $json.v }}' }, 'Gold');
		expect(res.error?.message).toBe('Column "Label" has no option "Gold"');
		expect(res.error?.description).toBe('Allowed options: Hot lead, Customer, Partner.');
		const multi = await create({ Name: 'X', Tags: 'VIP, Nope' });
		expect(multi.error?.message).toBe('Column "Tags" has no option "Nope"');
		expect(multi.error?.description).toBe('Allowed options: VIP, Newsletter, Trade show, Inbound.');
		const two = await fromInput({ Name: 'X', Label: '={{ $json.v }}' }, ['Customer', 'Partner']);
		expect(two.error?.message).toBe('Column "Label" takes one option, got 2');
		expect(writes()).toHaveLength(0);
		expect(ctx.sb.requests().every((r) => r.method === 'GET')).toBe(true);
		expect(stored()).toHaveLength(before);
	});

	it.each([
		['Score', 'lots', 'Column "Score" takes a number, got "lots"'],
		[
			'Last contacted',
			'someday',
			'Column "Last contacted" takes a date, got "someday" (not written as ISO 8601)',
		],
		['Subscribed', 'maybe', 'Column "Subscribed" takes true or false, got "maybe"'],
		[
			'Extra',
			'{bad json',
			'Column "Extra" is not valid JSON: Expected property name or \'}\' in JSON at position 1',
		],
		['Owner', 'Ada', 'Column "Owner" takes user IDs (whole numbers), got "Ada"'],
		['Name', '', 'Column "Name" is required'],
	])('%s = %j → %s', async (columnName, bad, message) => {
		const before = stored().length;
		ctx.sb.resetStats();
		const res = await fromInput({ Name: 'X', [columnName]: '={{ $json.v }}' }, bad);
		expect(res.error?.message).toBe(message);
		expect((res.error as { context?: IDataObject }).context?.itemIndex).toBe(0);
		expect(writes()).toHaveLength(0);
		expect(stored()).toHaveLength(before);
	});

	it('n8n itself refuses a fixed value of the wrong type before the node runs', async () => {
		ctx.sb.resetStats();
		await expect(create({ Name: 'X', Score: 'lots' })).rejects.toThrow(/'Score' expects a number/);
		expect(ctx.sb.requests()).toHaveLength(0);
	});

	it('with Continue On Fail the bad item gets its error and index, the good one is created', async () => {
		const before = stored().length;
		const res = await create(
			{ Name: '={{ $json.name }}', Score: '={{ $json.score }}' },
			true,
			true,
			[
				{ name: 'Bad Score', score: 'n/a' },
				{ name: 'Good Score', score: 5 },
			],
		);
		expect(res.error).toBeUndefined();
		expect(res.json[0]).toEqual({
			error: 'Column "Score" takes a number, got "n/a"',
			description: 'Give a number such as 42 or 3.5.',
			itemIndex: 0,
		});
		expect(res.json[1]).toMatchObject({ Name: 'Good Score', Score: 5 });
		expect(stored()).toHaveLength(before + 1);
		expect(stored().filter((r) => r.cells[cid('Name')] === 'Bad Score')).toHaveLength(0);
	});
});

// ---------------------------------------------------------------- get -----

describe('Record → Get', () => {
	it('returns the stored record, with cells by column name (option names) and raw', async () => {
		const rec = stored().find(
			(r) =>
				Array.isArray(r.cells[cid('Label')]) &&
				r.cells[cid('Label')].length &&
				Array.isArray(r.cells[cid('Tags')]) &&
				r.cells[cid('Tags')].length,
		)!;
		ctx.sb.resetStats();
		const res = await run({ operation: 'get', tableId: rl(contacts()._id), recordId: rl(rec._id) });
		expect(res.error).toBeUndefined();
		const out = res.json[0];
		const t = contacts();
		expect(out.cells).toEqual(plain(rec.cells));
		expect(out._id).toBe(rec._id);
		expect(out.Name).toBe(rec.cells[cid('Name')]);
		expect(out.Label).toBe(
			column(t, 'Label').options!.find((o) => o.id === rec.cells[cid('Label')][0])!.name,
		);
		expect(out.Tags).toEqual(
			rec.cells[cid('Tags')].map(
				(id: number) => column(t, 'Tags').options!.find((o) => o.id === id)!.name,
			),
		);
		// Every column is present, empty ones as null.
		for (const c of t.columnsMetaData!) expect(out).toHaveProperty([c.name]);
		expect(ctx.sb.requests().every((r) => r.host === 'regional')).toBe(true);

		const raw = await run({
			operation: 'get',
			tableId: rl(contacts()._id),
			recordId: rl(rec._id),
			cellsByName: false,
		});
		expect(raw.json[0]).toEqual(plain(rec));

		const missing = await run({
			operation: 'get',
			tableId: rl(contacts()._id),
			recordId: rl('ffffffffffffffffffffffff'),
		});
		expect(missing.error?.message).toMatch(/404|not found/i);
	});
});

// ------------------------------------------------------------- search -----

describe('Record → Search', () => {
	const search = async (params: IDataObject) =>
		await run({
			operation: 'search',
			tableId: rl(contacts()._id),
			returnAll: true,
			cellsByName: false,
			...params,
		});
	const ids = (items: IDataObject[]) => items.map((i) => String(i._id)).sort();
	const expectedIds = (pred: (c: Cells) => boolean) =>
		stored()
			.filter((r) => pred(r.cells))
			.map((r) => r._id)
			.sort();
	const num = (c: Cells, name: string) =>
		typeof c[cid(name)] === 'number' ? (c[cid(name)] as number) : undefined;
	const someScore = () =>
		stored()
			.map((r) => r.cells[cid('Score')])
			.find((v) => typeof v === 'number') as number;

	/** [operator, column name, value, the rows that must match]. */
	const cases: Array<[string, string, () => string, (c: Cells) => boolean]> = [
		['eq', 'Score', () => String(someScore()), (c) => num(c, 'Score') === someScore()],
		['neq', 'Score', () => String(someScore()), (c) => num(c, 'Score') !== someScore()],
		['emp', 'Email', () => '', (c) => blank(c[cid('Email')])],
		['nemp', 'Email', () => '', (c) => !blank(c[cid('Email')])],
		['lt', 'Score', () => '50', (c) => num(c, 'Score') !== undefined && num(c, 'Score')! < 50],
		['lte', 'Score', () => '50', (c) => num(c, 'Score') !== undefined && num(c, 'Score')! <= 50],
		[
			'gt',
			'Last contacted',
			() => '2024-06-01T00:00:00Z',
			(c) =>
				typeof c[cid('Last contacted')] === 'string' &&
				Date.parse(c[cid('Last contacted')]) > Date.parse('2024-06-01T00:00:00Z'),
		],
		['gte', 'Score', () => '50', (c) => num(c, 'Score') !== undefined && num(c, 'Score')! >= 50],
		[
			'in',
			'Label',
			() => 'Customer, Partner',
			(c) =>
				(c[cid('Label')] ?? []).some((id: number) =>
					[optionId('Label', 'Customer'), optionId('Label', 'Partner')].includes(id),
				),
		],
		['nin', 'Tags', () => 'VIP', (c) => !(c[cid('Tags')] ?? []).includes(optionId('Tags', 'VIP'))],
		['sw', 'Name', () => 'a', (c) => lower(c[cid('Name')]).startsWith('a')],
		['ew', 'Email', () => '@corp.example', (c) => lower(c[cid('Email')]).endsWith('@corp.example')],
		['c', 'Name', () => 'an', (c) => lower(c[cid('Name')]).includes('an')],
		['nc', 'Name', () => 'e', (c) => !lower(c[cid('Name')]).includes('e')],
	];

	it('covers all 14 operators', () => {
		expect(new Set(cases.map(([op]) => op)).size).toBe(14);
	});

	it.each(cases)(
		'operator %s on %s returns exactly the matching rows',
		async (op, colName, value, pred) => {
			const expected = expectedIds(pred);
			expect(expected.length).toBeGreaterThan(0);
			ctx.sb.resetStats();
			// The column as the picker gives it (its id); the value as a person writes it.
			const res = await search({
				filters: { conditions: [{ column: cid(colName), operator: op, value: value() }] },
			});
			expect(res.error).toBeUndefined();
			expect(ids(res.json)).toEqual(expected);
			const body = JSON.parse(pagedRequests()[0].body!);
			expect(body.logicalOperator).toBe('and');
			expect(body.conditions).toHaveLength(1);
			expect(body.conditions[0]).toMatchObject({ colId: cid(colName), opr: op });
		},
	);

	it('reads a date without a zone in the workflow’s time zone', async () => {
		ctx.sb.resetStats();
		const res = await search({
			filters: { conditions: [{ column: 'Last contacted', operator: 'lt', value: '2024-06-01' }] },
		});
		expect(res.error).toBeUndefined();
		// n8n's default zone (America/New_York, UTC-4 in June): midnight there is 04:00 UTC.
		expect(JSON.parse(pagedRequests()[0].body!).conditions).toEqual([
			{ colId: cid('Last contacted'), opr: 'lt', value: '2024-06-01T04:00:00.000Z' },
		]);
		expect(ids(res.json)).toEqual(
			expectedIds(
				(c) =>
					typeof c[cid('Last contacted')] === 'string' &&
					Date.parse(c[cid('Last contacted')]) < Date.parse('2024-06-01T04:00:00Z'),
			),
		);
	});

	it('sends select option names as option ids, and accepts a column by name', async () => {
		ctx.sb.resetStats();
		const res = await search({
			filters: { conditions: [{ column: 'Label', operator: 'eq', value: 'customer' }] },
		});
		expect(res.error).toBeUndefined();
		expect(JSON.parse(pagedRequests()[0].body!).conditions).toEqual([
			{ colId: cid('Label'), opr: 'eq', value: String(optionId('Label', 'Customer')) },
		]);
		expect(ids(res.json)).toEqual(
			expectedIds((c) => (c[cid('Label')] ?? []).includes(optionId('Label', 'Customer'))),
		);
	});

	it('combines conditions with and / or, and searches text', async () => {
		const conditions = [
			{ column: cid('Score'), operator: 'gte', value: '50' },
			{ column: cid('Subscribed'), operator: 'eq', value: 'true' },
		];
		const and = await search({ logicalOperator: 'and', filters: { conditions } });
		expect(ids(and.json)).toEqual(
			expectedIds((c) => (num(c, 'Score') ?? -1) >= 50 && c[cid('Subscribed')] === true),
		);
		const or = await search({ logicalOperator: 'or', filters: { conditions } });
		expect(ids(or.json)).toEqual(
			expectedIds((c) => (num(c, 'Score') ?? -1) >= 50 || c[cid('Subscribed')] === true),
		);
		expect(or.json.length).toBeGreaterThan(and.json.length);

		ctx.sb.resetStats();
		const text = await search({ q: 'fixture' });
		const textCols = contacts()
			.columnsMetaData!.filter((c) => ['text', 'string', 'email', 'phone'].includes(c.type))
			.map((c) => c.id);
		expect(ids(text.json)).toEqual(
			expectedIds((c) => textCols.some((id) => lower(c[id]).includes('fixture'))),
		);
		expect(text.json.length).toBeGreaterThanOrEqual(3);
		expect(new URLSearchParams(pagedRequests()[0].query).get('q')).toBe('fixture');
	});

	it('sorts by a column given by name, in the chosen direction', async () => {
		ctx.sb.resetStats();
		const res = await search({ options: { sortColumn: 'Score', sortDirection: 1 } });
		const q = new URLSearchParams(pagedRequests()[0].query);
		expect(q.get('sortCol')).toBe(cid('Score'));
		expect(q.get('sortDir')).toBe('1');
		const scores = res.json
			.map((r) => (r.cells as Cells)[cid('Score')])
			.filter((v) => typeof v === 'number') as number[];
		expect(scores).toEqual([...scores].sort((a, b) => a - b));
		expect(res.json).toHaveLength(stored().length);
	});

	it('Limit 5 fetches one page of 5', async () => {
		ctx.sb.resetStats();
		const res = await run({
			operation: 'search',
			tableId: rl(contacts()._id),
			returnAll: false,
			limit: 5,
		});
		expect(res.error).toBeUndefined();
		expect(res.json).toHaveLength(5);
		expect(pagedRequests()).toHaveLength(1);
		expect(new URLSearchParams(pagedRequests()[0].query).get('pageSize')).toBe('5');
		expect(ctx.sb.requests().every((r) => r.host === 'regional')).toBe(true);
		// With names: option names, raw cells kept.
		for (const item of res.json) {
			const rec = storedRecord(String(item._id))!;
			expect(item.cells).toEqual(plain(rec.cells));
			expect(item.Name).toBe(rec.cells[cid('Name')]);
		}
	});

	it('adds referenced records: all ref columns, or the ones picked', async () => {
		const deals = tableOf('DEAL');
		const contactCol = column(deals, 'Contact').id;
		const stageCol = column(deals, 'Stage').id;
		const all = await run({
			operation: 'search',
			tableId: rl(deals._id),
			returnAll: false,
			limit: 10,
			options: { fetchAllRef: true },
			cellsByName: false,
		});
		expect(all.error).toBeUndefined();
		const withContact = all.json.find((r) => ((r.cells as Cells)[contactCol] ?? []).length)!;
		const refData = withContact.refData as Record<string, Rec[]>;
		expect(Object.keys(refData).sort()).toEqual([contactCol, stageCol].sort());
		expect(refData[contactCol].map((r) => r._id)).toEqual((withContact.cells as Cells)[contactCol]);
		expect(refData[contactCol][0].cells).toEqual(
			plain(storedRecord(refData[contactCol][0]._id, contacts())!.cells),
		);

		ctx.sb.resetStats();
		const picked = await run({
			operation: 'search',
			tableId: rl(deals._id),
			returnAll: false,
			limit: 3,
			options: { refColumns: ['Stage'] },
			cellsByName: false,
		});
		expect(picked.error).toBeUndefined();
		expect(new URLSearchParams(pagedRequests()[0].query).get('colIdsToFetchRef')).toBe(stageCol);
		expect(Object.keys(picked.json[0].refData as IDataObject)).toEqual([stageCol]);
	});

	it('a value that does not fit its column, or an unknown option, fails with no search sent', async () => {
		ctx.sb.resetStats();
		const bad = await search({
			filters: { conditions: [{ column: cid('Score'), operator: 'gt', value: 'lots' }] },
		});
		expect(bad.error?.message).toBe('Condition 1: "Score" is a number column, "lots" is not');
		const option = await search({
			filters: { conditions: [{ column: cid('Label'), operator: 'in', value: 'Customer, Gold' }] },
		});
		expect(option.error?.message).toBe('Condition 1: column "Label" has no option "Gold"');
		expect(option.error?.description).toBe('Allowed options: Hot lead, Customer, Partner.');
		const unknown = await search({
			filters: { conditions: [{ column: 'Nope', operator: 'eq', value: 'x' }] },
		});
		expect(unknown.error?.message).toBe('Condition 1: column "Nope" is not in table "Contacts"');
		const noColumn = await search({
			filters: { conditions: [{ column: '', operator: 'eq', value: 'x' }] },
		});
		expect(noColumn.error?.message).toBe('Condition 1 has no column');
		expect(pagedRequests()).toHaveLength(0);
	});
});

// -------------------------------------------------------------- count -----

describe('Record → Count', () => {
	it('counts the records of the table', async () => {
		for (const objectType of ['CONTACT', 'STAGE']) {
			const t = tableOf(objectType);
			const res = await run({ operation: 'count', tableId: rl(t._id) });
			expect(res.error).toBeUndefined();
			expect(res.json).toEqual([{ tableId: t._id, count: stored(t).length }]);
		}
	});
});

// ------------------------------------------------------------- update -----

describe('Record → Update', () => {
	it('changes only the given cells, option names stored as option ids', async () => {
		const rec = plain(
			stored().find((r) => r.cells[cid('Label')]?.[0] !== optionId('Label', 'Hot lead'))!,
		);
		ctx.sb.resetStats();
		const res = await run({
			operation: 'update',
			tableId: rl(contacts()._id),
			recordId: rl(rec._id),
			columns: mapper({ Label: 'Hot lead', Score: 7, Tags: ['Inbound'] }, contacts(), false),
		});
		expect(res.error).toBeUndefined();
		const after = storedRecord(rec._id)!;
		expect(after.cells).toEqual({
			...rec.cells,
			[cid('Label')]: [optionId('Label', 'Hot lead')],
			[cid('Score')]: 7,
			[cid('Tags')]: [optionId('Tags', 'Inbound')],
		});
		const put = writes();
		expect(put.map((r) => [r.host, r.method, r.path])).toEqual([
			['regional', 'PUT', `/v1/crm/core/table/${contacts()._id}/record/${rec._id}`],
		]);
		expect(JSON.parse(put[0].body!)).toEqual({
			cells: {
				[cid('Label')]: [optionId('Label', 'Hot lead')],
				[cid('Score')]: 7,
				[cid('Tags')]: [optionId('Tags', 'Inbound')],
			},
		});
		expect(res.json[0]).toMatchObject({
			_id: rec._id,
			Label: 'Hot lead',
			Score: 7,
			Tags: ['Inbound'],
		});
	});

	it('leaves empty columns alone unless asked to clear them', async () => {
		const rec = plain(
			stored().find(
				(r) =>
					typeof r.cells[cid('Address')] === 'string' && typeof r.cells[cid('Score')] === 'number',
			)!,
		);
		const keep = await run({
			operation: 'update',
			tableId: rl(contacts()._id),
			recordId: rl(rec._id),
			columns: mapper({ Address: null, Name: 'Kept Address' }, contacts(), false),
		});
		expect(keep.error).toBeUndefined();
		expect(storedRecord(rec._id)!.cells[cid('Address')]).toBe(rec.cells[cid('Address')]);
		const clear = await run({
			operation: 'update',
			tableId: rl(contacts()._id),
			recordId: rl(rec._id),
			columns: mapper({ Address: null }, contacts(), false),
			options: { clearEmpty: true },
		});
		expect(clear.error).toBeUndefined();
		expect(storedRecord(rec._id)!.cells).not.toHaveProperty(cid('Address'));
		expect(storedRecord(rec._id)!.cells[cid('Name')]).toBe('Kept Address');
		expect(clear.json[0].Address).toBeNull();

		ctx.sb.resetStats();
		const nothing = await run({
			operation: 'update',
			tableId: rl(contacts()._id),
			recordId: rl(rec._id),
			columns: mapper({ Address: null }, contacts(), false),
		});
		expect(nothing.error?.message).toBe('Nothing to update');
		const required = await run({
			operation: 'update',
			tableId: rl(contacts()._id),
			recordId: rl(rec._id),
			columns: mapper({ Name: null }, contacts(), false),
			options: { clearEmpty: true },
		});
		expect(required.error?.message).toBe('Column "Name" is required and cannot be cleared');
		expect(writes()).toHaveLength(0);
	});

	it('round trip: a record read by name and changed maps back automatically to the same cells', async () => {
		const rec = plain(
			stored().find(
				(r) =>
					r.cells[cid('Label')]?.length &&
					r.cells[cid('Tags')]?.length &&
					r.cells[cid('Owner')]?.length,
			)!,
		);
		const got = await run({ operation: 'get', tableId: rl(contacts()._id), recordId: rl(rec._id) });
		const edited = { ...got.json[0], Name: 'Round Trip' };
		ctx.sb.resetStats();
		const res = await run(
			{
				operation: 'update',
				tableId: rl(contacts()._id),
				recordId: rl(rec._id),
				columns: { mappingMode: 'autoMapInputData', value: null, schema: [] },
			},
			[edited],
		);
		expect(res.error).toBeUndefined();
		expect(storedRecord(rec._id)!.cells).toEqual({ ...rec.cells, [cid('Name')]: 'Round Trip' });
	});
});

// ------------------------------------------------------------- delete -----

describe('Record → Delete', () => {
	it('deletes the record and says so', async () => {
		const rec = stored().find((r) => r.cells[cid('Name')] === 'Ada Lovelace')!;
		const before = stored().length;
		ctx.sb.resetStats();
		const res = await run({
			operation: 'delete',
			tableId: rl(contacts()._id),
			recordId: rl(rec._id),
		});
		expect(res.error).toBeUndefined();
		expect(res.json).toEqual([{ deleted: true, id: rec._id, tableId: contacts()._id }]);
		expect(storedRecord(rec._id)).toBeUndefined();
		expect(stored()).toHaveLength(before - 1);
		expect(ctx.sb.requests().map((r) => [r.host, r.method])).toEqual([['regional', 'DELETE']]);

		const again = await run(
			{ operation: 'delete', tableId: rl(contacts()._id), recordId: rl(rec._id) },
			undefined,
			true,
		);
		expect(again.json[0].error).toMatch(/404|not found/i);
		expect(again.json[0].itemIndex).toBe(0);
	});
});

// ------------------------------------------------------------ pickers -----

describe('record pickers', () => {
	it('lists the chosen table’s records by name, searchable and paged', async () => {
		const params = { resource: 'record', operation: 'get', tableId: rl(contacts()._id) };
		const first = await pick<INodeListSearchResult>(h, NODE, 'listSearch', 'searchRecords', params);
		expect(first.results).toHaveLength(Math.min(50, stored().length));
		const byId = new Map(stored().map((r) => [r._id, r]));
		for (const r of first.results)
			expect(r.name).toBe(byId.get(String(r.value))!.cells[cid('Name')]);
		const found = await pick<INodeListSearchResult>(
			h,
			NODE,
			'listSearch',
			'searchRecords',
			params,
			'zulu',
		);
		expect(found.results).toEqual([
			{
				name: 'zulu fixture',
				value: stored().find((r) => r.cells[cid('Name')] === 'zulu fixture')!._id,
			},
		]);
		const none = await pick<INodeListSearchResult>(h, NODE, 'listSearch', 'searchRecords', {
			resource: 'record',
			operation: 'get',
		});
		expect(none.results).toEqual([]);
		const sort = await pick<Array<{ value: string }>>(
			h,
			NODE,
			'loadOptions',
			'getSortColumns',
			params,
		);
		expect(sort.map((s) => s.value).slice(0, 3)).toEqual(['createdAt', 'updatedAt', cid('Name')]);
	});
});
