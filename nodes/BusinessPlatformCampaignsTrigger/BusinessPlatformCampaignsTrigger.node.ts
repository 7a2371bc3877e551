/**
 * The Campaigns Trigger: polls the email template list, which the platform sends no webhook for.
 * Its type name is the Campaigns node's plus "Trigger", so n8n's nodes panel lists its events
 * with the Campaigns node. Forms have no creation or update time in the platform's documents,
 * so they have no event.
 */
import { searchCategories } from '../BusinessPlatformCampaigns/methods/categories';
import { pollingNode } from '../shared/polling/node';
import { emailTemplateCreated } from './events/emailTemplateCreated';
import { emailTemplateUpdated } from './events/emailTemplateUpdated';

export class BusinessPlatformCampaignsTrigger extends pollingNode({
	displayName: 'Business Platform Campaigns Trigger',
	name: 'businessPlatformCampaignsTrigger',
	description:
		'Starts the workflow when a Business Platform email template is created or changed (checked at the poll times you set)',
	events: [emailTemplateCreated, emailTemplateUpdated],
	methods: { listSearch: { searchCategories } },
}) {}
