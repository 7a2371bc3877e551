/**
 * One reader of record conditions (FilterCondition), without throwing: a condition's column and
 * operator as given (parseCondition, no table needed), then its column found in the table's
 * columns and its value checked and converted for that column's type (filterCondition: option
 * names to their IDs, dates to UTC in the workflow's time zone, numbers, true/false, user IDs),
 * or what is wrong with it. Record → Search (conditions.ts) and the Table Trigger
 * (BusinessPlatformTableTrigger/events/common.ts) both read their conditions with it and both
 * read the table's columns for a condition on a column of the table (a record field, Created At,
 * Updated At or _id, needs none), so both send the same condition or refuse it with the same
 * words, whatever the column's type (test/unit/table-conditions.property.test.ts).
 */
import {
	clip,
	DATE_TIME_FORMS,
	echo,
	ExactNumber,
	readDateTime,
} from '../../../shared/text-readers';
import {
	columnKeys,
	DATE_FIELDS,
	findColumn,
	type PlatformTable,
	type TableColumn,
} from '../../common/tables';
import type { ConditionInput } from './json-input';
import { findOption, instantIso, listOf, optionNames, shown, toBoolean } from './values';

/** The 14 operators of a FilterCondition, in plain words. */
export const OPERATORS: Array<[string, string]> = [
	['Contains', 'c'],
	['Does Not Contain', 'nc'],
	['Ends With', 'ew'],
	['Equals', 'eq'],
	['Greater Than', 'gt'],
	['Greater Than or Equal To', 'gte'],
	['Is Empty', 'emp'],
	['Is Not Empty', 'nemp'],
	['Is Not One Of', 'nin'],
	['Is One Of', 'in'],
	['Less Than', 'lt'],
	['Less Than or Equal To', 'lte'],
	['Not Equals', 'neq'],
	['Starts With', 'sw'],
];

const OPERATOR_VALUES: ReadonlySet<string> = new Set(OPERATORS.map(([, v]) => v));

/** Operators that take no value (Is Empty, Is Not Empty): the value sent is empty. */
export const NO_VALUE: ReadonlySet<string> = new Set(['emp', 'nemp']);

const LIST_OPS: ReadonlySet<string> = new Set(['in', 'nin']);

const EXACT_OPS: ReadonlySet<string> = new Set(['eq', 'neq', 'lt', 'lte', 'gt', 'gte']);

/** What is wrong with a condition: the error's message, and what to do (its description). */
export interface ConditionProblem {
	problem: string;
	hint: string;
}

/** An operator that is not one of the 14 (an expression gave it), or undefined. */
export function operatorProblem(
	op: string,
	column: string,
	label: string,
): ConditionProblem | undefined {
	if (OPERATOR_VALUES.has(op)) return undefined;
	return {
		problem: `${label} has an unknown operator ${echo(op, 60)} (column ${echo(column, 60)})`,
		hint: `Use one of: ${OPERATORS.map(([n, c]) => `${c} (${n})`).join(', ')}.`,
	};
}

/** One value of a condition as text, or what is wrong with it (a list or an object where one value goes). */
function partText(v: unknown): string | { problem: string } {
	if (v === undefined || v === null) return '';
	// Its digits as written: compared as text, or refused below where a number is compared.
	if (v instanceof ExactNumber) return v.text;
	if (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v))
		return { problem: 'is past 2^53, and the expression that gave it rounded it already' };
	if (typeof v !== 'object') return String(v);
	return (
		instantIso(v) ?? { problem: `is ${Array.isArray(v) ? 'a list' : 'an object'}, not one value` }
	);
}

/** The values a condition compares with, each as text: one, or several for in/nin (given as a list, or separated by commas). */
function conditionParts(op: string, raw: unknown, label: string): string[] | ConditionProblem {
	const list = LIST_OPS.has(op);
	if (!list && Array.isArray(raw))
		return {
			problem: `${label}: ${echo(op, 60)} compares with one value, got the list ${shown(raw)}`,
			hint: 'Use "in" (Is One Of) or "nin" (Is Not One Of) for several values.',
		};
	const values = list && Array.isArray(raw) ? raw : [raw];
	const texts: string[] = [];
	for (const v of values) {
		const t = partText(v);
		if (typeof t !== 'string')
			return {
				problem: `${label}: ${shown(v)} ${t.problem}`,
				hint: 'Give one value (text, a number or a date).',
			};
		texts.push(t);
	}
	if (!list) return texts;
	// A list given as a list keeps its values whole: one with a comma cannot be sent (the platform splits on commas).
	const parts = Array.isArray(raw) ? texts : listOf(texts[0]).map(String);
	const comma = Array.isArray(raw) ? parts.find((p) => p.includes(',')) : undefined;
	if (comma !== undefined)
		return {
			problem: `${label}: ${shown(comma)} holds a comma, which "${op}" cannot send`,
			hint: 'The platform separates the values of a list with commas.',
		};
	if (parts.length === 0)
		return {
			problem: `${label}: give at least one value`,
			hint: 'Separate several values with commas.',
		};
	return parts;
}

/** How a value of a column type is compared: as the platform wants it, or undefined when it is not one. */
const COMPARED: Record<
	string,
	{ convert: (p: string, timeZone: string) => string | undefined; what: string; hint: string }
