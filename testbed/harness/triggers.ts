/** The trigger nodes' webhooks and workflows as n8n builds, registers and calls them (WebhookService, HookContext, WebhookContext). */
import { HookContext, WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	IHttpRequestMethods,
	INode,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';
import { harnessNodeTypes, TestNodeTypes } from './nodes';

/** The webhook registrations n8n would build for a trigger node (as WebhookService.getNodeWebhooks). */
export function webhookData(
	workflow: Workflow,
	node: INode,
	data: IWorkflowExecuteAdditionalData,
	isTest = false,
): IWebhookData[] {
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	return (nodeType.description.webhooks ?? []).map((wd) => ({
		httpMethod: wd.httpMethod as IHttpRequestMethods,
		node: node.name,
		path: NodeHelpers.getNodeWebhookPath(
			workflow.id,
			node,
			String(wd.path),
			wd.isFullPath === true,
		),
		webhookDescription: wd,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: data,
		webhookId: node.webhookId,
		isTest,
	}));
}

export async function webhookMethod(
	method: 'checkExists' | 'create' | 'delete',
	workflow: Workflow,
	wd: IWebhookData,
	mode: WorkflowExecuteMode = 'trigger',
	activation: WorkflowActivateMode = 'activate',
): Promise<boolean | undefined> {
	const node = workflow.getNode(wd.node)!;
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const fn = nodeType.webhookMethods?.[wd.webhookDescription.name]?.[method];
	if (!fn) return undefined;
	return await fn.call(
		new HookContext(workflow, node, wd.workflowExecuteAdditionalData, mode, activation, wd),
	);
}

/** n8n's createWebhookIfNotExists: checkExists, then create only when it said false. */
export async function activateWebhook(workflow: Workflow, wd: IWebhookData): Promise<void> {
	if (!(await webhookMethod('checkExists', workflow, wd)))
		await webhookMethod('create', workflow, wd);
}

/** `httpResponse`: an express-like response object, for nodes that answer the call themselves (`getResponseObject`). */
export async function deliverWebhook(
	workflow: Workflow,
	wd: IWebhookData,
	request: { body?: unknown; headers?: IDataObject; query?: IDataObject; params?: IDataObject },
	httpResponse?: unknown,
): Promise<IWebhookResponseData> {
	const node = workflow.getNode(wd.node)!;
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const data = {
		...wd.workflowExecuteAdditionalData,
		httpRequest: { headers: {}, query: {}, params: {}, ...request },
		...(httpResponse ? { httpResponse } : {}),
	} as unknown as IWorkflowExecuteAdditionalData;
	const closeFunctions: Array<() => Promise<void>> = [];
	try {
		return await nodeType.webhook!.call(
			new WebhookContext(workflow, node, data, 'webhook', wd, closeFunctions, null),
		);
	} finally {
		await Promise.allSettled(closeFunctions.map(async (f) => await f()));
	}
}

let workflows = 0;
/** A workflow with the trigger; its own ID unless given (the pack follows polls per workflow and node: n8n-internals 10). */
export function triggerWorkflow(
	node: INode,
	staticData: IDataObject = {},
	id = `wf-test-${++workflows}`,
): Workflow {
	return new Workflow({
		id,
		name: 'test',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes: new TestNodeTypes(harnessNodeTypes()),
		staticData,
		settings: {},
	});
}
