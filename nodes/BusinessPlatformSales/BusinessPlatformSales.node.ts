import { actionNode } from '../shared/engine/action-node';
import { SALES_RESOURCES } from './resources';

export class BusinessPlatformSales extends actionNode({
	displayName: 'Business Platform Sales',
	name: 'businessPlatformSales',
	// Version 2: pickers visible when the form opens are resource locators (docs/operations.md, "Node versions and pickers").
	version: [1, 2],
	defaultVersion: 2,
	description:
		'Work with contacts, deals, activities, pipelines and tables of the Business Platform sales module',
	resources: SALES_RESOURCES,
	defaultResource: 'contact',
	builderHint: {
		searchHint:
			'For the platform’s own tables (dynamic tables of contacts, deals and more): Table → Get returns a table’s columns with their types and allowed options; Record → Create and Update take the cells as one JSON object keyed by column name (Cells: From JSON), Record → Search takes its conditions as JSON (Conditions Input: From JSON); the table may be given by name or ID. As an AI Agent tool, give the model Table → Get before the record tools.',
	},
}) {}
