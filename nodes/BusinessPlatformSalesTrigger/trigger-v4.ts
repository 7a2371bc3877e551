/**
 * Version 4 of the Sales Trigger: the instant (webhook) events of versions 1 to 3, and beside them
 * in Events the polling events of contacts, deals and activities (polling/events.ts), which need
 * no public address and deliver each change exactly once through the polling state machine.
 * Instant events, or one polling event, per Trigger:
 * - instant: the webhook is registered with the platform as in versions 1 to 3, and the hidden
 *   every-minute poll heals the registrations (heal.ts);
 * - polling: the node's webhook has no method (n8n-internals 13: n8n registers none and calls no
 *   webhook method), the every-minute poll reads the chosen list, and the test button (a manual
 *   run, which runs `execute`) gives the newest change.
 * docs/trigger.md, "Instant or polling"; docs/polling-triggers.md, "Contacts, deals and activities".
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
	IWebhookDescription,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { searchPipelines } from '../BusinessPlatformSales/methods/deals';
import { eventOptions, EVENT_BY_VALUE } from './events';
import { heal } from './heal';
import { WebhookTriggerNode, webhookTriggerDescription } from './webhook-trigger';
import { pollOnce } from '../shared/polling/machine';
import type { ParamReader, PollEvent } from '../shared/polling/model';
import { paramReader } from '../shared/polling/node';
import { testItem } from '../shared/polling/read';
import { RunScope } from '../shared/run-scope';
import { compareLabels } from '../shared/field-values';
import { DEFAULT_TUNING, type Tuning } from '../shared/tuning';
import { getWatchableFields } from './methods/fields';
import { sampleItem } from './polling/compare';
import { CRM_POLL_EVENTS, POLL_EVENT_VALUES } from './polling/events';
import { POLLING_FIELDS } from './polling/fields';
import { RECORD_KINDS, type RecordType } from './polling/records';

const POLL_PREFIX = 'POLL_';
const POLLING = Object.values(POLL_EVENT_VALUES);

// ── n8n-internals 13 and 14: a webhook only for instant events ─────────────────
// Relies on (13): n8n gathers a node's webhooks from its description, evaluating `httpMethod`
// (n8n's WebhookService.getNodeWebhooks, 1.x and 2.x) and splitting it at commas; an empty method
// gives no webhook and no message. So with a polling event chosen the node has no webhook: n8n
// registers none when it publishes (no checkExists, create or delete), and a manual run does not
// wait for a test call but runs the node (`execute`, n8n-internals 11).
// Relies on (14): n8n 2.41 resolves such a field without its expression engine when the field
// carries a native resolver under Symbol.for('n8n.webhookDescriptionResolvers') whose template is
// the field's text and the node's parameters hold no expression (resolveWebhookDescriptionField):
// each delivery then costs what version 3's fixed "POST" costs. n8n 1.x ignores the symbol and
// evaluates the template (legacy engine) on every delivery.
// When it does not hold: (13) an n8n that registered a webhook without a method, or refused the
// node, would break the polling choice at publishing (the pinned tests fail first); (14) each
// delivery of an instant event evaluates one expression more.

/** The webhook's method: none when a polling event is chosen (evaluated by n8n, 1.x and 2.x alike). */
export const WEBHOOK_METHOD = `={{ [].concat($parameter["events"] || []).some((e) => String(e).startsWith("${POLL_PREFIX}")) ? "" : "POST" }}`;

/** The same, without n8n's expression engine (n8n 2.41's native resolver, n8n-internals 14). */
export function webhookMethod(parameters: IDataObject): string {
	const events = ([] as unknown[]).concat(parameters.events || []);
	return events.some((e) => String(e).startsWith(POLL_PREFIX)) ? '' : 'POST';
}

const RESOLVERS = Symbol.for('n8n.webhookDescriptionResolvers');

const WEBHOOK = {
	name: 'default',
	httpMethod: WEBHOOK_METHOD,
	responseMode: 'onReceived',
	path: 'webhook',
	[RESOLVERS]: { httpMethod: { template: WEBHOOK_METHOD, resolve: webhookMethod } },
} as IWebhookDescription;

// ── The description ─────────────────────────────────────────────────────────────

const POLLING_OPTIONS = CRM_POLL_EVENTS.map((e) => ({
	name: e.name,
	value: e.value,
	action: `On ${e.noun} changed (polling, no public address needed)`,
	description: e.description,
}));

/** Events: the instant events of versions 1 to 3 and the polling events, sorted by name. */
function eventsProperty(v3: INodeProperties): INodeProperties {
	const instant = eventOptions();
	const [shortcuts, events] = [instant.slice(0, 2), instant.slice(2)];
	const all = [...events, ...POLLING_OPTIONS].sort((a, b) => compareLabels(a.name, b.name));
	return {
		...v3,
		options: [...shortcuts, ...all],
		description:
			'Instant events (Sales, Accounting): the platform calls n8n at once, so n8n must be reachable from the platform at a public address. Polling events (Contact, Deal or Activity Changed): n8n asks the platform every minute, needs no public address, and delivers each change exactly once, also what changed while n8n was stopped. Choose instant events, or one polling event.',
	};
}

