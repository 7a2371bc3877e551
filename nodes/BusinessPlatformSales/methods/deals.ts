/** Pickers of the Sales node for deals, pipelines and stages. */
import type { IDataObject, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { plainValue } from '../../shared/field-values';
import { fetchPage } from '../../shared/pagination';
import {
	listSearch,
	loadOptions,
	matching,
	PICKER_PAGE,
	type PickerScope,
} from '../../shared/pickers';
import { apiRequest } from '../../shared/transport';

/** The deals list has no documented search: pages are read and filtered here, at most this many per call. */
const DEAL_SEARCH_PAGES = 10;
const DEAL_SEARCH_PAGE_SIZE = 100;

const FIRST_PIPELINE: INodePropertyOptions = {
	name: 'First Pipeline',
	value: '',
	description: 'The platform’s first pipeline (the default)',
};
const FIRST_STAGE: INodePropertyOptions = {
	name: 'First Stage',
	value: '',
	description: 'The first stage of the pipeline (the default)',
};

const STATUS_WORD: Record<string, string> = { '1': 'won', '2': 'lost' };

function dealLabel(d: IDataObject): string {
	const status = STATUS_WORD[String(d.status)];
	const amount =
		d.amount !== undefined && d.amount !== null
			? ` — ${String(d.amount)} ${String(d.currency_code ?? '')}`.trimEnd()
			: '';
	return `${String(d.name ?? `Deal ${String(d.id)}`)}${amount}${status ? ` (${status})` : ''}`;
}

/** Deals for a resource locator. Searching matches the name (or the ID) on the pages read. */
export const searchDeals = listSearch(async (scope, filter, paginationToken) => {
	const needle = (filter ?? '').trim().toLowerCase();
	let page = Number(paginationToken ?? 1);
	const results: INodeListSearchResult['results'] = [];
	for (let read = 0; read < (needle ? DEAL_SEARCH_PAGES : 1); read++, page++) {
		const size = needle ? DEAL_SEARCH_PAGE_SIZE : PICKER_PAGE;
		const { items, more } = await fetchPage(
			scope,
			{ method: 'GET', path: '/v1/crm/deals', qs: { show_closed_deals: true } },
			'pageEnvelope',
			page,
			size,
		);
		for (const d of items) {
			if (
				needle &&
				!String(d.name ?? '')
					.toLowerCase()
					.includes(needle) &&
				String(d.id) !== needle
			)
				continue;
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

const pipelineOptions = async (scope: PickerScope): Promise<INodePropertyOptions[]> =>
	(await pipelines(scope))
		.map((p) => ({ name: String(p.name ?? `Pipeline ${String(p.id)}`), value: Number(p.id) }))
		.sort((a, b) => a.name.localeCompare(b.name));

export const getPipelines = loadOptions(pipelineOptions);

/** Version 1's Deal → Create: an empty entry first, so that the empty default (the first pipeline) is a value of the list. */
export const getPipelinesOrFirst = loadOptions(async (scope) => [
	FIRST_PIPELINE,
	...(await pipelineOptions(scope)),
]);

/** Pipelines for a resource locator (version 2), by name. */
export const searchPipelines = listSearch(async (scope, filter) => ({
	results: matching(await pipelineOptions(scope), filter),
}));

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

/** A stage's name, with its won or lost status when the name does not say it already ("Closed (won)", but "Won"). */
function stageName(s: IDataObject): string {
	const name = String(s.name ?? `Stage ${String(s.id)}`);
	const status = String(s.won_lost_status ?? 'open');
	return status !== 'open' && status.toLowerCase() !== name.trim().toLowerCase()
		? `${name} (${status})`
		: name;
}

/**
 * Stages of the chosen pipeline, in their order. When no pipeline is chosen, the
 * stages of every pipeline, each named after its pipeline.
 */
async function stageOptions(scope: PickerScope): Promise<INodePropertyOptions[]> {
	const id = chosenPipeline(scope);
	const list = id
		? [
				await apiRequest<IDataObject>(scope, {
					method: 'GET',
					path: `/v1/crm/deals/pipelines/${id}`,
				}),
			]
		: await pipelines(scope);
	const out: INodePropertyOptions[] = [];
	for (const p of list) {
		const stages = [...((p?.stages as IDataObject[] | undefined) ?? [])].sort(
			(a, b) => Number(a.order ?? 0) - Number(b.order ?? 0),
		);
		for (const s of stages) {
			out.push({
				name: `${id ? '' : `${String(p.name)} / `}${stageName(s)}`,
				value: Number(s.id),
				description:
					s.deal_probability !== undefined
						? `Deal probability ${String(s.deal_probability)}%`
						: undefined,
			});
		}
	}
	return out;
}

export const getPipelineStages = loadOptions(stageOptions);

/** Version 1's Deal → Create: an empty entry first (the pipeline's first stage, the empty default). */
export const getPipelineStagesOrFirst = loadOptions(async (scope) => [
	FIRST_STAGE,
	...(await stageOptions(scope)),
]);

/** Stages for a resource locator (version 2): those of the chosen pipeline, else of every pipeline. */
export const searchPipelineStages = listSearch(async (scope, filter) => ({
	results: matching(await stageOptions(scope), filter),
}));
