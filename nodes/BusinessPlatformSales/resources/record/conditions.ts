/** Record → Search: the conditions (FilterCondition) in plain words, read with condition-value.ts (which the Table Trigger reads its conditions with too) against the table's columns. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Field, OpContext } from '../../../shared/engine/model';
import { options } from '../../../shared/engine/fields';
import { type TableColumn, tableFor } from '../../common/tables';
import {
	type ConditionProblem,
	filterCondition,
	isRecordField,
	needsColumns,
	OPERATORS,
	parseCondition,
	tableColumn,
} from './condition-value';
import { tableIdFor } from './fields';
import { type ConditionInput, conditionsFromJson, forModel } from './json-input';
import { listOf } from './values';

/** A condition's column (the chosen table's columns, with the record dates) and operator: also the Table Trigger's. */
export const CONDITION_COLUMN: INodeProperties = {
	displayName: 'Column Name or ID',
	name: 'column',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getFilterColumns', loadOptionsDependsOn: ['tableId.value'] },
	default: '',
	description:
		'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
};

export const CONDITION_OPERATOR: INodeProperties = {
	displayName: 'Operator',
	name: 'operator',
	type: 'options',
	options: options(OPERATORS),
	default: 'eq',
};

/** How the conditions are given: one by one (the default, which saved workflows keep), or one JSON value a model or an expression can fill. */
export const conditionsInputField: Field = {
	property: {
		displayName: 'Conditions Input',
		name: 'conditionsInput',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Add Each Condition',
				value: 'list',
				description: 'Add the conditions one by one below',
			},
			{
				name: 'From JSON',
				value: 'json',
				description:
					'One JSON list of conditions, which an AI model or an expression can fill for any table',
			},
		],
		default: 'list',
		builderHint: {
			propertyHint:
				'Use "json" when an AI model or an expression gives the conditions (any table, columns by name).',
		},
	},
};

export const conditionsJsonField: Field = {
	property: {
		displayName: 'Conditions (JSON)',
		name: 'conditionsJson',
		type: 'json',
		default: '[]',
		displayOptions: { show: { conditionsInput: ['json'] } },
		placeholder: '[{"column": "Status", "operator": "eq", "value": "Won"}]',
		builderHint: {
			propertyHint:
				'A JSON list of {column, operator, value}, e.g. [{"column": "Status", "operator": "eq", "value": "Won"}, {"column": "Amount", "operator": "gt", "value": 1000}]; for an AI Agent tool, $fromAI(\'conditions\', …, \'json\').',
		},
		description:
			'The conditions as a JSON list of {"column": …, "operator": …, "value": …}, such as [{"column": "Status", "operator": "eq", "value": "Won"}, {"column": "Amount", "operator": "gt", "value": 1000}], or an object {"Status": "Won"} (equals). Operators: eq, neq, gt, gte, lt, lte, c (contains), nc, sw (starts with), ew, in, nin (values separated by commas), emp (is empty), nemp; or their names such as "Greater Than". Empty: every record.',
	},
};

export const filtersField: Field = {
	property: {
		displayName: 'Conditions',
		name: 'filters',
		displayOptions: { hide: { conditionsInput: ['json'] } },
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Condition',
		default: {},
		options: [
			{
				displayName: 'Condition',
				name: 'conditions',
				values: [
					CONDITION_COLUMN,
					CONDITION_OPERATOR,
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						displayOptions: { hide: { operator: ['emp', 'nemp'] } },
						description:
							'Value to compare with. For Is One Of and Is Not One Of: values separated by commas. Select columns take option names, user columns user IDs, date columns dates such as 2026-03-01.',
					},
				],
			},
		],
	},
};

// ------------------------------------------------------------- search -----

