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

import type { Field, Operation, Resource } from './model';

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
			description: 'How many items are sent to the platform at the same time. Output order always follows input order. Use 1 to send items one after another.',
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

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

function resourceProperty(resources: Resource[], defaultResource?: string): INodeProperties {
	const resourceDefault = defaultResource ?? resources[0]?.value ?? '';
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: resources.map((r) => ({ name: r.name, value: r.value, description: r.description })).sort(byName),
		default: resourceDefault,
	};
}

/** A resource's Operation dropdown; its default is the resource's first operation. */
function operationProperty(r: Resource): INodeProperties {
	const options: INodePropertyOptions[] = r.operations.map((o) => ({ name: o.name, value: o.value, action: o.action, description: o.description })).sort(byName);
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

/** One operation's own copies of its properties, in display order. */
function operationProperties(r: Resource, o: Operation): INodeProperties[] {
	const fields = (o.fields ?? []).map(fieldProperty);
	const isCollection = (p: INodeProperties) => p.type === 'collection' || p.type === 'fixedCollection';
	const ordered = [
		...fields.filter((p) => !isCollection(p)),
		...(o.paginate ? [RETURN_ALL_PROPERTY, LIMIT_PROPERTY] : []),
		...fields.filter(isCollection),
		...(o.simplify ? [SIMPLIFY_PROPERTY] : []),
	];
	return ordered.map((p) => withShow(p, r.value, [o.value]));
}

/** The node's properties: resource, one operation list per resource, every operation's fields, request options. */
export function buildProperties(resources: Resource[], defaultResource?: string): INodeProperties[] {
	return [
		resourceProperty(resources, defaultResource),
		...resources.map(operationProperty),
		...resources.flatMap((r) => r.operations.flatMap((o) => operationProperties(r, o))),
		REQUEST_OPTIONS_PROPERTY,
	];
}
