/**
 * Record: cells on the wire (keyed by short column ids, select options as ids) and for
 * people (keyed by column names, options by name), both ways, checking every value
 * against its column before anything is written.
 */
import type { IDataObject } from 'n8n-workflow';

import type { OpContext } from '../../../shared/engine/model';
import {
	DATE_TIME_FORMS,
	echo,
	ExactNumber,
	holdsExactNumber,
	readJson,
} from '../../../shared/text-readers';
import {
	columnKeys,
	columnsOf,
	findColumn,
	type PlatformTable,
	type TableColumn,
	tableFor,
	TABLES_PATH,
} from '../../common/tables';
import { tableIdFor } from './fields';
import { mapperEntries } from './input-checks';
import { cellsFromJson, cut, forModel } from './json-input';
import {
	dateValue,
	findOption,
	instantIso,
	isBlank,
	listOf,
	optionNames,
	shown,
	toBoolean,
} from './values';

/** A JSON cell: JSON text read strictly (shared/text-readers.ts), or the value as an expression gave it. */
function parseJsonCell(value: unknown, label: string, ctx: OpContext): unknown {
	let parsed = value;
	if (typeof value === 'string') {
		const read = readJson(value);
		if ('problem' in read)
			throw ctx.fail(
				`${label} ${read.problem}`,
				'Write JSON such as {"key": "value"}, or use an expression that returns an object.',
			);
		parsed = read.ok;
	}
	if (holdsExactNumber(parsed))
		throw ctx.fail(
			`${label} holds a number past 2^53, which JSON cannot carry exactly`,
			'Write that number in quotes, as text.',
		);
	return parsed;
}

/** A number that cannot be kept exactly (an integer past 2^53, from JSON text, a text or an expression), as given; else undefined. */
function inexact(value: unknown): unknown {
	if (value instanceof ExactNumber) return value;
	if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value))
		return value;
	if (
		typeof value === 'string' &&
		/^\s*[-+]?[0-9]+\s*$/.test(value) &&
		!Number.isSafeInteger(Number(value))
	)
		return value;
	return undefined;
}

/** One cell as the platform stores it, or an error naming the column. */
function encodeCell(col: TableColumn, key: string, value: unknown, ctx: OpContext): unknown {
	const label = `Column "${key}"`;
	switch (col.type) {
		case 'text':
		case 'string':
		case 'email':
		case 'phone':
			return textCell(label, value, ctx);
		case 'number':
			return numberCell(label, value, ctx);
		case 'boolean': {
			const b = toBoolean(value);
			if (b === undefined) throw ctx.fail(`${label} takes true or false, got ${shown(value)}`);
			return b;
		}
		case 'date': {
			const read = dateValue(value, ctx);
			if ('problem' in read)
				throw ctx.fail(
					`${label} takes a date, got ${shown(value)} (${read.problem})`,
					`Write it as ${DATE_TIME_FORMS}.`,
				);
			return read.ok;
		}
		case 'select':
		case 'multi-select':
			return optionCells(col, label, value, ctx);
		case 'user':
		case 'ref':
			return idCells(col.type, label, value, ctx);
		case 'json':
			return parseJsonCell(value, label, ctx);
		case 'json_array': {
			const parsed = parseJsonCell(value, label, ctx);
			if (!Array.isArray(parsed))
				throw ctx.fail(
					`${label} takes a JSON array, got ${shown(parsed)}`,
					'Write a JSON array such as [{"sku": "A-1"}].',
				);
			return parsed;
		}
		default:
			return value;
	}
}

/** A text cell: text as it is, a number or boolean as text, a date as its ISO text; a number JSON text gave past 2^53 as written. */
function textCell(label: string, value: unknown, ctx: OpContext): string {
	if (typeof value === 'string') return value;
	if (value instanceof ExactNumber) return value.text;
	if (typeof value === 'number' && inexact(value) !== undefined)
		throw ctx.fail(
			`${label}: the number ${value} is past 2^53, and the expression that gave it rounded it already`,
			'Give it as text: in quotes, or with .toString() on what holds the digits.',
		);
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	const iso = instantIso(value);
	if (iso !== undefined) return iso;
	throw ctx.fail(`${label} takes text, got ${shown(value)}`, 'Give plain text.');
}

