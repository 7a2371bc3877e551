/**
 * The Table Trigger reads a condition as Record → Search does (one reader:
 * nodes/BusinessPlatformSales/resources/record/condition-value.ts), the table's columns included:
 * the trigger's list request (BusinessPlatformTableTrigger/events/common.ts recordList, prepared
 * with the table as a poll prepares it) and Search's request (record/conditions.ts prepareSearch),
 * pure, both reading the same fake table. A seeded property: on a table with a column of every
 * type the contract and the sandbox know (text, string, email, phone, select, multi-select,
 * number, boolean, date, json, json_array, ref, user) and of types it does not (`checkbox`,
 * `constructor`, `__proto__`), options named like prototype keys and like another option's ID,
 * columns named twice, and a table answered without its columns; for any column (by ID, by name
 * in any case, unknown, a record field), any operator (the 14, and what an expression may give)
 * and any value (option names, numbers past 2^31 and 2^53, dates partial, impossible and zoned,
 * lists as text and as lists, empty and huge text, a Date, a DateTime, objects), in any time zone,
 * both refuse it with the same words or both send the same condition. The trigger reads the table
 * once per poll, and not at all when every condition is on a record field. And the cases of issue
 * 55 and of its review ("Status is Won" sent as the option's ID).
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import type { PlatformTable, TableColumn } from '../../nodes/BusinessPlatformSales/common/tables';
import { prepareSearch } from '../../nodes/BusinessPlatformSales/resources/record/conditions';
import { recordList } from '../../nodes/BusinessPlatformTableTrigger/events/common';
import type { OpContext } from '../../nodes/shared/engine/model';
import type { Dated } from '../../nodes/shared/field-values';
import type { ParamReader } from '../../nodes/shared/polling/model';
import type { RunScope } from '../../nodes/shared/run-scope';
import { checkProperty, hostileString } from '../helpers/property';

type Row = { column: unknown; operator: unknown; value: unknown };
type Outcome = IDataObject[] | { message: string; description?: string };

const TABLE_ID = '65f1c0ffee0123456789abcd';

const options = (...names: string[]) => names.map((name, i) => ({ id: i + 1, name }));
const column = (id: string, name: string, type: string, extra: Partial<TableColumn> = {}) => ({
	id,
	name,
	type,
	...extra,
});

/** A column of every type the contract lists (and the sandbox serves), and of types it does not. */
const TABLE: PlatformTable = {
	_id: TABLE_ID,
	name: 'Deals',
	columnsMetaData: [
		column('d1a', 'Name', 'text'),
		column('d1b', 'Currency', 'string'),
		column('d1c', 'Email', 'email'),
		column('d1d', 'Phone', 'phone'),
		column('d1e', 'Status', 'select', {
			options: options('Open', 'Won', 'Lost', 'toString', '__proto__', 'constructor', '2'),
		}),
		column('d1f', 'Sources', 'multi-select', { options: options('Web', 'Referral', 'won') }),
		column('d1g', 'Amount', 'number'),
		column('d1h', 'Hot', 'boolean'),
		column('d1i', 'Closing date', 'date'),
		column('d1j', 'Extra', 'json'),
		column('d1k', 'Products', 'json_array'),
		column('d1l', 'Contact', 'ref', { refTable: { _id: 'c', objectType: 'CONTACT' } }),
		column('d1m', 'Owner', 'user'),
		column('d1n', 'Status', 'select', { options: null }),
		column('d1o', 'Done', 'checkbox'),
		column('d1p', '__proto__', 'constructor'),
		column('d1q', 'toString', '__proto__'),
		column('d1r', 'd1a', 'number'),
	],
};
/** Tables answered not in the contract's shape: without columns; with columns and options that are junk. */
const BARE = { _id: TABLE_ID } as PlatformTable;
const JUNK = {
	_id: TABLE_ID,
	name: 'Junk',
	columnsMetaData: [
		null,
		'd1a',
		{ name: 'No ID', type: 'text' },
		column('d1e', 'Status', 'select', { options: 'Won' as never }),
		column('d1f', 'Sources', 'multi-select', {
			options: [null, { id: 1 }, { id: 2, name: 'Won' }] as never,
		}),
		column('d1g', 'Amount', 'number', { name: undefined as never }),
	],
} as unknown as PlatformTable;

const failing = (zone: string): Dated => ({
	fail: (message, description) => Object.assign(new Error(message), { description }),
	fn: { getTimezone: () => zone },
});
const outcomeOf = (e: unknown): Outcome => ({
	message: (e as Error).message,
	description: (e as { description?: string }).description,
});

