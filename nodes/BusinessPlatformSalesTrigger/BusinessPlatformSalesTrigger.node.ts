/**
 * The Business Platform Trigger as the nodes panel offers it. Its type name is the Sales node's
 * plus "Trigger": n8n's nodes panel lists a trigger's events with the action node of that name
 * (editor-ui useActionsGenerator, generateMergedNodesAndActions), so its instant and polling
 * events sit under Business Platform Sales. Versions 1 to 3: the webhook trigger (its code is in
 * this folder, webhook-trigger.ts; the first type, `businessPlatformTrigger`
 * (nodes/BusinessPlatformTrigger/), is the same trigger under its hidden name); version 4 adds
 * the polling events of contacts, deals and activities (trigger-v4.ts). A versioned node type,
 * so the description of versions 1 to 3 stays as saved workflows know it.
 */
import { VersionedNodeType } from 'n8n-workflow';

import { DEFAULT_TUNING, type Tuning } from '../shared/tuning';
import { SalesTriggerV4 } from './trigger-v4';
import { WebhookTriggerNode, webhookTriggerDescription } from './webhook-trigger';

/** Versions 1 to 3: the webhook trigger. */
class SalesTriggerV1 extends WebhookTriggerNode {
	description = webhookTriggerDescription('businessPlatformSalesTrigger', false);
}

export class BusinessPlatformSalesTrigger extends VersionedNodeType {
	/** n8n builds it without arguments (the default tuning); the tests' harness with its own tunables and clocks. */
	constructor(tuning: Tuning = DEFAULT_TUNING) {
		const webhook = new SalesTriggerV1(tuning);
		super(
			{ 1: webhook, 2: webhook, 3: webhook, 4: new SalesTriggerV4(tuning) },
			{
				displayName: 'Business Platform Trigger',
				name: 'businessPlatformSalesTrigger',
				icon: { light: 'file:businessPlatform.svg', dark: 'file:businessPlatform.dark.svg' },
				group: ['trigger'],
				description:
					'Starts the workflow when a Business Platform sales or accounting event happens: at once (webhook), or by polling contacts, deals and activities',
				defaultVersion: 4,
			},
		);
	}
}
