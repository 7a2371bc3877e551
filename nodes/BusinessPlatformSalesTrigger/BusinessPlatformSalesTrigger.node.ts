/**
 * The Business Platform Trigger as the nodes panel offers it. Its type name is the Sales
 * node's plus "Trigger": n8n's nodes panel lists a trigger's events with the action node of
 * that name (editor-ui useActionsGenerator, generateMergedNodesAndActions). The implementation
 * is shared with the first type, `businessPlatformTrigger` (nodes/BusinessPlatformTrigger/).
 */
import {
	BusinessPlatformTriggerNode,
	triggerDescription,
} from '../BusinessPlatformTrigger/trigger';

export class BusinessPlatformSalesTrigger extends BusinessPlatformTriggerNode {
	description = triggerDescription('businessPlatformSalesTrigger', false);
}
