import { actionNode } from '../shared/engine/action-node';
import { SALES_RESOURCES } from './resources';

export class BusinessPlatformSales extends actionNode({
	displayName: 'Business Platform Sales',
	name: 'businessPlatformSales',
	// Version 2: pickers visible when the form opens are resource locators (see README, "Node versions").
	version: [1, 2],
	defaultVersion: 2,
	description:
		'Work with contacts, deals, activities, pipelines and tables of the Business Platform sales module',
	resources: SALES_RESOURCES,
	defaultResource: 'contact',
}) {}
