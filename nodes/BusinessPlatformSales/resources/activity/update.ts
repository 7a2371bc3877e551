/** Activity → Update: PUT /v1/crm/activities/{id}. Change the given fields of an activity (PUT); the others keep their values. */

import type { Operation } from '../../../shared/engine/model';
import { bodyField, requireSomeFields, sortedCollection } from '../../../shared/engine/fields';
import { idFromPath } from '../../../shared/field-values';
import {
	checkTimes,
	dateTime,
	detailFields,
	endProperty,
	idField,
	nameProperty,
	readBack,
	startProperty,
	typeProperty,
} from './common';

export const updateActivity: Operation = {
	value: 'update',
	name: 'Update',
	action: 'Update an activity',
	description: 'Change the given fields of an activity (PUT); the others keep their values',
	method: 'PUT',
	path: '/v1/crm/activities/{id}',
	fields: [
		idField,
		sortedCollection(
			{ displayName: 'Update Fields', name: 'updateFields', placeholder: 'Add Field', default: {} },
			[
				bodyField(nameProperty),
				bodyField(typeProperty, 'activity_type'),
				bodyField(startProperty, 'start', dateTime('Start')),
				bodyField(endProperty, 'end', dateTime('End')),
				...detailFields(),
			],
		),
	],
	why: 'The platform answers without the activity, so it is read back.',
	check: (req, ctx) => {
		requireSomeFields(req.body, ctx);
		if ('name' in req.body && !String(req.body.name).trim())
			throw ctx.fail('Name is empty', 'Give the activity a name, or remove the Name field.');
		checkTimes(req, ctx);
	},
	execute: async (ctx, req) => {
		await ctx.send(req);
		return await readBack(ctx, idFromPath(req.path));
	},
};
