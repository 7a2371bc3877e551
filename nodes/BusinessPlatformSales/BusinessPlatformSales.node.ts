import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { buildProperties, executeOperations, type Resource } from '../shared/operations';
import { getContactLabels, getOwners, searchContacts } from '../shared/pickers';
import { CREDENTIAL_TYPE } from '../shared/transport';
import { contactResource } from './resources/contact';
import { contactLabelResource } from './resources/contactLabel';

export const SALES_RESOURCES: Resource[] = [contactResource, contactLabelResource];

export class BusinessPlatformSales implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Business Platform Sales',
		name: 'businessPlatformSales',
		icon: { light: 'file:businessPlatform.svg', dark: 'file:businessPlatform.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Work with contacts, deals, activities, pipelines and tables of the Business Platform sales module',
		defaults: { name: 'Business Platform Sales' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: buildProperties(SALES_RESOURCES, 'contact'),
	};

	methods = {
		listSearch: { searchContacts },
		loadOptions: { getContactLabels, getOwners },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperations(this, SALES_RESOURCES);
	}
}
