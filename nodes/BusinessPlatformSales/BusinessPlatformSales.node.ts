import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { buildProperties } from '../shared/engine/description';
import { executeOperations } from '../shared/engine/execute';
import { mergeMethods } from '../shared/engine/methods';
import { CREDENTIAL_TYPE } from '../shared/transport';
import { SALES_RESOURCES } from './resources';

export class BusinessPlatformSales implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Business Platform Sales',
		name: 'businessPlatformSales',
		icon: { light: 'file:businessPlatform.svg', dark: 'file:businessPlatform.dark.svg' },
		group: ['transform'],
		// Version 2: pickers visible when the form opens are resource locators (see README, "Node versions").
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Work with contacts, deals, activities, pipelines and tables of the Business Platform sales module',
		defaults: { name: 'Business Platform Sales' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: buildProperties(SALES_RESOURCES, 'contact'),
	};

	methods = mergeMethods(SALES_RESOURCES);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperations(this, SALES_RESOURCES);
	}
}
