/**
 * The pack's nodes as AI tools, for the agent and MCP end-to-end tests: the tool nodes of
 * the demo agent workflow (demo/workflows/5-ai-agent-with-tools.json), so the tests prove
 * exactly what the demo ships.
 */
import { DEMO_AGENT, demoWorkflows } from '../../scripts/start';

export interface WfNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: number[];
	parameters: Record<string, unknown>;
	webhookId?: string;
	credentials?: Record<string, unknown>;
	onError?: string;
}

export interface Wf {
	id: string;
	name: string;
	nodes: WfNode[];
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

/** The demo agent workflow, credential ids filled in. */
export const demoAgent = (): Wf => (demoWorkflows() as Wf[]).find((w) => w.id === DEMO_AGENT)!;

/** Its tool nodes: the pack's nodes as tools. */
export const toolNodes = (): WfNode[] =>
	demoAgent().nodes.filter(
		(n) => n.type.startsWith('n8n-nodes-business-platform.') && n.type.endsWith('Tool'),
	);

/** Each tool's name as models see it (n8n's rule: the node name, other characters as `_`) → the `$fromAI` keys it uses. */
export function fromAiKeys(): Record<string, string[]> {
	return Object.fromEntries(
		toolNodes().map((n) => [
			n.name.replace(/[^a-zA-Z0-9_-]+/g, '_'),
			[
				...new Set(
					[...JSON.stringify(n.parameters).matchAll(/\$fromAI\('(\w+)'/g)].map((m) => m[1]),
				),
			].sort(),
		]),
	);
}
