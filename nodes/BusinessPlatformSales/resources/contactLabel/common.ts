/** Contact Label: what its operations share. */

import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Field, OpContext } from '../../../shared/engine/model';
import { fromVersion, inVersion1 } from '../../../shared/engine/versions';
import { bodyField, idPath, locator } from '../../../shared/engine/fields';

const labelDropdown: INodeProperties = {
	displayName: 'Label Name or ID',
	name: 'labelId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getContactLabels' },
	default: '',
	required: true,
	description:
		'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
};

/** The label of Get, Update and Delete: version 1's dropdown, version 2's resource locator (loads when opened). */
export const labelIdFields: Field[] = [
	inVersion1(labelDropdown),
	fromVersion(
		2,
		locator({
			name: 'labelId',
			displayName: 'Label',
			search: 'searchContactLabels',
			description: 'The label to use',
		}),
	),
].map((property) => idPath(property, 'Label'));

export const detailFields = (): Field[] => [
	bodyField({
		displayName: 'Color',
		name: 'color',
		type: 'color',
		default: '#1e88e5',
		description: 'Color of the label in the platform',
	}),
	bodyField({
		displayName: 'Icon',
		name: 'icon',
		type: 'string',
		default: '',
		description: 'Name of the icon shown with the label',
	}),
	bodyField(
		{
			displayName: 'Owner ID',
			name: 'ownerId',
			type: 'number',
			default: 0,
			description: 'Sales user who owns the label (0: the connected user)',
		},
		'owner_id',
		(v) => (Number(v) > 0 ? Number(v) : undefined),
	),
];

export const readBack = async (ctx: OpContext, id: number) =>
	await ctx.request<IDataObject>({ method: 'GET', path: `/v1/crm/contacts/labels/${id}` });
