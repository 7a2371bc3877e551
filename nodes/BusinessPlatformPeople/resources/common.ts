/**
 * What the People resources share: int64 numbers (written as strings by the
 * platform's gRPC gateway) turned back into numbers, month/day/year dates, work periods, the
 * answers of bulk deletes, and the user picker.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { BuiltRequest, OpContext } from '../../shared/engine/model';
import { locator } from '../../shared/engine/fields';
import { objectAt, toCalendarDate } from '../../shared/field-values';

/** int64 fields of the people models (v1User, v1Member, v1Approver, v1CustomFieldData, responses). */
const INT64_KEYS: ReadonlySet<string> = new Set([
	'iamUserId',
	'httpStatusCode',
	'beneficiariesToAdd',
]);
/** v1FilterConfig: every field is an int64. */
const FILTER_CONFIG_KEYS: ReadonlySet<string> = new Set([
	'page',
	'numberOfElements',
	'sizePerPage',
	'totalPage',
	'numberOfRecords',
]);

const asNumber = (v: unknown): unknown => {
	if (typeof v !== 'string' || !/^-?\d+$/.test(v)) return v;
	const n = Number(v);
	// Beyond 2^53 a number would lose digits: keep the text.
	return Number.isSafeInteger(n) ? n : v;
};

/** Returns a copy with the known int64 fields as numbers, at any depth. */
export function int64ToNumbers<T>(value: T, inFilterConfig = false): T {
	if (Array.isArray(value)) return value.map((v) => int64ToNumbers(v)) as T;
	if (value === null || typeof value !== 'object') return value;
	const out: IDataObject = {};
	for (const [k, v] of Object.entries(value as IDataObject)) {
		if (INT64_KEYS.has(k) || (inFilterConfig && FILTER_CONFIG_KEYS.has(k)))
			out[k] = asNumber(v) as IDataObject[string];
		else out[k] = int64ToNumbers(v, k === 'filterConfig') as IDataObject[string];
	}
	return out as T;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A date as the payroll module writes it: MM/DD/YYYY. Accepts n8n's date-time (ISO text, whose
 * calendar date is kept as written), a Date or DateTime (its date in the workflow's zone), or
 * month/day/year text; read strictly (no 30 February, no free text).
 */
export function toMdy(value: unknown, label: string, ctx: OpContext): string | undefined {
	const date = toCalendarDate(value, label, ctx, true);
	return date && `${pad(date.m)}/${pad(date.d)}/${String(date.y).padStart(4, '0')}`;
}

/** A required date field. */
export function requireMdy(value: unknown, label: string, ctx: OpContext): string {
	const out = toMdy(value, label, ctx);
	if (out === undefined) throw ctx.fail(`${label} is empty`, 'Pick a date.');
	return out;
}

/** A payrun's or paystub's work period as text ("from-to"), when it has one. */
export function workPeriodText(record: IDataObject): string | undefined {
	const wp = objectAt(record, 'workPeriod') ?? {};
	return wp.from || wp.to ? `${String(wp.from ?? '')}-${String(wp.to ?? '')}` : undefined;
}

/**
 * v1DeleteResponse → one item per id. The platform answers 200 with status
 * "failed" when it refuses (for example users still on a payrun): that is an
 * error of the item, with the platform's words.
 */
export function bulkDeleteOutput(
	answer: unknown,
	ids: string[],
	ctx: OpContext,
	what: string,
): IDataObject[] {
	const a = (answer ?? {}) as IDataObject;
	const status = String(a.status ?? 'success').toLowerCase();
	if (status && status !== 'success' && status !== 'ok') {
		const forced = ctx.param<boolean>('forcedDelete', false);
		throw ctx.fail(
			`The platform did not delete the ${what}: ${String(a.message || a.status)}${a.errCode ? ` (${String(a.errCode)})` : ''}`,
			forced
				? 'Nothing was deleted. Check the IDs in the platform.'
				: 'Nothing was deleted. Turn on "Force Delete" to delete them anyway.',
		);
	}
	return ids.map((id) => ({ deleted: true, id }));
}

export const BULK_DELETE_WHY =
	'The platform answers a refused bulk delete with 200 and status "failed", which fails the item with its words; otherwise it shows nothing, so the output is one item per deleted ID.';

/** A text answer: the text itself; a JSON-encoded string (an answer sent as application/json) is unquoted. */
export function answerText(answer: unknown): string {
	if (answer === undefined || answer === null) return '';
	if (typeof answer !== 'string') return JSON.stringify(answer);
	const text = answer.trim();
	if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
		try {
			const inner = JSON.parse(text) as unknown;
			if (typeof inner === 'string') return inner;
		} catch {
			// not JSON: keep the text
		}
	}
	return answer;
}

/** The filters' pay period as its two dates (MM/DD/YYYY), both or neither. */
function payPeriodOf(ctx: OpContext): { from?: string; to?: string } {
	const filters = ctx.param<IDataObject>('filters', {});
	const from = toMdy(filters.periodFrom, 'Pay Period Start', ctx);
	const to = toMdy(filters.periodTo, 'Pay Period End', ctx);
	if ((from === undefined) !== (to === undefined))
		throw ctx.fail(
			'A pay period needs a start and an end',
			'Fill in both Pay Period Start and Pay Period End, or neither.',
		);
	return { from, to };
}

/**
 * Payrun and Paystub Get Many's `check`: the filters' pay period (two dates, both or neither) or
 * free text, put in the request as `searchString` (the platform searches a pay period written
 * "MM/DD/YYYY-MM/DD/YYYY"). Checked once, sent as checked.
 */
export function payPeriodSearch(req: BuiltRequest, ctx: OpContext): void {
	const filters = ctx.param<IDataObject>('filters', {});
	const { from, to } = payPeriodOf(ctx);
	if (from && to) req.qs.searchString = `${from}-${to}`;
	else if (filters.search) req.qs.searchString = String(filters.search);
}

export const PAY_PERIOD_LIST_WHY =
	'The pay period filter (two dates) is sent as the platform’s "MM/DD/YYYY-MM/DD/YYYY" search text; the answer’s int64 numbers (written as text) are turned back into numbers.';

/** A user (employee) picked from the list or given by ID. */
export const userLocator = (
	name = 'userId',
	displayName = 'User',
	description = 'The user (employee) to use',
): INodeProperties =>
	locator({
		name,
		displayName,
		search: 'searchPeopleUsers',
		description,
		numeric: false,
		placeholder: 'e.g. 65f1c0ffee0123456789abcd',
	});

/** Ascending / descending, as every people and payroll list takes it. */
export function sortOrderProperty(defaultOrder: 'asc' | 'desc' = 'desc'): INodeProperties {
	return {
		displayName: 'Sort Order',
		name: 'sortOrder',
		type: 'options',
		options: [
			{ name: 'Ascending', value: 'asc' },
			{ name: 'Descending', value: 'desc' },
		],
		default: defaultOrder,
	};
}

/** A list answer with its int64-as-string numbers turned into numbers. */
export const int64List = (answer: unknown): IDataObject[] =>
	int64ToNumbers((answer as IDataObject[] | undefined) ?? []);

export const INT64_LIST_WHY =
	'The platform writes int64 numbers as text: the answer’s are turned back into numbers.';

/** A list whose only code is turning its int64-as-string numbers into numbers. */
export async function int64ListOf(ctx: OpContext): Promise<IDataObject[]> {
	return int64List(await ctx.send<IDataObject[]>(ctx.fromFields()));
}
