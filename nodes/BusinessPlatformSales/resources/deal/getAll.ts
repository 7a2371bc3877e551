/** Deal → Get Many: GET /v1/crm/deals. List deals, with filters. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import {
	contactLocator,
	dealReader,
	INFO_AS_TEXT,
	optionalId,
	optionalIds,
	pipelineProperty,
	simplifyDeal,
} from './common';
import { sortedCollection } from '../../../shared/engine/fields';

export const getAllDeal: Operation = {
	value: 'getAll',
	name: 'Get Many',
	action: 'Get many deals',
	description: 'List deals, with filters',
	method: 'GET',
	path: '/v1/crm/deals',
	paginate: 'pageEnvelope',
	simplify: simplifyDeal,
	fields: [
		sortedCollection(
			{ displayName: 'Filters', name: 'filters', placeholder: 'Add Filter', default: {} },
			[
				{
					property: pipelineProperty('Only deals in this pipeline'),
					send: { in: 'query', key: 'pipeline_id', map: optionalId('Pipeline') },
				},
				{
					property: contactLocator(
						'contactId',
						'Contact',
						'Only deals of this person or organization contact',
					),
					send: {
						in: 'query',
						key: 'contact_id',
						map: (v, ctx) => optionalId('Contact')(v, ctx)?.toString(),
					},
				},
				{
					property: {
						displayName: 'Deal IDs',
						name: 'dealIds',
						type: 'string',
						default: '',
						description: 'Only these deals: comma-separated IDs',
					},
					send: {
						in: 'query',
						key: 'deal_ids',
						map: (v, ctx) => optionalIds('Deal IDs')(v, ctx)?.join(','),
					},
				},
				{
					property: {
						displayName: 'Include Closed Deals',
						name: 'showClosedDeals',
						type: 'boolean',
						default: true,
						description:
							'Whether to include won and lost deals (the platform leaves them out unless asked)',
					},
					send: { in: 'query', key: 'show_closed_deals' },
				},
			],
		),
		sortedCollection(
			{ displayName: 'Options', name: 'options', placeholder: 'Add option', default: {} },
			[
				{
					property: {
						displayName: 'Include Summary',
						name: 'includeSummary',
						type: 'boolean',
						default: true,
						description:
							'Whether to ask the platform for its summary of all matching deals (deal_summary) and add it to every output deal as "summary"',
					},
				},
				{ property: INFO_AS_TEXT },
			],
		),
	],
	why: 'The contact, organization and owner info come as JSON text and are given as objects (version 2); Include Summary asks the platform for the summary in one more request.',
	execute: async (ctx, req) => {
		const answer = await ctx.send(req);
		const deals = (answer as IDataObject[]).map(dealReader(ctx));
		if (!ctx.param<IDataObject>('options', {}).includeSummary || deals.length === 0) return deals;
		const body = await ctx.request<IDataObject>({
			method: 'GET',
			path: req.path,
			qs: { ...req.qs, deal_summary: true, page: 1, limit: 1 },
		});
		const summary = (body?.summary as IDataObject | undefined) ?? null;
		return deals.map((d) => ({ ...d, summary }));
	},
};
