/**
 * The trigger's first node type, `businessPlatformTrigger`: hidden from the nodes panel (which
 * offers `businessPlatformSalesTrigger`, the same trigger) and kept so saved workflows keep working.
 */
import { BusinessPlatformTriggerNode, triggerDescription } from './trigger';

export class BusinessPlatformTrigger extends BusinessPlatformTriggerNode {
	description = triggerDescription('businessPlatformTrigger', true);
}
