/** Activity → Get: GET /v1/crm/activities/{id}. Get one activity. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { idField, simplifyActivity, withPlainNotes } from './common';

export const getActivity: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get an activity',
	description: 'Get one activity',
	method: 'GET',
	path: '/v1/crm/activities/{id}',
	fields: [idField],
	simplify: simplifyActivity,
	why: 'Notes stored as base64 come back as plain text.',
	execute: async (ctx, req) => {
		const answer = await ctx.send(req);
		return withPlainNotes(answer as IDataObject);
	},
};
