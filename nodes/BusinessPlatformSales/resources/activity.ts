/** Activities (calls and meetings) — /v1/crm/activities. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { bodyField, collection, compact, locator, options, plainValue, toIntegerId, toIntegerIds, toUtcIsoInZone } from '../../shared/fields';
import type { BuiltRequest, Field, OpContext, Operation, Resource } from '../../shared/engine/model';
import { searchActivities } from '../methods/activities';
import { getOwners, searchContacts } from '../methods/contacts';
import { searchDeals } from '../methods/deals';

const activityId = locator({ name: 'activityId', displayName: 'Activity', search: 'searchActivities', description: 'The activity to use' });
const idField: Field = { property: activityId, send: { in: 'path', key: 'id', map: (v, ctx) => toIntegerId(v, 'Activity', ctx) } };

const ACTIVITY_TYPES = options([
	['Call', 'call'],
	['Meeting', 'meeting'],
]);
const VISIBILITY = options([
	['Private', 'private'],
	['Public', 'public'],
	['Team', 'team'],
]);
const DONE = options([
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

const withPlainNotes = (a: IDataObject): IDataObject => ('notes' in a ? { ...a, notes: decodeNotes(a.notes) as IDataObject[string] } : a);

const timeZone = (ctx: OpContext) => ctx.fn.getTimezone();

const optionalIds = (label: string) => (v: unknown, ctx: OpContext) => (v === '' || v === undefined || v === null || (Array.isArray(v) && v.length === 0) ? undefined : toIntegerIds(v, label, ctx));
/** A resource locator inside a collection arrives as its object: read its value. */
const optionalLocatorId = (label: string) => (v: unknown, ctx: OpContext) => {
	const text = plainValue(v);
	return text === '' ? undefined : toIntegerId(text, label, ctx);
};
const dateTime = (label: string) => (v: unknown, ctx: OpContext) => toUtcIsoInZone(v, label, ctx, timeZone(ctx));

// --------------------------------------------------------------- fields --

/** A collection whose fields are listed in alphabetical order, as n8n's guidelines ask. */
const sortedCollection = (property: Parameters<typeof collection>[0], children: Field[]): Field =>
	collection(property, [...children].sort((a, b) => a.property.displayName.localeCompare(b.property.displayName)));

const dealLocator = (name: string, description: string): INodeProperties => ({ ...locator({ name, displayName: 'Deal', search: 'searchDeals', required: false }), description });
const contactLocator = (name: string, displayName: string, description: string): INodeProperties => ({
	...locator({ name, displayName, search: 'searchContacts', required: false }),
	description,
});

