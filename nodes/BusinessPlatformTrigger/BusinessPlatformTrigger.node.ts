import type { IHookFunctions, INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../shared/transport';

/** Placeholder: the trigger is built in its own issue. */
export class BusinessPlatformTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Business Platform Trigger',
		name: 'businessPlatformTrigger',
		icon: { light: 'file:businessPlatform.svg', dark: 'file:businessPlatform.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"] ? $parameter["events"].join(", ") : ""}}',
		description: 'Starts the workflow when a Business Platform sales or accounting event happens',
		defaults: { name: 'Business Platform Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return { workflowData: [this.helpers.returnJsonArray([this.getBodyData()])] };
	}
}
