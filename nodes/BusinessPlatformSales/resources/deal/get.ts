/** Deal → Get: GET /v1/crm/deals/{id}. Get one deal. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { dealOptionsField, idField, readableDeal, simplifyDeal } from './common';

export const getDeal: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get a deal',
	description: 'Get one deal',
	method: 'GET',
	path: '/v1/crm/deals/{id}',
	fields: [idField, dealOptionsField()],
	why: 'The contact, organization and owner info come as JSON text and are given as objects (version 2).',
	execute: async (ctx, req) => {
		const answer = await ctx.send(req);
		return readableDeal(answer as IDataObject, ctx);
	},
	simplify: simplifyDeal,
};