export function salesTriggerV4Description(): INodeTypeDescription {
	const v3 = webhookTriggerDescription('businessPlatformSalesTrigger', false);
	const [pollTimes, events, options] = v3.properties;
	const names = Object.fromEntries(
		(eventsProperty(events).options as Array<{ name: string; value: string }>).map((o) => [
			o.value,
			o.name,
		]),
	);
	return {
		...v3,
		version: 4,
		defaultVersion: 4,
		subtitle: `={{ ([].concat($parameter["events"] || [])).map(e => (${JSON.stringify(names)})[e] ?? e).join(", ") }}`,
		description:
			'Starts the workflow when a Business Platform sales or accounting event happens: at once (webhook), or by polling contacts, deals and activities',
		triggerPanel: {
			header: 'Events the platform sends, or changes n8n polls',
			executionsHelp: {
				inactive:
					'<b>Instant events</b>: click "Execute step", then make the event happen in Business Platform: the platform pushes it to n8n at once (n8n must be reachable from the platform). <br /><br /><b>Polling events</b> (Contact, Deal or Activity Changed): "Execute step" fetches the newest change. <br /><br /><b>Once published</b>, every event starts an execution; a polling event checks every minute and delivers each change once.',
				active:
					'<b>The workflow is published</b>: every instant event the platform sends, or every change a poll finds (every minute), starts an execution, listed under Executions.',
			},
			activationHint:
				'Once you have finished building your workflow, publish it: instant events are then pushed to it, polling events checked every minute.',
		},
		webhooks: [WEBHOOK],
		properties: [
			pollTimes,
			eventsProperty(events),
			...POLLING_FIELDS,
			// Fetch Full Record and Report Restored Registrations: instant events only.
			{ ...options, displayOptions: { hide: { events: POLLING } } },
		],
	};
}

// ── The polling event chosen, if any ────────────────────────────────────────────

/** The polling event a selection of Events holds; none for instant events; a mix fails, saying how to fix it. */
function pollingEvent(ctx: { getNode: IPollFunctions['getNode'] }, selection: unknown) {
	const chosen = ([] as unknown[]).concat(selection ?? []).map((e) => String(e).trim());
	const polls = chosen.filter((e) => e.startsWith(POLL_PREFIX));
	if (polls.length === 0) return undefined;
	const event = CRM_POLL_EVENTS.find((e) => e.value === polls[0]);
	if (
		!event ||
		polls.length > 1 ||
		chosen.some((e) => EVENT_BY_VALUE.has(e) || e.startsWith('ALL_'))
	)
		throw new NodeOperationError(ctx.getNode(), 'Choose instant events, or one polling event', {
			description: `Events holds ${chosen.slice(0, 5).join(', ')}: a Trigger either receives instant events (webhooks) or polls one list (${POLLING.join(', ')}). Use a second Trigger for the other.`,
		});
	return event;
}

/** A manual run's parameter reader (item 0), for the test fetch. */
function executeReader(ctx: IExecuteFunctions): ParamReader {
	const read = (name: string, fallback?: unknown) =>
		ctx.getNodeParameter(name, 0, fallback, { extractValue: true });
	return Object.assign(read, {
		fail: (message: string, description?: string) =>
			new NodeOperationError(ctx.getNode(), message, { description }),
	});
}

/** The test button with a polling event: the newest change the list holds, shaped as a delivery. */
async function testFetch(
	ctx: IExecuteFunctions,
	event: PollEvent,
	tuning: Tuning,
): Promise<INodeExecutionData[][]> {
	const param = executeReader(ctx);
	const [[newest]] = await testItem(new RunScope(ctx, tuning), event, event.list(param), param);
	const type = (Object.keys(POLL_EVENT_VALUES) as RecordType[]).find(
		(t) => POLL_EVENT_VALUES[t] === event.value,
	)!;
	return [[{ json: sampleItem(newest.json, RECORD_KINDS[type]), pairedItem: { item: 0 } }]];
}

/** Versions 1 to 3's webhook trigger, whose webhook methods and deliveries version 4 shares. */
class InstantTrigger extends WebhookTriggerNode {
	description = webhookTriggerDescription('businessPlatformSalesTrigger', false);
}

export class SalesTriggerV4 implements INodeType {
	description = salesTriggerV4Description();

	methods = { listSearch: { searchPipelines }, loadOptions: { getWatchableFields } };

	webhookMethods: NonNullable<INodeType['webhookMethods']>;

	webhook: NonNullable<INodeType['webhook']>;

	/** Every minute: the chosen list (a polling event), or the registrations healed (instant events). */
	poll: (this: IPollFunctions) => Promise<INodeExecutionData[][] | null>;

	/**
	 * A manual run with a polling event: the newest change (the test button). Otherwise the event
	 * of a delivery, a test call or a poll passed through (n8n-internals 11).
	 */
	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

	/** n8n builds it without arguments (the default tuning); the tests' harness with its own tunables and clocks. */
	constructor(tuning: Tuning = DEFAULT_TUNING) {
		const instant = new InstantTrigger(tuning);
		this.webhookMethods = instant.webhookMethods;
		this.webhook = instant.webhook;
		this.poll = async function (this: IPollFunctions) {
			const event = pollingEvent(this, this.getNodeParameter('events', []));
			if (!event) return await heal(this, tuning);
			return await pollOnce(new RunScope(this, tuning), event, paramReader(this), {
				emitExisting: false,
			});
		};
		this.execute = async function (this: IExecuteFunctions) {
			const event =
				this.getMode() === 'manual'
					? pollingEvent(this, this.getNodeParameter('events', 0, []))
					: undefined;
			return event ? await testFetch(this, event, tuning) : [this.getInputData()];
		};
	}
}
