/** Paystubs of an employee — /v1/people-pay-run/paystubs/employee/{employeeId} (regional). */
import type { IDataObject } from 'n8n-workflow';

import { compact, options } from '../../shared/fields';
import type { Operation, Resource } from '../../shared/engine/model';
import { searchPeopleUsers } from '../methods/users';
import { int64List, payPeriodSearch, sortOrderProperty } from './common';
import { toStringId, userLocator } from './user';

export function simplifyPaystub(p: IDataObject): IDataObject {
	const wp = (p.workPeriod as IDataObject | undefined) ?? {};
	return compact({
		_id: p._id,
		employeeId: p.employeeId,
		name: [p.firstName, p.lastName].filter(Boolean).join(' '),
		payPeriod: p.payPeriod,
		workPeriod: wp.from || wp.to ? `${String(wp.from ?? '')}-${String(wp.to ?? '')}` : undefined,
		currency: p.compensationCurrency,
		earnings: p.earnings,
		deductions: p.deductions,
		netTaxes: p.netTaxes,
		netPay: p.netPay,
	});
}

const ops: Operation[] = [
	{
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
			{ property: userLocator('employeeId', 'Employee', 'The employee whose paystubs to list'), send: { in: 'path', key: 'employeeId', map: (v, ctx) => toStringId(v, 'Employee', ctx) } },
			{
				property: { displayName: 'Filters', name: 'filters', type: 'collection', placeholder: 'Add Filter', default: {}, options: [] },
				children: [
					{ property: { displayName: 'Pay Period Start', name: 'periodFrom', type: 'dateTime', default: '', description: 'Only paystubs whose work period lies within Pay Period Start and Pay Period End' } },
					{ property: { displayName: 'Pay Period End', name: 'periodTo', type: 'dateTime', default: '', description: 'Only paystubs whose work period lies within Pay Period Start and Pay Period End' } },
					{ property: { displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Text found in the pay period, pay date or name (not used with a pay period)' } },
				],
			},
			{
				property: { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options: [] },
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
		prepare: payPeriodSearch,
		output: (answer) => int64List(answer),
	},
];

export const paystubResource: Resource = {
	value: 'paystub',
	name: 'Paystub',
	description: 'Pay statements of employees',
	operations: ops,
	methods: { listSearch: { searchPeopleUsers } },
};
