/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * n8n 3.0 removes node APIs that 2.x still had (README, Compatibility): `defaults.color` in a
 * node description, and the helpers `request`, `requestWithAuthentication`, `requestOAuth1`,
 * `requestOAuth2`, `copyBinaryFile` and `prepareOutputData`. The pack must use none of them: its
 * descriptions are read as n8n loads them, and its published code (nodes/, credentials/) is read as
 * text. (n8n's own lint rule for the helpers, `@n8n/community-nodes/no-deprecated-workflow-functions`,
 * also runs in `npm run lint`.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import { NODE_TYPES } from '../../testbed/harness/nodes';

const ROOT = resolve(__dirname, '../..');
const REMOVED_HELPERS = [
	'request',
	'requestWithAuthentication',
	'requestOAuth1',
	'requestOAuth2',
	'copyBinaryFile',
];

function sources(): string[] {
	return ['nodes', 'credentials'].flatMap((dir) =>
		readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
			.filter((e) => e.isFile() && e.name.endsWith('.ts'))
			.map((e) => join(e.parentPath, e.name)),
	);
}

/** The uses of a removed API in a source text. */
export function removedUses(text: string): string[] {
	const found: string[] = [];
	for (const m of text.matchAll(/helpers\s*\.\s*(\w+)/g))
		if (REMOVED_HELPERS.includes(m[1])) found.push(`helpers.${m[1]}`);
	if (/\bprepareOutputData\b/.test(text)) found.push('prepareOutputData');
	return found;
}

test('finds a removed helper, not one that stays', () => {
	expect(
		removedUses(
			'this.helpers.request(o); this.helpers.httpRequestWithAuthentication.call(this); x.helpers.copyBinaryFile(); return this.prepareOutputData(i);',
		),
	).toEqual(['helpers.request', 'helpers.copyBinaryFile', 'prepareOutputData']);
});

test('no node description has defaults.color', () => {
	const colored = Object.entries(NODE_TYPES)
		.filter(([, type]) =>
			('nodeVersions' in type ? Object.values(type.nodeVersions) : [type]).some(
				(t) => 'color' in (t.description.defaults ?? {}),
			),
		)
		.map(([name]) => name);
	expect(colored).toEqual([]);
	expect(Object.keys(NODE_TYPES).length).toBeGreaterThan(5);
});

test('the published code calls none of the helpers n8n 3.0 removed', () => {
	const files = sources();
	expect(files.length).toBeGreaterThan(50);
	const uses = files.flatMap((f) =>
		removedUses(readFileSync(f, 'utf8')).map((u) => `${relative(ROOT, f)}: ${u}`),
	);
	expect(uses).toEqual([]);
});
