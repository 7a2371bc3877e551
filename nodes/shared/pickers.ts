/**
 * Pickers: searchable lists for resource locators and options for dropdowns,
 * all through the transport (so they refresh tokens and retry like operations).
 */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { apiRequest } from './transport';

const PICKER_PAGE = 50;

export async function searchContacts(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1);
	const body = await apiRequest<IDataObject>(this, {
		method: 'GET',
		path: '/v1/crm/contacts',
		qs: { page, limit: PICKER_PAGE, search: filter || undefined, orderBy: 'name', order: 'asc', columns: ['name', 'email', 'type'] },
	});
	const data = (body?.data as IDataObject[] | undefined) ?? [];
	const total = Number((body?.paginationInfo as IDataObject | undefined)?.totalRecords ?? 0);
	return {
		results: data.map((c) => ({ name: `${String(c.name ?? c.id)}${c.email ? ` <${String(c.email)}>` : ''}${c.type === 'organization' ? ' (organization)' : ''}`, value: String(c.id) })),
		paginationToken: page * PICKER_PAGE < total ? String(page + 1) : undefined,
	};
}

export async function getContactLabels(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const labels = (await apiRequest<IDataObject[]>(this, { method: 'GET', path: '/v1/crm/contacts/labels' })) ?? [];
	return labels.map((l) => ({ name: String(l.name), value: Number(l.id) })).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The spec documents no endpoint that lists sales users. Owners appear embedded in
 * contacts and deals (owner_details), so the picker collects them from the first
 * pages of both lists; any other ID can still be given by expression.
 */
export async function getOwners(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const [contacts, deals] = await Promise.all([
		apiRequest<IDataObject>(this, { method: 'GET', path: '/v1/crm/contacts', qs: { page: 1, limit: 100 } }),
		apiRequest<IDataObject>(this, { method: 'GET', path: '/v1/crm/deals', qs: { page: 1, limit: 100, show_closed_deals: true } }),
	]);
	const owners = new Map<number, string>();
	for (const c of (contacts?.data as IDataObject[] | undefined) ?? []) {
		const o = c.owner_details as IDataObject | null | undefined;
		if (o?.id !== undefined) owners.set(Number(o.id), `${String(o.first_name ?? '')} ${String(o.last_name ?? '')}`.trim() + (o.email ? ` <${String(o.email)}>` : ''));
	}
	for (const d of (deals?.data as IDataObject[] | undefined) ?? []) {
		if (typeof d.owner_info !== 'string') continue;
		try {
			const o = JSON.parse(d.owner_info) as IDataObject;
			if (o.id !== undefined && !owners.has(Number(o.id))) owners.set(Number(o.id), `${String(o.first_name ?? '')} ${String(o.last_name ?? '')}`.trim() + (o.email ? ` <${String(o.email)}>` : ''));
		} catch {
			// owner_info is documented as a string; skip one that is not JSON
		}
	}
	return [...owners].map(([value, name]) => ({ name: name || `User ${value}`, value })).sort((a, b) => a.name.localeCompare(b.name));
}
