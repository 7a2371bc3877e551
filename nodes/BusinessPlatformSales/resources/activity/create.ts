/** Activity → Create: POST /v1/crm/activities. Create a call or a meeting. */

import type { IDataObject } from 'n8n-workflow';

import type { BuiltRequest, OpContext, Operation } from '../../../shared/engine/model';
import { bodyField, sortedCollection } from '../../../shared/engine/fields';
import { toIntegerId } from '../../../shared/field-values';
import {
	checkTimes,
	dateTime,
	detailFields,
	endProperty,
	nameProperty,
	readBack,
	startProperty,
	timeZone,
	typeProperty,
} from './common';

function defaultTimeZone(req: BuiltRequest, ctx: OpContext): void {
	if (req.body.user_timezone === undefined) req.body.user_timezone = timeZone(ctx);
}

export const createActivity: Operation = {
	value: 'create',
	name: 'Create',
	action: 'Create an activity',
	description: 'Create a call or a meeting',
	method: 'POST',
	path: '/v1/crm/activities',
	fields: [
		bodyField({ ...nameProperty, required: true }),
		bodyField(typeProperty, 'activity_type'),
		bodyField({ ...startProperty, required: true }, 'start', dateTime('Start')),
		bodyField({ ...endProperty, required: true }, 'end', dateTime('End')),
		sortedCollection(
			{
				displayName: 'Additional Fields',
				name: 'additionalFields',
				placeholder: 'Add Field',
				default: {},
			},
			detailFields(),
		),
	],
	why: 'Fills the time zone before sending; the platform answers with the ID only, so the activity is read back.',
	check: (req, ctx) => {
		if (!String(req.body.name ?? '').trim())
			throw ctx.fail('Name is empty', 'Give the activity a name.');
		if (!req.body.start)
			throw ctx.fail('Start is empty', 'Give the date and time the activity starts.');
		if (!req.body.end) throw ctx.fail('End is empty', 'Give the date and time the activity ends.');
		checkTimes(req, ctx);
	},
	execute: async (ctx, req) => {
		defaultTimeZone(req, ctx);
		const answer = await ctx.send(req);
		return await readBack(
			ctx,
			toIntegerId((answer as IDataObject | undefined)?.id, 'The created activity’s ID', ctx),
		);
	},
};
