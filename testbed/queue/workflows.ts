/**
 * The workload of the queue-mode tests and of the queue throughput benchmark (no jest
 * globals here: the benchmark imports it too).
 */
import { pack, webhookStart, workflow } from '../n8n/env';

/**
 * Webhook → one item per contact in the body → Sales: create contact. The webhook answers
 * with the created contacts when the execution is done (`lastNode`), or at once (`onReceived`).
 */
export function createMany(
	path: string,
	responseMode: 'lastNode' | 'onReceived' = 'lastNode',
): Record<string, unknown> {
	const start = webhookStart(path);
	return workflow(`queueCreate${path}`.slice(0, 16), `Queue: create contacts (${path})`, [
		{ ...start, parameters: { ...start.parameters, responseMode } },
		{
			name: 'Split',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'body.contacts', options: {} },
		},
		pack('businessPlatformSales', 'Create', {
			resource: 'contact',
			operation: 'create',
			name: '={{ $json.name }}',
			type: 'person',
			additionalFields: {},
		}),
	]);
}

/** The body for `createMany`: `items` contacts named `<tag><execution>-<i>`. */
export const batch = (tag: string, execution: number, items = 50) => ({
	contacts: Array.from({ length: items }, (_, i) => ({ name: `${tag}${execution}-${i}` })),
});