/** The Table Trigger's conditions as one poll sends them (its list prepared with `table`), or its error; `reads`: the table's. */
async function trigger(
	rows: Row[],
	zone: string,
	table: PlatformTable,
): Promise<{ sent: Outcome; reads: number }> {
	const params: IDataObject = { tableId: TABLE_ID, match: 'and', conditions: { condition: rows } };
	const param: ParamReader = Object.assign(
		(name: string, fallback?: unknown) => params[name] ?? fallback,
		{ dated: failing(zone) },
	);
	let reads = 0;
	const scope = {
		once: async (key: string) => {
			expect(key).toBe(`table:${TABLE_ID}`);
			reads++;
			return await Promise.resolve(table);
		},
	} as unknown as RunScope;
	try {
		const list = recordList('createdAt', param);
		const request = list.prepare ? await list.prepare(scope) : list.request;
		return { sent: (request.body as IDataObject).conditions as IDataObject[], reads };
	} catch (e) {
		return { sent: outcomeOf(e), reads };
	}
}

/** Record → Search's conditions as it sends them (reading `table`), or its error. */
async function search(rows: Row[], zone: string, table: PlatformTable): Promise<Outcome> {
	const params: IDataObject = {
		tableId: TABLE_ID,
		conditionsInput: 'list',
		filters: { conditions: rows },
		options: {},
	};
	const ctx = {
		...failing(zone),
		param: (name: string, fallback?: unknown) => params[name] ?? fallback,
		scope: { once: async () => await Promise.resolve(table) },
	} as unknown as OpContext;
	const req = { body: {} as IDataObject, qs: {} as IDataObject };
	try {
		await prepareSearch(req, ctx);
		return req.body.conditions as IDataObject[];
	} catch (e) {
		return outcomeOf(e);
	}
}

const sent = async (rows: Row[], zone = 'UTC', table = TABLE) =>
	(await trigger(rows, zone, table)).sent;

