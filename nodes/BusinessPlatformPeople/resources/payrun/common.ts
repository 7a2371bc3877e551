/** Payrun: what its operations share. */

import type { IDataObject } from 'n8n-workflow';

import type { Field } from '../../../shared/engine/model';
import { locator, options } from '../../../shared/engine/fields';
import { compact, objectAt } from '../../../shared/field-values';
import { sortOrderProperty, workPeriodText } from '../common';

export const BASE = '/v1/people-pay-run/payruns';

export const payrunLocator = () =>
	locator({
		name: 'payrunId',
		displayName: 'Payrun',
		search: 'searchPayruns',
		description: 'The payrun to use',
		numeric: false,
		placeholder: 'e.g. 65f1c0ffee0123456789abcd',
	});

/**
 * Posting and reverting a journal entry write into the accounting books: a POST to the
 * regional host, never retried automatically, answered with a text confirmation.
 */
export const JOURNAL_ENTRY_REQUEST = {
	method: 'POST',
	regional: true,
	retry: 'never',
	text: true,
} as const;

/** The payrun of a journal entry operation, with a hint that it writes into the books (`writes`: what it writes). */
export const journalEntryPayrunField = (writes: string): Field => ({
	property: {
		...payrunLocator(),
		hint: `${writes} into the accounting books. It is never retried automatically: after an error, check the payrun before running again.`,
	},
});

const SORT_FIELDS = options([
	['Created At', 'createdAt'],
	['Month', 'month'],
	['Pay Date', 'payDate'],
	['Updated At', 'updatedAt'],
	['Work Period', 'workPeriod'],
]);

export const sortOptions = (defaultField: string, defaultOrder: 'asc' | 'desc'): Field[] => [
	{
		property: {
			displayName: 'Sort By',
			name: 'sortField',
			type: 'options',
			options: SORT_FIELDS,
			default: defaultField,
		},
		send: { in: 'query' },
	},
	{ property: sortOrderProperty(defaultOrder), send: { in: 'query' } },
];

export function simplifyPayrun(p: IDataObject): IDataObject {
	return compact({
		_id: p._id,
		paySchedule: objectAt(p, 'paySchedule')?.name,
		payPeriod: p.payPeriod,
		workPeriod: workPeriodText(p),
		payDate: p.payDate,
		stage: p.stage,
		employeeCount: p.employeeCount,
		netPay: p.netPay,
		totalCost: p.totalCost,
		jeStatus: p.jeStatus,
	});
}
