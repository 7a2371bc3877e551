/** Pickers of the Sales node for contacts: the contact list, labels and owners. */
import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import { objectAt } from '../../shared/field-values';
import {
	listSearch,
	loadOptions,
	matching,
	searchPage,
	type PickerScope,
} from '../../shared/pickers';
import { apiRequest } from '../../shared/transport';
import { userName } from '../common/users';

export const searchContacts = listSearch(
	async (scope, filter, paginationToken) =>
		await searchPage(
			scope,
			{
				method: 'GET',
				path: '/v1/crm/contacts',
				qs: {
					search: filter || undefined,
					orderBy: 'name',
					order: 'asc',
					columns: ['name', 'email', 'type'],
				},
			},
			'contacts',
			paginationToken,
			(c) => ({
				name: `${String(c.name ?? c.id)}${c.email ? ` <${String(c.email)}>` : ''}${c.type === 'organization' ? ' (organization)' : ''}`,
				value: String(c.id),
			}),
		),
);

async function labelOptions(scope: PickerScope): Promise<INodePropertyOptions[]> {
	const labels =
		(await apiRequest<IDataObject[]>(scope, { method: 'GET', path: '/v1/crm/contacts/labels' })) ??
		[];
	return labels
		.map((l) => ({ name: String(l.name), value: Number(l.id) }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

export const getContactLabels = loadOptions(labelOptions);

/** Contact labels for a resource locator (version 2), by name. */
export const searchContactLabels = listSearch(async (scope, filter) => ({
	results: matching(await labelOptions(scope), filter),
}));

const ownerName = (o: IDataObject) => userName(o) + (o.email ? ` <${String(o.email)}>` : '');

/**
 * The spec documents no endpoint that lists sales users. Owners appear embedded in
 * contacts and deals (owner_details), so the picker collects them from the first
 * pages of both lists; any other ID can still be given by expression.
 */
export const getOwners = loadOptions(async (scope) => {
	const [contacts, deals] = await Promise.all([
		apiRequest<IDataObject>(scope, {
			method: 'GET',
			path: '/v1/crm/contacts',
			qs: { page: 1, limit: 100 },
		}),
		apiRequest<IDataObject>(scope, {
			method: 'GET',
			path: '/v1/crm/deals',
			qs: { page: 1, limit: 100, show_closed_deals: true },
		}),
	]);
	const owners = new Map<number, string>();
	for (const c of (contacts?.data as IDataObject[] | undefined) ?? []) {
		const o = objectAt(c, 'owner_details');
		if (o?.id !== undefined) owners.set(Number(o.id), ownerName(o));
	}
	for (const d of (deals?.data as IDataObject[] | undefined) ?? []) {
		if (typeof d.owner_info !== 'string') continue;
		try {
			const o = JSON.parse(d.owner_info) as IDataObject;
			if (o.id !== undefined && !owners.has(Number(o.id))) owners.set(Number(o.id), ownerName(o));
		} catch {
			// owner_info is documented as a string; skip one that is not JSON
		}
	}
	return [...owners]
		.map(([value, name]) => ({ name: name || `User ${value}`, value }))
		.sort((a, b) => a.name.localeCompare(b.name));
});
