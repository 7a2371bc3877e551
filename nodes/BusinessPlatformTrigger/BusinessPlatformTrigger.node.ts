/**
 * The trigger's first node type, `businessPlatformTrigger`: hidden from the nodes panel (which
 * offers `businessPlatformSalesTrigger`, the same trigger) and kept so saved workflows keep working.
 */
import { WebhookTriggerNode, webhookTriggerDescription } from './webhook-trigger';

export class BusinessPlatformTrigger extends WebhookTriggerNode {
	description = webhookTriggerDescription('businessPlatformTrigger', true);
}
