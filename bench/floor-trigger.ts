/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Bench only: n8n's floor for a credentialed trigger — the least a trigger node can do
 * per delivery inside n8n. It declares the pack's credential (so n8n checks the credential's
 * permissions before each execution, as for the pack's Trigger) and a fixed webhook path
 * (no expression per delivery, like the Trigger's version 2), and only emits the body: no
 * secret check, no event filter, no payload parsing. n8n loads it as a custom node
 * (`N8N_CUSTOM_EXTENSIONS`, type `CUSTOM.benchFloorTrigger`), plain CommonJS written to a
 * temporary folder by the bench; it is never part of the package.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const FLOOR_TRIGGER_TYPE = 'CUSTOM.benchFloorTrigger';

const SOURCE = `'use strict';
class BenchFloorTrigger {
	constructor() {
		this.description = {
			displayName: 'Bench Floor Trigger',
			name: 'benchFloorTrigger',
			group: ['trigger'],
			version: 1,
			description: 'Bench only: emits the body of each delivery',
			defaults: { name: 'Bench Floor Trigger' },
			inputs: [],
			outputs: ['main'],
			credentials: [{ name: 'businessPlatformOAuth2Api', required: true }],
			webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
			properties: [],
		};
	}
	async webhook() {
		return { workflowData: [[{ json: this.getBodyData() }]] };
	}
}
module.exports = { BenchFloorTrigger };
`;

/** Writes the floor trigger to a new folder and returns it, for `N8N_CUSTOM_EXTENSIONS`. */
export function floorTriggerFolder(): string {
	const dir = join(mkdtempSync(join(tmpdir(), 'bench-floor-')), 'nodes');
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, 'BenchFloorTrigger.node.js'), SOURCE);
	return dir;
}
