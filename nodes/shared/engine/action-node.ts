/**
 * The action nodes (Sales, Campaigns, People): each is its resources and what tells it
 * apart (names, versions, wording); its description, pickers and executor come from them.
 * A node's file is `export class BusinessPlatformSales extends actionNode({ …its identity… }) {}`.
 */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../transport';
import { buildProperties, buildSubtitle } from './description';
import { executorFor } from './execute';
import { mergeMethods } from './methods';
import type { Resource, ResourceMethods } from './model';
import { DEFAULT_TUNING, type Tuning } from '../tuning';

/** What tells the action nodes apart. */
export interface ActionNodeIdentity
	extends Pick<
		INodeTypeDescription,
		'displayName' | 'name' | 'version' | 'defaultVersion' | 'description' | 'builderHint'
	> {
	resources: Resource[];
	/** The Resource list's default, when not the first resource. */
	defaultResource?: string;
}

/**
 * An action node's description. All three are transform nodes usable as AI tools, with
 * the same icon, one main input and output and the credential; the properties and the
 * subtitle come from the node's resources.
 */
export function actionNodeDescription(node: ActionNodeIdentity): INodeTypeDescription {
	const { resources, defaultResource, version, defaultVersion } = node;
	return {
		displayName: node.displayName,
		name: node.name,
		icon: { light: 'file:businessPlatform.svg', dark: 'file:businessPlatform.dark.svg' },
		group: ['transform'],
		version,
		...(defaultVersion === undefined ? {} : { defaultVersion }),
		subtitle: buildSubtitle(resources),
		description: node.description,
		defaults: { name: node.displayName },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: buildProperties(resources, defaultResource),
		// What n8n's AI workflow builder reads when it chooses a node (n8n 2.x; older n8n ignores it).
		...(node.builderHint ? { builderHint: node.builderHint } : {}),
	};
}

export interface ActionNode extends INodeType {
	description: INodeTypeDescription;
	methods: Required<ResourceMethods>;
	execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]>;
}

/**
 * The class of an action node: its description, its resources' pickers, and execute() running
 * their operations. n8n builds it without arguments (the default tuning); the tests' harness
 * builds it with its own tunables and clocks (nodes/shared/tuning.ts), which its execute() passes on.
 */
export function actionNode(node: ActionNodeIdentity): new (tuning?: Tuning) => ActionNode {
	return class implements ActionNode {
		description = actionNodeDescription(node);

		methods = mergeMethods(node.resources);

		execute: ActionNode['execute'];

		constructor(tuning: Tuning = DEFAULT_TUNING) {
			this.execute = executorFor(node.resources, tuning);
		}
	};
}
