/** Picker of the Sales node for activities: newest first; searching uses the list's `name=` filter. */
import { listSearch, searchPage } from '../../shared/pickers';

export const searchActivities = listSearch(async (scope, filter, paginationToken) => {
	// The filter language separates filters with commas and keys from values with "=".
	const name = (filter ?? '').replace(/[,=>]/g, ' ').replace(/\s+/g, ' ').trim();
	return await searchPage(
		scope,
		{
			method: 'GET',
			path: '/v1/crm/activities',
			qs: { sortBy: 'updated_at', sortDir: 'DESC', query: name ? `name=${name}` : undefined },
		},
		'activities',
		paginationToken,
		(a) => {
			const start =
				typeof a.start === 'string' ? ` — ${a.start.slice(0, 16).replace('T', ' ')}` : '';
			return {
				name: `${String(a.name ?? `Activity ${String(a.id)}`)} (${String(a.activity_type ?? 'activity')})${start}`,
				value: String(a.id),
			};
		},
	);
});
