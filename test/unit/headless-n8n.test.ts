/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The test n8ns that no browser opens start no task runner (HEADLESS_N8N in testbed/n8n/start.ts:
 * n8n's runners in external mode, none started), which only the Code node needs: so no workflow
 * the tests or the scripts build may have one, or it would wait for a runner that never comes.
 * They also leave out n8n's modules for what no test reaches, none on the pack's path.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import { HEADLESS_N8N } from '../../testbed/n8n/start';

const ROOT = join(__dirname, '../..');
const files = (dir: string): string[] =>
	readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return files(path);
		return /\.(ts|json)$/.test(name) ? [path] : [];
	});

describe('headless test n8ns', () => {
	it('start no task runner (external mode) and copy no editor files', () => {
		expect(HEADLESS_N8N).toMatchObject({ N8N_RUNNERS_MODE: 'external', N8N_DISABLE_UI: 'true' });
		expect(String(HEADLESS_N8N.N8N_RUNNERS_AUTH_TOKEN).length).toBeGreaterThanOrEqual(32);
	});

	it("leave out n8n's modules no test reaches, but none on the pack's path (community packages, credentials, their encryption, data tables)", () => {
		const off = String(HEADLESS_N8N.N8N_DISABLED_MODULES).split(',');
		expect(off).toEqual(expect.arrayContaining(['insights', 'chat-hub', 'sso-saml']));
		for (const kept of [
			'community-packages',
			'n8n-packages',
			'data-table',
			'encryption-key-manager',
			'oauth-jwe',
			'runtime-credentials',
			'dynamic-credentials',
			'external-secrets',
			'redaction',
			'instance-registry',
			'policy-infrastructure',
			'mcp',
		])
			expect(off).not.toContain(kept);
	});

	it('no workflow of the tests or the scripts has a node that needs the task runner (Code, Code Tool)', () => {
		const code = /["'](n8n-nodes-base\.code|@n8n\/n8n-nodes-langchain\.(code|toolCode))["']/;
		const users = [
			...files(join(ROOT, 'test')),
			...files(join(ROOT, 'scripts')),
			...files(join(ROOT, 'testbed')),
		]
			.filter((f) => !f.endsWith('headless-n8n.test.ts') && code.test(readFileSync(f, 'utf8')))
			.map((f) => relative(ROOT, f));
		expect(users).toEqual([]);
	});
});
