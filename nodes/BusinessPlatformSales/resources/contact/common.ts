/** Contact: what its operations share. */

import type { IDataObject } from 'n8n-workflow';

import type { Field, OpContext } from '../../../shared/engine/model';
import {
	bodyField,
	customFieldsField,
	idPath,
	locator,
	options,
} from '../../../shared/engine/fields';
import { compact, objectAt, toIntegerId, toIntegerIds } from '../../../shared/field-values';
import { userName } from '../../common/users';

export const contactId = locator({
	name: 'contactId',
	displayName: 'Contact',
	search: 'searchContacts',
	description: 'The contact to use',
});

/** The contact of Get, Update, Replace and Delete: its id in the path. */
export const idField: Field = idPath(contactId, 'Contact');

export const CONTACT_TYPES = options([
	['Person', 'person'],
	['Organization', 'organization'],
]);

const VISIBILITY = options([
	['Private', 'private'],
	['Public', 'public'],
	['Team', 'team'],
]);

const optionalId = (label: string) => (v: unknown, ctx: OpContext) =>
	v === '' || v === undefined || v === null || v === 0 ? undefined : toIntegerId(v, label, ctx);

const optionalIds = (label: string) => (v: unknown, ctx: OpContext) =>
	v === '' || v === undefined || v === null ? undefined : toIntegerIds(v, label, ctx);

/** The contact's own details: how to reach it, a note and its logo. */
function profileFields(): Field[] {
	return [
		bodyField({
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
		}),
		bodyField({ displayName: 'Phone', name: 'phone', type: 'string', default: '' }),
		bodyField(
			{
				displayName: 'Country Dial Code',
				name: 'countryCode',
				type: 'string',
				default: '',
				placeholder: '+1',
				description: 'Dial-code prefix of the phone number',
			},
			'country_code',
		),
		bodyField({ displayName: 'Address', name: 'address', type: 'string', default: '' }),
		bodyField({
			displayName: 'Note',
			name: 'note',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
		}),
		bodyField({ displayName: 'Logo URL', name: 'logo', type: 'string', default: '' }),
	];
}

/** How the account files the contact: its label, its owners and who sees it. */
function filingFields(): Field[] {
	return [
		bodyField(
			{
				displayName: 'Label Name or ID',
				name: 'labelId',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getContactLabels' },
				default: '',
				description:
					'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
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
				description:
					'The sales user who owns the contact. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			'owner_id',
			optionalId('Owner'),
		),
		bodyField(
			{
				displayName: 'Visibility',
				name: 'visibilityType',
				type: 'options',
				options: VISIBILITY,
				default: 'public',
			},
			'visibility_type',
		),
		bodyField(
			{
				displayName: 'Visible To (User IDs)',
				name: 'visibilityIds',
				type: 'string',
				default: '',
				description: 'Comma-separated user IDs, when visibility is Team',
			},
			'visibility_ids',
		),
		bodyField(
			{
				displayName: 'Sub-Owner IDs',
				name: 'subOwnerIds',
				type: 'string',
				default: '',
				description: 'Comma-separated IDs of further owners',
			},
			'sub_owner_ids',
			optionalIds('Sub-owner IDs'),
		),
	];
}

/** The contacts it belongs with: a person's organization, an organization's persons. */
function relationFields(): Field[] {
	return [
		bodyField(
			{
				displayName: 'Organization ID',
				name: 'organizationId',
				type: 'string',
				default: '',
				description: 'For a person: the ID of the organization contact they belong to',
			},
			'organization_id',
			optionalId('Organization ID'),
		),
		bodyField(
			{
				displayName: 'Person IDs',
				name: 'personIds',
				type: 'string',
				default: '',
				description: 'For an organization: comma-separated IDs of its person contacts',
			},
			'person_ids',
			optionalIds('Person IDs'),
		),
	];
}

/** The writable contact fields (ContactSaveDto), as the user fills them. */
export function contactFields(): Field[] {
	return [...profileFields(), ...filingFields(), ...relationFields(), customFieldsField('contact')];
}

export const nameField = bodyField({
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	required: true,
	description: 'Full name of the person, or the organization’s name',
});

export const typeField = bodyField({
	displayName: 'Type',
	name: 'type',
	type: 'options',
	options: CONTACT_TYPES,
	default: 'person',
});

export function simplifyContact(c: IDataObject): IDataObject {
	const owner = objectAt(c, 'owner_details');
	return compact({
		id: c.id,
		name: c.name,
		type: c.type,
		email: c.email,
		phone: c.country_code && c.phone ? `${String(c.country_code)} ${String(c.phone)}` : c.phone,
		organization: c.organization_name,
		label: objectAt(c, 'label')?.name,
		owner: owner ? userName(owner) : undefined,
		customFields: c.c_field && Object.keys(c.c_field as object).length ? c.c_field : undefined,
		updatedAt: c.updated_at,
	});
}

/** Reads a contact after a write whose answer has no body (the platform answers 201 without one). */
export async function readBack(ctx: OpContext, id: number): Promise<IDataObject> {
	return await ctx.request<IDataObject>({ method: 'GET', path: `/v1/crm/contacts/${id}` });
}

/** A blank name is refused before sending (the platform would store it). */
export function requireName(body: IDataObject, ctx: OpContext): void {
	if (!String(body.name ?? '').trim())
		throw ctx.fail('Name is empty', 'Give the person’s full name, or the organization’s name.');
}
