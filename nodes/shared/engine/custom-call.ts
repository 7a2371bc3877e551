/**
 * "Custom API Call": any endpoint of the platform through the pack's own transport
 * (base or regional URL, the platform token in x-access-token, refresh on 401, retries).
 *
 * n8n appends its own "Custom API Call" to every Resource and Operation list of a node
 * whose credential is OAuth2 (packages/cli load-nodes-and-credentials.ts,
 * injectCustomApiCallOptions) and sends the user to the HTTP Request node, which cannot
 * send x-access-token (it sends only `Authorization: Bearer`, the platform answers 401).
 * n8n skips a list whose last option is already named "Custom API Call": each list ends
 * with this one instead, and the node makes the call itself.
 */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { OpContext, Operation, Output } from './model';
import { defaultOutput } from './output';
import { echo } from '../text-readers';

export const CUSTOM_CALL = 'customApiCall';
/** The name n8n looks for at the end of a Resource or Operation list. */
export const CUSTOM_CALL_NAME = 'Custom API Call';

const METHODS = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'] as const;
type Method = (typeof METHODS)[number];

/** The last option of a resource's Operation list (the action names the resource: tool names stay distinct). */
export const customCallOption = (resourceName?: string): INodePropertyOptions => ({
	name: CUSTOM_CALL_NAME,
	value: CUSTOM_CALL,
	action: resourceName ? `Make a custom API call (${resourceName})` : 'Make a custom API call',
	description:
		'Call any endpoint of the Business Platform API with this credential (method, path, query, body)',
});

/** The fields of a custom call, shown for the Custom API Call operation of every resource. */
export const CUSTOM_CALL_PROPERTIES: INodeProperties[] = [
	{
		displayName: 'Method',
		name: 'customMethod',
		type: 'options',
		options: METHODS.map((m) => ({ name: m, value: m })),
		default: 'GET',
		description: 'The HTTP method of the request',
	},
	{
		displayName: 'Path',
		name: 'customPath',
		type: 'string',
		default: '',
		placeholder: '/v1/crm/contacts',
		description:
			'The endpoint below the credential’s API Base URL, starting with "/" (see the platform’s API reference)',
	},
	{
		displayName: 'Regional Base URL',
		name: 'customRegional',
		type: 'boolean',
		default: false,
		description:
			'Whether to send the request to the credential’s Regional API Base URL (people, payroll, tables and records), when it has one',
	},
	{
		displayName: 'Query Parameters (JSON)',
		name: 'customQuery',
		type: 'json',
		default: '{}',
		description:
			'The query string as a JSON object, for example {"page": 1}. A list repeats its key (tag=a&tag=b).',
	},
	{
		displayName: 'Body (JSON)',
		name: 'customBody',
		type: 'json',
		default: '{}',
		description: 'The JSON body. Left out when empty, except for POST, PUT and PATCH.',
		displayOptions: { hide: { customMethod: ['GET'] } },
	},
].map(
	(p) =>
		({
			...p,
			displayOptions: { ...p.displayOptions, show: { operation: [CUSTOM_CALL] } },
		}) as INodeProperties,
);

/** What a model reads about Custom API Call used as a tool (the twin's Description). */
export const CUSTOM_CALL_TOOL_DESCRIPTION: INodeProperties = {
	displayName: 'Description',
	name: 'toolDescription',
	type: 'string',
	default:
		'Call any endpoint of the Business Platform API. Required fields: Method, Path (below the API base URL, such as /v1/crm/contacts); optional: Query Parameters and Body as JSON. Returns the platform’s answer: one item per element of a list, else one item.',
	typeOptions: { rows: 3 },
	description:
		'What the model reads about this tool: what it does, which fields it needs, what it returns. Change it to fit your agent.',
	displayOptions: { show: { '@tool': [true], operation: [CUSTOM_CALL] } },
};

/** A JSON parameter as a value: objects as they are, text parsed. */
function jsonValue(ctx: OpContext, name: string, label: string): unknown {
	const raw = ctx.param<unknown>(name, '{}');
	if (typeof raw !== 'string') return raw;
	if (raw.trim() === '') return {};
	try {
		return JSON.parse(raw) as unknown;
	} catch {
		throw ctx.fail(
			`${label} is not valid JSON`,
			`Write ${label} as JSON, for example {"name": "Ada"}.`,
		);
	}
}

/** The path checked: below the base URL, never another host (the token would go with it). */
function checkedPath(ctx: OpContext): { path: string; qs: IDataObject } {
	const path = String(ctx.param<string>('customPath', '')).trim();
	if (
		!path.startsWith('/') ||
		path.startsWith('//') ||
		/^[a-z][a-z0-9+.-]*:/i.test(path) ||
		/[\s\\]/.test(path)
	) {
		throw ctx.fail(
			`The path ${echo(path)} is not a path of the API`,
			'Write the endpoint below the API Base URL, starting with "/", for example /v1/crm/contacts. Other addresses are refused: the token would be sent there.',
		);
	}
	const [bare, query] = path.split('?', 2);
	const qs: IDataObject = {};
	if (query) for (const [k, v] of new URLSearchParams(query)) qs[k] = v;
	return { path: bare, qs };
}

const isEmptyObject = (v: unknown) =>
	v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;

async function runCustomCall(ctx: OpContext): Promise<Output> {
	const method = ctx.param<Method>('customMethod', 'GET');
	const { path, qs } = checkedPath(ctx);
	const query = jsonValue(ctx, 'customQuery', 'Query Parameters (JSON)');
	if (query === null || typeof query !== 'object' || Array.isArray(query))
		throw ctx.fail(
			'Query Parameters (JSON) must be a JSON object',
			'For example {"page": 1, "size": 50}.',
		);
	Object.assign(qs, query);
	const body = method === 'GET' ? undefined : jsonValue(ctx, 'customBody', 'Body (JSON)');
	const sendBody =
		body !== undefined && (['POST', 'PUT', 'PATCH'].includes(method) || !isEmptyObject(body));
	const answer = await ctx.request({
		method,
		path,
		qs: Object.keys(qs).length ? qs : undefined,
		body: sendBody ? body : undefined,
		regional: ctx.param<boolean>('customRegional', false),
	});
	return defaultOutput(answer);
}

/** The operation behind every "Custom API Call" option. */
export const CUSTOM_CALL_OPERATION: Operation = {
	value: CUSTOM_CALL,
	name: CUSTOM_CALL_NAME,
	action: 'Make a custom API call',
	description:
		'Call any endpoint of the Business Platform API with this credential (method, path, query, body)',
	method: 'GET',
	path: '/',
	// Its path, query and body are checked before its request, so a bad one stops a run before anything is sent.
	execute: runCustomCall,
};
