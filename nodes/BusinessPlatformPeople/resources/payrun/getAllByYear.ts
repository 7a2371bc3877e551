/** Payrun → Get Many by Year: GET /v1/people-pay-run/payruns/year/{year}. List the payruns of one year. */

import type { Operation } from '../../../shared/engine/model';
import { INT64_LIST_WHY, int64ListOf } from '../common';
import { BASE, simplifyPayrun, sortOptions } from './common';

export const getAllByYearPayrun: Operation = {
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
		{ property: { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add option', default: {}, options: [] }, children: sortOptions('month', 'asc') },
	],
	why: INT64_LIST_WHY,
	execute: int64ListOf,
};
