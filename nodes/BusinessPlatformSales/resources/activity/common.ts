/** Activity: what its operations share. */

import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { BuiltRequest, Field, OpContext } from '../../../shared/engine/model';
import { fromVersion } from '../../../shared/engine/versions';
import { bodyField, idPath, locator, options } from '../../../shared/engine/fields';
import {
	compact,
	objectAt,
	plainValue,
	toIntegerId,
	toIntegerIds,
	toUtcIso,
} from '../../../shared/field-values';
import { userName } from '../../common/users';

const activityId = locator({
	name: 'activityId',
	displayName: 'Activity',
	search: 'searchActivities',
	description: 'The activity to use',
});

export const idField: Field = idPath(activityId, 'Activity');

export const ACTIVITY_TYPES = options([
	['Call', 'call'],
	['Meeting', 'meeting'],
]);

export const VISIBILITY = options([
	['Private', 'private'],
	['Public', 'public'],
	['Team', 'team'],
]);

export const DONE = options([
	['Done', 'done'],
	['Not Done', 'open'],
]);

const IDS_DESCRIPTION = 'Comma-separated IDs';

// ------------------------------------------------------------ encodings --

/** Plain text → the base64 text the platform stores (UTF-8). */
export const encodeNotes = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

/** Base64 notes → plain text; text that is not base64 is returned as it is. */
export function decodeNotes(value: unknown): unknown {
	if (typeof value !== 'string' || value === '') return value;
	const compactText = value.replace(/\s+/g, '');
	if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compactText) || compactText.length % 4 !== 0) return value;
	const bytes = Buffer.from(compactText, 'base64');
	if (bytes.toString('base64') !== compactText) return value;
	const text = bytes.toString('utf8');
	// Invalid UTF-8 decodes to U+FFFD: then it was not text, keep what was stored.
	return text.includes('\uFFFD') ? value : text;
}

export const withPlainNotes = (a: IDataObject): IDataObject =>
	'notes' in a ? { ...a, notes: decodeNotes(a.notes) as IDataObject[string] } : a;

export const timeZone = (ctx: OpContext) => ctx.fn.getTimezone();

const optionalIds = (label: string) => (v: unknown, ctx: OpContext) =>
	v === '' || v === undefined || v === null || (Array.isArray(v) && v.length === 0)
		? undefined
		: toIntegerIds(v, label, ctx);

/** A resource locator inside a collection arrives as its object: read its value. */
const optionalLocatorId = (label: string) => (v: unknown, ctx: OpContext) => {
	const text = plainValue(v);
	return text === '' ? undefined : toIntegerId(text, label, ctx);
};

export const dateTime = (label: string) => (v: unknown, ctx: OpContext) =>
	toUtcIso(v, label, ctx, timeZone(ctx));

// --------------------------------------------------------------- fields --
/** A list of contact ids; merged with the picked contact (version 2) under the same key. */
const idsField = (property: INodeProperties, key: string, label: string): Field => ({
	property,
	send: { in: 'body', key, merge: true, map: optionalIds(label) },
});

/** Version 2: one contact picked from the list, added to the ids under `key`. */
const participantPicker = (
	name: string,
	displayName: string,
	description: string,
	key: string,
): Field => ({
	property: fromVersion(2, {
		...locator({ name, displayName, search: 'searchContacts', required: false }),
		description,
	}),
	send: {
		in: 'body',
		key,
		merge: true,
		map: (v, ctx) => (plainValue(v) === '' ? undefined : [toIntegerId(v, displayName, ctx)]),
	},
});

export const dealLocator = (name: string, description: string): INodeProperties => ({
	...locator({ name, displayName: 'Deal', search: 'searchDeals', required: false }),
	description,
});

