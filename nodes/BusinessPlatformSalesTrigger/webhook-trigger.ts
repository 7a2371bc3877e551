/**
 * The trigger's implementation, shared by its two node types (see webhookTriggerDescription).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	IPollFunctions,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { readFailure } from '../shared/errors';
import { RunScope } from '../shared/run-scope';
import { DEFAULT_TUNING, type Tuning } from '../shared/tuning';
import { apiRequest, CREDENTIAL_TYPE } from '../shared/transport';
import { EVENT_BY_VALUE, eventOptions, eventsSubtitle } from './events';
import { heal } from './heal';
import { ALLOW_PRIVATE_ADDRESS, checkExists, create, deleteHooks } from './registrations';
import { ownText, ownValue, state } from './state';

/** Compares two secrets without stopping at the first difference. */
function sameSecret(given: string, expected: string): boolean {
	if (given.length !== expected.length) return false;
	let diff = 0;
	for (let i = 0; i < given.length; i++) diff |= given.charCodeAt(i) ^ expected.charCodeAt(i);
	return diff === 0;
}

const positiveInt = (v: unknown): number | undefined => {
	const n =
		typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
	return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** The Trigger's Options. */
const OPTIONS: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Allow Private Webhook Address',
			name: ALLOW_PRIVATE_ADDRESS,
			type: 'boolean',
			default: false,
			description:
				"Whether to publish although n8n's webhook address (its WEBHOOK_URL) is in a private network, such as 192.168.x.x, and the API Base URL is not. Turn on only when the platform reaches n8n there, over a VPN or a private link.",
		},
		{
			displayName: 'Fetch Full Record',
			name: 'fetchFullRecord',
			type: 'boolean',
			default: false,
			description:
				'Whether to read the current contact or deal from the platform and add it as "record", for sales contact and deal events whose payload carries the ID. Not done for delete events; left out when the record no longer exists.',
		},
		{
			displayName: 'Report Restored Registrations',
			name: 'reportRestored',
			type: 'boolean',
			default: true,
			description:
				'Whether to output an item when the trigger finds that the platform dropped one of its webhook registrations and registers it again, saying since when events of that type may have been missed. Off by default in versions 1 and 2 of the node.',
		},
	],
};

/** The contact or deal id an event payload carries: data.id, id, then data/top-level contact_id or deal_id. */
export function recordId(payload: unknown, record: 'contacts' | 'deals'): number | undefined {
	if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
	const p = payload as IDataObject;
	const data =
		p.data && typeof p.data === 'object' && !Array.isArray(p.data) ? (p.data as IDataObject) : {};
	const key = record === 'contacts' ? 'contact_id' : 'deal_id';
	for (const candidate of [data.id, p.id, data[key], p[key]]) {
		const id = positiveInt(candidate);
		if (id !== undefined) return id;
	}
	return undefined;
}

/**
 * The trigger's description under a node type name. Two types share it:
 * `businessPlatformSalesTrigger`, the one the nodes panel offers (n8n's panel links a trigger
 * to the action node whose type name is the trigger's without "Trigger", so its events are
 * listed with the Sales node), and `businessPlatformTrigger`, the first name, hidden from the
 * panel and kept registered so saved workflows keep working.
 */
export function webhookTriggerDescription(name: string, hidden: boolean): INodeTypeDescription {
	return {
		displayName: 'Business Platform Trigger',
		name,
		...(hidden ? { hidden: true } : {}),
		icon: { light: 'file:businessPlatform.svg', dark: 'file:businessPlatform.dark.svg' },
		group: ['trigger'],
		// Version 2 changes no parameter: n8n evaluates an expression in its isolated VM on every
		// delivery to a version-1 webhook node (`options.binaryData`, webhook-helpers parseRequestBody),
		// CPU on every event; from version 2 on it does not (docs/performance.md has the cost).
		// Version 3: a registration restored by the poll is reported as an item unless Options →
		// Report Restored Registrations is off (versions 1 and 2: only when it is on; heal.ts).
		version: [1, 2, 3],
		defaultVersion: 3,
		subtitle: eventsSubtitle(),
		description: 'Starts the workflow when a Business Platform sales or accounting event happens',
		defaults: { name: 'Business Platform Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		triggerPanel: {
			header: 'Listen for events the platform sends',
			executionsHelp: {
				inactive:
					'<b>While building your workflow</b>, click "Execute step", then make the event happen in Business Platform (or send it from the sandbox): the platform pushes it to n8n at once. <br /><br /><b>Once published</b>, every event the platform sends starts an execution.',
				active:
					'<b>While building your workflow</b>, click "Execute step" and make the event happen in Business Platform. <br /><br /><b>The workflow is published</b>: every event the platform sends starts an execution, listed under Executions.',
			},
			activationHint:
				'Once you have finished building your workflow, publish it: the platform will then push every event to it.',
		},
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
		properties: [
			{
				// The poll that keeps the registrations (heal.ts, n8n-internals 11): every minute, not a
				// choice a user makes; hidden, so the editor shows the webhook trigger it is.
				displayName: 'Poll Times',
				name: 'pollTimes',
				type: 'hidden',
				default: { item: [{ mode: 'everyMinute' }] },
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: [],
				options: eventOptions(),
				description:
					'The platform events that start the workflow. Each one is registered with the platform as its own webhook.',
			},
			OPTIONS,
		],
	};
}