describe('the Table Trigger reads a condition as Record → Search does', () => {
	it('issue 55: "Created At starts with 2024-01" and "Created At is one of {{ [...] }}" are sent, as Search sends them, without reading the table', async () => {
		const cases: Row[] = [
			{ column: 'createdAt', operator: 'sw', value: '2024-01' },
			{ column: 'createdAt', operator: 'in', value: ['2024-01-05', '2024-02-29T10:00:00Z'] },
		];
		for (const row of cases) {
			const poll = await trigger([row], 'Europe/Berlin', TABLE);
			expect(poll.sent).toEqual(await search([row], 'Europe/Berlin', TABLE));
			expect(Array.isArray(poll.sent)).toBe(true);
			expect(poll.reads).toBe(0);
		}
		expect(await sent([cases[0]])).toEqual([{ colId: 'createdAt', opr: 'sw', value: '2024-01' }]);
		expect(await sent([cases[1]])).toEqual([
			{ colId: 'createdAt', opr: 'in', value: '2024-01-05T00:00:00.000Z,2024-02-29T10:00:00.000Z' },
		]);
	});

	it('"Status is Won" on a select column sends the option’s ID, as Search does; a name it does not have is refused with Search’s words', async () => {
		const won: Row = { column: 'd1e', operator: 'eq', value: 'Won' };
		expect(await trigger([won], 'UTC', TABLE)).toEqual({
			sent: [{ colId: 'd1e', opr: 'eq', value: '2' }],
			reads: 1,
		});
		expect(await sent([won])).toEqual(await search([won], 'UTC', TABLE));
		// A saved workflow that gave the option's ID keeps sending it.
		expect(await sent([{ ...won, value: '3' }])).toEqual([{ colId: 'd1e', opr: 'eq', value: '3' }]);
		const none: Row = { column: 'Status', operator: 'in', value: ['Won', 'Pending'] };
		expect(await sent([none])).toEqual({
			message: 'Condition 1: column "Status" has no option "Pending"',
			description: 'Allowed options: Open, Won, Lost, toString, __proto__, constructor, 2.',
		});
		expect(await sent([none])).toEqual(await search([none], 'UTC', TABLE));
	});

	it('"Name is one of {{ [...] }}" goes one value per name; a name holding a comma is refused', async () => {
		expect(await sent([{ column: 'Name', operator: 'in', value: ['Ada', 'Grace'] }])).toEqual([
			{ colId: 'd1a', opr: 'in', value: 'Ada,Grace' },
		]);
		expect(await sent([{ column: 'd1a', operator: 'in', value: ['Ada, Lovelace'] }])).toMatchObject(
			{ message: expect.stringMatching(/holds a comma/) },
		);
	});

	it('a row left without a column is left out (saved workflows with an empty row keep polling); the others are named by their place', async () => {
		const rows: Row[] = [
			{ column: '', operator: 'eq', value: 'x' },
			{ column: 'Amount', operator: 'gt', value: 'many' },
		];
		expect(await sent([rows[0]])).toEqual([]);
		expect(await sent(rows)).toMatchObject({ message: expect.stringMatching(/^Condition 2: /) });
	});

	it('both accept and refuse the same values, with the same words, and send the same condition, on every column type (property)', async () => {
		const text = fc.oneof(
			fc.constantFrom(
				'Won',
				' won ',
				'Won,Lost',
				'Open, ,Lost',
				'toString',
				'__proto__',
				'constructor',
				'2',
				'7',
				'2147483647',
				'2147483648',
				'-2147483649',
				'9007199254740991',
				'9007199254740993',
				'1e3',
				' 42 ',
				'0x10',
				'Infinity',
				'yes',
				'TRUE',
				'0',
				'2024-01',
				'2024-02-29',
				'2023-02-29',
				'2024-03-01T10:00:00+05:30',
				'2024-03-01T24:00:00',
				'2024-03-31T02:30:00',
				'03/01/2024',
				'',
				'x'.repeat(100_000),
			),
			hostileString(),
		);
		const one = fc.oneof(
			{ arbitrary: text, weight: 4 },
			fc.constantFrom(
				2,
				2 ** 31,
				-(2 ** 31) - 1,
				2 ** 53,
				2 ** 53 + 2,
				1e21,
				1.5,
				-0,
				Number.NaN,
				Number.POSITIVE_INFINITY,
				true,
				false,
				null,
				undefined,
			),
			fc.constantFrom(
				new Date('2024-02-29T12:00:00Z'),
				new Date('invalid'),
				DateTime.fromISO('2024-03-01T10:00:00', { zone: 'America/New_York' }),
			),
			fc.constant({}),
		);
		const value = fc.oneof({ arbitrary: one, weight: 3 }, fc.array(one, { maxLength: 3 }));
		const columns = (TABLE.columnsMetaData ?? []).flatMap((c) => [c.id, c.name]);
		const columnName = fc.oneof(
			{ arbitrary: fc.constantFrom(...columns), weight: 8 },
			{ arbitrary: fc.constantFrom('createdAt', 'updatedAt', '_id'), weight: 2 },
			fc.constantFrom(...columns).map((c) => c.toUpperCase()),
			fc.constantFrom('Nope', 'status (d1n)', ' Amount ', 42),
			hostileString().filter((s) => s.trim() !== ''),
		);
		const operator = fc.oneof(
			{ arbitrary: fc.constantFrom('eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'nin'), weight: 6 },
			{ arbitrary: fc.constantFrom('c', 'nc', 'sw', 'ew', 'emp', 'nemp'), weight: 3 },
			fc.constantFrom('like', 'EQ', ' eq ', '', '__proto__', 'toString', undefined),
		);
		const row = fc.record({ column: columnName, operator, value });
		// The columns some case sent a condition for: the generators reach every type, not only its errors.
		const sentTo = new Set<string>();
		let cases = 0;

		await checkProperty(
			500,
			fc.asyncProperty(
				fc.oneof(
					{ arbitrary: fc.tuple(row), weight: 3 },
					fc.array(row, { minLength: 2, maxLength: 3 }),
				),
				fc.constantFrom('UTC', 'Europe/Berlin', 'America/St_Johns', 'Pacific/Kiritimati'),
				fc.constantFrom(TABLE, TABLE, TABLE, TABLE, BARE, JUNK),
				async (rows, zone, table) => {
					const poll = await trigger(rows, zone, table);
					expect(poll.sent).toEqual(await search(rows, zone, table));
					// Refused with words and a fix, never by a crash (a column type named like a prototype key).
					if (!Array.isArray(poll.sent)) expect(poll.sent.description).toEqual(expect.any(String));
					else for (const c of poll.sent) sentTo.add(String(c.colId));
					cases++;
					// One reading of the table a poll at most, and none for conditions on record fields only.
					const onColumns = rows.some(
						(r) => !['createdAt', 'updatedAt', '_id'].includes(String(r.column).trim()),
					);
					expect(poll.reads).toBeLessThanOrEqual(onColumns ? 1 : 0);
				},
			),
		);
		if (cases >= 500)
			expect([...sentTo].sort()).toEqual(
				expect.arrayContaining((TABLE.columnsMetaData ?? []).map((c) => c.id)),
			);
	});
});
