/** Activity → Get Many: GET /v1/crm/activities. List activities, with filters. */

import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Field, OpContext, Operation } from '../../../shared/engine/model';
import { locator, options, sortedCollection } from '../../../shared/engine/fields';
import { plainValue, toIntegerId, toUtcIso } from '../../../shared/field-values';
import {
	ACTIVITY_TYPES,
	dealLocator,
	DONE,
	simplifyActivity,
	timeZone,
	withPlainNotes,
} from './common';
import { echo } from '../../../shared/text-readers';

const contactLocator = (
	name: string,
	displayName: string,
	description: string,
): INodeProperties => ({
	...locator({ name, displayName, search: 'searchContacts', required: false }),
	description,
});

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
		if (/[,=>]/.test(v))
			throw ctx.fail(
				`${label} ${echo(v)} cannot contain a comma, "=" or ">"`,
				'The platform’s filter separates filters with commas and keys from values with "=": leave those characters out.',
			);
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
		const iso = toUtcIso(filters.dateAfter, 'Starts After', ctx, timeZone(ctx));
		if (iso) parts.push(`date>${Math.floor(Date.parse(iso) / 1000)}`);
	}
	if (filters.activityType) parts.push(`activityType=${String(filters.activityType)}`);
	if (filters.status) parts.push(`is_status=${filters.status === 'done' ? 'true' : 'false'}`);
	text('source', 'Source', filters.source);
	text('source_id', 'Source ID', filters.sourceId);
	return parts.length ? parts.join(',') : undefined;
}

const filterFields: Field[] = [
	{
		property: {
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			description: 'Text found in the activity’s name',
		},
	},
	{ property: contactLocator('contactId', 'Contact', 'Only activities with this contact') },
	{
		property: contactLocator(
			'organizationId',
			'Organization',
			'Only activities with this organization contact',
		),
	},
	{ property: dealLocator('dealId', 'Only activities linked to this deal') },
	{
		property: {
			displayName: 'Assignee Name or ID',
			name: 'assigneeId',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getOwners' },
			default: '',
			description:
				'Only activities assigned to this sales user. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
	},
	{
		property: {
			displayName: 'Starts After',
			name: 'dateAfter',
			type: 'dateTime',
			default: '',
			description:
				'Only activities that start after this moment (a value without a time zone is read in the workflow’s time zone)',
		},
	},
	{
		property: {
			displayName: 'Type',
			name: 'activityType',
			type: 'options',
			options: ACTIVITY_TYPES,
			default: 'call',
		},
	},
	{
		property: {
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: DONE,
			default: 'open',
			description: 'Only activities that are done, or only those that are not',
		},
	},
	{
		property: {
			displayName: 'Source',
			name: 'source',
			type: 'string',
			default: '',
			description: 'Only activities from this source, e.g. web',
		},
	},
	{ property: { displayName: 'Source ID', name: 'sourceId', type: 'string', default: '' } },
];

export const getAllActivity: Operation = {
	value: 'getAll',
	name: 'Get Many',
	action: 'Get many activities',
	description: 'List activities, with filters',
	method: 'GET',
	path: '/v1/crm/activities',
	paginate: 'activities',
	simplify: simplifyActivity,
	fields: [
		sortedCollection(
			{ displayName: 'Filters', name: 'filters', placeholder: 'Add Filter', default: {} },
			filterFields,
		),
		sortedCollection(
			{ displayName: 'Options', name: 'options', placeholder: 'Add option', default: {} },
			[
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
			],
		),
	],
	why: 'The filters become the platform’s one query expression; notes stored as base64 come back as plain text.',
	// The filters checked once, and sent as checked.
	check: (req, ctx) => {
		const query = activityQuery(ctx.param<IDataObject>('filters', {}), ctx);
		if (query) req.qs.query = query;
	},
	execute: async (ctx, req) => ((await ctx.send(req)) as IDataObject[]).map(withPlainNotes),
};
