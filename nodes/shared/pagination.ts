/**
 * Every paging envelope of the spec, and one loop that walks them. "Return All"
 * reads to the end; a limit asks for pages of that size and stops as soon as it
 * has enough (it never downloads everything to slice it).
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RunScope } from './run-scope';
import { apiRequest, type ApiRequest } from './transport';
import { PAGE_SIZE } from './tuning';

export type PageStyle =
	/** unpaged lists answered as a plain array (labels, pipelines): one request, the limit applied here */
	| 'array'
	/** unpaged lists answered as { data, totalCount } (tables): one request, the limit applied here */
	| 'dataOnce'
	/** contacts: page/limit → { data, paginationInfo: { page, totalRecords } } */
	| 'contacts'
	/** activities: page/pageSize → { data, paginationInfo: { page, totalRecords, isZeroState } } */
	| 'activities'
	/** deals, campaign categories, email templates: page/limit → { data, page, total_pages, … } */
	| 'pageEnvelope'
	/** campaign forms: page/limit → { data } only; the last page is the short one */
	| 'dataOnly'
	/** records: pageNo/pageSize (query) with a FilterRequest body → PagedRecordResponse */
	| 'records'
	/** people users: limit/currentPage → { users, filterConfig: v1FilterConfig (int64 as strings) } */
	| 'peopleUsers'
	/** tax declarations: limit/currentPage → { taxDeclarationInfo, filterConfig } */
	| 'taxDeclarations'
	/** component groups: limit/currentPage → { componentGroups, filterConfig } */
	| 'componentGroups'
	/** payruns: limit/currentPage → { payruns, filterResponse: { totalPages, … } } */
	| 'payruns'
	/** payruns of a year: limit/currentPage → { payruns } only */
	| 'payrunsOfYear'
	/** paystubs: limit/currentPage → { paystubs } only */
	| 'paystubs';

interface StyleDef {
	/** One request without paging parameters. */
	single?: boolean;
	page: string;
	size: string;
	items: (body: IDataObject) => unknown;
	/** Total pages when the envelope tells them (counted by the server, with its own page size). */
	totalPages?: (body: IDataObject) => number | undefined;
	/**
	 * Total records when the envelope tells them. Without totalPages, pages are counted from it
	 * with the page size the server really used; a polling trigger compares it across pages.
	 */
	totalRecords?: (body: IDataObject) => number | undefined;
}

const num = (v: unknown) => {
	const n = v === undefined || v === null || v === '' ? undefined : Number(v);
	return n === undefined || Number.isNaN(n) ? undefined : n;
};
const peopleTotal = (b: IDataObject) => num((b.filterConfig as IDataObject | undefined)?.totalPage);
const peopleRecords = (b: IDataObject) =>
	num((b.filterConfig as IDataObject | undefined)?.numberOfRecords);

export const PAGE_STYLES: Record<PageStyle, StyleDef> = {
	array: { single: true, page: '', size: '', items: (b) => b },
	dataOnce: { single: true, page: '', size: '', items: (b) => b.data },
	contacts: {
		page: 'page',
		size: 'limit',
		items: (b) => b.data,
		totalRecords: (b) => num((b.paginationInfo as IDataObject | undefined)?.totalRecords),
	},
	activities: {
		page: 'page',
		size: 'pageSize',
		items: (b) => b.data,
		totalRecords: (b) => num((b.paginationInfo as IDataObject | undefined)?.totalRecords),
	},
	pageEnvelope: {
		page: 'page',
		size: 'limit',
		items: (b) => b.data,
		totalPages: (b) => num(b.total_pages),
		totalRecords: (b) => num(b.number_of_records),
	},
	dataOnly: { page: 'page', size: 'limit', items: (b) => b.data },
	records: {
		page: 'pageNo',
		size: 'pageSize',
		items: (b) => b.data,
		totalRecords: (b) => num(b.totalCount),
	},
	peopleUsers: {
		page: 'currentPage',
		size: 'limit',
		items: (b) => b.users,
		totalPages: peopleTotal,
		totalRecords: peopleRecords,
	},
	taxDeclarations: {
		page: 'currentPage',
		size: 'limit',
		items: (b) => b.taxDeclarationInfo,
		totalPages: peopleTotal,
	},
	componentGroups: {
		page: 'currentPage',
		size: 'limit',
		items: (b) => b.componentGroups,
		totalPages: peopleTotal,
	},
	payruns: {
		page: 'currentPage',
		size: 'limit',
		items: (b) => b.payruns,
		totalPages: (b) => num((b.filterResponse as IDataObject | undefined)?.totalPages),
		totalRecords: (b) => num((b.filterResponse as IDataObject | undefined)?.totalCount),
	},
	payrunsOfYear: { page: 'currentPage', size: 'limit', items: (b) => b.payruns },
	paystubs: { page: 'currentPage', size: 'limit', items: (b) => b.paystubs },
};

