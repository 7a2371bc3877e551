import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { buildProperties } from '../shared/engine/description';
import { executeOperations } from '../shared/engine/execute';
import { mergeMethods } from '../shared/engine/methods';
import { CREDENTIAL_TYPE } from '../shared/transport';
import { CAMPAIGNS_RESOURCES } from './resources';

export class BusinessPlatformCampaigns implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Business Platform Campaigns',
		name: 'businessPlatformCampaigns',
		icon: { light: 'file:businessPlatform.svg', dark: 'file:businessPlatform.dark.svg' },
		group: ['transform'],
		// Version 2: pickers visible when the form opens are resource locators (see README, "Node versions").
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Work with forms, categories and email templates of the Business Platform campaign module',
		defaults: { name: 'Business Platform Campaigns' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: buildProperties(CAMPAIGNS_RESOURCES),
	};

	methods = mergeMethods(CAMPAIGNS_RESOURCES);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperations(this, CAMPAIGNS_RESOURCES);
	}
}
