/**
 * What the Table Trigger's events share: the table (picker), the record conditions the
 * platform filters by (FilterRequest), and the record list sorted by a record date, newest first
 * (POST /v1/crm/core/table/{tableId}/paged-record).
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

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

const RECORD_DATES: ReadonlySet<string> = new Set(['createdAt', 'updatedAt']);
const LISTS: ReadonlySet<string> = new Set(['in', 'nin', 'emp', 'nemp']);

/** The conditions as the platform's FilterCondition list (rows without a column are left out). */
function conditionsOf(param: ParamReader): IDataObject[] {
	const raw = param('conditions', {}) as { condition?: unknown };
	const rows = Array.isArray(raw?.condition) ? (raw.condition as IDataObject[]) : [];
	return rows
		.filter(
			(r) => r && typeof r === 'object' && typeof r.column === 'string' && r.column.trim() !== '',
		)
		.map((r, i) => {
			const colId = String(r.column).trim();
			const opr = String(r.operator ?? 'eq');
			const value = r.value === undefined || r.value === null ? '' : r.value;
			// A record date (Created At, Updated At) compared with one value, and any Date or DateTime an
			// expression gives, is read strictly as a date-time; other values go as written.
			const asDate =
				(RECORD_DATES.has(colId) && value !== '' && !LISTS.has(opr)) || typeof value === 'object';
			const date = asDate ? param.dateTime?.(value, `Condition ${i + 1} (${colId})`) : undefined;
			return { colId, opr, value: date ?? String(value) };
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
