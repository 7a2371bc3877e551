/**
 * The trigger's first node type, `businessPlatformTrigger`: hidden from the nodes panel (which
 * offers `businessPlatformSalesTrigger`, the same trigger) and kept so saved workflows keep
 * working. Its code is the Sales Trigger's (nodes/BusinessPlatformSalesTrigger/webhook-trigger.ts).
 */
import {
	WebhookTriggerNode,
	webhookTriggerDescription,
} from '../BusinessPlatformSalesTrigger/webhook-trigger';

export class BusinessPlatformTrigger extends WebhookTriggerNode {
	description = webhookTriggerDescription('businessPlatformTrigger', true);
}
