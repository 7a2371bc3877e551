import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { buildProperties } from '../shared/engine/description';
import { executeOperations } from '../shared/engine/execute';
import { mergeMethods } from '../shared/engine/methods';
import type { Resource } from '../shared/engine/model';
import { CREDENTIAL_TYPE } from '../shared/transport';
import { activityResource } from './resources/activity';
import { contactResource } from './resources/contact';
import { contactLabelResource } from './resources/contactLabel';
import { dealResource } from './resources/deal';
import { pipelineResource } from './resources/pipeline';
import { recordResource } from './resources/record';
import { stageResource } from './resources/stage';
import { tableResource } from './resources/table';

export const SALES_RESOURCES: Resource[] = [activityResource, contactResource, contactLabelResource, dealResource, pipelineResource, recordResource, stageResource, tableResource].filter(
	(r) => r.operations.length > 0,
);

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

	methods = mergeMethods(SALES_RESOURCES);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeOperations(this, SALES_RESOURCES);
	}
}
