/**
 * Payruns and their journal entries — /v1/people-pay-run/payruns… (regional).
 * Dates of the payroll module are month/day/year text: the node writes MM/DD/YYYY.
 * Posting and reverting journal entries change the books: they are never retried
 * automatically.
 */
import type { IDataObject } from 'n8n-workflow';

import { bodyField, compact, locator, options, toStringIds } from '../../shared/fields';
import type { Field, OpContext, Operation, Resource } from '../../shared/engine/model';
import { getPayruns, searchPayruns } from '../methods/payruns';
import { getPeopleUsers } from '../methods/users';
import { answerText, int64List, int64ToNumbers, payPeriodSearch, requireMdy, sortOrderProperty, toMdy } from './common';
import { toStringId } from './user';

const BASE = '/v1/people-pay-run/payruns';

const payrunLocator = () =>
	locator({ name: 'payrunId', displayName: 'Payrun', search: 'searchPayruns', description: 'The payrun to use', numeric: false, placeholder: 'e.g. 65f1c0ffee0123456789abcd' });

const mdyField = (displayName: string, name: string, key: string, description?: string): Field =>
	bodyField({ displayName, name, type: 'dateTime', default: '', description }, key, (v, ctx) => toMdy(v, displayName, ctx));

const SORT_FIELDS = options([
	['Created At', 'createdAt'],
	['Month', 'month'],
	['Pay Date', 'payDate'],
	['Updated At', 'updatedAt'],
	['Work Period', 'workPeriod'],
]);

const sortOptions = (defaultField: string, defaultOrder: 'asc' | 'desc'): Field[] => [
	{ property: { displayName: 'Sort By', name: 'sortField', type: 'options', options: SORT_FIELDS, default: defaultField }, send: { in: 'query' } },
	{ property: sortOrderProperty(defaultOrder), send: { in: 'query' } },
];

export function simplifyPayrun(p: IDataObject): IDataObject {
	const wp = (p.workPeriod as IDataObject | undefined) ?? {};
	return compact({
		_id: p._id,
		paySchedule: (p.paySchedule as IDataObject | undefined)?.name,
		payPeriod: p.payPeriod,
		workPeriod: wp.from || wp.to ? `${String(wp.from ?? '')}-${String(wp.to ?? '')}` : undefined,
		payDate: p.payDate,
		stage: p.stage,
		employeeCount: p.employeeCount,
		netPay: p.netPay,
		totalCost: p.totalCost,
		jeStatus: p.jeStatus,
	});
}

const WEEKDAYS = options([
	['Monday', 1],
	['Tuesday', 2],
	['Wednesday', 3],
	['Thursday', 4],
	['Friday', 5],
	['Saturday', 6],
	['Sunday', 0],
]);

/** Reads a payrun from the list (there is no endpoint for one payrun). */
async function findPayrun(ctx: OpContext, id: string): Promise<IDataObject> {
	const all = await ctx.paginate({ method: 'GET', path: BASE, regional: true, qs: { sortField: 'createdAt', sortOrder: 'desc' } }, 'payruns');
	const found = all.find((p) => String(p._id) === id);
	if (!found) throw ctx.fail(`Payrun ${id} was not found`, 'Pick the payrun from the list, or check its ID.');
	return found;
}

