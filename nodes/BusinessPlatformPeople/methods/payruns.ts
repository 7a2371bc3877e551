/** Pickers of the People node for payruns, newest first (served by the regional base URL when set). */
import type { IDataObject } from 'n8n-workflow';

import { objectAt } from '../../shared/field-values';
import { firstEntries, listSearch, loadOptions, searchPage } from '../../shared/pickers';
import type { ApiRequest } from '../../shared/transport';

const payrunLabel = (p: IDataObject) => {
	const schedule = objectAt(p, 'paySchedule')?.name || p.payPeriod || 'Payrun';
	const wp = objectAt(p, 'workPeriod') ?? {};
	const state = [p.stage, p.jeStatus ? `journal ${String(p.jeStatus).toLowerCase()}` : '']
		.filter(Boolean)
		.join(', ');
	return `${String(schedule)}: ${String(wp.from ?? '?')} – ${String(wp.to ?? '?')}${state ? ` (${state})` : ''}`;
};

const payrunsRequest = (search?: string): ApiRequest => ({
	method: 'GET',
	path: '/v1/people-pay-run/payruns',
	regional: true,
	qs: { searchString: search || undefined, sortField: 'createdAt', sortOrder: 'desc' },
});

const payrunOption = (p: IDataObject) => ({ name: payrunLabel(p), value: String(p._id) });

export const searchPayruns = listSearch(
	async (scope, filter, paginationToken) =>
		await searchPage(scope, payrunsRequest(filter), 'payruns', paginationToken, payrunOption),
);

export const getPayruns = loadOptions(async (scope) =>
	(await firstEntries(scope, payrunsRequest(), 'payruns')).map(payrunOption),
);
