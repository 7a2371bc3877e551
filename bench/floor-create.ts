/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Bench only: n8n's floor for creating one contact per item inside a real n8n — the least a node
 * can do there. It reads its credential once per execution, then for each item its two fields
 * (`{{ $json.name }}`, `{{ $json.email }}`, through n8n's expression engine) and sends one request
 * with n8n's `helpers.httpRequest`, at most Concurrency at a time; no engine, no retries, no checks.
 * The pack's node reads its own credential once per execution and sends with the same helper, so
 * the pack ÷ this node is what the pack adds to (or saves on) what n8n costs any node.
 *
 * Its credential is n8n's Header Auth holding the pack's token as `x-access-token`: the pack's own
 * credential is `restrictToSupportedNodes`, and n8n decrypts it for the pack's nodes only (it lists
 * no node outside the package that declares it), so no other node can read it. n8n loads this node
 * as a custom node (type `CUSTOM.benchFloorCreate`): plain CommonJS written into a custom-nodes
 * folder (`N8N_CUSTOM_EXTENSIONS`, or a user folder's `.n8n/custom`); it is never part of the package.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const FLOOR_CREATE_TYPE = 'CUSTOM.benchFloorCreate';

const SOURCE = `'use strict';
class BenchFloorCreate {
	constructor() {
		this.description = {
			displayName: 'Bench Floor Create',
			name: 'benchFloorCreate',
			group: ['transform'],
			version: 1,
			description: 'Bench only: one POST per item with helpers.httpRequest',
			defaults: { name: 'Bench Floor Create' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: 'httpHeaderAuth', required: true }],
			properties: [
				{ displayName: 'URL', name: 'url', type: 'string', default: '' },
				{ displayName: 'Name', name: 'name', type: 'string', default: '' },
				{ displayName: 'Email', name: 'email', type: 'string', default: '' },
				{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 1 },
			],
		};
	}
	async execute() {
		const items = this.getInputData();
		const credential = await this.getCredentials('httpHeaderAuth');
		const headers = { [credential.name]: credential.value };
		const url = this.getNodeParameter('url', 0);
		const concurrency = Math.max(1, this.getNodeParameter('concurrency', 0));
		const out = new Array(items.length);
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const i = next++;
				const body = {
					name: this.getNodeParameter('name', i),
					type: 'person',
					email: this.getNodeParameter('email', i),
				};
				const json = await this.helpers.httpRequest({ method: 'POST', url, body, json: true, headers });
				out[i] = { json, pairedItem: { item: i } };
			}
		};
		await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
		return [out];
	}
}
module.exports = { BenchFloorCreate };
`;

/** Writes the floor node into `dir` (a custom-nodes folder n8n reads at start). */
export function writeFloorCreate(dir: string): string {
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, 'BenchFloorCreate.node.js'), SOURCE);
	return dir;
}

/** The floor node in a new folder, for `N8N_CUSTOM_EXTENSIONS`. */
export const floorCreateFolder = (): string =>
	writeFloorCreate(join(mkdtempSync(join(tmpdir(), 'bench-floor-create-')), 'nodes'));

/** The floor node as the workflow's last node, the same two expressions as the pack's Create (its credential is set by the caller). */
export function floorCreateNode(url: string, concurrency: number) {
	return {
		name: 'Floor',
		type: FLOOR_CREATE_TYPE,
		typeVersion: 1,
		parameters: { url, name: '={{ $json.name }}', email: '={{ $json.email }}', concurrency },
	};
}
