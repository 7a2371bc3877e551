/**
 * Runs the pack's nodes through n8n-core's real execution path in-process:
 * WorkflowExecute → ExecuteContext → the node's execute(), with n8n's own OAuth2
 * request code (refresh on 401, merged concurrent refreshes, save, retry). The
 * credentials helper stands in for n8n's database: it reports the OAuth2 parent
 * type, keeps the stored credential, and records every update n8n saves.
 */
import {
	ExecutionLifecycleHooks,
	HookContext,
	LoadOptionsContext,
	WebhookContext,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	createRunExecutionData,
	ICredentialsHelper,
	NodeHelpers,
	UnexpectedError,
	Workflow,
} from 'n8n-workflow';

import { BusinessPlatformOAuth2Api } from '../../credentials/BusinessPlatformOAuth2Api.credentials';
import { BusinessPlatformCampaigns } from '../../nodes/BusinessPlatformCampaigns/BusinessPlatformCampaigns.node.ts';
import { BusinessPlatformPeople } from '../../nodes/BusinessPlatformPeople/BusinessPlatformPeople.node.ts';
import { BusinessPlatformSales } from '../../nodes/BusinessPlatformSales/BusinessPlatformSales.node.ts';
import { BusinessPlatformSalesTrigger } from '../../nodes/BusinessPlatformSalesTrigger/BusinessPlatformSalesTrigger.node.ts';
import { BusinessPlatformPeopleTrigger } from '../../nodes/BusinessPlatformPeopleTrigger/BusinessPlatformPeopleTrigger.node.ts';
import { BusinessPlatformCampaignsTrigger } from '../../nodes/BusinessPlatformCampaignsTrigger/BusinessPlatformCampaignsTrigger.node.ts';
import { BusinessPlatformTableTrigger } from '../../nodes/BusinessPlatformTableTrigger/BusinessPlatformTableTrigger.node.ts';
import { BusinessPlatformTrigger } from '../../nodes/BusinessPlatformTrigger/BusinessPlatformTrigger.node.ts';
import { sandboxCredentialData } from '../credential-data';
import type { Sandbox } from '../../sandbox/src/server';
import { TestTransport } from './pager-node';
import type { Tuning } from '../../nodes/shared/tuning';

export const PACKAGE = 'n8n-nodes-business-platform';
export const CREDENTIAL_TYPE = 'businessPlatformOAuth2Api';

/** Every node of the pack, by the name n8n gives it once installed, built with `tuning` (n8n's defaults unless given). */
export function packNodeTypes(tuning?: Tuning): Record<string, INodeType> {
	return {
		[`${PACKAGE}.businessPlatformSales`]: new BusinessPlatformSales(tuning),
		[`${PACKAGE}.businessPlatformCampaigns`]: new BusinessPlatformCampaigns(tuning),
		[`${PACKAGE}.businessPlatformPeople`]: new BusinessPlatformPeople(tuning),
		[`${PACKAGE}.businessPlatformSalesTrigger`]: new BusinessPlatformSalesTrigger(tuning),
		[`${PACKAGE}.businessPlatformPeopleTrigger`]: new BusinessPlatformPeopleTrigger(tuning),
		[`${PACKAGE}.businessPlatformCampaignsTrigger`]: new BusinessPlatformCampaignsTrigger(tuning),
		[`${PACKAGE}.businessPlatformTableTrigger`]: new BusinessPlatformTableTrigger(tuning),
		// The trigger's first type name, hidden from the nodes panel; saved workflows use it.
		[`${PACKAGE}.businessPlatformTrigger`]: new BusinessPlatformTrigger(tuning),
		// Test only: the transport without an operation around it.
		[`${PACKAGE}.testTransport`]: new TestTransport(tuning),
	};
}

/** The pack's nodes with n8n's default tuning. */
export const NODE_TYPES: Record<string, INodeType> = packNodeTypes();

/**
 * The nodes the harness runs: NODE_TYPES, or, after `useTuning`, nodes built with a test file's
 * own tunables and clocks (test/helpers/tuning.ts), which the file may change between its tests.
 */
const harnessNodes: { types: Record<string, INodeType> } = { types: NODE_TYPES };

/** From now on (in this test file: jest loads the harness once per file), the harness's nodes run with `tuning`. */
export function useTuning(tuning: Tuning): void {
	harnessNodes.types = packNodeTypes(tuning);
}

