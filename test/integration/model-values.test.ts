/* eslint-disable @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Values as a model or a person writes them (issue 40), through n8n-core against the sandbox:
 * nothing is accepted and changed on the way. An impossible date or free text is refused (no
 * rollover, no guessed year); an integer past 2^53 written in JSON is stored as written in a
 * text column and refused for a number column (so is an expression's number JavaScript has
 * rounded already); a key written twice anywhere in From JSON is refused; conditions in object
 * form take operators and lists, never "equals the value's text"; a huge operator or sort
 * direction is echoed cut. Outcomes are read from the sandbox: what was stored, what was sent.
 */
import type { IDataObject } from 'n8n-workflow';

import type { PlatformTable } from '../../nodes/BusinessPlatformSales/common/tables';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox({ regional: true });
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb, ctx.sb.demo.tokenResponse, {
		regionalBaseUrl: ctx.sb.regionalBaseUrl!,
	});
});

type Rec = { _id: string; cells: Record<string, any> };
const tenant = () => ctx.sb.store.tenant(1);
const contacts = () =>
	(tenant().tables.values() as unknown as PlatformTable[]).find((t) => t.objectType === 'CONTACT')!;
const cid = (name: string) => contacts().columnsMetaData!.find((c) => c.name === name)!.id;
const stored = () => tenant().records.get(contacts()._id)!.values() as unknown as Rec[];
const rl = (value: string) => ({ __rl: true, mode: 'id', value });
const sent = (path: RegExp) => ctx.sb.requests().filter((r) => path.test(r.path));
const searches = () =>
	sent(/\/paged-record$/).map((r) => JSON.parse(r.body ?? '{}') as IDataObject);

const sales = async (parameters: IDataObject, input: IDataObject = {}) =>
	await h.run('businessPlatformSales', parameters, [{ json: input }], { continueOnFail: true });
const create = async (cellsJson: string) =>
	await sales({
		resource: 'record',
		operation: 'create',
		tableId: rl(contacts()._id),
		cellsInput: 'json',
		cellsJson,
	});
const search = async (conditionsJson: string, options: IDataObject = {}) =>
	await sales({
		resource: 'record',
		operation: 'search',
		tableId: rl(contacts()._id),
		conditionsInput: 'json',
		conditionsJson,
		returnAll: false,
		limit: 5,
		options,
	});
const errorOf = (run: Awaited<ReturnType<typeof sales>>) => String(run.json[0]?.error ?? '');

/** Runs `act` and expects it to fail naming `names`, with nothing written to the table. */
async function refused(act: () => Promise<Awaited<ReturnType<typeof sales>>>, names: RegExp) {
	const before = stored().length;
	const writes = sent(/\/record$/).length;
	const run = await act();
	expect(errorOf(run)).toMatch(names);
	expect(stored()).toHaveLength(before);
	expect(sent(/\/record$/)).toHaveLength(writes);
	return run;
}

describe('dates: read strictly, never rolled over or guessed', () => {
	it.each([
		'2026-02-30T10:00:00Z',
		'2026-02-29T12:00:00+02:00',
		'March 5',
		'2026-13-01',
		'2026-06-01T24:00:00Z',
	])(
		'a date column given %j is refused, naming the column, and nothing is written',
		async (value) => {
			await refused(
				async () => await create(JSON.stringify({ Name: 'Dated', 'Last contacted': value })),
				/Column "Last contacted" takes a date, got/,
			);
		},
	);

	it('a date column given ISO 8601 (with a zone, with milliseconds, a date alone) stores that instant', async () => {
		for (const [given, stores] of [
			['2028-02-29T12:00:00+02:00', '2028-02-29T10:00:00.000Z'],
			['2026-12-01T10:00:00.250Z', '2026-12-01T10:00:00.250Z'],
			// A date alone: midnight in the workflow's time zone (n8n's default, America/New_York).
			['2026-12-01', '2026-12-01T05:00:00.000Z'],
		]) {
			const run = await create(JSON.stringify({ Name: 'Dated', 'Last contacted': given }));
			expect(run.json[0].error).toBeUndefined();
			const rec = stored().find((r) => r._id === run.json[0]._id)!;
			expect(rec.cells[cid('Last contacted')]).toBe(stores);
		}
	});

	it('a search condition on a date column with an impossible date or free text is refused, and no search is sent', async () => {
		for (const value of ['2026-02-30T10:00:00Z', 'March 5']) {
			const before = searches().length;
			const run = await search(
				JSON.stringify([{ column: 'Last contacted', operator: 'gt', value }]),
			);
			expect(errorOf(run)).toMatch(/Condition 1: "Last contacted" is a date column/);
			expect(searches()).toHaveLength(before);
		}
	});

	it("a deal's closing date of 30 February, an activity's start of \"March 5\" and a payrun's period of 31 April are refused before sending", async () => {
		const deal = await sales({
			resource: 'deal',
			operation: 'create',
			name: 'Dated deal',
			additionalFields: { closingDate: '2026-02-30' },
		});
		expect(errorOf(deal)).toMatch(
			/^Closing Date is not a date: "2026-02-30" \(month 2 of 2026 has no day 30\)/,
		);
		const activity = await sales({
			resource: 'activity',
			operation: 'create',
			name: 'Dated activity',
			start: 'March 5',
			end: '2026-03-05T10:00:00Z',
		});
		expect(errorOf(activity)).toMatch(/^Start is not a date: "March 5"/);
		const payruns = await h.run(
			'businessPlatformPeople',
			{
				resource: 'payrun',
				operation: 'getAll',
				returnAll: true,
				filters: { periodFrom: '2026-04-31', periodTo: '2026-05-31' },
			},
			[{ json: {} }],
			{ continueOnFail: true },
		);
		expect(String(payruns.json[0].error)).toMatch(/^Pay Period Start is not a date/);
	});
});

