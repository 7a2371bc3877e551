/** Pickers of the Sales node for deals, pipelines and stages. */
import type { IDataObject, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { plainValue } from '../../shared/fields';
import { fetchPage } from '../../shared/pagination';
import { listSearch, loadOptions, PICKER_PAGE, type PickerScope } from '../../shared/pickers';
import { apiRequest } from '../../shared/transport';

/** The deals list has no documented search: pages are read and filtered here, at most this many per call. */
const DEAL_SEARCH_PAGES = 10;
const DEAL_SEARCH_PAGE_SIZE = 100;

const STATUS_WORD: Record<string, string> = { '1': 'won', '2': 'lost' };

function dealLabel(d: IDataObject): string {
	const status = STATUS_WORD[String(d.status)];
	const amount = d.amount !== undefined && d.amount !== null ? ` — ${String(d.amount)} ${String(d.currency_code ?? '')}`.trimEnd() : '';
	return `${String(d.name ?? `Deal ${String(d.id)}`)}${amount}${status ? ` (${status})` : ''}`;
}

/** Deals for a resource locator. Searching matches the name (or the ID) on the pages read. */
export const searchDeals = listSearch(async (scope, filter, paginationToken) => {
	const needle = (filter ?? '').trim().toLowerCase();
	let page = Number(paginationToken ?? 1);
	const results: INodeListSearchResult['results'] = [];
	for (let read = 0; read < (needle ? DEAL_SEARCH_PAGES : 1); read++, page++) {
		const size = needle ? DEAL_SEARCH_PAGE_SIZE : PICKER_PAGE;
		const { items, more } = await fetchPage(scope, { method: 'GET', path: '/v1/crm/deals', qs: { show_closed_deals: true } }, 'pageEnvelope', page, size);
		for (const d of items) {
			if (needle && !String(d.name ?? '').toLowerCase().includes(needle) && String(d.id) !== needle) continue;
			results.push({ name: dealLabel(d), value: String(d.id) });
		}
		if (!more) return { results };
		if (results.length >= PICKER_PAGE) break;
	}
	return { results, paginationToken: String(page + (results.length >= PICKER_PAGE ? 1 : 0)) };
});

async function pipelines(scope: PickerScope): Promise<IDataObject[]> {
	const list = await apiRequest<unknown>(scope, { method: 'GET', path: '/v1/crm/deals/pipelines' });
	return Array.isArray(list) ? (list as IDataObject[]) : [];
}

export const getPipelines = loadOptions(async (scope) =>
	(await pipelines(scope)).map((p) => ({ name: String(p.name ?? `Pipeline ${String(p.id)}`), value: Number(p.id) })).sort((a, b) => a.name.localeCompare(b.name)),
);

/** The chosen pipeline: a sibling field named pipelineId (inside a collection), else the top-level one. */
function chosenPipeline(scope: PickerScope): string {
	for (const path of ['&pipelineId', 'pipelineId']) {
		let raw: unknown;
		try {
			raw = scope.ctx.getCurrentNodeParameter(path);
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
export const getPipelineStages = loadOptions(async (scope) => {
	const id = chosenPipeline(scope);
	const list = id ? [await apiRequest<IDataObject>(scope, { method: 'GET', path: `/v1/crm/deals/pipelines/${id}` })] : await pipelines(scope);
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
});
