/** Category: what its operations share. */

import type { IDataObject } from 'n8n-workflow';

import type { Field, OpContext } from '../../../shared/engine/model';
import { bodyField, idPath, locator } from '../../../shared/engine/fields';

export const categoryId: Field = idPath(
	locator({
		name: 'categoryId',
		displayName: 'Category',
		search: 'searchCategories',
		description: 'The category to use',
	}),
	'Category',
);

export const readBack = async (ctx: OpContext, id: number) =>
	await ctx.request<IDataObject>({ method: 'GET', path: `/v1/crm/campaign/category/${id}` });

/** CategoryRequest fields besides the name. The spec's campaignCategoryTitle/Description and publish repeat name, description and is_published: the node sends the documented names only. */
export const detailFields = (): Field[] => [
	bodyField({
		displayName: 'Description',
		name: 'description',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
	}),
	bodyField(
		{
			displayName: 'Published',
			name: 'isPublished',
			type: 'boolean',
			default: true,
			description: 'Whether the category is published (offered when building campaigns)',
		},
		'is_published',
	),
	bodyField(
		{
			displayName: 'Type',
			name: 'categoryType',
			type: 'string',
			default: 'CAMPAIGN',
			description: 'Kind of category; the platform uses CAMPAIGN',
		},
		'category_type',
	),
	bodyField(
		{
			displayName: 'Alias',
			name: 'alias',
			type: 'string',
			default: '',
			description: 'Short alias of the category',
		},
		'campaignCategoryAlias',
	),
];
