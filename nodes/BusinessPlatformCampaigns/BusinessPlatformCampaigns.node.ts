import { actionNode } from '../shared/engine/action-node';
import { CAMPAIGNS_RESOURCES } from './resources';

export class BusinessPlatformCampaigns extends actionNode({
	displayName: 'Business Platform Campaigns',
	name: 'businessPlatformCampaigns',
	// Version 2: pickers visible when the form opens are resource locators (docs/operations.md, "Node versions and pickers").
	version: [1, 2],
	defaultVersion: 2,
	description:
		'Work with forms, categories and email templates of the Business Platform campaign module',
	resources: CAMPAIGNS_RESOURCES,
}) {}
