/**
 * The Table Trigger: polls the records of one dynamic table, which the platform sends no webhook
 * for. It cannot be listed with the Sales node: n8n's nodes panel links a trigger to the action
 * node whose type name is the trigger's without "Trigger", and businessPlatformSalesTrigger is
 * the webhook trigger (a node cannot both poll and receive webhooks). So it is its own entry.
 */
import { getFilterColumns, searchTables } from '../BusinessPlatformSales/methods/tables';
import { pollingNode } from '../shared/polling/node';
import { TABLE_FIELDS } from './events/common';
import { recordCreated } from './events/recordCreated';
import { recordUpdated } from './events/recordUpdated';

export class BusinessPlatformTableTrigger extends pollingNode({
	displayName: 'Business Platform Table Trigger',
	name: 'businessPlatformTableTrigger',
	description:
		'Starts the workflow when a record of a Business Platform table is added or changed (checked at the poll times you set)',
	fields: TABLE_FIELDS,
	events: [recordCreated, recordUpdated],
	methods: { listSearch: { searchTables }, loadOptions: { getFilterColumns } },
}) {}