const assigneesProperty: INodeProperties = {
	displayName: 'Assignee Names or IDs',
	name: 'assigneeIds',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getOwners' },
	default: [],
	description: 'Sales users the activity is assigned to. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

/** The writable activity fields other than name, type, start and end. */
function detailFields(): Field[] {
	return [
		bodyField({ displayName: 'Notes', name: 'notes', type: 'string', typeOptions: { rows: 4 }, default: '', description: 'Plain text; the node encodes it as the platform expects' }, 'notes', (v) =>
			v === undefined || v === null || v === '' ? undefined : encodeNotes(String(v)),
		),
		bodyField({ displayName: 'Contact IDs', name: 'contactIds', type: 'string', default: '', description: `${IDS_DESCRIPTION} of the person contacts taking part` }, 'contact_ids', optionalIds('Contact IDs')),
		bodyField(
			{ displayName: 'Organization IDs', name: 'organizationIds', type: 'string', default: '', description: `${IDS_DESCRIPTION} of the organization contacts taking part` },
			'organization_ids',
			optionalIds('Organization IDs'),
		),
		bodyField(assigneesProperty, 'assignee_ids', optionalIds('Assignees')),
		bodyField(dealLocator('dealId', 'The deal the activity is linked to'), 'linked_to', optionalLocatorId('Deal')),
		bodyField({ displayName: 'Done', name: 'done', type: 'boolean', default: false, description: 'Whether the activity is marked as done' }, 'is_status'),
		bodyField({ displayName: 'Visibility', name: 'visibilityType', type: 'options', options: VISIBILITY, default: 'public' }, 'visibility_type'),
		bodyField({ displayName: 'Send Invitation', name: 'sendInvitation', type: 'boolean', default: false, description: 'Whether the platform sends an invitation to the assignees' }, 'is_send_invitation'),
		bodyField(
			{ displayName: 'Send Invitation to Contacts', name: 'sendContactsInvitation', type: 'boolean', default: false, description: 'Whether the platform sends an invitation to the contacts' },
			'is_send_contacts_invitation',
		),
		bodyField(
			{
				displayName: 'Time Zone',
				name: 'userTimezone',
				type: 'string',
				default: '',
				placeholder: 'Europe/Berlin',
				description: 'Time-zone name the platform shows the activity in. Empty: the workflow’s time zone.',
			},
			'user_timezone',
		),
		bodyField({ displayName: 'Source', name: 'source', type: 'string', default: '', description: 'Where the activity comes from, e.g. web' }),
		bodyField({ displayName: 'Source ID', name: 'sourceId', type: 'string', default: '', description: 'The activity’s ID in its source' }, 'source_id'),
	];
}

const nameProperty: INodeProperties = { displayName: 'Name', name: 'name', type: 'string', default: '', description: 'Title of the call or meeting' };
const typeProperty: INodeProperties = { displayName: 'Type', name: 'activityType', type: 'options', options: ACTIVITY_TYPES, default: 'call' };
const startProperty: INodeProperties = {
	displayName: 'Start',
	name: 'start',
	type: 'dateTime',
	default: '',
	description: 'When the activity starts. A date and time without a time zone is read in the workflow’s time zone; it is sent in UTC.',
};
const endProperty: INodeProperties = { ...startProperty, displayName: 'End', name: 'end', description: 'When the activity ends (not before the start)' };

// --------------------------------------------------------------- output --

function names(list: unknown, fn: (x: IDataObject) => string): string[] | undefined {
	if (!Array.isArray(list) || list.length === 0) return undefined;
	return (list as IDataObject[]).map(fn).filter(Boolean);
}
const personName = (u: IDataObject) => `${String(u.first_name ?? '')} ${String(u.last_name ?? '')}`.trim() || String(u.email ?? u.id ?? '');

export function simplifyActivity(a: IDataObject): IDataObject {
	const deal = a.deal_details as IDataObject | null | undefined;
	const contacts = [...(names(a.contact_details, (c) => String(c.name ?? c.id)) ?? []), ...(names(a.organization_details, (c) => String(c.name ?? c.id)) ?? [])];
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
		deal: deal?.name ?? (a.linked_to as IDataObject[string]),
		updatedAt: a.updated_at,
	});
}

const readBack = async (ctx: OpContext, id: number) => withPlainNotes(await ctx.request<IDataObject>({ method: 'GET', path: `/v1/crm/activities/${id}` }));
const idFromPath = (path: string) => Number(path.split('/').pop());

function checkTimes(req: BuiltRequest, ctx: OpContext): void {
	const { start, end } = req.body as { start?: string; end?: string };
	if (start && end && Date.parse(end) < Date.parse(start)) throw ctx.fail(`End (${end}) is before Start (${start})`, 'Give an end that is not before the start.');
}

function defaultTimeZone(req: BuiltRequest, ctx: OpContext): void {
	if (req.body.user_timezone === undefined) req.body.user_timezone = timeZone(ctx);
}

// ------------------------------------------------------ get many query --

/**
 * The list's `query` parameter is the platform's filter language: comma-separated
 * `key=value` filters, and `date>epochSeconds`. Commas cannot be escaped in it.
 */
