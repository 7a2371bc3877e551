/** Campaign categories — /v1/crm/campaign/category. */
import type { IDataObject } from 'n8n-workflow';

import { bodyField, locator, queryField, toIntegerId } from '../../shared/fields';
import type { Field, OpContext, Operation, Resource } from '../../shared/engine/model';
import { getCategories, searchCategories } from '../methods/categories';

const categoryId: Field = {
	property: locator({ name: 'categoryId', displayName: 'Category', search: 'searchCategories', description: 'The category to use' }),
	send: { in: 'path', key: 'id', map: (v, ctx) => toIntegerId(v, 'Category', ctx) },
};

const idFromPath = (path: string) => Number(path.split('/').pop());
const readBack = async (ctx: OpContext, id: number) => await ctx.request<IDataObject>({ method: 'GET', path: `/v1/crm/campaign/category/${id}` });

/** CategoryRequest fields besides the name. The spec's campaignCategoryTitle/Description and publish repeat name, description and is_published: the node sends the documented names only. */
const detailFields = (): Field[] => [
	bodyField({ displayName: 'Description', name: 'description', type: 'string', typeOptions: { rows: 2 }, default: '' }),
	bodyField({ displayName: 'Published', name: 'isPublished', type: 'boolean', default: true, description: 'Whether the category is published (offered when building campaigns)' }, 'is_published'),
	bodyField({ displayName: 'Type', name: 'categoryType', type: 'string', default: 'CAMPAIGN', description: 'Kind of category; the platform uses CAMPAIGN' }, 'category_type'),
	bodyField({ displayName: 'Alias', name: 'alias', type: 'string', default: '', description: 'Short alias of the category' }, 'campaignCategoryAlias'),
];

const ops: Operation[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Create a category',
		description: 'Create a campaign category',
		method: 'POST',
		path: '/v1/crm/campaign/category',
		fields: [
			bodyField({ displayName: 'Name', name: 'name', type: 'string', default: '', required: true }),
			{ property: { displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, options: [] }, children: detailFields() },
		],
		prepare: (req, ctx) => {
			if (!String(req.body.name ?? '').trim()) throw ctx.fail('Name is empty', 'Give the category a name.');
		},
		// The answer is a CreateResponse { id }: the node returns the whole category.
		output: async (answer, ctx) => {
			const id = Number((answer as IDataObject | undefined)?.id ?? (answer as IDataObject | undefined)?.Id);
			return Number.isInteger(id) && id > 0 ? await readBack(ctx, id) : ((answer ?? { success: true }) as IDataObject);
		},
	},
	{
		value: 'get',
		name: 'Get',
		action: 'Get a category',
		description: 'Get one campaign category',
		method: 'GET',
		path: '/v1/crm/campaign/category/{id}',
		fields: [categoryId],
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many categories',
		description: 'List campaign categories, with filters',
		method: 'GET',
		path: '/v1/crm/campaign/category',
		paginate: 'pageEnvelope',
		fields: [
			{
				property: { displayName: 'Filters', name: 'filters', type: 'collection', placeholder: 'Add Filter', default: {}, options: [] },
				children: [
					queryField({ displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Text found in the name or description' }),
					queryField({ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'Text found in the name' }),
					queryField({ displayName: 'Type', name: 'type', type: 'string', default: 'CAMPAIGN', description: 'Only categories of this type, such as CAMPAIGN' }),
				],
			},
		],
	},
	{
		value: 'update',
		name: 'Update',
		action: 'Update a category',
		description: 'Change the given fields of a category; the others keep their values',
		method: 'PATCH',
		path: '/v1/crm/campaign/category/{id}',
		fields: [
			categoryId,
			{
				property: { displayName: 'Update Fields', name: 'updateFields', type: 'collection', placeholder: 'Add Field', default: {}, options: [] },
				children: [bodyField({ displayName: 'Name', name: 'name', type: 'string', default: '' }), ...detailFields()],
			},
		],
		prepare: (req, ctx) => {
			if (Object.keys(req.body).length === 0) throw ctx.fail('Nothing to update', 'Add at least one field under "Update Fields".');
			if ('name' in req.body && !String(req.body.name).trim()) throw ctx.fail('Name is empty', 'A category needs a name: leave the field out to keep the current one.');
		},
		// The PATCH answers 200 without a documented body: the node reads the category back.
		output: async (_a, ctx, req) => await readBack(ctx, idFromPath(req.path)),
	},
	{
		value: 'delete',
		name: 'Delete',
		action: 'Delete a category',
		description: 'Delete a campaign category',
		method: 'DELETE',
		path: '/v1/crm/campaign/category/{id}',
		fields: [categoryId],
		output: (_a, _ctx, req) => ({ deleted: true, id: idFromPath(req.path) }),
	},
];

export const categoryResource: Resource = {
	value: 'category',
	name: 'Category',
	description: 'Categories that group campaigns and email templates',
	operations: ops,
	methods: { listSearch: { searchCategories }, loadOptions: { getCategories } },
};
