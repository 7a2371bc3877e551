/**
 * A polling trigger node from its events: the description (Event dropdown, each event's own
 * fields, Options) and `poll`, which n8n calls at the node's Poll Times (n8n adds that setting
 * to every node with `polling: true`) and once more for "Fetch Test Event".
 */
import type {
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { compareLabels, type Dated } from '../field-values';
import { echo } from '../text-readers';
import { RunScope } from '../run-scope';
import { CREDENTIAL_TYPE } from '../transport';
import { DEFAULT_TUNING, type Tuning } from '../tuning';
import type { ParamReader, PollingNodeIdentity } from './model';
import { pollOnce } from './machine';

const OPTIONS: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Emit Existing Items on First Poll',
			name: 'emitExisting',
			type: 'boolean',
			default: false,
			description:
				'Whether the first poll after the workflow is published delivers every item that already matches. Off: the trigger starts from now and delivers only what changes afterwards.',
		},
	],
};

export function pollingDescription(identity: PollingNodeIdentity): INodeTypeDescription {
	const { events } = identity;
	const firstEvent = events[0].value;
	const eventFields = events.flatMap((e) =>
		(e.fields ?? []).map((f) => ({
			...f,
			displayOptions: {
				...f.displayOptions,
				show: { ...f.displayOptions?.show, event: [e.value] },
			},
		})),
	);
	return {
		displayName: identity.displayName,
		name: identity.name,
		icon: { light: 'file:businessPlatform.svg', dark: 'file:businessPlatform.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ "On " + $parameter["event"] }}',
		description: identity.description,
		defaults: { name: identity.displayName },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		polling: true,
		properties: [
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				required: true,
				default: firstEvent,
				// Sorted by name, as n8n lists options; the default stays the first event of the node.
				options: events
					.map((e) => ({ name: e.name, value: e.value, description: e.description }))
					.sort((a, b) => compareLabels(a.name, b.name)),
			},
			...(identity.fields ?? []),
			...eventFields,
			OPTIONS,
		],
	};
}

/** Reads a parameter of the poll; a missing one is `fallback`, any other failure names the parameter. */
export function paramReader(ctx: IPollFunctions): ParamReader {
	const values: Dated = {
		fail: (message: string, description?: string) =>
			new NodeOperationError(ctx.getNode(), message, { description }),
		fn: { getTimezone: () => ctx.getTimezone() },
	};
	const read = (name: string, fallback?: unknown) => {
		try {
			return ctx.getNodeParameter(name, fallback, { extractValue: true });
		} catch (error) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Could not read the parameter "${name}": ${(error as Error).message}`,
				{
					description: 'Check the value or expression of this field in the trigger.',
				},
			);
		}
	};
	return Object.assign(read, { dated: values });
}

export function pollingNode(identity: PollingNodeIdentity): new (tuning?: Tuning) => INodeType {
	const byValue = new Map(identity.events.map((e) => [e.value, e]));
	const description = pollingDescription(identity);
	return class implements INodeType {
		description = description;

		methods = identity.methods;

		poll: (this: IPollFunctions) => Promise<INodeExecutionData[][] | null>;

		/** n8n builds it without arguments (the default tuning); the tests' harness with its own tunables and clocks. */
		constructor(tuning: Tuning = DEFAULT_TUNING) {
			this.poll = async function (this: IPollFunctions) {
				const param = paramReader(this);
				const value = param('event');
				const event = typeof value === 'string' ? byValue.get(value) : undefined;
				if (!event) {
					throw new NodeOperationError(this.getNode(), `Unknown event ${echo(value, 60)}`, {
						description: `Choose one of the events of ${identity.displayName}: ${identity.events.map((e) => e.name).join(', ')}.`,
					});
				}
				const options = param('options', {}) as { emitExisting?: unknown };
				return await pollOnce(new RunScope(this, tuning), event, param, {
					emitExisting: options.emitExisting === true,
				});
			};
		}
	};
}
