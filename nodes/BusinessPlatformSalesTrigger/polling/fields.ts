/**
 * The fields of the Sales Trigger's polling events in node version 4 (shown when one is chosen in
 * Events): which changes start the workflow, the pipeline of Deal Changed, and Only When These
 * Fields Change (a picker of the record's fields and the custom fields it finds; any name by
 * expression). docs/polling-triggers.md, "Contacts, deals and activities".
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { POLL_EVENT_VALUES } from './events';

const CREATED: INodePropertyOptions = {
	name: 'Created',
	value: 'created',
	description: 'A record is created',
};
const DELETED: INodePropertyOptions = {
	name: 'Deleted',
	value: 'deleted',
	description:
		'A deal is deleted: no longer listed, and the platform answers 404 when the trigger asks for it',
};
const UPDATED: INodePropertyOptions = {
	name: 'Updated',
	value: 'updated',
	description: 'A record changes (with Only When These Fields Change: one of those fields)',
};

const { contact, deal, activity } = POLL_EVENT_VALUES;

export const POLLING_FIELDS: INodeProperties[] = [
	{
		displayName: 'Changes',
		name: 'changes',
		type: 'multiOptions',
		options: [CREATED, UPDATED],
		default: ['created', 'updated'],
		displayOptions: { show: { events: [contact, activity] } },
		description: 'Which changes start the workflow',
	},
	{
		displayName: 'Changes',
		name: 'changes',
		type: 'multiOptions',
		options: [CREATED, DELETED, UPDATED],
		default: ['created', 'updated', 'deleted'],
		displayOptions: { show: { events: [deal] } },
		description: 'Which changes start the workflow',
	},
	{
		displayName: 'Pipeline',
		name: 'pipelineId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description:
			'Only deals of this pipeline (the platform filters them). Empty: every pipeline. A deal that moves to another pipeline is an update when it is watched, then no longer followed.',
		displayOptions: { show: { events: [deal] } },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a pipeline...',
				typeOptions: { searchListMethod: 'searchPipelines', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 3',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\s*\\d*\\s*$', errorMessage: 'An ID is a whole number' },
					},
				],
			},
		],
	},
	{
		displayName: 'Only When These Fields Change',
		name: 'watchFields',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getWatchableFields', loadOptionsDependsOn: ['events'] },
		default: [],
		displayOptions: { show: { events: [contact, deal, activity] } },
		description:
			'An update starts the workflow only when one of these fields changes; each item then names the changed fields (changedFields) and their values before (previous). Custom fields: c_field.&lt;short name&gt; (deals: custom_field.&lt;short name&gt;); by expression, any field names separated by commas. Empty: every update, without changedFields or previous. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName:
			'Polling: n8n asks Business Platform every minute, needs no public address, and delivers each change exactly once, also what changed while n8n was stopped. Several edits of a record between two polls are one item.',
		name: 'pollingNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { events: [contact, deal, activity] } },
	},
];
