/** Payrun → Get Many: GET /v1/people-pay-run/payruns. List payruns, optionally for a pay period. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { int64List, PAY_PERIOD_LIST_WHY, payPeriodSearch } from '../common';
import { BASE, simplifyPayrun, sortOptions } from './common';

export const getAllPayrun: Operation = {
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
							'Only payruns whose work period lies within Pay Period Start and Pay Period End',
					},
				},
				{
					property: {
						displayName: 'Pay Period End',
						name: 'periodTo',
						type: 'dateTime',
						default: '',
						description:
							'Only payruns whose work period lies within Pay Period Start and Pay Period End',
					},
				},
				{
					property: {
						displayName: 'Search',
						name: 'search',
						type: 'string',
						default: '',
						description:
							'Text found in the pay period or the pay schedule’s name (not used with a pay period)',
					},
				},
				{
					property: {
						displayName: 'Search Field',
						name: 'searchField',
						type: 'string',
						default: '',
						description: 'The payrun field the platform searches',
					},
					send: { in: 'query' },
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
			children: sortOptions('createdAt', 'desc'),
		},
	],
	why: PAY_PERIOD_LIST_WHY,
	check: payPeriodSearch,
	execute: async (ctx, req) => int64List(await ctx.send<IDataObject[]>(req)),
};
