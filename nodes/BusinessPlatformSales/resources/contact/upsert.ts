/** Contact → Create or Update: POST /v1/crm/contacts. Create a new record, or update the current one if it already exists (upsert). */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { collection } from '../../../shared/engine/fields';
import { contactFields, nameField, readBack, requireName, typeField } from './common';
import { echo } from '../../../shared/text-readers';

export const upsertContact: Operation = {
	value: 'upsert',
	name: 'Create or Update',
	action: 'Create or update a contact',
	description: 'Create a new record, or update the current one if it already exists (upsert)',
	method: 'POST',
	path: '/v1/crm/contacts',
	fields: [
		{
			property: {
				displayName: 'Email',
				name: 'email',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
				required: true,
				description:
					'The email that identifies the contact. When a contact has this email it is updated, otherwise one is created. When several contacts have it, the one with the lowest ID is updated.',
			},
		},
		nameField,
		typeField,
		collection(
			{
				displayName: 'Additional Fields',
				name: 'additionalFields',
				placeholder: 'Add Field',
				default: {},
			},
			contactFields().filter((f) => f.property.name !== 'email'),
		),
	],
	// Two items with the same email run one after the other: the second finds what the first created.
	serialKey: (ctx) => String(ctx.param('email', '')).trim().toLowerCase() || undefined,
	why: 'Finds the contact by its email first, then updates it (PATCH) and reads it back, or creates it.',
	check: (req, ctx) => {
		requireName(req.body, ctx);
		const email = String(ctx.param('email', '')).trim();
		if (!/^[^@\s]+@[^@\s]+$/.test(email))
			throw ctx.fail(
				`Email ${echo(email)} is not an email address`,
				'Create or Update finds the contact by its email: give a full address.',
			);
	},
	execute: async (ctx) => {
		const body = ctx.fromFields().body;
		const email = String(ctx.param('email', '')).trim();
		body.email = email;
		const found = await ctx.paginate(
			{ method: 'GET', path: '/v1/crm/contacts', qs: { email } },
			'contacts',
		);
		const matches = found
			.filter((c) => String(c.email ?? '').toLowerCase() === email.toLowerCase())
			.sort((a, b) => Number(a.id) - Number(b.id));
		if (matches.length) {
			const id = Number(matches[0].id);
			await ctx.request({ method: 'PATCH', path: `/v1/crm/contacts/${id}`, body });
			return {
				...(await readBack(ctx, id)),
				upsertAction: 'updated',
				upsertMatches: matches.length,
			};
		}
		const created = await ctx.request<IDataObject>({
			method: 'POST',
			path: '/v1/crm/contacts',
			body,
		});
		return { ...created, upsertAction: 'created', upsertMatches: 0 };
	},
};
