/** Payrun → Create: POST /v1/people-pay-run/payruns. Create a draft payrun for a work period; the answer includes one payroll per employee. */

import type { IDataObject } from 'n8n-workflow';

import type { Field, Operation } from '../../../shared/engine/model';
import { bodyField, customFieldsProperty, options } from '../../../shared/engine/fields';
import { toStringIds } from '../../../shared/field-values';
import { int64ToNumbers, requireMdy, toMdy } from '../common';
import { BASE } from './common';

const mdyField = (displayName: string, name: string, key: string, description?: string): Field =>
	bodyField({ displayName, name, type: 'dateTime', default: '', description }, key, (v, ctx) =>
		toMdy(v, displayName, ctx),
	);

const WEEKDAYS = options([
	['Monday', 1],
	['Tuesday', 2],
	['Wednesday', 3],
	['Thursday', 4],
	['Friday', 5],
	['Saturday', 6],
	['Sunday', 0],
]);

export const createPayrun: Operation = {
	value: 'create',
	name: 'Create',
	action: 'Create a payrun',
	description:
		'Create a draft payrun for a work period; the answer includes one payroll per employee',
	method: 'POST',
	path: BASE,
	regional: true,
	fields: [
		bodyField(
			{
				displayName: 'Work Period Start',
				name: 'workPeriodFrom',
				type: 'dateTime',
				default: '',
				required: true,
				description: 'First day of the work period',
			},
			'workPeriod.from',
			(v, ctx) => toMdy(v, 'Work Period Start', ctx),
		),
		bodyField(
			{
				displayName: 'Work Period End',
				name: 'workPeriodTo',
				type: 'dateTime',
				default: '',
				required: true,
				description: 'Last day of the work period',
			},
			'workPeriod.to',
			(v, ctx) => toMdy(v, 'Work Period End', ctx),
		),
		bodyField({
			displayName: 'All Users',
			name: 'isForAllUsers',
			type: 'boolean',
			default: true,
			description:
				'Whether to pay every active user who is paid through payruns, instead of chosen employees',
		}),
		bodyField({
			displayName: 'Include Contractors',
			name: 'isForContractors',
			type: 'boolean',
			default: false,
			description: 'Whether contractors are paid too',
			displayOptions: { show: { isForAllUsers: [true] } },
		}),
		bodyField(
			{
				displayName: 'Employee Names or IDs',
				name: 'employees',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getPeopleUsers' },
				default: [],
				required: true,
				description:
					'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
				hint: 'The users to pay',
				displayOptions: { show: { isForAllUsers: [false] } },
			},
			'employees',
			(v, ctx) => toStringIds(v, 'Employees', ctx),
		),
		{
			property: {
				displayName: 'Additional Fields',
				name: 'additionalFields',
				type: 'collection',
				placeholder: 'Add Field',
				default: {},
				options: [],
			},
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
				mdyField(
					'Pay Date',
					'payDate',
					'payDate',
					'Day the employees are paid (default: the end of the work period)',
				),
				mdyField(
					'First Pay Date',
					'firstPayDate',
					'firstPayDate',
					'First pay date of the pay schedule',
				),
				bodyField({
					displayName: 'Pay Day',
					name: 'payDay',
					type: 'string',
					default: '',
					placeholder: 'e.g. last working day of the month',
					description: 'Rule for the pay day, in words',
				}),
				bodyField(
					{
						displayName: 'Work Week',
						name: 'workWeek',
						type: 'multiOptions',
						options: WEEKDAYS,
						default: [1, 2, 3, 4, 5],
						description: 'Working days of the week',
					},
					'workWeek',
					(v) => (Array.isArray(v) && v.length ? v.map(Number) : undefined),
				),
				bodyField(
					{ displayName: 'Pay Schedule ID', name: 'payScheduleId', type: 'string', default: '' },
					'paySchedule.id',
				),
				bodyField(
					{
						displayName: 'Pay Schedule Name',
						name: 'payScheduleName',
						type: 'string',
						default: '',
					},
					'paySchedule.name',
				),
				bodyField({
					displayName: 'Payrun Type',
					name: 'payrunType',
					type: 'number',
					default: 1,
					description: 'The platform’s payrun type number',
				}),
				bodyField({
					displayName: 'Location',
					name: 'location',
					type: 'number',
					default: 0,
					description: 'The platform’s location number',
				}),
				bodyField({
					displayName: 'Country Code',
					name: 'countryCode',
					type: 'string',
					default: '',
					placeholder: 'e.g. US',
				}),
				{
					property: customFieldsProperty([
						{ displayName: 'Field ID', name: 'fieldId', type: 'string', default: '' },
						{ displayName: 'Field Name', name: 'fieldName', type: 'string', default: '' },
						{
							displayName: 'Values',
							name: 'fieldValue',
							type: 'string',
							default: '',
							description: 'Comma-separated values',
						},
					]),
					send: {
						in: 'body',
						key: 'customFields',
						map: (v) => {
							const list =
								((v as IDataObject | undefined)?.field as IDataObject[] | undefined) ?? [];
							return list.length
								? list.map((f) => ({
										fieldId: String(f.fieldId ?? ''),
										fieldName: String(f.fieldName ?? ''),
										fieldValue: String(f.fieldValue ?? '')
											.split(',')
											.map((s) => s.trim())
											.filter(Boolean),
									}))
								: undefined;
						},
					},
				},
			],
		},
	],
	why: 'Leaves the employees out when every user is paid; the answer’s int64 numbers (written as text) are turned back into numbers.',
	check: (req, ctx) => {
		const wp = (req.body.workPeriod ?? {}) as IDataObject;
		const from = requireMdy(wp.from, 'Work Period Start', ctx);
		const to = requireMdy(wp.to, 'Work Period End', ctx);
		const time = (mdy: string) => {
			const [m, d, y] = mdy.split('/').map(Number);
			return Date.UTC(y, m - 1, d);
		};
		if (time(to) < time(from))
			throw ctx.fail(
				'Work Period End is before Work Period Start',
				`The work period ${from} – ${to} ends before it starts.`,
			);
	},
	execute: async (ctx, req) => {
		if (req.body.isForAllUsers === true) delete req.body.employees;
		const answer = await ctx.send<IDataObject | undefined>(req);
		return int64ToNumbers(answer ?? {});
	},
};
