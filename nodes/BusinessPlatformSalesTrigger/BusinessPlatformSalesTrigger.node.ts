/**
 * The Business Platform Trigger as the nodes panel offers it: a webhook trigger (the platform
 * calls it for each event), where the People, Campaigns and Table triggers poll. Its type name is the Sales
 * node's plus "Trigger": n8n's nodes panel lists a trigger's events with the action node of
 * that name (editor-ui useActionsGenerator, generateMergedNodesAndActions). The implementation
 * is shared with the first type, `businessPlatformTrigger` (nodes/BusinessPlatformTrigger/).
 */
import {
	WebhookTriggerNode,
	webhookTriggerDescription,
} from '../BusinessPlatformTrigger/webhook-trigger';

export class BusinessPlatformSalesTrigger extends WebhookTriggerNode {
	description = webhookTriggerDescription('businessPlatformSalesTrigger', false);
}