export interface PageOptions {
	style: PageStyle;
	/** Undefined: return all. */
	limit?: number;
	/** Page size for Return All (default PAGE_SIZE). */
	pageSize?: number;
}

/** Adds `id` to `set`; false when it was there. */
function once<T>(set: Set<T>, id: T): boolean {
	if (set.has(id)) return false;
	set.add(id);
	return true;
}

/**
 * The IDs a walk through the pages has kept (`id`, else `_id`), numbers and texts apart (5 and
 * "5" are two records): a number is kept as it is, without a text built for each item.
 */
class SeenIds {
	private readonly numbers = new Set<number>();
	private readonly texts = new Set<string>();

	/** False when the item's ID was kept before; an item without an ID is always new. */
	keep(item: unknown): boolean {
		if (!item || typeof item !== 'object') return true;
		const id = (item as IDataObject).id ?? (item as IDataObject)._id;
		if (typeof id === 'number') return once(this.numbers, id);
		if (typeof id === 'string' && id !== '') return once(this.texts, id);
		return true;
	}
}

/** An unpaged list (its style says `single`): one request, the limit applied here. */
async function readUnpaged(
	scope: RunScope,
	req: ApiRequest,
	style: StyleDef,
	limit: number | undefined,
): Promise<IDataObject[]> {
	const body = await apiRequest<unknown>(scope, req);
	const raw =
		body !== null && typeof body === 'object' ? style.items(body as IDataObject) : undefined;
	const items = Array.isArray(raw) ? (raw as IDataObject[]) : [];
	return limit !== undefined ? items.slice(0, limit) : items;
}

/** The error of a list still full after the tuning's paging.maxPages pages: nothing is returned rather than part of it. */
function endlessList(scope: RunScope, req: ApiRequest, read: number): NodeOperationError {
	return new NodeOperationError(
		scope.ctx.getNode(),
		`The list did not end after ${scope.tuning.paging.maxPages} pages (${read} items read)`,
		{
			itemIndex: req.itemIndex,
			description: `The platform kept answering full pages of ${req.method} ${req.path}. Nothing is returned rather than a part of the list: use a Limit, or filters that make the list shorter.`,
		},
	);
}

/**
 * Walks the pages of a list endpoint. Stops at: the total page count the envelope
 * gives; an empty or short page; enough items for `limit`; or a page identical to
 * the previous one (a server that ignores the page parameter).
 */
