/** Form → Get Many: GET /v1/crm/campaign/assets/forms. List forms, optionally by a search text. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { queryField } from '../../../shared/engine/fields';
import { formOutput, simplifyForm, withoutMarkup } from './common';

export const getAllForm: Operation = {
	value: 'getAll',
	name: 'Get Many',
	action: 'Get many forms',
	description: 'List forms, optionally by a search text',
	method: 'GET',
	path: '/v1/crm/campaign/assets/forms',
	paginate: 'dataOnly',
	fields: [
		{
			property: {
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
				options: [],
			},
			children: [
				queryField({
					displayName: 'Search',
					name: 'search',
					type: 'string',
					default: '',
					description: 'Text found in the form’s name',
				}),
			],
		},
		{
			property: {
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [],
			},
			children: [
				{
					property: {
						displayName: 'Include Markup',
						name: 'includeMarkup',
						type: 'boolean',
						default: true,
						description:
							'Whether to return each form’s HTML and CSS (its "raw" and "template"), about 0.7 kB per form. Turn it off to list only IDs and names, for example for an AI agent; get one form’s markup with Form → Get.',
					},
				},
			],
		},
	],
	why: 'Each form’s template comes as JSON text, given as JSON when it parses; Include Markup off leaves out the raw HTML and template.',
	execute: async (ctx) => {
		const answer = await ctx.send<IDataObject[] | undefined>(ctx.fromFields());
		const forms = (answer ?? []).map(formOutput);
		return ctx.param<IDataObject>('options', {}).includeMarkup === false
			? forms.map(withoutMarkup)
			: forms;
	},
	simplify: simplifyForm,
};
