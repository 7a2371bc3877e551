import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { buildProperties } from '../shared/engine/description';
import { executeOperations } from '../shared/engine/execute';
import { mergeMethods } from '../shared/engine/methods';
import { CREDENTIAL_TYPE } from '../shared/transport';
import { PEOPLE_RESOURCES } from './resources';

export class BusinessPlatformPeople implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Business Platform People',
		name: 'businessPlatformPeople',
		icon: { light: 'file:businessPlatform.svg', dark: 'file:businessPlatform.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Work with users, payruns, paystubs and component groups of the Business Platform people and payroll module',
		defaults: { name: 'Business Platform People' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: buildProperties(PEOPLE_RESOURCES),
	};

	methods = mergeMethods(PEOPLE_RESOURCES);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperations(this, PEOPLE_RESOURCES);
	}
}
