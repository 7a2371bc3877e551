/* eslint-disable @n8n/community-nodes/node-usable-as-tool -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * A test-only node that exposes the transport directly: one request or one paged
 * list through `apiRequest`/`paginate`, so tests can drive every paging envelope
 * and retry path through n8n-core before every endpoint has an operation.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { paginate, type PageStyle } from '../../nodes/shared/pagination';
import { mapConcurrent, RunScope } from '../../nodes/shared/run-scope';
import { apiRequest, CREDENTIAL_TYPE } from '../../nodes/shared/transport';
import type { Tuning } from '../../nodes/shared/tuning';

const json = (v: unknown) =>
	v === '' || v === undefined ? undefined : typeof v === 'string' ? (JSON.parse(v) as unknown) : v;

export class TestTransport implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Transport',
		name: 'testTransport',
		group: ['transform'],
		version: 1,
		description: 'Test only',
		defaults: { name: 'Test Transport' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [
			{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
			{ displayName: 'Path', name: 'path', type: 'string', default: '' },
			{ displayName: 'Query', name: 'qs', type: 'json', default: '' },
			{ displayName: 'Body', name: 'body', type: 'json', default: '' },
			{ displayName: 'Regional', name: 'regional', type: 'boolean', default: false },
			{ displayName: 'Retry', name: 'retry', type: 'string', default: 'auto' },
			{ displayName: 'Text', name: 'text', type: 'boolean', default: false },
			{ displayName: 'Style', name: 'style', type: 'string', default: '' },
			{ displayName: 'Limit', name: 'limit', type: 'number', default: 0 },
			{ displayName: 'Page Size', name: 'pageSize', type: 'number', default: 0 },
			{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 1 },
		],
	};

	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

	constructor(tuning?: Tuning) {
		this.execute = async function (this: IExecuteFunctions) {
			return await run(this, new RunScope(this, tuning));
		};
	}
}

async function run(
	ctx: IExecuteFunctions,
	scope: RunScope<IExecuteFunctions>,
): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	const concurrency = Number(ctx.getNodeParameter('concurrency', 0, 1));
	const results = await mapConcurrent(items, concurrency, async (_item, i) => {
		const p = (name: string, fallback?: unknown) =>
			ctx.getNodeParameter(name, i, fallback as never) as unknown;
		const req = {
			method: p('method', 'GET') as IHttpRequestMethods,
			path: p('path') as string,
			qs: json(p('qs', '')) as IDataObject | undefined,
			body: json(p('body', '')),
			regional: p('regional', false) as boolean,
			retry: p('retry', 'auto') as 'auto' | 'never',
			text: p('text', false) as boolean,
			itemIndex: i,
		};
		const style = p('style', '') as PageStyle | '';
		if (!style) return [{ answer: (await apiRequest(scope, req)) as IDataObject }];
		const limit = p('limit', 0) as number;
		return await paginate(scope, req, {
			style,
			limit: limit > 0 ? limit : undefined,
			pageSize: (p('pageSize', 0) as number) || undefined,
		});
	});
	const out: INodeExecutionData[] = [];
	results.forEach((r, i) => {
		if (!r) return;
		if (!r.ok) throw r.error;
		for (const json of r.value) out.push({ json, pairedItem: { item: i } });
	});
	return [out];
}
