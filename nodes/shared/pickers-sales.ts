/**
 * Pickers of the Sales node's deals, activities, pipelines and stages, through the
 * transport (so they refresh tokens and retry like operations).
 */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { apiRequest } from './transport';

const PICKER_PAGE = 50;
/** The deals list has no documented search: pages are read and filtered here, at most this many per call. */
const DEAL_SEARCH_PAGES = 10;
const DEAL_SEARCH_PAGE_SIZE = 100;

import { plainValue } from './fields';

export { plainValue };

const STATUS_WORD: Record<string, string> = { '1': 'won', '2': 'lost' };

function dealLabel(d: IDataObject): string {
	const status = STATUS_WORD[String(d.status)];
	const amount = d.amount !== undefined && d.amount !== null ? ` — ${String(d.amount)} ${String(d.currency_code ?? '')}`.trimEnd() : '';
	return `${String(d.name ?? `Deal ${String(d.id)}`)}${amount}${status ? ` (${status})` : ''}`;
}

/** Deals for a resource locator. Searching matches the name (or the ID) on the pages read. */
export async function searchDeals(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const needle = (filter ?? '').trim().toLowerCase();
	let page = Number(paginationToken ?? 1);
	const results: INodeListSearchResult['results'] = [];
	for (let read = 0; read < (needle ? DEAL_SEARCH_PAGES : 1); read++, page++) {
		const size = needle ? DEAL_SEARCH_PAGE_SIZE : PICKER_PAGE;
		const body = await apiRequest<IDataObject>(this, { method: 'GET', path: '/v1/crm/deals', qs: { page, limit: size, show_closed_deals: true } });
		const data = (body?.data as IDataObject[] | undefined) ?? [];
		for (const d of data) {
			if (needle && !String(d.name ?? '').toLowerCase().includes(needle) && String(d.id) !== needle) continue;
			results.push({ name: dealLabel(d), value: String(d.id) });
		}
		const totalPages = Number(body?.total_pages ?? 0);
		const last = data.length === 0 || (totalPages ? page >= totalPages : data.length < size);
		if (last) return { results };
		if (results.length >= PICKER_PAGE) break;
	}
	return { results, paginationToken: String(page + (results.length >= PICKER_PAGE ? 1 : 0)) };
}

/** Activities for a resource locator, newest first; searching uses the list's `name=` filter. */
export async function searchActivities(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1);
	// The filter language separates filters with commas and keys from values with "=".
	const name = (filter ?? '').replace(/[,=>]/g, ' ').replace(/\s+/g, ' ').trim();
	const body = await apiRequest<IDataObject>(this, {
		method: 'GET',
		path: '/v1/crm/activities',
		qs: { page, pageSize: PICKER_PAGE, sortBy: 'updated_at', sortDir: 'DESC', query: name ? `name=${name}` : undefined },
	});
	const data = (body?.data as IDataObject[] | undefined) ?? [];
	const total = Number((body?.paginationInfo as IDataObject | undefined)?.totalRecords ?? 0);
	return {
		results: data.map((a) => {
			const start = typeof a.start === 'string' ? ` — ${a.start.slice(0, 16).replace('T', ' ')}` : '';
			return { name: `${String(a.name ?? `Activity ${String(a.id)}`)} (${String(a.activity_type ?? 'activity')})${start}`, value: String(a.id) };
		}),
		paginationToken: page * PICKER_PAGE < total ? String(page + 1) : undefined,
	};
}

async function pipelines(ctx: ILoadOptionsFunctions): Promise<IDataObject[]> {
	const list = await apiRequest<unknown>(ctx, { method: 'GET', path: '/v1/crm/deals/pipelines' });
	return Array.isArray(list) ? (list as IDataObject[]) : [];
}

export async function getPipelines(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return (await pipelines(this)).map((p) => ({ name: String(p.name ?? `Pipeline ${String(p.id)}`), value: Number(p.id) })).sort((a, b) => a.name.localeCompare(b.name));
}

/** The chosen pipeline: a sibling field named pipelineId (inside a collection), else the top-level one. */
function chosenPipeline(ctx: ILoadOptionsFunctions): string {
	for (const path of ['&pipelineId', 'pipelineId']) {
		let raw: unknown;
		try {
			raw = ctx.getCurrentNodeParameter(path);
		} catch {
			continue;
		}
		const text = plainValue(raw);
		// An expression cannot be resolved here: then every pipeline's stages are offered.
		if (/^\d+$/.test(text)) return text;
	}
	return '';
}

/**
 * Stages of the chosen pipeline, in their order. When no pipeline is chosen, the
 * stages of every pipeline, each named after its pipeline.
 */
export async function getPipelineStages(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const id = chosenPipeline(this);
	const list = id ? [await apiRequest<IDataObject>(this, { method: 'GET', path: `/v1/crm/deals/pipelines/${id}` })] : await pipelines(this);
	const out: INodePropertyOptions[] = [];
	for (const p of list) {
		const stages = [...((p?.stages as IDataObject[] | undefined) ?? [])].sort((a, b) => Number(a.order ?? 0) - Number(b.order ?? 0));
		for (const s of stages) {
			const kind = s.won_lost_status && s.won_lost_status !== 'open' ? ` (${String(s.won_lost_status)})` : '';
			out.push({
				name: `${id ? '' : `${String(p.name)} / `}${String(s.name ?? `Stage ${String(s.id)}`)}${kind}`,
				value: Number(s.id),
				description: s.deal_probability !== undefined ? `Deal probability ${String(s.deal_probability)}%` : undefined,
			});
		}
	}
	return out;
}