describe('numbers past 2^53: never rounded silently', () => {
	const BIG = '12345678901234567890';

	it('a JSON number past 2^53 for a text column is stored with every digit', async () => {
		const run = await create(`{"Name": "Big phone", "Phone": ${BIG}}`);
		expect(run.json[0].error).toBeUndefined();
		const rec = stored().find((r) => r._id === run.json[0]._id)!;
		expect(rec.cells[cid('Phone')]).toBe(BIG);
	});

	it('for a number column it is refused, saying why; so is the same number in quotes', async () => {
		await refused(
			async () => await create(`{"Name": "Big score", "Score": ${BIG}}`),
			/Column "Score": 12345678901234567890 is past 2\^53/,
		);
		await refused(
			async () => await create(`{"Name": "Big score", "Score": "${BIG}"}`),
			/Column "Score": "12345678901234567890" is past 2\^53/,
		);
	});

	it("an expression's number past 2^53 (JavaScript rounded it already) is refused for a text column", async () => {
		await refused(
			async () =>
				await sales({
					resource: 'record',
					operation: 'create',
					tableId: rl(contacts()._id),
					cellsInput: 'json',
					cellsJson: '={{ { "Name": "Rounded", "Phone": 12345678901234567890 } }}',
				}),
			/Column "Phone": the number 12345678901234567000 is past 2\^53/,
		);
	});

	it('in a search condition on a text column the digits are sent as written', async () => {
		const run = await search(`[{"column": "Phone", "operator": "eq", "value": ${BIG}}]`);
		expect(run.json[0]?.error).toBeUndefined();
		expect(searches().at(-1)!.conditions).toEqual([{ colId: cid('Phone'), opr: 'eq', value: BIG }]);
	});
});

describe('a key written twice is refused at any depth', () => {
	it('inside a list entry of Cells (JSON): nothing is written', async () => {
		await refused(
			async () => await create('[{"column": "Score", "column": "Name", "value": "Ada"}]'),
			/^Cells \(JSON\) names "column" twice in entry 1/,
		);
	});

	it('an operator written twice in a condition: no search is sent', async () => {
		const before = searches().length;
		const run = await search(
			'[{"column": "Score", "operator": "gt", "operator": "lt", "value": 1}]',
		);
		expect(errorOf(run)).toMatch(/^Conditions \(JSON\) names "operator" twice in entry 1/);
		expect(searches()).toHaveLength(before);
	});

	it("deeper, in a JSON column's value", async () => {
		await refused(
			async () => await create('{"Name": "Deep", "Extra": {"a": {"b": 1, "b": 2}}}'),
			/^Cells \(JSON\) names "b" twice in "Extra" › "a"/,
		);
	});
});

describe('conditions in object form: operators and lists, never equals-its-text', () => {
	it('{"Name": {"contains": "en "}} is a Contains condition', async () => {
		const run = await search('{"Name": {"contains": "en "}}');
		expect(run.json[0]?.error).toBeUndefined();
		expect(searches().at(-1)!.conditions).toEqual([{ colId: cid('Name'), opr: 'c', value: 'en ' }]);
	});

	it('{"Name": ["a", "b"]} is Is One Of; a value holding a comma is refused', async () => {
		await search('{"Name": ["Ada", "Grace"]}');
		expect(searches().at(-1)!.conditions).toEqual([
			{ colId: cid('Name'), opr: 'in', value: 'Ada,Grace' },
		]);
		const comma = await search('{"Name": ["Lovelace, Ada"]}');
		expect(errorOf(comma)).toMatch(/holds a comma/);
	});

	it('several operators on one column are several conditions; an empty object, an unknown operator and a list for equals are refused naming the column', async () => {
		await search('{"Score": {"gt": 10, "lte": 90}}');
		expect(searches().at(-1)!.conditions).toEqual([
			{ colId: cid('Score'), opr: 'gt', value: '10' },
			{ colId: cid('Score'), opr: 'lte', value: '90' },
		]);
		const before = searches().length;
		expect(errorOf(await search('{"Name": {}}'))).toMatch(/column "Name" is given an empty object/);
		expect(errorOf(await search('{"Name": {"like": "A"}}'))).toMatch(
			/unknown operator "like" \(column "Name"\)/,
		);
		expect(errorOf(await search('{"Name": {"eq": ["a", "b"]}}'))).toMatch(
			/compares with one value, got the list/,
		);
		expect(searches()).toHaveLength(before);
	});
});

describe('every echo bounded', () => {
	const huge = 'x'.repeat(100_000);

	it('a 100,000-character operator or Sort Direction comes back cut in a short message', async () => {
		const operator = await search(JSON.stringify([{ column: 'Name', operator: huge, value: 'a' }]));
		expect(errorOf(operator)).toMatch(/unknown operator "x{60}…"/);
		expect(errorOf(operator).length).toBeLessThan(1000);
		const direction = await search('', { sortDirection: huge });
		expect(errorOf(direction)).toMatch(
			/Sort Direction must be 1 \(ascending\) or -1 \(descending\), got "x{60}…"/,
		);
		expect(errorOf(direction).length).toBeLessThan(200);
	});
});
