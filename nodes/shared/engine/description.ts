/**
 * The description generator: the node's UI properties from its resources. Every
 * operation's fields appear in its own order: plain fields (ids, required values),
 * then Return All and Limit for lists, then collections (filters, options,
 * additional fields), then Simplify — n8n's usual layout.
 *
 * Everything generated here is part of saved workflows (names, types, defaults,
 * options, display conditions): test/descriptions/ holds a snapshot of it and
 * `npm run test:descriptions` fails on a change that would break them.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import {
	CUSTOM_CALL,
	CUSTOM_CALL_NAME,
	CUSTOM_CALL_PROPERTIES,
	CUSTOM_CALL_TOOL_DESCRIPTION,
	customCallOption,
} from './custom-call';
import { compareLabels } from '../field-values';
import type { Field, Operation, Resource } from './model';
import { subtitleExpression, toolDescriptionProperties } from './tool-description';

/** The node-level collection of request settings (Parallel Requests). */
export const CONCURRENCY_PARAMETER = 'requestOptions';

/** Return All and Limit, as every list shows them (also for lists an operation pages itself). */
export const RETURN_ALL_PROPERTY: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};
export const LIMIT_PROPERTY: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { returnAll: [false] } },
};

const SIMPLIFY_PROPERTY: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

const REQUEST_OPTIONS_PROPERTY: INodeProperties = {
	displayName: 'Request Options',
	name: CONCURRENCY_PARAMETER,
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Parallel Requests',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 20 },
			default: 5,
			description:
				'How many items are sent to the platform at the same time. Output order always follows input order. Use 1 to send items one after another.',
		},
		{
			displayName: 'Timeout',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1000 },
			default: 30000,
			description:
				'How long to wait for the platform to answer one request, in milliseconds. Past it the request fails: reads, updates and deletes are tried again (within two minutes in all), a create is not, since the platform may have carried it out.',
		},
	],
};

const withShow = (p: INodeProperties, resource: string, operations: string[]): INodeProperties => ({
	...p,
	displayOptions: {
		...(p.displayOptions ?? {}),
		show: { ...(p.displayOptions?.show ?? {}), resource: [resource], operation: operations },
	},
});

/** A field's property; a collection's options are its children's properties. */
function fieldProperty(f: Field): INodeProperties {
	if (!f.children) return f.property;
	if (f.property.type === 'fixedCollection') return f.property; // options given as written
	return { ...f.property, options: f.children.map((c) => fieldProperty(c)) };
}

const byName = (a: { name: string }, b: { name: string }) => compareLabels(a.name, b.name);

function resourceProperty(resources: Resource[], defaultResource?: string): INodeProperties {
	const resourceDefault = defaultResource ?? resources[0]?.value ?? '';
	// n8n adds its own "Custom API Call" (to the HTTP Request node) unless the list ends with one.
	const customCall: INodePropertyOptions = {
		name: CUSTOM_CALL_NAME,
		value: CUSTOM_CALL,
		description: customCallOption().description,
	};
	const options: INodePropertyOptions[] = [
		...resources
			.map((r) => ({ name: r.name, value: r.value, description: r.description }))
			.sort(byName),
		customCall,
	];
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options,
		default: resourceDefault,
	};
}

/** A resource's Operation dropdown; its default is the resource's first operation. */
function operationProperty(r: Resource): INodeProperties {
	const options: INodePropertyOptions[] = [
		...r.operations
			.map((o) => ({ name: o.name, value: o.value, action: o.action, description: o.description }))
			.sort(byName),
		customCallOption(r.name),
	];
	const operationDefault = r.operations[0].value;
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [r.value] } },
		options,
		default: operationDefault,
	};
}

/** The Resource "Custom API Call": its Operation list holds only the call itself. */
const CUSTOM_CALL_OPERATION_PROPERTY: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [CUSTOM_CALL] } },
	options: [customCallOption()],
	default: CUSTOM_CALL,
};

/** One operation's own copies of its properties, in display order. */
function operationProperties(r: Resource, o: Operation): INodeProperties[] {
	const fields = (o.fields ?? []).map(fieldProperty);
	const isCollection = (p: INodeProperties) =>
		p.type === 'collection' || p.type === 'fixedCollection';
	const ordered = [
		...fields.filter((p) => !isCollection(p)),
		...(o.paginate ? [RETURN_ALL_PROPERTY, LIMIT_PROPERTY] : []),
		...fields.filter(isCollection),
		...(o.simplify ? [SIMPLIFY_PROPERTY] : []),
	];
	return ordered.map((p) => withShow(p, r.value, [o.value]));
}

/**
 * The node's properties: each operation's tool description (shown only in the node's AI
 * tool twin), resource, one operation list per resource, every operation's fields, the
 * Custom API Call's fields, request options.
 */
export function buildProperties(
	resources: Resource[],
	defaultResource?: string,
): INodeProperties[] {
	const perOperation = resources.flatMap((r) =>
		r.operations.map((o) => ({ r, o, properties: operationProperties(r, o) })),
	);
	return [
		...perOperation.flatMap(({ r, o, properties }) => toolDescriptionProperties(r, o, properties)),
		CUSTOM_CALL_TOOL_DESCRIPTION,
		resourceProperty(resources, defaultResource),
		...resources.map(operationProperty),
		CUSTOM_CALL_OPERATION_PROPERTY,
		...perOperation.flatMap(({ properties }) => properties),
		...CUSTOM_CALL_PROPERTIES,
		REQUEST_OPTIONS_PROPERTY,
	];
}

/** The node's subtitle: the action of the chosen resource and operation ("Create a deal"). */
export function buildSubtitle(resources: Resource[]): string {
	const actions: Record<string, string> = {};
	for (const r of resources) {
		for (const o of r.operations) actions[`${r.value}:${o.value}`] = o.action;
		actions[`${r.value}:${CUSTOM_CALL}`] = customCallOption(r.name).action!;
	}
	actions[`${CUSTOM_CALL}:${CUSTOM_CALL}`] = customCallOption().action!;
	return subtitleExpression(actions);
}