/** The nodes the harness runs now (NODE_TYPES unless `useTuning` gave others). */
export const harnessNodeTypes = (): Record<string, INodeType> => harnessNodes.types;

const clone = <T>(v: T): T => structuredClone(v);

interface StoredCredential {
	id: string;
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

export class TestCredentialsHelper extends ICredentialsHelper {
	readonly store = new Map<string, StoredCredential>();
	/** Every save n8n made, in order. */
	readonly saves: Array<{ id: string; data: ICredentialDataDecryptedObject }> = [];
	private readonly types: Record<string, ICredentialType> = {
		[CREDENTIAL_TYPE]: new BusinessPlatformOAuth2Api(),
	};

	/** The harness's credential (createHarness: 'cred-1' unless given another id). */
	defaultId = 'cred-1';

	add(cred: StoredCredential): void {
		this.store.set(cred.id, clone(cred));
	}

	data(id = this.defaultId): ICredentialDataDecryptedObject {
		return clone(this.store.get(id)!.data);
	}

	getParentTypes(name: string): string[] {
		const parents = this.types[name]?.extends ?? [];
		return parents.flatMap((p) => [p, ...this.getParentTypes(p)]);
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types[type]?.properties ?? [];
	}

	async getCredentials(): Promise<ICredentials> {
		throw new UnexpectedError('getCredentials is not used by the harness');
	}

	async getDecrypted(
		_a: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		_mode?: unknown,
		_ed?: unknown,
		raw?: boolean,
	): Promise<ICredentialDataDecryptedObject> {
		const cred = nodeCredentials.id ? this.store.get(nodeCredentials.id) : undefined;
		if (!cred || cred.type !== type)
			throw new UnexpectedError(`No credential ${nodeCredentials.id} of type ${type}`);
		if (raw) return clone(cred.data);
		// Property defaults, then the stored data. Expression defaults are not evaluated here:
		// the stored test credential carries authUrl and accessTokenUrl explicitly.
		const defaults: ICredentialDataDecryptedObject = {};
		for (const p of this.getCredentialsProperties(type))
			if (typeof p.default !== 'string' || !p.default.startsWith('='))
				defaults[p.name] = p.default as never;
		return { ...defaults, ...clone(cred.data) };
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		_type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const cred = this.store.get(nodeCredentials.id!)!;
		cred.data = clone(data);
		this.saves.push({ id: cred.id, data: clone(data) });
	}

	/** Like n8n's CLI: only oauthTokenData is written back. */
	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		_type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const cred = this.store.get(nodeCredentials.id!)!;
		cred.data = { ...cred.data, oauthTokenData: clone(data.oauthTokenData) };
		this.saves.push({ id: cred.id, data: { oauthTokenData: clone(data.oauthTokenData) } });
	}

	async authenticate(
		_c: ICredentialDataDecryptedObject,
		_t: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return requestOptions;
	}

	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	/** Like n8n's CLI: the credential's preAuthentication with only a plain httpRequest helper. */
	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const pre = this.types[typeName]?.preAuthentication;
		if (typeof pre !== 'function') return undefined;
		const narrowed: IHttpRequestHelper = {
			helpers: {
				httpRequest: async (o: IHttpRequestOptions) => await helpers.helpers.httpRequest(o),
			},
		};
		return ((await pre.call(narrowed, credentials)) as ICredentialDataDecryptedObject) ?? undefined;
	}
}

class TestNodeTypes implements INodeTypes {
	constructor(private readonly nodes: Record<string, INodeType>) {}
	getByName(type: string): INodeType | IVersionedNodeType {
		const n = this.nodes[type];
		if (!n) throw new UnexpectedError(`Unknown node type ${type}`);
		return n;
	}
	/** A versioned node (VersionedNodeType) gives the node type of the workflow node's version, as in n8n. */
	getByNameAndVersion(type: string, version?: number): INodeType {
		const n = this.getByName(type);
		return 'nodeVersions' in n ? n.getNodeType(version) : n;
	}
	getKnownTypes(): IDataObject {
		return {};
	}
}

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

