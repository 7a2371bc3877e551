/**
 * What the Table Trigger's events share: the table (picker), the record conditions the
 * platform filters by (FilterRequest), and the record list sorted by a record date, newest first
 * (POST /v1/crm/core/table/{tableId}/paged-record).
 */
import type { INodeProperties } from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import {
	type ConditionProblem,
	type FilterCondition,
	filterCondition,
	needsColumns,
	type ParsedCondition,
	parseCondition,
} from '../../BusinessPlatformSales/resources/record/condition-value';
import {
	CONDITION_COLUMN,
	CONDITION_OPERATOR,
} from '../../BusinessPlatformSales/resources/record/conditions';
import {
	type PlatformTable,
	scopeTable,
	TABLES_PATH,
} from '../../BusinessPlatformSales/common/tables';
import { locator } from '../../shared/engine/fields';
import type { ParamReader, PollList } from '../../shared/polling/model';
import type { ApiRequest } from '../../shared/transport';

export const TABLE_FIELDS: INodeProperties[] = [
	locator({
		name: 'tableId',
		displayName: 'Table',
		search: 'searchTables',
		numeric: false,
		placeholder: 'e.g. 65f1c0ffee0123456789abcd',
		description: 'The table whose records start the workflow',
	}),
	{
		displayName: 'Match',
		name: 'match',
		type: 'options',
		options: [
			{ name: 'All Conditions', value: 'and' },
			{ name: 'Any Condition', value: 'or' },
		],
		default: 'and',
		description:
			'Whether a record must meet every condition or one of them. The platform applies the conditions.',
	},
	{
		displayName: 'Conditions',
		name: 'conditions',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Condition',
		default: {},
		description:
			'Only records that meet these conditions (the platform filters them). None: every record of the table.',
		options: [
			{
				displayName: 'Condition',
				name: 'condition',
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
							'Value to compare with, read as Record → Search reads it. For Is One Of and Is Not One Of: values separated by commas. Select columns take option names (or IDs), user columns user IDs, date columns dates such as 2026-03-01.',
					},
				],
			},
		],
	},
];

/** How a refused condition fails the poll: with the poll's error (n8n shows it), Search's words. */
const failure = (param: ParamReader) => (p: ConditionProblem) =>
	param.dated ? param.dated.fail(p.problem, p.hint) : new ApplicationError(p.problem);

/**
 * The rows of Conditions, read without the table as Record → Search reads its own (condition-value.ts
 * parseCondition): a row left without a column is left out, each other is named by its place in the
 * list ("Condition 2"); an unknown operator fails the poll.
 */
function parsedConditions(param: ParamReader): ParsedCondition[] {
	const raw = param('conditions', {}) as { condition?: unknown };
	const rows: unknown[] = Array.isArray(raw?.condition) ? raw.condition : [];
	const parsed: ParsedCondition[] = [];
	for (const [i, row] of rows.entries()) {
		if (!row || typeof row !== 'object') continue;
		const r = row as { column?: unknown; operator?: unknown; value?: unknown };
		if (String(r.column ?? '').trim() === '') continue;
		const p = parseCondition(r, `Condition ${i + 1}`);
		if ('problem' in p) throw failure(param)(p);
		parsed.push(p);
	}
	return parsed;
}

/**
 * The records of the chosen table, sorted by `column` (createdAt or updatedAt), newest first,
 * filtered by the platform with the conditions as Record → Search sends them (condition-value.ts
 * filterCondition): a condition on a column of the table needs the table's columns, so the list
 * is prepared with them (one GET of the table per poll, after the poll took its turn: PollList
 * prepare); conditions only on Created At, Updated At and _id are read at once. A condition Search
 * refuses fails the poll with Search's words.
 */
export function recordList(column: 'createdAt' | 'updatedAt', param: ParamReader): PollList {
	const tableId = String(param('tableId', '') ?? '').trim();
	const match = param('match', 'and') === 'or' ? 'or' : 'and';
	const parsed = parsedConditions(param);
	const timeZone = param.dated?.fn.getTimezone() ?? 'UTC';
	const conditions = (table?: PlatformTable): FilterCondition[] =>
		parsed.map((p) => {
			const read = filterCondition(p, table, timeZone);
			if ('problem' in read) throw failure(param)(read);
			return read.ok;
		});
	const request = (filter?: FilterCondition[]): ApiRequest => ({
		method: 'POST',
		path: `${TABLES_PATH}/${encodeURIComponent(tableId)}/paged-record`,
		qs: { sortCol: column, sortDir: -1 },
		// Until prepared, no body: a list still to prepare is never read (read.ts).
		body: filter && { logicalOperator: match, conditions: filter },
		regional: true,
		// Reading a page changes nothing: a dropped connection may be retried.
		idempotent: true,
	});
	const list = { style: 'records' as const, newestFirst: true };
	if (!needsColumns(parsed)) return { ...list, request: request(conditions()) };
	return {
		...list,
		request: request(),
		prepare: async (scope) => request(conditions(await scopeTable(scope, tableId))),
	};
}