/** A number cell: a finite number, or a text that is one; one that cannot be kept exactly (past 2^53) is refused. */
function numberCell(label: string, value: unknown, ctx: OpContext): number {
	const big = inexact(value);
	if (big !== undefined)
		throw ctx.fail(
			`${label}: ${echo(big)} is past 2^53, which a number column cannot hold exactly`,
			'Give a smaller number, or keep the digits in a text column (written in quotes).',
		);
	const n =
		typeof value === 'number'
			? value
			: typeof value === 'string' && value.trim() !== ''
				? Number(value.trim())
				: NaN;
	if (!Number.isFinite(n))
		throw ctx.fail(
			`${label} takes a number, got ${shown(value)}`,
			'Give a number such as 42 or 3.5.',
		);
	return n;
}

/** A select or multi-select cell: the option IDs of the names or IDs given (one for a select). */
function optionCells(col: TableColumn, label: string, value: unknown, ctx: OpContext): unknown[] {
	const ids = listOf(value, (s) => findOption(col, s) !== undefined).map((v) => {
		const option = findOption(col, v);
		if (!option)
			throw ctx.fail(`${label} has no option ${shown(v)}`, `Allowed options: ${optionNames(col)}.`);
		return option.id;
	});
	const unique = [...new Set(ids)];
	if (col.type === 'select' && unique.length > 1)
		throw ctx.fail(
			`${label} takes one option, got ${unique.length}`,
			`Choose one of: ${optionNames(col)}.`,
		);
	return unique;
}

/** A user cell (user IDs, whole numbers) or a ref cell (record IDs of the referenced table). */
function idCells(type: 'user' | 'ref', label: string, value: unknown, ctx: OpContext): unknown[] {
	if (type === 'user')
		return listOf(value).map((v) => {
			const text = String(v).trim();
			if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
				throw ctx.fail(
					`${label} takes user IDs (whole numbers), got ${shown(v)}`,
					'Give user IDs separated by commas, for example 101, 103.',
				);
			return Number(text);
		});
	return listOf(value).map((v) => {
		if (typeof v !== 'string' && typeof v !== 'number')
			throw ctx.fail(
				`${label} takes record IDs, got ${shown(v)}`,
				'Give IDs of records of the referenced table, separated by commas.',
			);
		return String(v).trim();
	});
}

/** A stored cell for people: option names instead of ids (one name for a select). */
function decodeCell(col: TableColumn, value: unknown): unknown {
	if (value === undefined) return null;
	if (col.type === 'select' || col.type === 'multi-select') {
		const names = (Array.isArray(value) ? value : [value]).map(
			(id) => (col.options ?? []).find((o) => o.id === id)?.name ?? id,
		);
		return col.type === 'select' ? (names[0] ?? null) : names;
	}
	return value;
}

/** Record keys that a column's name never replaces in the output. */
const RECORD_KEYS: ReadonlySet<string> = new Set([
	'_id',
	'cells',
	'createdAt',
	'updatedAt',
	'createdBy',
	'permissions',
	'refData',
]);

/** A record with its cells also under their column names (every column, null when empty). */
export function recordByName(record: IDataObject, table: PlatformTable): IDataObject {
	const cells =
		record.cells !== null && typeof record.cells === 'object' ? (record.cells as IDataObject) : {};
	const named: IDataObject = {};
	for (const [col, key] of columnKeys(table)) {
		if (RECORD_KEYS.has(key)) continue;
		named[key] = decodeCell(col, cells[col.id]) as IDataObject[string];
	}
	const { _id, ...rest } = record;
	return { _id, ...named, ...rest };
}

export async function shape(record: IDataObject, ctx: OpContext): Promise<IDataObject> {
	if (!ctx.param<boolean>('cellsByName', true)) return record;
	return recordByName(record, await tableFor(ctx, await tableIdFor(ctx)));
}

/** Sets an own property, whatever its name (`__proto__` included): the cells object never gains a prototype. */
const setCell = (cells: IDataObject, key: string, value: unknown) =>
	Object.defineProperty(cells, key, {
		value,
		enumerable: true,
		writable: true,
		configurable: true,
	});

/**
 * The cells of a create or update: from the Columns mapper, or, with Cells "From JSON",
 * from one JSON value (keyed by column name, or a list of {column, value}). Both are
 * checked the same way (cellsFromEntries).
 */
export async function cellsOfItem(ctx: OpContext, mode: 'create' | 'update'): Promise<IDataObject> {
	if (ctx.param<string>('cellsInput', 'mapper') !== 'json') return await cellsFromMapper(ctx, mode);
	try {
		return await cellsFromEntries(ctx, mode, cellsFromJson(ctx.param('cellsJson'), ctx), 'json');
	} catch (e) {
		throw forModel(e, ctx);
	}
}

