/**
 * The Table Trigger reads a condition as Record → Search does (one reader:
 * nodes/BusinessPlatformSales/resources/record/condition-value.ts): the trigger's list request
 * (BusinessPlatformTableTrigger/events/common.ts recordList) and Search's declared check and request
 * (record/conditions.ts prepareSearch), pure, on the record fields both read without the table's
 * columns (Created At, Updated At, _id). A seeded property: for any operator (the 14, and what an
 * expression may give instead) and any value a person or an expression writes (dates partial,
 * impossible, with zones and spaces, lists as text and as lists, numbers past 2^53, a Date, a
 * DateTime, objects), in any time zone, both refuse it with the same words or both send the same
 * condition. And the two cases of issue 55, which the trigger refused every poll.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { prepareSearch } from '../../nodes/BusinessPlatformSales/resources/record/conditions';
import { recordList } from '../../nodes/BusinessPlatformTableTrigger/events/common';
import type { OpContext } from '../../nodes/shared/engine/model';
import { type Dated, toUtcIso } from '../../nodes/shared/field-values';
import type { ParamReader } from '../../nodes/shared/polling/model';
import { checkProperty, hostileString } from '../helpers/property';

type Row = { column: string; operator: string; value: unknown };

const failing = (zone: string): Dated => ({
	fail: (message, description) => Object.assign(new Error(message), { description }),
	fn: { getTimezone: () => zone },
});

/** The Table Trigger's conditions as its poll sends them, or its error's message. */
function trigger(rows: Row[], zone: string): IDataObject[] | string {
	const params: IDataObject = { tableId: 't1', match: 'and', conditions: { condition: rows } };
	const values = failing(zone);
	const param: ParamReader = Object.assign(
		(name: string, fallback?: unknown) => params[name] ?? fallback,
		{
			dated: values,
			// How the trigger read a date before it read conditions as Search does (6f0390d).
			dateTime: (value: unknown, label: string) => toUtcIso(value, label, values),
		},
	);
	try {
		return (recordList('createdAt', param).request.body as IDataObject).conditions as IDataObject[];
	} catch (e) {
		return (e as Error).message;
	}
}

/** Record → Search's conditions as it sends them, or its error's message. */
async function search(rows: Row[], zone: string): Promise<IDataObject[] | string> {
	const params: IDataObject = {
		conditionsInput: 'list',
		filters: { conditions: rows },
		options: {},
	};
	const ctx = {
		...failing(zone),
		param: (name: string, fallback?: unknown) => params[name] ?? fallback,
	} as unknown as OpContext;
	const req = { body: {} as IDataObject, qs: {} as IDataObject };
	try {
		await prepareSearch(req, ctx);
		return req.body.conditions as IDataObject[];
	} catch (e) {
		return (e as Error).message;
	}
}

describe('the Table Trigger reads a condition as Record → Search does', () => {
	it('issue 55: "Created At starts with 2024-01" and "Created At is one of {{ [...] }}" are sent, as Search sends them', async () => {
		const cases: Row[] = [
			{ column: 'createdAt', operator: 'sw', value: '2024-01' },
			{ column: 'createdAt', operator: 'in', value: ['2024-01-05', '2024-02-29T10:00:00Z'] },
		];
		for (const row of cases) {
			const sent = trigger([row], 'Europe/Berlin');
			expect(sent).toEqual(await search([row], 'Europe/Berlin'));
			expect(Array.isArray(sent)).toBe(true);
		}
		expect(trigger([cases[0]], 'UTC')).toEqual([
			{ colId: 'createdAt', opr: 'sw', value: '2024-01' },
		]);
		expect(trigger([cases[1]], 'UTC')).toEqual([
			{ colId: 'createdAt', opr: 'in', value: '2024-01-05T00:00:00.000Z,2024-02-29T10:00:00.000Z' },
		]);
	});

	it('a list of names for a column of the table ("Name is one of {{ [...] }}") goes as written, one value per name', () => {
		expect(trigger([{ column: 'c_name', operator: 'in', value: ['Ada', 'Grace'] }], 'UTC')).toEqual(
			[{ colId: 'c_name', opr: 'in', value: 'Ada,Grace' }],
		);
		expect(
			trigger([{ column: 'c_name', operator: 'in', value: ['Ada, Lovelace'] }], 'UTC'),
		).toMatch(/holds a comma/);
	});

	it('both accept and refuse the same values, with the same words, and send the same condition (property)', async () => {
		const text = fc.oneof(
			fc.constantFrom(
				'2024-01',
				'2024-02-29',
				'2023-02-29',
				' 2024-03-01 ',
				'2024-03-01T10:00',
				'2024-03-01T10:00:00+05:30',
				'2024-03-01T10:00:00Z',
				'2024-03-01T24:00:00',
				'2024-03-01 10:00',
				'2024-03-31T02:30:00',
				'next Tuesday',
				'03/01/2024',
				'',
				'2024-01-01,2024-02-01',
				'2024-01-01, ,2024-02-01',
				' 42 ',
				'1e3',
				'9007199254740993',
			),
			hostileString(),
		);
		const one = fc.oneof(
			text,
			fc.constantFrom(42, 1e3, 2 ** 53 + 2, -0, 1.5, Number.NaN, true, false, null, undefined),
			fc.constantFrom(
				new Date('2024-02-29T12:00:00Z'),
				new Date('invalid'),
				DateTime.fromISO('2024-03-01T10:00:00', { zone: 'America/New_York' }),
			),
			fc.constant({}),
		);
		const value = fc.oneof(one, fc.array(one, { maxLength: 3 }));
		const operator = fc.constantFrom(
			'eq',
			'neq',
			'gt',
			'gte',
			'lt',
			'lte',
			'c',
			'nc',
			'sw',
			'ew',
			'in',
			'nin',
			'emp',
			'nemp',
			'like',
			'EQ',
			' eq ',
			'',
			'__proto__',
			'toString',
		);
		await checkProperty(
			400,
			fc.asyncProperty(
				fc.constantFrom('createdAt', 'updatedAt', '_id'),
				operator,
				value,
				fc.constantFrom('UTC', 'Europe/Berlin', 'America/St_Johns', 'Pacific/Kiritimati'),
				async (column, op, v, zone) => {
					const rows = [{ column, operator: op, value: v }];
					expect(trigger(rows, zone)).toEqual(await search(rows, zone));
				},
			),
		);
	});
});
