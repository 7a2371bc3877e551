/**
 * Runs the pack's nodes through n8n-core's real execution path in-process:
 * WorkflowExecute → ExecuteContext → the node's execute(), with n8n's own OAuth2
 * request code (refresh on 401, merged concurrent refreshes, save, retry). The
 * credentials helper (credentials.ts) stands in for n8n's database.
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type { IDataObject, INode, INodeExecutionData, IRun } from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/src/server';
import { additionalData } from './additional-data';
import { CREDENTIAL_TYPE, sandboxCredential, TestCredentialsHelper } from './credentials';
import { harnessNodeTypes, PACKAGE, TestNodeTypes } from './nodes';

export interface NodeRun {
	/** Output items of the node's first output. */
	items: INodeExecutionData[];
	json: IDataObject[];
	/** The error when the node failed. */
	error?: Error & { description?: string; context?: IDataObject; httpCode?: string };
	run: IRun;
}

export interface Harness {
	credentials: TestCredentialsHelper;
	/** Runs one node once with the given parameters and input items. */
	run(
		type: string,
		parameters: IDataObject,
		input?: Array<{ json: IDataObject | Record<string, unknown> }>,
		options?: { continueOnFail?: boolean; name?: string; typeVersion?: number },
	): Promise<NodeRun>;
	node(type: string, parameters: IDataObject, name?: string, typeVersion?: number): INode;
}

let executionCounter = 0;

/** How many times a run whose check timed out before any node ran is started (checkedRun). */
export const CHECK_ATTEMPTS = 10;

/**
 * n8n checks a workflow before running it, and tests resource-locator values with its safe
 * regex engine: a VM with a 250 ms wall-clock timeout. On a machine busy with other test
 * processes that timeout can fire on a tiny regex ("Regular expression execution timed
 * out") before any node runs. Only then is the check tried again (up to 10 times: three in a
 * row timed out in a fresh-clone CI while n8n's polling lanes and queue clusters started): no
 * request has been sent, so nothing is repeated. The check throws synchronously, before n8n
 * returns the run's promise: that throw is caught like a rejection.
 */
export async function checkedRun(start: () => Promise<IRun>): Promise<IRun> {
	const beforeAnyNode = (e: Error | undefined) =>
		e?.message === 'Regular expression execution timed out' &&
		/checkReadyForExecution|checkForWorkflowIssues/.test(e.stack ?? '');
	let failure: unknown;
	for (let attempt = 1; attempt <= CHECK_ATTEMPTS; attempt++) {
		const outcome = await Promise.resolve()
			.then(start)
			.then(
				(run) => ({ run }),
				(error: unknown) => ({ error }),
			);
		if ('run' in outcome) return outcome.run;
		failure = outcome.error;
		if (!beforeAnyNode(failure as Error | undefined)) break;
	}
	return await Promise.reject(failure);
}

/**
 * `credentialId`: harnesses that run at the same time need ids of their own: n8n-core makes concurrent refreshes of one
 * credential id in a process share one refresh (its module-level SingleFlightLease), so two harnesses on two sandboxes
 * with the same id would be handed each other's tokens (docs/dev/n8n-core-harness.md, "Concurrency").
 */
export function createHarness(
	sb: Sandbox,
	tokenResponse: Record<string, unknown> = sb.demo.tokenResponse,
	extra: IDataObject = {},
	credentialId = 'cred-1',
): Harness {
	const credentials = new TestCredentialsHelper();
	credentials.defaultId = credentialId;
	credentials.add({
		id: credentialId,
		name: 'Business Platform (sandbox)',
		type: CREDENTIAL_TYPE,
		data: sandboxCredential(sb, tokenResponse, extra),
	});
	const node = (type: string, parameters: IDataObject, name = 'Node', typeVersion = 1): INode => ({
		id: `node-${name}`,
		name,
		type: `${PACKAGE}.${type}`,
		typeVersion,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
		credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: 'Business Platform (sandbox)' } },
	});
	return {
		credentials,
		node,
		async run(type, parameters, input = [{ json: {} }], options = {}) {
			const n = node(type, parameters, options.name, options.typeVersion);
			if (options.continueOnFail) n.onError = 'continueRegularOutput';
			const workflow = new Workflow({
				id: 'wf-test',
				name: 'test',
				nodes: [n],
				connections: {},
				active: false,
				nodeTypes: new TestNodeTypes(harnessNodeTypes()),
				settings: {},
			});
			const executionId = `exec-${++executionCounter}`;
			const hooks = new ExecutionLifecycleHooks('manual', executionId, {
				id: 'wf-test',
				name: 'test',
				nodes: [n],
				connections: {},
				active: false,
				settings: {},
			} as never);
			const data = createRunExecutionData({
				executionData: {
					nodeExecutionStack: [
						{ node: n, data: { main: [input as INodeExecutionData[]] }, source: null },
					],
				},
			});
			const run = await checkedRun(() =>
				new WorkflowExecute(
					additionalData(credentials, hooks),
					'manual',
					data,
				).processRunExecutionData(workflow),
			);
			const task = run.data.resultData.runData[n.name]?.[0];
			const items = (task?.data?.main?.[0] ?? []) as INodeExecutionData[];
			return {
				items,
				json: items.map((i) => i.json),
				error: (task?.error ?? run.data.resultData.error) as NodeRun['error'],
				run,
			};
		},
	};
}
