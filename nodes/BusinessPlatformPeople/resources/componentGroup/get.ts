/** Component Group → Get: GET /v1/people/tenants/component-group. Get one component group by its ID. */

import type { IDataObject } from 'n8n-workflow';

import type { Field, Operation } from '../../../shared/engine/model';
import { int64ToNumbers } from '../common';
import { groupId, PATH } from './common';
import { echo } from '../../../shared/text-readers';

const flag = (displayName: string, name: string, description: string): Field => ({
	property: { displayName, name, type: 'boolean', default: true, description },
	send: { in: 'query' },
});

export const getComponentGroup: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get a component group',
	description: 'Get one component group by its ID',
	method: 'GET',
	path: PATH,
	regional: true,
	fields: [
		groupId('id', 'query'),
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
				flag('Get Components', 'getComponents', 'Whether to include the components'),
				flag('Get Benefits', 'getBenefits', 'Whether to include the benefits'),
				flag('Get Compliance', 'getCompliance', 'Whether to include compliance data'),
			],
		},
	],
	why: 'The platform answers with a list of groups: the output is the group asked for (its int64 numbers as numbers), and a missing one fails the item.',
	execute: async (ctx, req) => {
		const answer = await ctx.send<IDataObject | undefined>(req);
		const a = int64ToNumbers(answer ?? {});
		const list = (a.componentGroups as IDataObject[] | undefined) ?? [];
		const found =
			list.find((g) => String(g.id) === String(req.qs.id)) ??
			(list.length === 1 ? list[0] : undefined);
		if (!found)
			throw ctx.fail(
				`Component group ${echo(String(req.qs.id), 60)} was not found`,
				'Check the ID of the component group.',
			);
		return found;
	},
};
