/**
 * The Business Platform Trigger as the nodes panel offers it: a webhook trigger (the platform
 * calls it for each event), where the People, Campaigns and Table triggers poll. Its type name is the Sales
 * node's plus "Trigger": n8n's nodes panel lists a trigger's events with the action node of
 * that name (editor-ui useActionsGenerator, generateMergedNodesAndActions). Its code is in this
 * folder (webhook-trigger.ts); the first type, `businessPlatformTrigger`
 * (nodes/BusinessPlatformTrigger/), is the same trigger under its hidden name.
 */
import { WebhookTriggerNode, webhookTriggerDescription } from './webhook-trigger';

export class BusinessPlatformSalesTrigger extends WebhookTriggerNode {
	description = webhookTriggerDescription('businessPlatformSalesTrigger', false);
}
