/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The demo `npm start` sets up (scripts/start.ts), and what the end-to-end and editor tests check of it:
 * its credentials, its workflows (demo/workflows/, with the credential ids filled in), which of them
 * start active, and the address to open.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Sandbox } from '../sandbox/src/server';
import { sandboxCredentialData } from '../testbed/credential-data';

export const DEMO_CREDENTIAL_ID = 'bpSandboxDemo001';
export const DEMO_OPENAI_CREDENTIAL_ID = 'bpDemoOpenAi0001';
/** The demo agent workflow: imported, never activated or run by npm start (it needs a model). */
export const DEMO_AGENT = 'bpDemoAiAgent001';
/** The demo workflows that start on platform events: active from the start. */
export const DEMO_ACTIVE = ['bpDemoNewDeal001', 'bpDemoInvoiceLog'];

/**
 * The address to open: the overview with the demo workflows. n8n's own start page (the
 * root address) is its AI Assistant's page in 2.41, which needs an AI provider the demo has not.
 */
export const editorStartUrl = (n8nUrl: string) => `${n8nUrl}/home/workflows`;

/** The credential n8n would hold after clicking Connect, for the sandbox's demo user. */
export function demoCredential(sb: Pick<Sandbox, 'baseUrl' | 'authUrl' | 'config' | 'demo'>) {
	const { baseUrl, authUrl } = sb;
	const { clientId, clientSecret } = sb.config;
	return {
		id: DEMO_CREDENTIAL_ID,
		name: 'Business Platform (sandbox)',
		type: 'businessPlatformOAuth2Api',
		data: sandboxCredentialData(
			{ baseUrl, authUrl, clientId, clientSecret },
			sb.demo.tokenResponse,
		),
	};
}

/**
 * The OpenAI credential of the demo agent. The demo has no model of its own: the key (and,
 * for an OpenAI-compatible server, the base URL) comes from OPENAI_API_KEY / OPENAI_BASE_URL
 * when set, else the credential is imported empty for the user to fill in.
 */
export function demoOpenAiCredential(apiKey = '', url = 'https://api.openai.com/v1') {
	return {
		id: DEMO_OPENAI_CREDENTIAL_ID,
		name: 'OpenAI (add your API key)',
		type: 'openAiApi',
		data: { apiKey, url, header: false },
	};
}

/** The demo workflows with the credential ids filled in. */
export function demoWorkflows(): unknown[] {
	const dir = join(__dirname, 'workflows');
	return readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map(
			(f) =>
				JSON.parse(
					readFileSync(join(dir, f), 'utf8')
						.replaceAll('__CREDENTIAL_ID__', DEMO_CREDENTIAL_ID)
						.replaceAll('__OPENAI_CREDENTIAL_ID__', DEMO_OPENAI_CREDENTIAL_ID),
				) as unknown,
		);
}