/** The stored credential for a sandbox and a token response (as n8n keeps it after Connect). */
export function sandboxCredential(
	sb: Sandbox,
	tokenResponse: Record<string, unknown>,
	extra: IDataObject = {},
): ICredentialDataDecryptedObject {
	return {
		...sandboxCredentialData({ ...sb.config, baseUrl: sb.baseUrl, authUrl: sb.authUrl }),
		grantType: 'authorizationCode',
		authUrl: sb.authUrl,
		accessTokenUrl: `${sb.baseUrl}/oauth/token`,
		authQueryParameters: '',
		authentication: 'header',
		oauthTokenData: clone(tokenResponse),
		...extra,
	} as ICredentialDataDecryptedObject;
}

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
				nodeTypes: new TestNodeTypes(harnessNodes.types),
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

// ------------------------------------------------------------------ pickers --

/**
 * n8n-core's load-options context for a node with these parameters, as the editor builds it
 * when a picker (list search, load options, resource mapping) of the parameter at `path` opens.
 */
export function pickerContext(
	h: Harness,
	type: string,
	parameters: IDataObject,
	path = 'parameters.x',
	typeVersion = 1,
): LoadOptionsContext {
	const node = h.node(type, parameters, 'Node', typeVersion);
	const workflow = new Workflow({
		id: 'wf-pick',
		name: 'pick',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new TestNodeTypes(harnessNodes.types),
		settings: {},
	});
	return new LoadOptionsContext(
		workflow,
		node,
		{
			...additionalData(h.credentials),
			currentNodeParameters: parameters,
		} as IWorkflowExecuteAdditionalData,
		path,
	);
}

/** Calls the node's picker method `methods[kind][method]` in its load-options context. */
export async function pick<T>(
	h: Harness,
	type: string,
	kind: 'listSearch' | 'loadOptions' | 'resourceMapping',
	method: string,
	parameters: IDataObject,
	...args: unknown[]
): Promise<T> {
	const methods = harnessNodes.types[`${PACKAGE}.${type}`].methods?.[kind] as
		| Record<string, (this: ILoadOptionsFunctions, ...a: unknown[]) => Promise<T>>
		| undefined;
	const fn = methods?.[method];
	if (!fn) throw new UnexpectedError(`${type} has no ${kind} method ${method}`);
	return await fn.call(pickerContext(h, type, parameters), ...args);
}

// ----------------------------------------------------------------- triggers --

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
		nodeTypes: new TestNodeTypes(harnessNodes.types),
		staticData,
		settings: {},
	});
}

// ------------------------------------------------------- credential test --

/**
 * What n8n's Test button does for a credential with a `test` request: a routing
 * request through n8n-core (with the credential's OAuth2 handling), then the
 * credential's rules on the status. Returns n8n's verdict shape.
 */
export async function testCredential(
	credentials: TestCredentialsHelper,
	id = credentials.defaultId,
): Promise<{ status: 'OK' | 'Error'; message: string }> {
	const { ExecuteContext, RoutingNode } = await import('n8n-core');
	const type = new BusinessPlatformOAuth2Api();
	const stored = credentials.store.get(id)!;
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'test.credentialTest',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [CREDENTIAL_TYPE]: { id, name: stored.name } },
	};
	const nodeType: INodeType = {
		description: {
			displayName: 'Credential Test',
			name: 'test.credentialTest',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: type.test.request },
					default: '',
				},
			],
		},
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new TestNodeTypes({ 'test.credentialTest': nodeType }),
	});
	const data = additionalData(credentials);
	const context = new ExecuteContext(
		workflow,
		node,
		data,
		'internal',
		createRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	try {
		await new RoutingNode(context, nodeType, {
			id,
			name: stored.name,
			type: CREDENTIAL_TYPE,
			data: await credentials.getDecrypted(data, { id, name: stored.name }, CREDENTIAL_TYPE),
		}).runNode();
		return { status: 'OK', message: 'Connection tested successfully' };
	} catch (error) {
		const e = error as {
			message: string;
			cause?: { response?: { status?: number } };
			httpCode?: string;
		};
		const status = e.cause?.response?.status ?? Number(e.httpCode);
		const rule = type.test.rules?.find(
			(r) => r.type === 'responseCode' && r.properties.value === status,
		);
		return {
			status: 'Error',
			message: rule && rule.type === 'responseCode' ? rule.properties.message : e.message,
		};
	}
}
