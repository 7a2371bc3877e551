/**
 * What a model gets from each operation when a user adds it as a tool and keeps the
 * defaults: the tool name (n8n names the node "<action> in <node>" and the model sees the
 * name with other characters as `_`, cut at 64), the description (the operation's own
 * Description parameter of the tool twin, nodes/shared/engine/tool-description.ts), beside
 * the operation's UI description and its required fields. Custom API Call is listed once
 * (its resource), not under every resource. The table is docs/ai-tools.md's "operations" section (npm run docs:ai-tools).
 * n8n's own rules are used (n8n-workflow's NodeHelpers), on the tool twin n8n derives
 * from the node (name + "Tool", one ai_tool output).
 */
import type {
	INode,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers, nodeNameToToolName } from 'n8n-workflow';

import { BusinessPlatformCampaigns } from '../../nodes/BusinessPlatformCampaigns/BusinessPlatformCampaigns.node.ts';
import { BusinessPlatformPeople } from '../../nodes/BusinessPlatformPeople/BusinessPlatformPeople.node.ts';
import { BusinessPlatformSales } from '../../nodes/BusinessPlatformSales/BusinessPlatformSales.node.ts';
import { CUSTOM_CALL } from '../../nodes/shared/engine/custom-call';
import { AI_TOOLS_DOC, checkDocSection } from '../helpers/ai-tools-doc';

const MAX_TOOL_NAME = 64;

interface OperationView {
	node: string;
	resource: string;
	operation: string;
	toolName: string;
	/** The node name n8n gives the tool, before it becomes a tool name. */
	nodeName: string;
	description: string;
	uiDescription: string;
	required: string[];
}

const shownFor = (p: INodeProperties, resource: string, operation: string) => {
	const show = p.displayOptions?.show ?? {};
	const ok = (key: string, v: string) => !show[key] || (show[key] as unknown[]).includes(v);
	return ok('resource', resource) && ok('operation', operation);
};

/** The tool twin n8n derives from a node with `usableAsTool` (only what naming and describing read). */
const toolTwin = (d: INodeTypeDescription): INodeTypeDescription => ({
	...d,
	name: `${d.name}Tool`,
	displayName: `${d.displayName} Tool`,
	inputs: [],
	outputs: ['ai_tool'],
});

function operations(node: INodeType): OperationView[] {
	const d = node.description;
	const tool = toolTwin(d);
	const resources = d.properties.find((p) => p.name === 'resource')!
		.options as INodePropertyOptions[];
	return resources.flatMap((r) => {
		const resource = String(r.value);
		const opProperty = d.properties.find(
			(p) => p.name === 'operation' && shownFor(p, resource, ''),
		)!;
		const options = (opProperty.options as INodePropertyOptions[]).filter(
			(o) => o.value !== CUSTOM_CALL || resource === CUSTOM_CALL,
		);
		return options.map((o) => {
			const operation = String(o.value);
			const parameters = { resource, operation };
			const nodeName = NodeHelpers.makeNodeName(parameters, tool);
			// Required and shown with the other fields at their defaults (a field required only in another mode is left out).
			// A new node (what a user adds as a tool) has the node's default version.
			const node = {
				typeVersion: d.defaultVersion ?? Math.max(...[d.version].flat()),
				parameters,
			} as unknown as INode;
			const values =
				NodeHelpers.getNodeParameters(d.properties, parameters, true, false, node, d) ?? {};
			const required = d.properties
				.filter(
					(p) =>
						p.required &&
						p.name !== 'operation' &&
						p.name !== 'resource' &&
						shownFor(p, resource, operation) &&
						NodeHelpers.displayParameter(values, p, node, d),
				)
				.map((p) => p.displayName);
			return {
				node: d.displayName,
				resource: String(r.name),
				operation: String(o.name),
				nodeName,
				toolName: nodeNameToToolName(nodeName),
				// As at run time: the workflow's node parameters completed with the defaults of the tool twin's properties.
				description: NodeHelpers.getToolDescriptionForNode(
					{
						parameters:
							NodeHelpers.getNodeParameters(
								tool.properties,
								parameters,
								true,
								false,
								{ ...node, type: tool.name } as INode,
								tool,
							) ?? {},
					} as never,
					{ description: tool } as never,
				),
				uiDescription: o.description ?? '',
				required,
			};
		});
	});
}

const ALL = [
	new BusinessPlatformSales(),
	new BusinessPlatformCampaigns(),
	new BusinessPlatformPeople(),
].flatMap(operations);

function render(ops: OperationView[]): string {
	const cell = (s: string) => s.replace(/\|/g, '\\|');
	const rows = ops.map((o) => {
		const cut =
			o.nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_').length > MAX_TOOL_NAME ? ' **(cut at 64)**' : '';
		return `| ${o.node.replace('Business Platform ', '')} | ${o.resource} | ${o.operation} | \`${o.toolName}\`${cut} | ${cell(o.description)} | ${cell(o.uiDescription)} | ${o.required.join(', ') || '—'} |`;
	});
	return [
		'| Node | Resource | Operation | Default tool name | Description the model gets | Operation description (UI) | Required fields |',
		'| --- | --- | --- | --- | --- | --- | --- |',
		...rows,
	].join('\n');
}

describe('what each operation gives a model as a tool, with n8n’s defaults', () => {
	it('is the table in docs/ai-tools.md', () => {
		checkDocSection(AI_TOOLS_DOC, 'operations', render(ALL));
	});

	it('gives every operation a description that says what it does, which fields it needs and what it returns', () => {
		const vague = ALL.filter(
			(o) =>
				!/\. (Required fields: .+|No field is required)\. Returns .+\.$/.test(o.description) ||
				/ in Business Platform \w+$/.test(o.description),
		);
		expect(vague.map((o) => `${o.resource} → ${o.operation}: ${o.description}`)).toEqual([]);
	});

	it('gives every operation a distinct default tool name', () => {
		const names = ALL.map((o) => o.toolName);
		expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
	});
});
