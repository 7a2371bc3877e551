/* eslint-disable @n8n/community-nodes/node-usable-as-tool -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Bench only: a minimal node that creates a contact per item with n8n's own means — n8n's
 * expression engine reads its two fields (`{{ $json.name }}`, `{{ $json.email }}` or fixed
 * values), n8n's `helpers.httpRequest` sends one request, a fixed token header, N at a time —
 * or, with a Page Size, to read a records table to its end (POST paged-record, one page
 * after the other, each page's records as items).
 * No engine, no credential, no retries, no checks: n8n's own cost per item, so the
 * harness rows can show which part of a gap to raw undici is n8n's and which the pack's.
 */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { mapConcurrent } from '../nodes/shared/run-scope';

export class BenchHelperOnly implements INodeType {
	description: INodeTypeDescription = {
		...{
			displayName: 'Bench Helper Only',
			name: 'benchHelperOnly',
			description: 'Bench only',
			version: 1,
			group: ['transform'],
		},
		defaults: { name: 'Bench Helper Only' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// url, token, name, email: text; concurrency, pageSize: numbers.
		properties: [
			...(['url', 'token', 'name', 'email'] as const).map((name) => ({
				displayName: name,
				name,
				type: 'string' as const,
				default: '',
			})),
			...(['concurrency', 'pageSize'] as const).map((name) => ({
				displayName: name,
				name,
				type: 'number' as const,
				default: 0,
			})),
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const url = this.getNodeParameter('url', 0) as string;
		const token = this.getNodeParameter('token', 0) as string;
		const concurrency = this.getNodeParameter('concurrency', 0) as number;
		const pageSize = this.getNodeParameter('pageSize', 0) as number;
		if (pageSize > 0) {
			const all: INodeExecutionData[] = [];
			for (let pageNo = 1; ; pageNo++) {
				const page = (await this.helpers.httpRequest({
					method: 'POST',
					url,
					qs: { pageNo, pageSize },
					body: { logicalOperator: 'and', conditions: [] },
					json: true,
					headers: { 'x-access-token': token },
				})) as { data: Array<INodeExecutionData['json']> };
				for (const json of page.data) all.push({ json, pairedItem: { item: 0 } });
				if (page.data.length < pageSize) return [all];
			}
		}
		const results = await mapConcurrent(items, concurrency, async (_item, i) => {
			const body = {
				name: this.getNodeParameter('name', i) as string,
				type: 'person',
				email: this.getNodeParameter('email', i) as string,
			};
			return (await this.helpers.httpRequest({
				method: 'POST',
				url,
				body,
				json: true,
				headers: { 'x-access-token': token },
			})) as INodeExecutionData['json'];
		});
		return [results.map((r, item) => ({ json: r?.ok ? r.value : {}, pairedItem: { item } }))];
	}
}
