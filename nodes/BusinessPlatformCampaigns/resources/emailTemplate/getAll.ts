/** Email Template → Get Many: GET /v1/crm/campaign/email-templates. List email templates, with filters. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { queryField } from '../../../shared/engine/fields';
import { categoryField, simplifyTemplate, templateOutput } from './common';

export const getAllEmailTemplate: Operation = {
	value: 'getAll',
	name: 'Get Many',
	action: 'Get many email templates',
	description: 'List email templates, with filters',
	method: 'GET',
	path: '/v1/crm/campaign/email-templates',
	paginate: 'pageEnvelope',
	simplify: simplifyTemplate,
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
					description: 'Text found in the template’s name',
				}),
				categoryField(false),
				queryField(
					{
						displayName: 'Default Templates',
						name: 'isDefault',
						type: 'boolean',
						default: true,
						description:
							'Whether to return only the platform’s default templates (on) or only the others (off)',
					},
					'default',
				),
				queryField(
					{
						displayName: 'Only Mine',
						name: 'myTemplate',
						type: 'boolean',
						default: true,
						description: 'Whether to return only templates of the connected user',
					},
					'my_template',
					(v) => (v === true ? true : undefined),
				),
				queryField(
					{
						displayName: 'Owner ID',
						name: 'ownerId',
						type: 'number',
						default: 0,
						description: 'Only templates of this sales user',
					},
					'ownerId',
					(v) => (Number(v) > 0 ? Number(v) : undefined),
				),
			],
		},
	],
	why: 'Each template’s editor JSON comes URL-encoded: the output gives it decoded.',
	execute: async (ctx) =>
		((await ctx.send<IDataObject[] | undefined>(ctx.fromFields())) ?? []).map(templateOutput),
};
