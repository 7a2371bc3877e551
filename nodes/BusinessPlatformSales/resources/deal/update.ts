/** Deal → Update: PUT /v1/crm/deals/{id}. Change the given fields of a deal (PUT); the others keep their values. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { bodyField, requireSomeFields, sortedCollection } from '../../../shared/engine/fields';
import { idFromPath } from '../../../shared/field-values';
import {
	detailFields,
	idField,
	optionalId,
	pipelineProperty,
	readBack,
	stageProperty,
} from './common';

export const updateDeal: Operation = {
	value: 'update',
	name: 'Update',
	action: 'Update a deal',
	description: 'Change the given fields of a deal (PUT); the others keep their values',
	method: 'PUT',
	path: '/v1/crm/deals/{id}',
	fields: [
		idField,
		sortedCollection(
			{ displayName: 'Update Fields', name: 'updateFields', placeholder: 'Add Field', default: {} },
			[
				bodyField({ displayName: 'Name', name: 'name', type: 'string', default: '' }),
				bodyField(
					pipelineProperty(
						'Move the deal to this pipeline (to its first stage, unless a stage is given)',
					),
					'pipeline_id',
					optionalId('Pipeline'),
				),
				bodyField(
					stageProperty('updateFields.pipelineId', 'Move the deal to this stage'),
					'stage_id',
					optionalId('Stage'),
				),
				...detailFields(),
			],
		),
	],
	why: 'Custom fields are merged into the deal’s current list (read first), and the deal is read back.',
	check: (req, ctx) => {
		requireSomeFields(req.body, ctx);
		if ('name' in req.body && !String(req.body.name).trim())
			throw ctx.fail('Name is empty', 'Give the deal a name, or remove the Name field.');
	},
	execute: async (ctx, req) => {
		const given = req.body.custom_field as IDataObject[] | undefined;
		if (given) {
			// The update model carries custom_field as text: the deal's whole list, so that
			// fields not named here keep their values.
			const current = await readBack(ctx, idFromPath(req.path));
			const list = Array.isArray(current.custom_field)
				? [...(current.custom_field as IDataObject[])]
				: [];
			for (const f of given) {
				const at = list.findIndex(
					(c) => (c.shortName && c.shortName === f.shortName) || (c.code && c.code === f.code),
				);
				if (at >= 0) list[at] = { ...list[at], ...f };
				else list.push(f);
			}
			req.body.custom_field = JSON.stringify(list);
		}
		await ctx.send(req);
		return await readBack(ctx, idFromPath(req.path));
	},
};
