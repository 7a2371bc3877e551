/** Contacts: persons and organizations — /v1/crm/contacts. */
import type { IDataObject } from 'n8n-workflow';

import { bodyField, collection, compact, customFieldsField, locator, options, queryField, toIntegerId, toIntegerIds } from '../../shared/fields';
import type { Field, OpContext, Operation, Resource } from '../../shared/engine/model';
import { buildRequest } from '../../shared/engine/request';
import { getContactLabels, getOwners, searchContacts } from '../methods/contacts';

const contactId = locator({ name: 'contactId', displayName: 'Contact', search: 'searchContacts', description: 'The contact to use' });

const CONTACT_TYPES = options([
	['Person', 'person'],
	['Organization', 'organization'],
]);
const VISIBILITY = options([
	['Private', 'private'],
	['Public', 'public'],
	['Team', 'team'],
]);

const optionalId = (label: string) => (v: unknown, ctx: OpContext) => (v === '' || v === undefined || v === null || v === 0 ? undefined : toIntegerId(v, label, ctx));
const optionalIds = (label: string) => (v: unknown, ctx: OpContext) => (v === '' || v === undefined || v === null ? undefined : toIntegerIds(v, label, ctx));

/** The writable contact fields (ContactSaveDto), as the user fills them. */
function contactFields(): Field[] {
	return [
		bodyField({ displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@email.com', default: '' }),
		bodyField({ displayName: 'Phone', name: 'phone', type: 'string', default: '' }),
		bodyField({ displayName: 'Country Dial Code', name: 'countryCode', type: 'string', default: '', placeholder: '+1', description: 'Dial-code prefix of the phone number' }, 'country_code'),
		bodyField({ displayName: 'Address', name: 'address', type: 'string', default: '' }),
		bodyField({ displayName: 'Note', name: 'note', type: 'string', typeOptions: { rows: 3 }, default: '' }),
		bodyField({ displayName: 'Logo URL', name: 'logo', type: 'string', default: '' }),
		bodyField(
			{
				displayName: 'Label Name or ID',
				name: 'labelId',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getContactLabels' },
				default: '',
				description: 'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
			},
			'label_id',
			optionalId('Label'),
		),
		bodyField(
			{
				displayName: 'Owner Name or ID',
				name: 'ownerId',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getOwners' },
				default: '',
				description: 'The sales user who owns the contact. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			'owner_id',
			optionalId('Owner'),
		),
		bodyField({ displayName: 'Visibility', name: 'visibilityType', type: 'options', options: VISIBILITY, default: 'public' }, 'visibility_type'),
		bodyField({ displayName: 'Visible To (User IDs)', name: 'visibilityIds', type: 'string', default: '', description: 'Comma-separated user IDs, when visibility is Team' }, 'visibility_ids'),
		bodyField({ displayName: 'Sub-Owner IDs', name: 'subOwnerIds', type: 'string', default: '', description: 'Comma-separated IDs of further owners' }, 'sub_owner_ids', optionalIds('Sub-owner IDs')),
		bodyField(
			{ displayName: 'Organization ID', name: 'organizationId', type: 'string', default: '', description: 'For a person: the ID of the organization contact they belong to' },
			'organization_id',
			optionalId('Organization ID'),
		),
		bodyField({ displayName: 'Person IDs', name: 'personIds', type: 'string', default: '', description: 'For an organization: comma-separated IDs of its person contacts' }, 'person_ids', optionalIds('Person IDs')),
		customFieldsField('contact'),
	];
}

const nameField = bodyField({ displayName: 'Name', name: 'name', type: 'string', default: '', required: true, description: 'Full name of the person, or the organization’s name' });
const typeField = bodyField({ displayName: 'Type', name: 'type', type: 'options', options: CONTACT_TYPES, default: 'person' });

export function simplifyContact(c: IDataObject): IDataObject {
	const label = c.label as IDataObject | null | undefined;
	const owner = c.owner_details as IDataObject | null | undefined;
	return compact({
		id: c.id,
		name: c.name,
		type: c.type,
		email: c.email,
		phone: c.country_code && c.phone ? `${String(c.country_code)} ${String(c.phone)}` : c.phone,
		organization: c.organization_name,
		label: label?.name,
		owner: owner ? `${String(owner.first_name ?? '')} ${String(owner.last_name ?? '')}`.trim() : undefined,
		customFields: c.c_field && Object.keys(c.c_field as object).length ? c.c_field : undefined,
		updatedAt: c.updated_at,
	});
}

/** Reads a contact after a write whose answer has no body (the platform answers 201 without one). */
async function readBack(ctx: OpContext, id: number): Promise<IDataObject> {
	return await ctx.request<IDataObject>({ method: 'GET', path: `/v1/crm/contacts/${id}` });
}

function requireSomeFields(body: IDataObject, ctx: OpContext): void {
	if (Object.keys(body).length === 0) throw ctx.fail('Nothing to update', 'Add at least one field under "Update Fields".');
}

/** A blank name is refused before sending (the platform would store it). */
function requireName(body: IDataObject, ctx: OpContext): void {
	if (!String(body.name ?? '').trim()) throw ctx.fail('Name is empty', 'Give the person’s full name, or the organization’s name.');
}

const ops: Operation[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Create a contact',
		description: 'Create a person or organization contact',
		method: 'POST',
		path: '/v1/crm/contacts',
		fields: [nameField, typeField, collection({ displayName: 'Additional Fields', name: 'additionalFields', placeholder: 'Add Field', default: {} }, contactFields())],
		prepare: (req, ctx) => requireName(req.body, ctx),
	},
	{
		value: 'upsert',
		name: 'Create or Update',
		action: 'Create or update a contact',
		description: 'Create a new record, or update the current one if it already exists (upsert)',
		method: 'POST',
		path: '/v1/crm/contacts',
		fields: [
			{ property: { displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@email.com', default: '', required: true, description: 'The email that identifies the contact. When a contact has this email it is updated, otherwise one is created. When several contacts have it, the one with the lowest ID is updated.' } },
			nameField,
			typeField,
			collection({ displayName: 'Additional Fields', name: 'additionalFields', placeholder: 'Add Field', default: {} }, contactFields().filter((f) => f.property.name !== 'email')),
		],
		prepare: async (req, ctx) => {
			requireName(req.body, ctx);
			const email = String(ctx.param('email', '')).trim();
			if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw ctx.fail(`Email "${email}" is not an email address`, 'Create or Update finds the contact by its email: give a full address.');
			req.body.email = email;
		},
		run: async (ctx) => {
			const req = await buildRequest(ctx.operation, ctx);
			const body = req.body;
			const email = String(body.email);
			const found = await ctx.paginate({ method: 'GET', path: '/v1/crm/contacts', qs: { email } }, 'contacts');
			const matches = found.filter((c) => String(c.email ?? '').toLowerCase() === email.toLowerCase()).sort((a, b) => Number(a.id) - Number(b.id));
			if (matches.length) {
				const id = Number(matches[0].id);
				await ctx.request({ method: 'PATCH', path: `/v1/crm/contacts/${id}`, body });
				return { ...(await readBack(ctx, id)), upsertAction: 'updated', upsertMatches: matches.length };
			}
			const created = await ctx.request<IDataObject>({ method: 'POST', path: '/v1/crm/contacts', body });
			return { ...created, upsertAction: 'created', upsertMatches: 0 };
		},
	},
	{
		value: 'get',
		name: 'Get',
		action: 'Get a contact',
		description: 'Get one contact',
		method: 'GET',
		path: '/v1/crm/contacts/{id}',
		fields: [{ property: contactId, send: { in: 'path', key: 'id', map: (v, ctx) => toIntegerId(v, 'Contact', ctx) } }],
		simplify: simplifyContact,
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many contacts',
		description: 'List contacts, with filters',
		method: 'GET',
		path: '/v1/crm/contacts',
		paginate: 'contacts',
		simplify: simplifyContact,
		fields: [
			collection({ displayName: 'Filters', name: 'filters', placeholder: 'Add Filter', default: {} }, [
				queryField({ displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Text found in the name, email or phone' }),
				queryField({ displayName: 'Type', name: 'type', type: 'options', options: CONTACT_TYPES, default: 'person' }),
				queryField({ displayName: 'Name', name: 'name', type: 'string', default: '' }),
				queryField({ displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@email.com', default: '' }),
				queryField({ displayName: 'Phone', name: 'phone', type: 'string', default: '' }),
				queryField({ displayName: 'Contact IDs', name: 'contactIds', type: 'string', default: '', description: 'Comma-separated contact IDs' }, 'contact_ids', (v, ctx) =>
					v ? toIntegerIds(v, 'Contact IDs', ctx).join(',') : undefined,
				),
				queryField({ displayName: 'Only With Email', name: 'containsEmail', type: 'boolean', default: true, description: 'Whether to return only contacts that have an email address' }, 'contains_email'),
			]),
			collection({ displayName: 'Options', name: 'options', placeholder: 'Add Option', default: {} }, [
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
				queryField({ displayName: 'Sort Order', name: 'order', type: 'options', options: options([['Ascending', 'asc'], ['Descending', 'desc']]), default: 'desc' }),
				queryField(
					{ displayName: 'Fields', name: 'columns', type: 'string', default: '', description: 'Comma-separated fields to return (the ID always comes back), e.g. name,email' },
					'columns',
					(v) => (v ? String(v).split(',').map((s) => s.trim()).filter(Boolean) : undefined),
				),
			]),
		],
	},
	{
		value: 'getMany',
		name: 'Get Many by IDs',
		action: 'Get contacts by IDs',
		description: 'Get several contacts at once by their IDs',
		method: 'POST',
		path: '/v1/crm/contacts/multiple',
		// Only reads: safe to repeat after a 5xx or a dropped connection.
		idempotent: true,
		simplify: simplifyContact,
		fields: [bodyField({ displayName: 'Contact IDs', name: 'contactIds', type: 'string', default: '', required: true, description: 'Comma-separated contact IDs' }, 'contact_ids', (v, ctx) => toIntegerIds(v, 'Contact IDs', ctx))],
	},
	{
		value: 'update',
		name: 'Update',
		action: 'Update a contact',
		description: 'Change the given fields of a contact; the others keep their values (PATCH)',
		method: 'PATCH',
		path: '/v1/crm/contacts/{id}',
		fields: [
			{ property: contactId, send: { in: 'path', key: 'id', map: (v, ctx) => toIntegerId(v, 'Contact', ctx) } },
			collection({ displayName: 'Update Fields', name: 'updateFields', placeholder: 'Add Field', default: {} }, [
				bodyField({ displayName: 'Name', name: 'name', type: 'string', default: '' }),
				bodyField({ displayName: 'Type', name: 'type', type: 'options', options: CONTACT_TYPES, default: 'person' }),
				...contactFields(),
			]),
		],
		prepare: (req, ctx) => {
			requireSomeFields(req.body, ctx);
			if ('name' in req.body) requireName(req.body, ctx);
		},
		output: async (_a, ctx, req) => await readBack(ctx, Number(req.path.split('/').pop())),
	},
	{
		value: 'replace',
		name: 'Replace',
		action: 'Replace a contact',
		description: 'Replace the whole contact (PUT): fields you leave out are cleared',
		method: 'PUT',
		path: '/v1/crm/contacts/{id}',
		fields: [
			{ property: contactId, send: { in: 'path', key: 'id', map: (v, ctx) => toIntegerId(v, 'Contact', ctx) } },
			nameField,
			typeField,
			collection({ displayName: 'Additional Fields', name: 'additionalFields', placeholder: 'Add Field', default: {} }, contactFields()),
		],
		prepare: (req, ctx) => requireName(req.body, ctx),
		output: async (_a, ctx, req) => await readBack(ctx, Number(req.path.split('/').pop())),
	},
	{
		value: 'delete',
		name: 'Delete',
		action: 'Delete a contact',
		description: 'Delete a contact',
		method: 'DELETE',
		path: '/v1/crm/contacts/{id}',
		fields: [{ property: contactId, send: { in: 'path', key: 'id', map: (v, ctx) => toIntegerId(v, 'Contact', ctx) } }],
		output: (_a, _ctx, req) => ({ deleted: true, id: Number(req.path.split('/').pop()) }),
	},
	{
		value: 'bulkUpdate',
		name: 'Bulk Update',
		action: 'Update many contacts at once',
		description: 'Set the label, owner or visibility of several contacts in one request',
		method: 'PATCH',
		path: '/v1/crm/contacts',
		fields: [
			bodyField({ displayName: 'Contact IDs', name: 'contactIds', type: 'string', default: '', required: true, description: 'Comma-separated contact IDs' }, 'ids', (v, ctx) => toIntegerIds(v, 'Contact IDs', ctx)),
			collection(
				{ displayName: 'Update Fields', name: 'updateFields', placeholder: 'Add Field', default: {} },
				contactFields().filter((f) => ['labelId', 'ownerId', 'visibilityType', 'visibilityIds'].includes(f.property.name)),
			),
		],
		prepare: (req, ctx) => {
			const { ids, ...rest } = req.body;
			requireSomeFields(rest, ctx);
			void ids;
		},
		output: (_a, _ctx, req) => (req.body.ids as number[]).map((id) => ({ id, updated: true })),
	},
];

export const contactResource: Resource = {
	value: 'contact',
	name: 'Contact',
	description: 'Persons and organizations',
	operations: ops,
	methods: { listSearch: { searchContacts }, loadOptions: { getContactLabels, getOwners } },
};