/** The cells from the Columns mapper (as set by hand, or mapped from the input item). */
async function cellsFromMapper(ctx: OpContext, mode: 'create' | 'update'): Promise<IDataObject> {
	const { entries, auto } = mapperEntries(ctx);
	return await cellsFromEntries(ctx, mode, entries, auto ? 'auto' : 'mapper');
}

/** How a column reads for a model: its name, type, and whether required; a select's options. */
const describeColumn = (col: TableColumn, name: string) =>
	`${name} (${col.type}${col.required ? ', required' : ''}${col.type === 'select' || col.type === 'multi-select' ? `: ${optionNames(col)}` : ''})`;

/**
 * Cells keyed by column id, select options as ids, every value checked against its
 * column's type. `auto` (Map Automatically) leaves out what is no column or not editable;
 * the mapper and JSON refuse it, naming the column and the table's columns.
 */
async function cellsFromEntries(
	ctx: OpContext,
	mode: 'create' | 'update',
	entries: Array<[string, unknown]>,
	from: 'mapper' | 'auto' | 'json',
): Promise<IDataObject> {
	const auto = from === 'auto';
	const clearEmpty =
		mode === 'update' && ctx.param<IDataObject>('options', {})?.clearEmpty === true;
	const table = await tableFor(ctx, await tableIdFor(ctx));
	const keys = columnKeys(table);
	const columnList = () =>
		(from === 'json'
			? [...keys].filter(([c]) => c.editable !== false).map(([c, n]) => describeColumn(c, n))
			: [...keys.values()]
		).join(', ');
	const cells: IDataObject = {};
	const given = new Map<TableColumn, string>();
	for (const [key, value] of entries) {
		const col = findColumn(table, key);
		if (!col) {
			if (auto) continue; // input fields that are not columns are left out
			throw ctx.fail(
				`Column "${cut(key)}" is not in table "${cut(String(table.name ?? table._id))}"`,
				columnList()
					? `The table's columns are: ${columnList()}.${from === 'json' ? '' : ' If the table changed, refresh the column list.'}`
					: 'The platform listed no columns for this table: check the table in the platform, or pick another one.',
			);
		}
		const name = keys.get(col)!;
		if (from === 'json' && given.has(col))
			throw ctx.fail(
				`Column "${name}" is given twice ("${cut(given.get(col)!)}" and "${cut(key)}")`,
				'Give each column once.',
			);
		given.set(col, key);
		if (col.editable === false) {
			if (auto) continue;
			throw ctx.fail(
				`Column "${name}" cannot be changed`,
				`The platform marks this column as not editable: remove it from ${from === 'json' ? 'the cells' : 'Columns'}.`,
			);
		}
		if (isBlank(value)) {
			if (!clearEmpty) continue;
			if (col.required)
				throw ctx.fail(
					`Column "${name}" is required and cannot be cleared`,
					'Give it a value, or remove it from Columns.',
				);
			setCell(cells, col.id, null);
			continue;
		}
		setCell(cells, col.id, encodeCell(col, name, value, ctx));
	}
	if (mode === 'create') {
		const missing = columnsOf(table).filter(
			(c) => c.required && c.editable !== false && isBlank(cells[c.id]),
		);
		if (missing.length)
			throw ctx.fail(
				`Column${missing.length > 1 ? 's' : ''} ${missing.map((c) => `"${keys.get(c)}"`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} required`,
				'Give every required column a value.',
			);
	} else if (Object.keys(cells).length === 0) {
		throw ctx.fail(
			'Nothing to update',
			from === 'json'
				? 'Give at least one column with a value in the cells.'
				: 'Add at least one column with a value under "Columns".',
		);
	}
	return cells;
}

const answerRecord = (answer: unknown): IDataObject | undefined => {
	const a = answer as IDataObject | undefined;
	if (a && typeof a.data === 'object' && a.data !== null && !Array.isArray(a.data))
		return a.data as IDataObject;
	return undefined;
};

/** The record after a write: from the answer's data, else read back. */
export async function writtenRecord(
	answer: unknown,
	ctx: OpContext,
	fallbackId?: string,
): Promise<IDataObject> {
	const data = answerRecord(answer);
	if (data) return await shape(data, ctx);
	const id = String((answer as IDataObject | undefined)?.id ?? fallbackId ?? '');
	const record = await ctx.request<IDataObject>({
		method: 'GET',
		path: `${TABLES_PATH}/${encodeURIComponent(await tableIdFor(ctx))}/record/${encodeURIComponent(id)}`,
		regional: true,
	});
	return await shape(record, ctx);
}