const assigneesProperty: INodeProperties = {
	displayName: 'Assignee Names or IDs',
	name: 'assigneeIds',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getOwners' },
	default: [],
	description:
		'Sales users the activity is assigned to. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

/** The notes, sent base64-encoded as the platform stores them. */
const notesField = (): Field =>
	bodyField(
		{
			displayName: 'Notes',
			name: 'notes',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			description: 'Plain text; the node encodes it as the platform expects',
		},
		'notes',
		(v) => (v === undefined || v === null || v === '' ? undefined : encodeNotes(String(v))),
	);

/** Who and what the activity involves: its contacts and organizations, assignees, the deal. */
function participantFields(): Field[] {
	return [
		idsField(
			{
				displayName: 'Contact IDs',
				name: 'contactIds',
				type: 'string',
				default: '',
				description: `${IDS_DESCRIPTION} of the person contacts taking part`,
			},
			'contact_ids',
			'Contact IDs',
		),
		idsField(
			{
				displayName: 'Organization IDs',
				name: 'organizationIds',
				type: 'string',
				default: '',
				description: `${IDS_DESCRIPTION} of the organization contacts taking part`,
			},
			'organization_ids',
			'Organization IDs',
		),
		participantPicker(
			'contactId',
			'Contact',
			'A person contact taking part (more: Contact IDs)',
			'contact_ids',
		),
		participantPicker(
			'organizationId',
			'Organization',
			'An organization contact taking part (more: Organization IDs)',
			'organization_ids',
		),
		bodyField(assigneesProperty, 'assignee_ids', optionalIds('Assignees')),
		bodyField(
			dealLocator('dealId', 'The deal the activity is linked to'),
			'linked_to',
			optionalLocatorId('Deal'),
		),
	];
}

/** Whether it is done, who sees it, and whether the platform sends invitations. */
function statusFields(): Field[] {
	return [
		bodyField(
			{
				displayName: 'Done',
				name: 'done',
				type: 'boolean',
				default: false,
				description: 'Whether the activity is marked as done',
			},
			'is_status',
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
				displayName: 'Send Invitation',
				name: 'sendInvitation',
				type: 'boolean',
				default: false,
				description: 'Whether the platform sends an invitation to the assignees',
			},
			'is_send_invitation',
		),
		bodyField(
			{
				displayName: 'Send Invitation to Contacts',
				name: 'sendContactsInvitation',
				type: 'boolean',
				default: false,
				description: 'Whether the platform sends an invitation to the contacts',
			},
			'is_send_contacts_invitation',
		),
	];
}

/** The time zone it is shown in, and where it comes from. */
function originFields(): Field[] {
	return [
		bodyField(
			{
				displayName: 'Time Zone',
				name: 'userTimezone',
				type: 'string',
				default: '',
				placeholder: 'Europe/Berlin',
				description:
					'Time-zone name the platform shows the activity in. Empty: the workflow’s time zone.',
			},
			'user_timezone',
		),
		bodyField({
			displayName: 'Source',
			name: 'source',
			type: 'string',
			default: '',
			description: 'Where the activity comes from, e.g. web',
		}),
		bodyField(
			{
				displayName: 'Source ID',
				name: 'sourceId',
				type: 'string',
				default: '',
				description: 'The activity’s ID in its source',
			},
			'source_id',
		),
	];
}

/** The writable activity fields other than name, type, start and end. */
export function detailFields(): Field[] {
	return [notesField(), ...participantFields(), ...statusFields(), ...originFields()];
}

export const nameProperty: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	description: 'Title of the call or meeting',
};

export const typeProperty: INodeProperties = {
	displayName: 'Type',
	name: 'activityType',
	type: 'options',
	options: ACTIVITY_TYPES,
	default: 'call',
};

export const startProperty: INodeProperties = {
	displayName: 'Start',
	name: 'start',
	type: 'dateTime',
	default: '',
	description:
		'When the activity starts. A date and time without a time zone is read in the workflow’s time zone; it is sent in UTC.',
};

export const endProperty: INodeProperties = {
	...startProperty,
	displayName: 'End',
	name: 'end',
	description: 'When the activity ends (not before the start)',
};

// --------------------------------------------------------------- output --

function names(list: unknown, fn: (x: IDataObject) => string): string[] | undefined {
	if (!Array.isArray(list) || list.length === 0) return undefined;
	return (list as IDataObject[]).map(fn).filter(Boolean);
}

const personName = (u: IDataObject) => userName(u) || String(u.email ?? u.id ?? '');

export function simplifyActivity(a: IDataObject): IDataObject {
	const contacts = [
		...(names(a.contact_details, (c) => String(c.name ?? c.id)) ?? []),
		...(names(a.organization_details, (c) => String(c.name ?? c.id)) ?? []),
	];
	return compact({
		id: a.id,
		name: a.name,
		type: a.activity_type,
		start: a.start,
		end: a.end,
		done: a.is_status,
		notes: decodeNotes(a.notes) as IDataObject[string],
		contacts: contacts.length ? contacts : undefined,
		assignees: names(a.assignee_details, personName),
		deal: objectAt(a, 'deal_details')?.name ?? (a.linked_to as IDataObject[string]),
		updatedAt: a.updated_at,
	});
}

export const readBack = async (ctx: OpContext, id: number) =>
	withPlainNotes(
		await ctx.request<IDataObject>({ method: 'GET', path: `/v1/crm/activities/${id}` }),
	);

export function checkTimes(req: BuiltRequest, ctx: OpContext): void {
	const { start, end } = req.body as { start?: string; end?: string };
	if (start && end && Date.parse(end) < Date.parse(start))
		throw ctx.fail(
			`End (${end}) is before Start (${start})`,
			'Give an end that is not before the start.',
		);
}

// ----------------------------------------------------------- operations --
export const activityIdsProperty: INodeProperties = {
	displayName: 'Activity IDs',
	name: 'activityIds',
	type: 'string',
	default: '',
	required: true,
	description: `${IDS_DESCRIPTION} of the activities`,
};

export const activityIds = (v: unknown, ctx: OpContext) => [
	...new Set(toIntegerIds(v, 'Activity IDs', ctx)),
];