/**
 * What both trigger node types do: register the webhooks, check and output the events. n8n builds
 * it without arguments (the default tuning); the tests' harness with its own tunables and clocks
 * (nodes/shared/tuning.ts), which every call's run scope gets.
 */
export abstract class WebhookTriggerNode implements INodeType {
	abstract description: INodeTypeDescription;

	webhookMethods: NonNullable<INodeType['webhookMethods']>;

	/** Every minute: the registrations the platform still holds, healed (heal.ts; n8n-internals 11). */
	poll: (this: IPollFunctions) => Promise<INodeExecutionData[][] | null>;

	webhook: (this: IWebhookFunctions) => Promise<IWebhookResponseData>;

	constructor(tuning: Tuning = DEFAULT_TUNING) {
		this.webhookMethods = {
			default: {
				async checkExists(this: IHookFunctions): Promise<boolean> {
					return await checkExists(new RunScope(this, tuning));
				},
				async create(this: IHookFunctions): Promise<boolean> {
					return await create(new RunScope(this, tuning));
				},
				async delete(this: IHookFunctions): Promise<boolean> {
					return await deleteHooks(new RunScope(this, tuning));
				},
			},
		};
		this.poll = async function (this: IPollFunctions) {
			return await heal(this, tuning);
		};
		this.webhook = async function (this: IWebhookFunctions) {
			return await receive(this, tuning);
		};
	}

	/**
	 * The items the webhook or the poll gave, passed on unchanged. n8n runs a node's execute
	 * before its poll when it runs the node in an execution (n8n-core WorkflowExecute.runNode):
	 * without it, a test event ("Listen for test event") would run the poll instead of passing
	 * the event on (n8n-internals 11).
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

/** One delivery: its event and secret checked, the event (and, if asked, its record) as the item. */
async function receive(ctx: IWebhookFunctions, tuning: Tuning): Promise<IWebhookResponseData> {
	const query = (ctx.getQueryData() ?? {}) as IDataObject;
	const eventType = typeof query.event === 'string' ? query.event : '';
	const given = typeof query.secret === 'string' ? query.secret : '';
	const data = state(ctx);
	const expected = ownText(data.secrets, eventType);

	// The platform signs nothing: the secret in the registered URL is what proves the call
	// comes from the registration. Only an event this registration holds (an own property of
	// its stored secrets, never one every object inherits, such as toString) with its exact,
	// non-empty secret starts the workflow; anything else is refused before any workflow runs.
	if (expected === undefined || !EVENT_BY_VALUE.has(eventType) || !sameSecret(given, expected)) {
		const res = ctx.getResponseObject();
		res.writeHead(401, { 'content-type': 'application/json' });
		res.end(
			JSON.stringify({
				message: 'Unknown event or wrong secret for this Business Platform Trigger',
			}),
		);
		return { noWebhookResponse: true };
	}

	const payload = ctx.getBodyData() as unknown;
	const hookId = ownValue(data.hookIds, eventType);
	const output: IDataObject = {
		eventType,
		receivedAt: new Date().toISOString(),
		hookId: typeof hookId === 'number' || typeof hookId === 'string' ? hookId : null,
		payload: payload as IDataObject,
	};

	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const record = EVENT_BY_VALUE.get(eventType)?.record;
	if (options.fetchFullRecord === true && record && !eventType.startsWith('DELETE_')) {
		const id = recordId(payload, record);
		if (id !== undefined) {
			try {
				output.record = await apiRequest<IDataObject>(new RunScope(ctx, tuning), {
					method: 'GET',
					path: `/v1/crm/${record}/${id}`,
				});
			} catch (error) {
				// Deleted since the event: output the event without it. Any other failure is
				// reported on the item rather than losing the event.
				if (readFailure(error).status !== 404)
					output.recordError = error instanceof Error ? error.message : String(error);
			}
		}
	}

	return { workflowData: [ctx.helpers.returnJsonArray([output])] };
}
