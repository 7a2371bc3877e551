/**
 * Record: cells and search conditions given as one JSON value ("From JSON"), as a model
 * or an expression gives them, read into the same shape as the Columns mapper and the
 * Conditions list so that the same checks apply. Hostile JSON (text that is no JSON, a
 * scalar, prototype keys, a key twice, entries that are no objects) is refused with an
 * error that says what is wrong and what to give instead.
 */
import { NodeOperationError } from 'n8n-workflow';

import type { OpContext } from '../../../shared/engine/model';
import { isPlainObject, readJson } from '../../../shared/text-readers';
import { shown } from './values';

/** A name or value as it may appear in an error: cut, so a huge key cannot flood the message. */
export const cut = (text: string, max = 60) =>
	text.length > max ? `${text.slice(0, max)}…` : text;

const kind = (v: unknown) =>
	v === null
		? 'null'
		: Array.isArray(v)
			? 'a list'
			: typeof v === 'object'
				? 'an object'
				: `a ${typeof v}`;

function parse(value: unknown, label: string, example: string, ctx: OpContext): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	const read = readJson(value);
	if ('problem' in read)
		throw ctx.fail(`${label} ${read.problem}`, `Write JSON such as ${example}.`);
	return read.ok;
}

/** Own enumerable entries only (a parsed `__proto__` key is an own key; nothing inherited is read). */
const ownEntries = (o: object): Array<[string, unknown]> =>
	Object.keys(o).map((k) => [k, (o as Record<string, unknown>)[k]]);

const CELLS_EXAMPLE =
	'{"Name": "Ada Lovelace", "Status": "Won"} or [{"column": "Name", "value": "Ada Lovelace"}]';

/**
 * The cells of "From JSON": an object keyed by column name (or ID), or a list of
 * {column, value}. Returns [column, value] pairs in the order given.
 */
export function cellsFromJson(value: unknown, ctx: OpContext): Array<[string, unknown]> {
	const label = 'Cells (JSON)';
	const parsed = parse(value, label, CELLS_EXAMPLE, ctx);
	if (parsed === undefined || parsed === null)
		throw ctx.fail(`${label} is empty`, `Give the cells as ${CELLS_EXAMPLE}.`);
	if (Array.isArray(parsed)) {
		return parsed.map((entry, i) => {
			const at = `${label}, entry ${i + 1}`;
			if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
				throw ctx.fail(
					`${at} is ${kind(entry)}, not {"column": …, "value": …}`,
					`Give the cells as ${CELLS_EXAMPLE}.`,
				);
			const e = entry as Record<string, unknown>;
			const extra = Object.keys(e).filter((k) => k !== 'column' && k !== 'value');
			if (extra.length)
				throw ctx.fail(
					`${at} has unknown key${extra.length > 1 ? 's' : ''} ${extra.map((k) => `"${cut(k)}"`).join(', ')}`,
					'Each entry has only "column" and "value".',
				);
			if (
				!Object.prototype.hasOwnProperty.call(e, 'column') ||
				typeof e.column !== 'string' ||
				e.column.trim() === ''
			)
				throw ctx.fail(
					`${at} has no column name`,
					'Give "column" as the column’s name or ID (text).',
				);
			return [e.column, e.value] as [string, unknown];
		});
	}
	if (typeof parsed !== 'object')
		throw ctx.fail(
			`${label} is ${kind(parsed)} (${shown(parsed)}), not an object keyed by column name`,
			`Give the cells as ${CELLS_EXAMPLE}.`,
		);
	return ownEntries(parsed);
}

export interface ConditionInput {
	column?: unknown;
	operator?: unknown;
	value?: unknown;
}

const CONDITIONS_EXAMPLE =
	'[{"column": "Status", "operator": "eq", "value": "Won"}, {"column": "Amount", "operator": "gt", "value": 1000}], or {"Status": "Won", "Amount": {"gt": 1000}, "Label": ["Hot lead", "Customer"]}';

/**
 * The conditions of "From JSON": a list of {column, operator, value} (operator as the
 * platform's code, such as eq, or its name, such as Greater Than; equals when left out), or an
 * object keyed by column: a value (equals), a list of values (in: any of them), or an object of
 * operators and values ({"gt": 1000, "lt": 2000}: each a condition).
 */
export function conditionsFromJson(value: unknown, ctx: OpContext): ConditionInput[] {
	const label = 'Conditions (JSON)';
	const parsed = parse(value, label, CONDITIONS_EXAMPLE, ctx);
	if (parsed === undefined || parsed === null) return [];
	if (Array.isArray(parsed)) {
		return parsed.map((entry, i) => {
			const at = `${label}, entry ${i + 1}`;
			if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
				throw ctx.fail(
					`${at} is ${kind(entry)}, not {"column": …, "operator": …, "value": …}`,
					`Give the conditions as ${CONDITIONS_EXAMPLE}.`,
				);
			const e = entry as Record<string, unknown>;
			const extra = Object.keys(e).filter(
				(k) => k !== 'column' && k !== 'operator' && k !== 'value',
			);
			if (extra.length)
				throw ctx.fail(
					`${at} has unknown key${extra.length > 1 ? 's' : ''} ${extra.map((k) => `"${cut(k)}"`).join(', ')}`,
					'Each entry has only "column", "operator" and "value".',
				);
			if (typeof e.column !== 'string' || e.column.trim() === '')
				throw ctx.fail(
					`${at} has no column name`,
					'Give "column" as the column’s name or ID (text).',
				);
			if (e.operator !== undefined && typeof e.operator !== 'string')
				throw ctx.fail(
					`${at} has an operator that is not text`,
					'Give "operator" as a code such as "eq" or "gt".',
				);
			return { column: e.column, operator: e.operator ?? 'eq', value: e.value };
		});
	}
	if (typeof parsed !== 'object')
		throw ctx.fail(
			`${label} is ${kind(parsed)} (${shown(parsed)}), not a list of conditions`,
			`Give the conditions as ${CONDITIONS_EXAMPLE}.`,
		);
	return ownEntries(parsed).flatMap(([column, v]): ConditionInput[] => {
		if (Array.isArray(v)) return [{ column, operator: 'in', value: v }];
		if (!isPlainObject(v)) return [{ column, operator: 'eq', value: v }];
		const operators = ownEntries(v);
		if (operators.length === 0)
			throw ctx.fail(
				`${label}: column "${cut(column)}" is given an empty object`,
				`Give a value (equals), a list of values (any of them), or operators such as {"gt": 1000} or {"contains": "en"}: ${CONDITIONS_EXAMPLE}.`,
			);
		return operators.map(([operator, operand]) => ({ column, operator, value: operand }));
	});
}

/**
 * n8n-internals 9 (nodes/shared/n8n-internals/index.ts). Relies on: n8n's AI Agent hands the model
 * `[{"error": "<the error's message>"}]` for a failed tool node, without the error's description
 * (the MCP Server Trigger adds it as "Details"). Buys: for input a model wrote, the message carries
 * the description too (the valid columns with their types and options, the allowed options), so the
 * model can correct itself in its next step. When it does not hold (the description reaches the
 * model too), the model reads it twice: no harm. Pinned by test/e2e/ai-tools.e2e.test.ts (the table
 * agent reads the columns from the error, on n8n 2.41.1 and 1.123.81).
 */
export function forModel(e: unknown, ctx: OpContext): unknown {
	if (!(e instanceof NodeOperationError) || !e.description) return e;
	if (e.message.includes(e.description)) return e;
	return ctx.fail(`${e.message.replace(/\.$/, '')}. ${e.description}`, e.description);
}
