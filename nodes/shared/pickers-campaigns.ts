/**
 * Pickers of the Campaigns node: forms and categories, through the transport
 * (so they refresh tokens and retry like operations).
 */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { apiRequest } from './transport';

const PICKER_PAGE = 50;
/** Categories offered in a dropdown: the first pages, sorted by name (any other ID can be given by expression). */
const MAX_CATEGORY_OPTIONS = 500;

export async function searchForms(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1);
	const body = await apiRequest<IDataObject>(this, { method: 'GET', path: '/v1/crm/campaign/assets/forms', qs: { page, limit: PICKER_PAGE, search: filter || undefined } });
	const data = (body?.data as IDataObject[] | undefined) ?? [];
	return {
		results: data.map((f) => ({ name: String(f.name ?? f.id), value: String(f.id) })),
		// The forms envelope has no total: a full page means there may be another.
		paginationToken: data.length === PICKER_PAGE ? String(page + 1) : undefined,
	};
}

export async function searchCategories(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1);
	const body = await apiRequest<IDataObject>(this, { method: 'GET', path: '/v1/crm/campaign/category', qs: { page, limit: PICKER_PAGE, search: filter || undefined } });
	const data = (body?.data as IDataObject[] | undefined) ?? [];
	const totalPages = Number(body?.total_pages ?? 0);
	return {
		results: data.map((c) => ({ name: `${String(c.name ?? c.id)}${c.is_published === false ? ' (unpublished)' : ''}`, value: String(c.id) })),
		paginationToken: page < totalPages ? String(page + 1) : undefined,
	};
}

export async function getCategories(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const out: INodePropertyOptions[] = [];
	for (let page = 1; out.length < MAX_CATEGORY_OPTIONS; page++) {
		const body = await apiRequest<IDataObject>(this, { method: 'GET', path: '/v1/crm/campaign/category', qs: { page, limit: 100 } });
		const data = (body?.data as IDataObject[] | undefined) ?? [];
		for (const c of data) out.push({ name: String(c.name ?? c.id), value: Number(c.id), description: c.description ? String(c.description) : undefined });
		const totalPages = Number(body?.total_pages ?? 0);
		if (data.length === 0 || (totalPages ? page >= totalPages : data.length < 100)) break;
	}
	return out.sort((a, b) => a.name.localeCompare(b.name));
}
