/** What the People Trigger's payrun events share: the payrun list, newest change first, and its Year filter. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ParamReader, PollEvent, PollList } from '../../shared/polling/model';
import { changeTime } from '../../shared/polling/cursor';

/** The payrun field that holds the change time: the list is sorted by it, newest first. */
export type PayrunTime = 'createdAt' | 'updatedAt' | 'processedAt' | 'paymentDoneAt';

export const yearField: INodeProperties = {
	displayName: 'Year',
	name: 'year',
	type: 'number',
	default: 0,
	typeOptions: { minValue: 0, maxValue: 9999, numberPrecision: 0 },
	description:
		'Only payruns of this year (read from the platform’s payruns-of-a-year list). 0: every year.',
};

const validYear = (v: unknown): number | undefined =>
	typeof v === 'number' && Number.isInteger(v) && v >= 1000 && v <= 9999 ? v : undefined;

/**
 * GET /v1/people-pay-run/payruns (or /payruns/year/{year} with a Year), sorted by `field`,
 * newest first. Payrun lists are served by the regional base URL when one is set.
 */
export function payrunList(field: PayrunTime, param: ParamReader): PollList {
	const year = validYear(param('year', 0));
	const qs = { sortField: field, sortOrder: 'desc' };
	return year === undefined
		? {
				request: { method: 'GET', path: '/v1/people-pay-run/payruns', qs, regional: true },
				style: 'payruns',
				newestFirst: true,
			}
		: {
				request: {
					method: 'GET',
					path: `/v1/people-pay-run/payruns/year/${year}`,
					qs,
					regional: true,
				},
				style: 'payrunsOfYear',
				newestFirst: true,
			};
}

export const payrunTime = (field: PayrunTime) => (p: IDataObject) => changeTime(p[field]);

/** What every payrun event has: the Year filter, the payrun list sorted by `field`, and `field` as the change time. */
export const payrunEvent = (field: PayrunTime): Pick<PollEvent, 'fields' | 'list' | 'time'> => ({
	fields: [yearField],
	list: (param) => payrunList(field, param),
	time: payrunTime(field),
});

export const idOf = (p: IDataObject) => String(p._id ?? p.id ?? '');

/** The last journal-entry record of a payrun (a posting or a reversal), when it has one. */
export function lastJournalEntry(p: IDataObject): IDataObject | undefined {
	const list = Array.isArray(p.jeDetails) ? (p.jeDetails as unknown[]) : [];
	const last = list[list.length - 1];
	return last && typeof last === 'object' ? (last as IDataObject) : undefined;
}