export async function paginate(
	scope: RunScope,
	req: ApiRequest,
	opts: PageOptions,
): Promise<IDataObject[]> {
	const style = PAGE_STYLES[opts.style];
	const size =
		opts.limit !== undefined
			? Math.max(1, Math.min(opts.limit, opts.pageSize ?? PAGE_SIZE))
			: (opts.pageSize ?? PAGE_SIZE);
	if (style.single) return await readUnpaged(scope, req, style, opts.limit);
	const out: IDataObject[] = [];
	// A record created or deleted between two pages shifts the page boundary: the same record can
	// come again on the next page. Each ID is kept once (items without an ID are all kept).
	const seen = new SeenIds();
	let previousFirst: string | undefined;
	// The page size the server really uses: no maximum is documented, so a server may give
	// fewer items than asked for. The largest page seen so far is taken as its page size, and
	// a list without totals ends only at a page shorter than that (or an empty one).
	let served = 0;
	const getPage = async (page: number) =>
		await apiRequest<IDataObject>(scope, {
			...req,
			qs: { ...(req.qs ?? {}), [style.page]: page, [style.size]: size },
		});
	const ahead = new Map<number, Promise<IDataObject>>();
	const readAhead = (from: number, last: number) => {
		for (let p = from; p <= Math.min(last, from + scope.tuning.paging.readAhead - 1); p++) {
			if (ahead.has(p)) continue;
			const pending = getPage(p);
			pending.catch(() => undefined); // awaited (and thrown) when its turn comes
			ahead.set(p, pending);
		}
	};
	for (let page = 1; ; page++) {
		if (page > scope.tuning.paging.maxPages) throw endlessList(scope, req, out.length);
		const body = await (ahead.get(page) ?? getPage(page));
		ahead.delete(page);
		const raw = body ? style.items(body) : undefined;
		const items = Array.isArray(raw) ? (raw as IDataObject[]) : [];
		if (items.length === 0) break;
		const first = JSON.stringify(items[0]);
		if (page > 1 && first === previousFirst) break;
		previousFirst = first;
		for (const item of items) {
			if (!seen.keep(item)) continue;
			out.push(item);
			if (opts.limit !== undefined && out.length >= opts.limit) return out;
		}
		served = Math.max(served, items.length);
		const pages = style.totalPages?.(body);
		const records = style.totalRecords?.(body);
		if (pages !== undefined) {
			if (page >= pages) break;
			if (opts.limit === undefined) readAhead(page + 1, pages);
		} else if (records !== undefined) {
			if (out.length >= records || page >= Math.ceil(records / served)) break;
			if (opts.limit === undefined) readAhead(page + 1, Math.ceil(records / served));
		} else if (items.length < served) {
			break;
		}
	}
	return out;
}

/**
 * One page of a list (for pickers, which show a page at a time, and polling triggers), read
 * as its style describes. `more`: the totals say another page follows or, without totals,
 * the page was full. `records`: the list's length as the envelope gives it, if it does.
 *
 * The platform documents no maximum page size, so it may serve fewer items than `size`, and it
 * then counts its pages with the size it served. `served` is the largest page a caller that
 * walks the pages has seen so far (0 on its first page): the page size the server really uses.
 * With it, a page shorter than asked is the last one only when it is shorter than `served` too
 * (a list without totals) or when the totals say so; without it (a picker, one page at a
 * time) a short page without totals ends the list.
 */
export async function fetchPage(
	scope: RunScope,
	req: ApiRequest,
	styleName: PageStyle,
	page: number,
	size: number,
	served?: number,
): Promise<{ items: IDataObject[]; more: boolean; records?: number; listed: boolean }> {
	const style = PAGE_STYLES[styleName];
	const body = await apiRequest<IDataObject>(scope, {
		...req,
		qs: { [style.page]: page, [style.size]: size, ...(req.qs ?? {}) },
	});
	const raw = body && typeof body === 'object' ? style.items(body) : undefined;
	// `listed`: the body held a list where the style says (`{}`, `{data: null}` or an HTML page do not).
	const listed = Array.isArray(raw);
	const items = listed ? (raw as IDataObject[]) : [];
	const records = body && typeof body === 'object' ? style.totalRecords?.(body) : undefined;
	if (items.length === 0) return { items, more: false, records, listed };
	const pages = style.totalPages?.(body);
	// The server's page size: what it served on its largest page so far (never more than asked).
	const used = Math.min(size, Math.max(served ?? 0, items.length));
	const more =
		pages !== undefined
			? page < pages
			: records !== undefined
				? page * used < records
				: items.length >= (served === undefined ? size : used);
	return { items, more, records, listed };
}