/** An operator as a model may write it: its code (eq), its name (Greater Than) or a sign (>). */
const SIGNS: Record<string, string> = {
	'=': 'eq',
	'==': 'eq',
	'!=': 'neq',
	'<>': 'neq',
	'>': 'gt',
	'>=': 'gte',
	'<': 'lt',
	'<=': 'lte',
};
function operatorCode(op: string): string {
	const text = op.trim();
	const lower = text.toLowerCase();
	return (
		SIGNS[text] ??
		OPERATORS.find(([name, code]) => code === lower || name.toLowerCase() === lower)?.[1] ??
		text
	);
}

/** The item's conditions: from the Conditions list, or, with Conditions Input "From JSON", from one JSON value. */
function conditionsOfItem(ctx: OpContext): { raw: ConditionInput[]; json: boolean } {
	if (ctx.param<string>('conditionsInput', 'list') === 'json')
		return {
			raw: conditionsFromJson(ctx.param('conditionsJson'), ctx).map((c) => ({
				...c,
				operator: operatorCode(String(c.operator ?? 'eq')),
			})),
			json: true,
		};
	return {
		raw:
			((ctx.param<IDataObject>('filters', {}) ?? {}).conditions as ConditionInput[] | undefined) ??
			[],
		json: false,
	};
}

export async function prepareSearch(
	req: { body: IDataObject; qs: IDataObject },
	ctx: OpContext,
	withoutTable = false,
): Promise<void> {
	const { raw, json } = conditionsOfItem(ctx);
	try {
		await prepareConditions(req, ctx, raw, json, withoutTable);
	} catch (e) {
		throw json ? forModel(e, ctx) : e;
	}
}

/** Search's `check`: the conditions checked as far as they can be without the table's columns (all of them when none needs the table). */
export const checkConditions = async (ctx: OpContext) =>
	await prepareSearch({ body: {}, qs: {} }, ctx, true);

async function prepareConditions(
	req: { body: IDataObject; qs: IDataObject },
	ctx: OpContext,
	raw: ConditionInput[],
	json: boolean,
	withoutTable: boolean,
): Promise<void> {
	// Checks that need no table first, so a condition left incomplete fails without any request.
	const fail = (p: ConditionProblem) => ctx.fail(p.problem, p.hint);
	const parsed = raw.map((c, i) => {
		const p = parseCondition(c, `Condition ${i + 1}`);
		if ('problem' in p) throw fail(p);
		return p;
	});
	const opts = (ctx.param<IDataObject>('options', {}) ?? {}) as IDataObject;
	const sortCol = String(opts.sortColumn ?? '').trim();
	const refColumns = Array.isArray(opts.refColumns)
		? (opts.refColumns as unknown[]).map(String)
		: typeof opts.refColumns === 'string'
			? listOf(opts.refColumns).map(String)
			: [];

	const needsTable =
		needsColumns(parsed) ||
		(sortCol && !isRecordField(sortCol)) ||
		(refColumns.length > 0 && opts.fetchAllRef !== true);
	if (withoutTable && needsTable) return;
	const table = needsTable ? await tableFor(ctx, await tableIdFor(ctx)) : undefined;
	const columnIn = (nameOrId: string, label: string): TableColumn => {
		const col = tableColumn(table!, nameOrId, label, json);
		if ('problem' in col) throw fail(col);
		return col;
	};

	const timeZone = ctx.fn.getTimezone();
	req.body.conditions = parsed.map((p) => {
		const read = filterCondition(p, table, timeZone, json);
		if ('problem' in read) throw fail(read);
		return read.ok;
	});
	if (sortCol) req.qs.sortCol = isRecordField(sortCol) ? sortCol : columnIn(sortCol, 'Sort By').id;
	if (opts.fetchAllRef === true) req.qs.fetchAllRef = true;
	else if (refColumns.length) {
		req.qs.colIdsToFetchRef = refColumns
			.map((r) => {
				const col = columnIn(r, 'Referenced Columns');
				if (col.type !== 'ref')
					throw ctx.fail(
						`Referenced Columns: "${col.name}" is not a ref column`,
						'Only columns that point at records of another table can be fetched along.',
					);
				return col.id;
			})
			.join(',');
	}
}
