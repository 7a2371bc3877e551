/** Picker of the Campaigns node for forms (the forms list has no total: a full page means there may be another). */
import { listSearch, searchPage } from '../../shared/pickers';

export const searchForms = listSearch(
	async (scope, filter, paginationToken) =>
		await searchPage(
			scope,
			{ method: 'GET', path: '/v1/crm/campaign/assets/forms', qs: { search: filter || undefined } },
			'dataOnly',
			paginationToken,
			(f) => ({
				name: String(f.name ?? f.id),
				value: String(f.id),
			}),
		),
);
