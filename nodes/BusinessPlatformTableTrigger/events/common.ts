/**
 * What the Table Trigger's events share: the table (picker), the record conditions the
 * platform filters by (FilterRequest), and the record list sorted by a record date, newest first
 * (POST /v1/crm/core/table/{tableId}/paged-record).
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import {
	type ConditionProblem,
	operatorProblem,
	readConditionValue,
} from '../../BusinessPlatformSales/resources/record/condition-value';
import {
	CONDITION_COLUMN,
	CONDITION_OPERATOR,
} from '../../BusinessPlatformSales/resources/record/conditions';
import { TABLES_PATH } from '../../BusinessPlatformSales/common/tables';
import { locator } from '../../shared/engine/fields';
import type { ParamReader, PollList } from '../../shared/polling/model';

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
							'Value as the platform stores it: select columns hold option IDs, user columns user IDs, date columns ISO dates. Several values (Is One Of): separated by commas.',
					},
				],
			},
		],
	},
];

/**
 * The conditions as the platform's FilterCondition list (rows without a column are left out),
 * each read as Record → Search reads it (condition-value.ts): the columns are not read, so a record
 * date compares as a date-time, any other column's value as written; a value Search refuses fails
 * the poll with Search's words.
 */
function conditionsOf(param: ParamReader): IDataObject[] {
	const raw = param('conditions', {}) as { condition?: unknown };
	const rows = Array.isArray(raw?.condition) ? (raw.condition as IDataObject[]) : [];
	const dated = param.dated;
	const fail = (p: ConditionProblem) =>
		dated ? dated.fail(p.problem, p.hint) : new ApplicationError(p.problem);
	return rows
		.filter(
			(r) => r && typeof r === 'object' && typeof r.column === 'string' && r.column.trim() !== '',
		)
		.map((r, i) => {
			const colId = String(r.column).trim();
			const opr = String(r.operator ?? 'eq').trim();
			const label = `Condition ${i + 1}`;
			const read =
				operatorProblem(opr, colId, label) ??
				readConditionValue(undefined, colId, opr, r.value, label, dated?.fn.getTimezone() ?? 'UTC');
			if ('problem' in read) throw fail(read);
			return { colId, opr, value: read.ok };
		});
}

/** The records of the chosen table, sorted by `column` (createdAt or updatedAt), newest first. */
export function recordList(column: 'createdAt' | 'updatedAt', param: ParamReader): PollList {
	const tableId = String(param('tableId', '') ?? '').trim();
	const match = param('match', 'and') === 'or' ? 'or' : 'and';
	return {
		request: {
			method: 'POST',
			path: `${TABLES_PATH}/${encodeURIComponent(tableId)}/paged-record`,
			qs: { sortCol: column, sortDir: -1 },
			body: { logicalOperator: match, conditions: conditionsOf(param) },
			regional: true,
			// Reading a page changes nothing: a dropped connection may be retried.
			idempotent: true,
		},
		style: 'records',
		newestFirst: true,
	};
}
