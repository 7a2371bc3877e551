/**
 * What the nodes' pickers share (the pickers themselves live in each node's methods/):
 * every call gets its own run scope, and searchable lists are read a page at a time
 * through the list's paging style (pagination.ts), like the operations read them.
 */
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	INodePropertyOptions,
	ResourceMapperFields,
} from 'n8n-workflow';

import { fetchPage, paginate, type PageStyle } from './pagination';
import { RunScope } from './run-scope';
import type { ApiRequest } from './transport';

export type PickerScope = RunScope<ILoadOptionsFunctions>;

/** Items of one searchable-list page. */
export const PICKER_PAGE = 50;
/** Entries offered in a dropdown that reads several pages; any other ID can be given by expression. */
export const MAX_OPTIONS = 500;

/** A resource locator's list (listSearch), run with its own scope. */
export function listSearch(
	search: (
		scope: PickerScope,
		filter?: string,
		paginationToken?: string,
	) => Promise<INodeListSearchResult>,
) {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		return await search(new RunScope(this), filter, paginationToken);
	};
}

/** A dropdown's options (loadOptions), run with its own scope. */
export function loadOptions(load: (scope: PickerScope) => Promise<INodePropertyOptions[]>) {
	return async function (this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return await load(new RunScope(this));
	};
}

/** A resource mapper's fields (resourceMapping), run with its own scope. */
export function resourceMapping(map: (scope: PickerScope) => Promise<ResourceMapperFields>) {
	return async function (this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
		return await map(new RunScope(this));
	};
}

/** One page of a searchable list in the list's paging style, and the token of the next page when there is one. */
export async function searchPage(
	scope: PickerScope,
	req: ApiRequest,
	style: PageStyle,
	paginationToken: string | undefined,
	toResult: (item: IDataObject) => INodeListSearchItems,
	size = PICKER_PAGE,
): Promise<INodeListSearchResult> {
	// The token names the next page and the page size the platform served so far ("3:30"), which may be
	// smaller than asked: with it, a short page is known to be the last (pagination.ts, fetchPage).
	const [pageText, servedText] = (paginationToken ?? '1').split(':');
	const page = Math.max(1, Math.floor(Number(pageText)) || 1);
	const served = Math.max(0, Math.floor(Number(servedText)) || 0);
	const { items, more } = await fetchPage(
		scope,
		req,
		style,
		page,
		size,
		page > 1 ? served : undefined,
	);
	return {
		results: items.map(toResult),
		paginationToken: more ? `${page + 1}:${Math.max(served, items.length)}` : undefined,
	};
}

/** The first entries of a list for a dropdown (up to MAX_OPTIONS), read page by page in its paging style. */
export async function firstEntries(
	scope: PickerScope,
	req: ApiRequest,
	style: PageStyle,
): Promise<IDataObject[]> {
	return await paginate(scope, req, { style, limit: MAX_OPTIONS });
}

/** A dropdown's entries as a resource locator's list, narrowed to those whose name (or ID) contains the filter. */
export function matching(entries: INodePropertyOptions[], filter?: string): INodeListSearchItems[] {
	const needle = (filter ?? '').trim().toLowerCase();
	return entries
		.filter((e) => !needle || e.name.toLowerCase().includes(needle) || String(e.value) === needle)
		.map((e) => ({
			name: e.name,
			value: String(e.value),
			...(e.description ? { description: e.description } : {}),
		}));
}
