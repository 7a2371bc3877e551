/** Pickers of the Campaigns node for categories. */
import { firstEntries, listSearch, loadOptions, searchPage } from '../../shared/pickers';

const CATEGORIES = '/v1/crm/campaign/category';

export const searchCategories = listSearch(
	async (scope, filter, paginationToken) =>
		await searchPage(
			scope,
			{ method: 'GET', path: CATEGORIES, qs: { search: filter || undefined } },
			'pageEnvelope',
			paginationToken,
			(c) => ({
				name: `${String(c.name ?? c.id)}${c.is_published === false ? ' (unpublished)' : ''}`,
				value: String(c.id),
			}),
		),
);

/** Categories offered in a dropdown: the first pages, sorted by name (any other ID can be given by expression). */
export const getCategories = loadOptions(async (scope) =>
	(await firstEntries(scope, { method: 'GET', path: CATEGORIES }, 'pageEnvelope'))
		.map((c) => ({
			name: String(c.name ?? c.id),
			value: Number(c.id),
			description: c.description ? String(c.description) : undefined,
		}))
		.sort((a, b) => a.name.localeCompare(b.name)),
);
