/** Payrun → Get Many by Year: GET /v1/people-pay-run/payruns/year/{year}. List the payruns of one year. */

import type { Operation } from '../../../shared/engine/model';
import { INT64_LIST_WHY, int64ListOf } from '../common';
import { BASE, simplifyPayrun, sortOptions } from './common';
import { echo } from '../../../shared/text-readers';

/** The Year's default since version 1 was published (2026): recorded in the description snapshot. */
const YEAR_DEFAULT = 2026;

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
			// A fixed default: n8n leaves a value equal to the default out of a saved workflow, so a default
			// that followed the calendar would change what saved workflows read on every 1 January.
			property: {
				displayName: 'Year',
				name: 'year',
				type: 'number',
				typeOptions: { minValue: 1900, maxValue: 9999, numberPrecision: 0 },
				default: YEAR_DEFAULT,
				required: true,
			},
			send: {
				in: 'path',
				key: 'year',
				map: (v, ctx) => {
					const y = Number(v);
					if (!Number.isInteger(y) || y < 1900 || y > 9999)
						throw ctx.fail(
							`Year must be a four-digit year, got ${echo(String(v), 40)}`,
							'Give a year such as 2024.',
						);
					return y;
				},
			},
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
			children: sortOptions('month', 'asc'),
		},
	],
	why: INT64_LIST_WHY,
	execute: int64ListOf,
};