function activityQuery(filters: IDataObject, ctx: OpContext): string | undefined {
	const parts: string[] = [];
	const text = (key: string, label: string, value: unknown) => {
		const v = String(value ?? '').trim();
		if (v === '') return;
		if (/[,=>]/.test(v)) throw ctx.fail(`${label} "${v}" cannot contain a comma, "=" or ">"`, 'The platform’s filter separates filters with commas and keys from values with "=": leave those characters out.');
		parts.push(`${key}=${v}`);
	};
	const id = (key: string, label: string, value: unknown) => {
		const v = plainValue(value);
		if (v !== '') parts.push(`${key}=${toIntegerId(v, label, ctx)}`);
	};
	text('name', 'Name', filters.name);
	id('contact_id', 'Contact', filters.contactId);
	id('organization_id', 'Organization', filters.organizationId);
	id('deal_id', 'Deal', filters.dealId);
	id('assignee_id', 'Assignee', filters.assigneeId);
	if (filters.dateAfter !== undefined && filters.dateAfter !== '') {
		const iso = toUtcIsoInZone(filters.dateAfter, 'Starts After', ctx, timeZone(ctx));
		if (iso) parts.push(`date>${Math.floor(Date.parse(iso) / 1000)}`);
	}
	if (filters.activityType) parts.push(`activityType=${String(filters.activityType)}`);
	if (filters.status) parts.push(`is_status=${filters.status === 'done' ? 'true' : 'false'}`);
	text('source', 'Source', filters.source);
	text('source_id', 'Source ID', filters.sourceId);
	return parts.length ? parts.join(',') : undefined;
}