> = {
	number: {
		convert: (p) =>
			p.trim() !== '' &&
			Number.isFinite(Number(p)) &&
			(!/^\s*[-+]?[0-9]+\s*$/.test(p) || Number.isSafeInteger(Number(p)))
				? String(Number(p))
				: undefined,
		what: 'a number column',
		hint: 'Give a number such as 42 (integers up to 2^53).',
	},
	date: {
		convert: (p, timeZone) => {
			const read = readDateTime(p, timeZone);
			return 'ok' in read ? new Date(read.ok).toISOString() : undefined;
		},
		what: 'a date column',
		hint: `Write it as ${DATE_TIME_FORMS}.`,
	},
	boolean: {
		convert: (p) => (toBoolean(p) === undefined ? undefined : String(toBoolean(p))),
		what: 'a true/false column',
		hint: 'Give true or false.',
	},
	// Every comparison of a user or select column is of IDs (the platform orders them as numbers).
	user: {
		convert: (p) =>
			/^\d+$/.test(p.trim()) && Number.isSafeInteger(Number(p)) ? p.trim() : undefined,
		what: 'a user column',
		hint: 'Give user IDs (whole numbers).',
	},
};

/**
 * A condition's value as the platform filters by it, for its column (`col`; undefined for a record
 * field, or where the columns are not read): starts/ends with and contains compare the text as
 * written; equals, the order operators and lists convert each value for the column's type (a
 * record date as a date-time in `timeZone` when it has no zone; option names to their IDs), or say
 * what is wrong. An operator without a value (Is Empty) gives "".
 */
export function readConditionValue(
	col: TableColumn | undefined,
	colId: string,
	op: string,
	raw: unknown,
	label: string,
	timeZone: string,
): { ok: string } | ConditionProblem {
	if (NO_VALUE.has(op)) return { ok: '' };
	const parts = conditionParts(op, raw, label);
	if (!Array.isArray(parts)) return parts;
	if (!LIST_OPS.has(op) && !EXACT_OPS.has(op)) return { ok: parts[0] }; // starts/ends with, contains: text as written
	const type = col ? col.type : DATE_FIELDS.includes(colId) ? 'date' : 'text';
	const name = col ? `"${col.name}"` : colId;
	const out: string[] = [];
	for (const p of parts) {
		if (col && (type === 'select' || type === 'multi-select')) {
			const option = findOption(col, p);
			if (!option)
				return {
					problem: `${label}: column ${name} has no option ${shown(p)}`,
					hint: `Allowed options: ${optionNames(col)}.`,
				};
			out.push(String(option.id));
			continue;
		}
		// Own rules only: a column type the platform names `constructor` or `__proto__` is compared as text.
		const rule = Object.prototype.hasOwnProperty.call(COMPARED, type) ? COMPARED[type] : undefined;
		const v = rule ? rule.convert(p, timeZone) : p;
		if (v === undefined)
			return {
				problem: `${label}: ${name} is ${rule!.what}, ${shown(p)} is not`,
				hint: rule!.hint,
			};
		out.push(v);
	}
	return { ok: out.join(',') };
}

// ------------------------------------------------------ whole conditions ---

/** A condition whose column is given and whose operator is one of the 14: what the table is read for. */
export interface ParsedCondition {
	label: string;
	column: string;
	op: string;
	value: unknown;
}

/** One condition as the platform's FilterRequest holds it. */
export interface FilterCondition {
	colId: string;
	opr: string;
	value: string;
}

/** Record fields every table has: a condition on them needs no columns (Created At, Updated At, _id). */
export const isRecordField = (id: string) => DATE_FIELDS.includes(id) || id === '_id';

/** Whether reading these conditions needs the table's columns: one of them is on a column of the table. */
export const needsColumns = (parsed: ParsedCondition[]) =>
	parsed.some((p) => !isRecordField(p.column));

/** A condition's column and operator, read without the table (an operator Is Equal To when none is given), or what is wrong. */
export function parseCondition(
	c: ConditionInput,
	label: string,
): ParsedCondition | ConditionProblem {
	const column = String(c.column ?? '').trim();
	const op = String(c.operator ?? 'eq').trim();
	if (!column) return { problem: `${label} has no column`, hint: 'Choose the column to compare.' };
	return operatorProblem(op, column, label) ?? { label, column, op, value: c.value };
}

/**
 * The column of the table a condition (or a sort, a referenced column) names, by its name or ID
 * (findColumn), or what is wrong: the table's columns, each with its type and options when the
 * conditions came as JSON (a model reads them back).
 */
export function tableColumn(
	table: PlatformTable,
	nameOrId: string,
	label: string,
	json: boolean,
): TableColumn | ConditionProblem {
	const col = findColumn(table, nameOrId);
	if (col) return col;
	const list = json
		? [...columnKeys(table)].map(
				([c, n]) => `${n} (${c.type}${c.options?.length ? `: ${optionNames(c)}` : ''})`,
			)
		: [...columnKeys(table).values()];
	return {
		problem: `${label}: column "${clip(nameOrId, 60)}" is not in table "${clip(String(table.name ?? table._id), 60)}"`,
		hint: list.length
			? `The table's columns are: ${list.join(', ')}${json ? ', and the record fields createdAt, updatedAt, _id' : ''}.`
			: 'The platform listed no columns for this table: check the table in the platform, or pick another one.',
	};
}

/**
 * A parsed condition as the platform filters by it: its column found in `table` (undefined only
 * when no condition needs the columns: needsColumns) and its value read for that column
 * (readConditionValue), or what is wrong.
 */
export function filterCondition(
	p: ParsedCondition,
	table: PlatformTable | undefined,
	timeZone: string,
	json = false,
): { ok: FilterCondition } | ConditionProblem {
	let col: TableColumn | undefined;
	if (!isRecordField(p.column)) {
		const found = tableColumn(table!, p.column, p.label, json);
		if ('problem' in found) return found;
		col = found;
	}
	const colId = col ? col.id : p.column;
	const read = readConditionValue(col, colId, p.op, p.value, p.label, timeZone);
	return 'problem' in read ? read : { ok: { colId, opr: p.op, value: read.ok } };
}
