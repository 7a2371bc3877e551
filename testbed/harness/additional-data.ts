/** What n8n hands every node context beside the workflow (URLs, the credentials helper, hooks), as the harness builds it. */
import { ExecutionLifecycleHooks } from 'n8n-core';
import type { IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { ICredentialsHelper, UnexpectedError } from 'n8n-workflow';

export const N8N_BASE = 'http://127.0.0.1:5678';

/** `base`: the n8n address the URLs are built on (a trigger test can point webhook URLs at a local receiver). */
export function additionalData(
	credentialsHelper: ICredentialsHelper,
	hooks?: ExecutionLifecycleHooks,
	base: string = N8N_BASE,
): IWorkflowExecuteAdditionalData {
	const notAvailable = async () => {
		throw new UnexpectedError('not available in the harness');
	};
	return {
		credentialsHelper,
		hooks,
		executionId: hooks?.executionId,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${base}/rest`,
		instanceBaseUrl: `${base}/`,
		formBaseUrl: `${base}/form`,
		formWaitingBaseUrl: `${base}/form-waiting`,
		formTestBaseUrl: `${base}/form-test`,
		webhookBaseUrl: `${base}/webhook`,
		webhookWaitingBaseUrl: `${base}/webhook-waiting`,
		webhookTestBaseUrl: `${base}/webhook-test`,
		mcpBaseUrl: `${base}/mcp`,
		mcpTestBaseUrl: `${base}/mcp-test`,
		variables: {},
		executeWorkflow: notAvailable,
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: notAvailable,
	} as unknown as IWorkflowExecuteAdditionalData;
}
