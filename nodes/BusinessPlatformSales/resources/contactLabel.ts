/** Contact labels — /v1/crm/contacts/labels. */
import type { IDataObject } from 'n8n-workflow';

import { bodyField, toIntegerId } from '../../shared/fields';
import type { Field, OpContext, Operation, Resource } from '../../shared/engine/model';
import { getContactLabels } from '../methods/contacts';

const labelId: Field = {
	property: {
		displayName: 'Label Name or ID',
		name: 'labelId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getContactLabels' },
		default: '',
		required: true,
		description: 'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
	},
	send: { in: 'path', key: 'id', map: (v, ctx) => toIntegerId(v, 'Label', ctx) },
};

const detailFields = (): Field[] => [
	bodyField({ displayName: 'Color', name: 'color', type: 'color', default: '#1e88e5', description: 'Color of the label in the platform' }),
	bodyField({ displayName: 'Icon', name: 'icon', type: 'string', default: '', description: 'Name of the icon shown with the label' }),
	bodyField({ displayName: 'Owner ID', name: 'ownerId', type: 'number', default: 0, description: 'Sales user who owns the label (0: the connected user)' }, 'owner_id', (v) => (Number(v) > 0 ? Number(v) : undefined)),
];

const idFromPath = (path: string) => Number(path.split('/').pop());
const readBack = async (ctx: OpContext, id: number) => await ctx.request<IDataObject>({ method: 'GET', path: `/v1/crm/contacts/labels/${id}` });

const ops: Operation[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Create a contact label',
		description: 'Create a label for contacts',
		method: 'POST',
		path: '/v1/crm/contacts/labels',
		fields: [bodyField({ displayName: 'Name', name: 'name', type: 'string', default: '', required: true }), ...detailFields()],
		prepare: (req, ctx) => {
			if (!String(req.body.name ?? '').trim()) throw ctx.fail('Name is empty', 'Give the label a name.');
		},
		output: async (answer, ctx) => await readBack(ctx, Number((answer as { id: number }).id)),
	},
	{
		value: 'get',
		name: 'Get',
		action: 'Get a contact label',
		description: 'Get one contact label',
		method: 'GET',
		path: '/v1/crm/contacts/labels/{id}',
		fields: [labelId],
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many contact labels',
		description: 'List the contact labels',
		method: 'GET',
		path: '/v1/crm/contacts/labels',
		paginate: 'array',
	},
	{
		value: 'update',
		name: 'Update',
		action: 'Update a contact label',
		description: 'Change a label’s name, color, icon or owner',
		method: 'PUT',
		path: '/v1/crm/contacts/labels/{id}',
		fields: [
			labelId,
			{
				property: { displayName: 'Update Fields', name: 'updateFields', type: 'collection', placeholder: 'Add Field', default: {}, options: [] },
				children: [bodyField({ displayName: 'Name', name: 'name', type: 'string', default: '' }), ...detailFields()],
			},
		],
		prepare: (req, ctx) => {
			if (Object.keys(req.body).length === 0) throw ctx.fail('Nothing to update', 'Add at least one field under "Update Fields".');
		},
		output: async (_a, ctx, req) => await readBack(ctx, idFromPath(req.path)),
	},
	{
		value: 'delete',
		name: 'Delete',
		action: 'Delete a contact label',
		description: 'Delete a label; contacts that had it keep no label',
		method: 'DELETE',
		path: '/v1/crm/contacts/labels/{id}',
		fields: [labelId],
		output: (_a, _ctx, req) => ({ deleted: true, id: idFromPath(req.path) }),
	},
];

export const contactLabelResource: Resource = {
	value: 'contactLabel',
	name: 'Contact Label',
	description: 'Labels that group contacts',
	operations: ops,
	methods: { loadOptions: { getContactLabels } },
};