const filterFields: Field[] = [
	{ property: { displayName: 'Name', name: 'name', type: 'string', default: '', description: 'Text found in the activity’s name' } },
	{ property: contactLocator('contactId', 'Contact', 'Only activities with this contact') },
	{ property: contactLocator('organizationId', 'Organization', 'Only activities with this organization contact') },
	{ property: dealLocator('dealId', 'Only activities linked to this deal') },
	{
		property: {
			displayName: 'Assignee Name or ID',
			name: 'assigneeId',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getOwners' },
			default: '',
			description: 'Only activities assigned to this sales user. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
	},
	{
		property: {
			displayName: 'Starts After',
			name: 'dateAfter',
			type: 'dateTime',
			default: '',
			description: 'Only activities that start after this moment (a value without a time zone is read in the workflow’s time zone)',
		},
	},
	{ property: { displayName: 'Type', name: 'activityType', type: 'options', options: ACTIVITY_TYPES, default: 'call' } },
	{ property: { displayName: 'Status', name: 'status', type: 'options', options: DONE, default: 'open', description: 'Only activities that are done, or only those that are not' } },
	{ property: { displayName: 'Source', name: 'source', type: 'string', default: '', description: 'Only activities from this source, e.g. web' } },
	{ property: { displayName: 'Source ID', name: 'sourceId', type: 'string', default: '' } },
];

// ----------------------------------------------------------- operations --

const requireSomeFields = (body: IDataObject, ctx: OpContext, where = 'Update Fields') => {
	if (Object.keys(body).length === 0) throw ctx.fail('Nothing to update', `Add at least one field under "${where}".`);
};

const activityIdsProperty: INodeProperties = { displayName: 'Activity IDs', name: 'activityIds', type: 'string', default: '', required: true, description: `${IDS_DESCRIPTION} of the activities` };
const activityIds = (v: unknown, ctx: OpContext) => [...new Set(toIntegerIds(v, 'Activity IDs', ctx))];

const ops: Operation[] = [
	{
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
			sortedCollection({ displayName: 'Additional Fields', name: 'additionalFields', placeholder: 'Add Field', default: {} }, detailFields()),
		],
		prepare: (req, ctx) => {
			if (!String(req.body.name ?? '').trim()) throw ctx.fail('Name is empty', 'Give the activity a name.');
			if (!req.body.start) throw ctx.fail('Start is empty', 'Give the date and time the activity starts.');
			if (!req.body.end) throw ctx.fail('End is empty', 'Give the date and time the activity ends.');
			checkTimes(req, ctx);
			defaultTimeZone(req, ctx);
		},
		output: async (answer, ctx) => await readBack(ctx, toIntegerId((answer as IDataObject | undefined)?.id, 'The created activity’s ID', ctx)),
	},
	{
		value: 'get',
		name: 'Get',
		action: 'Get an activity',
		description: 'Get one activity',
		method: 'GET',
		path: '/v1/crm/activities/{id}',
		fields: [idField],
		simplify: simplifyActivity,
		output: (answer) => withPlainNotes(answer as IDataObject),
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many activities',
		description: 'List activities, with filters',
		method: 'GET',
		path: '/v1/crm/activities',
		paginate: 'activities',
		simplify: simplifyActivity,
		fields: [
			sortedCollection({ displayName: 'Filters', name: 'filters', placeholder: 'Add Filter', default: {} }, filterFields),
			sortedCollection({ displayName: 'Options', name: 'options', placeholder: 'Add Option', default: {} }, [
				{
					property: {
						displayName: 'Sort By',
						name: 'sortBy',
						type: 'options',
						options: options([
							['Created At', 'created_at'],
							['Name', 'name'],
							['Start', 'start'],
							['Updated At', 'updated_at'],
						]),
						default: 'updated_at',
					},
					send: { in: 'query' },
				},
				{
					property: {
						displayName: 'Sort Direction',
						name: 'sortDir',
						type: 'options',
						options: options([
							['Ascending', 'ASC'],
							['Descending', 'DESC'],
						]),
						default: 'DESC',
					},
					send: { in: 'query' },
				},
			]),
		],
		prepare: (req, ctx) => {
			const query = activityQuery(ctx.param<IDataObject>('filters', {}), ctx);
			if (query) req.qs.query = query;
		},
		output: (answer) => (answer as IDataObject[]).map(withPlainNotes),
	},
	{
		value: 'update',
		name: 'Update',
		action: 'Update an activity',
		description: 'Change the given fields of an activity (PUT); the others keep their values',
		method: 'PUT',
		path: '/v1/crm/activities/{id}',
		fields: [
			idField,
			sortedCollection({ displayName: 'Update Fields', name: 'updateFields', placeholder: 'Add Field', default: {} }, [
				bodyField(nameProperty),
				bodyField(typeProperty, 'activity_type'),
				bodyField(startProperty, 'start', dateTime('Start')),
				bodyField(endProperty, 'end', dateTime('End')),
				...detailFields(),
			]),
		],
		prepare: (req, ctx) => {
			requireSomeFields(req.body, ctx);
			if ('name' in req.body && !String(req.body.name).trim()) throw ctx.fail('Name is empty', 'Give the activity a name, or remove the Name field.');
			checkTimes(req, ctx);
		},
		output: async (_a, ctx, req) => await readBack(ctx, idFromPath(req.path)),
	},
	{
		value: 'delete',
		name: 'Delete',
		action: 'Delete an activity',
		description: 'Delete an activity',
		method: 'DELETE',
		path: '/v1/crm/activities/{id}',
		fields: [idField],
		output: (_a, _ctx, req) => ({ deleted: true, id: idFromPath(req.path) }),
	},
	{
		value: 'bulkUpdate',
		name: 'Bulk Update',
		action: 'Update many activities at once',
		description: 'Set the visibility or the done status of several activities in one request',
		method: 'PATCH',
		path: '/v1/crm/activities/bulkUpdate',
		fields: [
			{ property: activityIdsProperty, send: { in: 'body', key: 'ids', map: activityIds } },
			sortedCollection({ displayName: 'Update Fields', name: 'updateFields', placeholder: 'Add Field', default: {} }, [
				bodyField({ displayName: 'Visibility', name: 'visibilityType', type: 'options', options: VISIBILITY, default: 'public' }, 'visibility_type'),
				bodyField({ displayName: 'Status', name: 'status', type: 'options', options: DONE, default: 'done', description: 'Mark the activities as done, or as not done' }, 'is_status', (v) =>
					v === 'done' ? true : v === 'open' ? false : undefined,
				),
			]),
		],
		prepare: (req, ctx) => {
			const { ids, ...rest } = req.body;
			void ids;
			requireSomeFields(rest, ctx);
		},
		output: (_a, _ctx, req) => (req.body.ids as number[]).map((id) => ({ id, updated: true })),
	},
	{
		value: 'bulkDelete',
		name: 'Bulk Delete',
		action: 'Delete many activities at once',
		description: 'Delete several activities in one request',
		method: 'POST',
		path: '/v1/crm/activities/bulkDelete',
		fields: [{ property: activityIdsProperty }],
		prepare: (req, ctx) => {
			// The body is a bare JSON array of IDs.
			req.rawBody = activityIds(ctx.param('activityIds', ''), ctx);
		},
		output: (_a, _ctx, req) => (req.rawBody as number[]).map((id) => ({ deleted: true, id })),
	},
];

export const activityResource: Resource = {
	value: 'activity',
	name: 'Activity',
	description: 'Calls and meetings',
	operations: ops,
	methods: { listSearch: { searchActivities, searchContacts, searchDeals }, loadOptions: { getOwners } },
};
