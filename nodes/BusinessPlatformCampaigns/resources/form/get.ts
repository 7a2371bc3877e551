/** Form → Get: GET /v1/crm/campaign/assets/forms/{id}. Get one form with its markup and editor description. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { formId, formOutput, simplifyForm } from './common';

export const getForm: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get a form',
	description: 'Get one form with its markup and editor description',
	method: 'GET',
	path: '/v1/crm/campaign/assets/forms/{id}',
	fields: [formId],
	why: 'The form’s template comes as JSON text: the output gives it as JSON when it parses.',
	execute: async (ctx) =>
		formOutput((await ctx.send<IDataObject | undefined>(ctx.fromFields())) ?? {}),
	simplify: simplifyForm,
};
