/** Paystub → Get Many: GET /v1/people-pay-run/paystubs/employee/{employeeId}. List the paystubs of one employee. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { options } from '../../../shared/engine/fields';
import { toStringId } from '../../../shared/field-values';
import {
	int64List,
	PAY_PERIOD_LIST_WHY,
	payPeriodSearch,
	sortOrderProperty,
	userLocator,
} from '../common';
import { simplifyPaystub } from './common';

export const getAllPaystub: Operation = {
	value: 'getAll',
	name: 'Get Many',
	action: 'Get the paystubs of an employee',
	description: 'List the paystubs of one employee',
	method: 'GET',
	path: '/v1/people-pay-run/paystubs/employee/{employeeId}',
	regional: true,
	paginate: 'paystubs',
	simplify: simplifyPaystub,
	fields: [
		{
			property: userLocator('employeeId', 'Employee', 'The employee whose paystubs to list'),
			send: { in: 'path', key: 'employeeId', map: (v, ctx) => toStringId(v, 'Employee', ctx) },
		},
		{
			property: {
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
				options: [],
			},
			children: [
				{
					property: {
						displayName: 'Pay Period Start',
						name: 'periodFrom',
						type: 'dateTime',
						default: '',
						description:
							'Only paystubs whose work period lies within Pay Period Start and Pay Period End',
					},
				},
				{
					property: {
						displayName: 'Pay Period End',
						name: 'periodTo',
						type: 'dateTime',
						default: '',
						description:
							'Only paystubs whose work period lies within Pay Period Start and Pay Period End',
					},
				},
				{
					property: {
						displayName: 'Search',
						name: 'search',
						type: 'string',
						default: '',
						description:
							'Text found in the pay period, pay date or name (not used with a pay period)',
					},
				},
			],
		},
		{
			property: {
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [],
			},
			children: [
				{
					property: {
						displayName: 'Sort By',
						name: 'sortField',
						type: 'options',
						options: options([
							['Created At', 'createdAt'],
							['Net Pay', 'netPay'],
							['Pay Date', 'payDate'],
							['Work Period', 'workPeriod'],
						]),
						default: 'createdAt',
					},
					send: { in: 'query' },
				},
				{ property: sortOrderProperty('desc'), send: { in: 'query' } },
			],
		},
	],
	why: PAY_PERIOD_LIST_WHY,
	check: payPeriodSearch,
	execute: async (ctx, req) => int64List(await ctx.send<IDataObject[]>(req)),
};