const ops: Operation[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Create a payrun',
		description: 'Create a draft payrun for a work period; the answer includes one payroll per employee',
		method: 'POST',
		path: BASE,
		regional: true,
		fields: [
			bodyField({ displayName: 'Work Period Start', name: 'workPeriodFrom', type: 'dateTime', default: '', required: true, description: 'First day of the work period' }, 'workPeriod.from', (v, ctx) =>
				toMdy(v, 'Work Period Start', ctx),
			),
			bodyField({ displayName: 'Work Period End', name: 'workPeriodTo', type: 'dateTime', default: '', required: true, description: 'Last day of the work period' }, 'workPeriod.to', (v, ctx) =>
				toMdy(v, 'Work Period End', ctx),
			),
			bodyField({ displayName: 'All Users', name: 'isForAllUsers', type: 'boolean', default: true, description: 'Whether to pay every active user who is paid through payruns, instead of chosen employees' }),
			bodyField(
				{ displayName: 'Include Contractors', name: 'isForContractors', type: 'boolean', default: false, description: 'Whether contractors are paid too', displayOptions: { show: { isForAllUsers: [true] } } },
			),
			bodyField(
				{
					displayName: 'Employee Names or IDs',
					name: 'employees',
					type: 'multiOptions',
					typeOptions: { loadOptionsMethod: 'getPeopleUsers' },
					default: [],
					required: true,
					description: 'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
					hint: 'The users to pay',
					displayOptions: { show: { isForAllUsers: [false] } },
				},
				'employees',
				(v, ctx) => toStringIds(v, 'Employees', ctx),
			),
			{
				property: { displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, options: [] },
				children: [
					bodyField({
						displayName: 'Pay Period',
						name: 'payPeriod',
						type: 'options',
						options: options([
							['Monthly', 'monthly'],
							['Semimonthly', 'semimonthly'],
							['Biweekly', 'biweekly'],
							['Weekly', 'weekly'],
						]),
						default: 'monthly',
					}),
					mdyField('Pay Date', 'payDate', 'payDate', 'Day the employees are paid (default: the end of the work period)'),
					mdyField('First Pay Date', 'firstPayDate', 'firstPayDate', 'First pay date of the pay schedule'),
					bodyField({ displayName: 'Pay Day', name: 'payDay', type: 'string', default: '', placeholder: 'e.g. last working day of the month', description: 'Rule for the pay day, in words' }),
					bodyField({ displayName: 'Work Week', name: 'workWeek', type: 'multiOptions', options: WEEKDAYS, default: [1, 2, 3, 4, 5], description: 'Working days of the week' }, 'workWeek', (v) =>
						Array.isArray(v) && v.length ? v.map(Number) : undefined,
					),
					bodyField({ displayName: 'Pay Schedule ID', name: 'payScheduleId', type: 'string', default: '' }, 'paySchedule.id'),
					bodyField({ displayName: 'Pay Schedule Name', name: 'payScheduleName', type: 'string', default: '' }, 'paySchedule.name'),
					bodyField({ displayName: 'Payrun Type', name: 'payrunType', type: 'number', default: 1, description: 'The platform’s payrun type number' }),
					bodyField({ displayName: 'Location', name: 'location', type: 'number', default: 0, description: 'The platform’s location number' }),
					bodyField({ displayName: 'Country Code', name: 'countryCode', type: 'string', default: '', placeholder: 'e.g. US' }),
					{
						property: {
							displayName: 'Custom Fields',
							name: 'customFields',
							type: 'fixedCollection',
							typeOptions: { multipleValues: true },
							placeholder: 'Add Custom Field',
							default: {},
							options: [
								{
									displayName: 'Field',
									name: 'field',
									values: [
										{ displayName: 'Field ID', name: 'fieldId', type: 'string', default: '' },
										{ displayName: 'Field Name', name: 'fieldName', type: 'string', default: '' },
										{ displayName: 'Values', name: 'fieldValue', type: 'string', default: '', description: 'Comma-separated values' },
									],
								},
							],
						},
						send: {
							in: 'body',
							key: 'customFields',
							map: (v) => {
								const list = ((v as IDataObject | undefined)?.field as IDataObject[] | undefined) ?? [];
								return list.length
									? list.map((f) => ({ fieldId: String(f.fieldId ?? ''), fieldName: String(f.fieldName ?? ''), fieldValue: String(f.fieldValue ?? '').split(',').map((s) => s.trim()).filter(Boolean) }))
									: undefined;
							},
						},
					},
				],
			},
		],
		prepare: (req, ctx) => {
			const wp = (req.body.workPeriod ?? {}) as IDataObject;
			const from = requireMdy(wp.from, 'Work Period Start', ctx);
			const to = requireMdy(wp.to, 'Work Period End', ctx);
			const time = (mdy: string) => {
				const [m, d, y] = mdy.split('/').map(Number);
				return Date.UTC(y, m - 1, d);
			};
			if (time(to) < time(from)) throw ctx.fail('Work Period End is before Work Period Start', `The work period ${from} – ${to} ends before it starts.`);
			if (req.body.isForAllUsers === true) delete req.body.employees;
		},
		output: (answer) => int64ToNumbers((answer ?? {}) as IDataObject),
	},
	{
		value: 'getAllByYear',
		name: 'Get Many by Year',
		action: 'Get the payruns of a year',
		description: 'List the payruns of one year',
		method: 'GET',
		path: `${BASE}/year/{year}`,
		regional: true,
		paginate: 'payrunsOfYear',
		simplify: simplifyPayrun,
		fields: [
			{
				property: { displayName: 'Year', name: 'year', type: 'number', typeOptions: { minValue: 1900, maxValue: 9999, numberPrecision: 0 }, default: new Date().getFullYear(), required: true },
				send: {
					in: 'path',
					key: 'year',
					map: (v, ctx) => {
						const y = Number(v);
						if (!Number.isInteger(y) || y < 1900 || y > 9999) throw ctx.fail(`Year must be a four-digit year, got "${String(v)}"`, 'Give a year such as 2024.');
						return y;
					},
				},
			},
			{ property: { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options: [] }, children: sortOptions('month', 'asc') },
		],
		output: (answer) => int64List(answer),
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many payruns',
		description: 'List payruns, optionally for a pay period',
		method: 'GET',
		path: BASE,
		regional: true,
		paginate: 'payruns',
		simplify: simplifyPayrun,
		fields: [
			{
				property: { displayName: 'Filters', name: 'filters', type: 'collection', placeholder: 'Add Filter', default: {}, options: [] },
				children: [
					{ property: { displayName: 'Pay Period Start', name: 'periodFrom', type: 'dateTime', default: '', description: 'Only payruns whose work period lies within Pay Period Start and Pay Period End' } },
					{ property: { displayName: 'Pay Period End', name: 'periodTo', type: 'dateTime', default: '', description: 'Only payruns whose work period lies within Pay Period Start and Pay Period End' } },
					{ property: { displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Text found in the pay period or the pay schedule’s name (not used with a pay period)' } },
					{ property: { displayName: 'Search Field', name: 'searchField', type: 'string', default: '', description: 'The payrun field the platform searches' }, send: { in: 'query' } },
				],
			},
			{ property: { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options: [] }, children: sortOptions('createdAt', 'desc') },
		],
		prepare: payPeriodSearch,
		output: (answer) => int64List(answer),
	},
	{
		value: 'delete',
		name: 'Delete',
		action: 'Delete payruns',
		description: 'Delete one or more payruns and their paystubs',
		method: 'DELETE',
		path: BASE,
		regional: true,
		fields: [
			{
				property: {
					displayName: 'Payrun Names or IDs',
					name: 'payrunIds',
					type: 'multiOptions',
					typeOptions: { loadOptionsMethod: 'getPayruns' },
					default: [],
					required: true,
					description: 'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
					hint: 'The payruns to delete; an expression may give a list or comma-separated text',
				},
			},
		],
		prepare: (req, ctx) => {
			req.rawBody = toStringIds(ctx.param('payrunIds', []), 'Payruns', ctx).map((payrunId) => ({ payrunId }));
		},
		output: (_a, _ctx, req) => (req.rawBody as IDataObject[]).map((p) => ({ deleted: true, id: p.payrunId })),
	},
	{
		value: 'postJournalEntry',
		name: 'Post Journal Entry',
		action: 'Post the journal entry of a payrun',
		description: 'Post the payrun to the accounting books. Changes the books; never retried automatically.',
		method: 'POST',
		path: `${BASE}/sync-je`,
		regional: true,
		retry: 'never',
		text: true,
		fields: [
			{ property: { ...payrunLocator(), hint: 'Posting writes a journal entry into the accounting books. It is never retried automatically: after an error, check the payrun before running again.' } },
			{ property: { displayName: 'Posting Date', name: 'jeDate', type: 'dateTime', default: '', required: true, description: 'Date of the journal entry' } },
		],
		prepare: (req, ctx) => {
			const payrunId = toStringId(ctx.param('payrunId'), 'Payrun', ctx);
			req.body.payrun = [{ jeDate: requireMdy(ctx.param('jeDate', ''), 'Posting Date', ctx), payrunId }];
		},
		output: (answer, _ctx, req) => {
			const entry = (req.body.payrun as IDataObject[])[0];
			return { payrunId: entry.payrunId, jeDate: entry.jeDate, posted: true, message: answerText(answer) };
		},
	},
	{
		value: 'revertJournalEntry',
		name: 'Revert Journal Entry',
		action: 'Revert the journal entry of a payrun',
		description: 'Reverse the posted journal entry of a payrun in the accounting books. Changes the books; never retried automatically.',
		method: 'POST',
		path: `${BASE}/revert-je`,
		regional: true,
		retry: 'never',
		text: true,
		fields: [
			{ property: { ...payrunLocator(), hint: 'Reverting writes a reversing journal entry into the accounting books. It is never retried automatically: after an error, check the payrun before running again.' } },
			{
				property: {
					displayName: 'Journal Entry ID',
					name: 'jeId',
					type: 'string',
					default: '',
					description: 'The posted journal entry to revert (the payrun’s jeId). Leave empty to use the payrun’s posted entry.',
				},
			},
			{ property: { displayName: 'Revert Date', name: 'jeRevertDate', type: 'dateTime', default: '', required: true, description: 'Date of the reversing entry; not before the posting date' } },
		],
		prepare: async (req, ctx) => {
			const payrunId = toStringId(ctx.param('payrunId'), 'Payrun', ctx);
			const jeRevertDate = requireMdy(ctx.param('jeRevertDate', ''), 'Revert Date', ctx);
			let text = String(ctx.param('jeId', '')).trim();
			if (text && !/^\d+$/.test(text)) throw ctx.fail(`Journal Entry ID must be a whole number, got "${text}"`, 'Give the payrun’s jeId, or leave the field empty to use it.');
			if (!text) {
				const payrun = await findPayrun(ctx, payrunId);
				if (payrun.jeStatus !== 'POSTED' || !/^\d+$/.test(String(payrun.jeId ?? ''))) {
					throw ctx.fail(`Payrun ${payrunId} has no posted journal entry to revert`, `Its journal status is "${String(payrun.jeStatus || 'none')}". Post a journal entry first.`);
				}
				text = String(payrun.jeId);
			}
			req.body.revertPayrun = [{ jeId: Number(text), jeRevertDate, payrunId }];
		},
		output: (answer, _ctx, req) => {
			const entry = (req.body.revertPayrun as IDataObject[])[0];
			return { payrunId: entry.payrunId, jeId: entry.jeId, jeRevertDate: entry.jeRevertDate, reverted: true, message: answerText(answer) };
		},
	},
];

export const payrunResource: Resource = {
	value: 'payrun',
	name: 'Payrun',
	description: 'Payroll runs of a pay period and their journal entries',
	operations: ops,
	methods: { listSearch: { searchPayruns }, loadOptions: { getPayruns, getPeopleUsers } },
};
