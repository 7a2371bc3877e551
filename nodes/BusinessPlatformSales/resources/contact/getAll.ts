/** Contact → Get Many: GET /v1/crm/contacts. List contacts, with filters. */

import type { Operation } from '../../../shared/engine/model';
import { defaultOutput } from '../../../shared/engine/output';

import { collection, options, queryField } from '../../../shared/engine/fields';
import { toIntegerIds } from '../../../shared/field-values';
import { CONTACT_TYPES, simplifyContact } from './common';

export const getAllContact: Operation = {
	value: 'getAll',
	name: 'Get Many',
	action: 'Get many contacts',
	description: 'List contacts, with filters',
	method: 'GET',
	path: '/v1/crm/contacts',
	paginate: 'contacts',
	simplify: simplifyContact,
	// Return All without a chosen order pages oldest first: a contact created meanwhile lands on the
	// last page instead of shifting every page boundary (newest first would repeat one and skip it).
	why: 'Return All without a chosen order pages oldest first, so contacts created during the walk do not shift the pages.',
	execute: async (ctx, req) => {
		if (
			ctx.param<boolean>('returnAll', false) &&
			req.qs.orderBy === undefined &&
			req.qs.order === undefined
		)
			Object.assign(req.qs, { orderBy: 'created_at', order: 'asc' });
		return defaultOutput(await ctx.send(req));
	},

	fields: [
		collection(
			{ displayName: 'Filters', name: 'filters', placeholder: 'Add Filter', default: {} },
			[
				queryField({
					displayName: 'Search',
					name: 'search',
					type: 'string',
					default: '',
					description: 'Text found in the name, email or phone',
				}),
				queryField({
					displayName: 'Type',
					name: 'type',
					type: 'options',
					options: CONTACT_TYPES,
					default: 'person',
				}),
				queryField({ displayName: 'Name', name: 'name', type: 'string', default: '' }),
				queryField({
					displayName: 'Email',
					name: 'email',
					type: 'string',
					placeholder: 'name@email.com',
					default: '',
				}),
				queryField({ displayName: 'Phone', name: 'phone', type: 'string', default: '' }),
				queryField(
					{
						displayName: 'Contact IDs',
						name: 'contactIds',
						type: 'string',
						default: '',
						description: 'Comma-separated contact IDs',
					},
					'contact_ids',
					(v, ctx) => (v ? toIntegerIds(v, 'Contact IDs', ctx).join(',') : undefined),
				),
				queryField(
					{
						displayName: 'Only With Email',
						name: 'containsEmail',
						type: 'boolean',
						default: true,
						description: 'Whether to return only contacts that have an email address',
					},
					'contains_email',
				),
			],
		),
		collection(
			{ displayName: 'Options', name: 'options', placeholder: 'Add option', default: {} },
			[
				queryField(
					{
						displayName: 'Sort By',
						name: 'orderBy',
						type: 'options',
						options: options([
							['Created At', 'created_at'],
							['Email', 'email'],
							['Name', 'name'],
							['Updated At', 'updated_at'],
						]),
						default: 'created_at',
					},
					'orderBy',
				),
				queryField({
					displayName: 'Sort Order',
					name: 'order',
					type: 'options',
					options: options([
						['Ascending', 'asc'],
						['Descending', 'desc'],
					]),
					default: 'desc',
				}),
				queryField(
					{
						displayName: 'Fields',
						name: 'columns',
						type: 'string',
						default: '',
						description:
							'Comma-separated fields to return (the ID always comes back), e.g. name,email',
					},
					'columns',
					(v) =>
						v
							? String(v)
									.split(',')
									.map((s) => s.trim())
									.filter(Boolean)
							: undefined,
				),
			],
		),
	],
};
