/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * `npm start`: the demo. Builds and packs the pack, installs a pinned n8n the first time,
 * starts the sandbox and n8n on 127.0.0.1 with the tarball installed as n8n installs a
 * community package, a credential
 * already connected to the sandbox and the demo workflows imported, and prints
 * what to open and click. Ctrl-C stops everything it started.
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { startSandbox, type Sandbox } from '../sandbox/src/server';
import { buildPack } from './build';
import { sandboxCredentialData } from './credential-data';
import {
	DEMO_DIR,
	ensureRuntime,
	freePort,
	n8nCli,
	n8nEnvironment,
	OWNER,
	ownerApi,
	prepareUserFolder,
	ROOT,
	startN8n,
} from './n8n-runtime';
import { packTarball, tarballIsCurrent } from './pack';
import { handleSignalsInScript, onCleanup, stopAll } from './processes';

export const DEMO_CREDENTIAL_ID = 'bpSandboxDemo001';
export const DEMO_OPENAI_CREDENTIAL_ID = 'bpDemoOpenAi0001';
/** The demo agent workflow: imported, never activated or run by npm start (it needs a model). */
export const DEMO_AGENT = 'bpDemoAiAgent001';
/** The demo workflows that start on platform events: active from the start. */
export const DEMO_ACTIVE = ['bpDemoNewDeal001', 'bpDemoInvoiceLog'];

const say = (line: string) => process.stdout.write(`${line}\n`);
const portFrom = (name: string, dflt: number) => Number(process.env[name] ?? dflt);

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
	const dir = join(ROOT, 'demo', 'workflows');
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

async function main() {
	const t0 = Date.now();
	say('1/5 Building and packing the pack…');
	say(`    ${(await buildPack()) ? 'built' : 'dist/ is up to date'}`);
	const packed = !tarballIsCurrent();
	const tarball = packTarball();
	say(`    ${packed ? 'packed' : 'up to date'}: ${tarball}`);

	say('2/5 Checking the n8n runtime…');
	await ensureRuntime((l) => say(`    ${l}`));

	say('3/5 Starting the sandbox…');
	const sb = await startSandbox({ port: await freePort(portFrom('SANDBOX_PORT', 4010)) });
	onCleanup(() => sb.stop());
	say(`    sandbox at ${sb.baseUrl} (stats: ${sb.baseUrl}/__admin/stats)`);

	say('4/5 Preparing n8n (pack, credential, demo workflows)…');
	const userFolder = prepareUserFolder(join(DEMO_DIR, 'home'), tarball);
	const n8nPort = await freePort(portFrom('N8N_PORT', 5678));
	const env = await n8nEnvironment(userFolder, n8nPort);
	const files = join(DEMO_DIR, 'import');
	mkdirSync(files, { recursive: true });
	const openAi = demoOpenAiCredential(process.env.OPENAI_API_KEY, process.env.OPENAI_BASE_URL);
	writeFileSync(join(files, 'credentials.json'), JSON.stringify([demoCredential(sb), openAi]));
	writeFileSync(join(files, 'workflows.json'), JSON.stringify(demoWorkflows()));
	for (const [what, file] of [
		['credentials', 'credentials.json'],
		['workflow', 'workflows.json'],
	]) {
		const r = await n8nCli(env, [`import:${what}`, `--input=${join(files, file)}`]);
		if (r.status !== 0) throw new Error(`n8n import:${what} failed:\n${r.stdout}\n${r.stderr}`);
	}

	const logFile = join(DEMO_DIR, 'n8n.log');
	writeFileSync(logFile, `n8n started by npm start at ${new Date().toISOString()}\n`);
	say(`5/5 Starting n8n (its log: ${logFile})…`);
	const n8n = await startN8n(env, { onOutput: (chunk) => appendFileSync(logFile, chunk) });
	const api = await ownerApi(n8n);
	for (const id of DEMO_ACTIVE) await api.pub('POST', `/workflows/${id}/activate`);
	const seconds = Math.round((Date.now() - t0) / 1000);

	say('');
	say(`Editor ready in ${seconds} s: ${editorStartUrl(n8n.url)}`);
	say(`  Log in as ${OWNER.email} / ${OWNER.password}`);
	say('  The credential "Business Platform (sandbox)" is already connected to the sandbox.');
	say(
		'  Open "Demo: create a sample deal (starts the next workflow)" and click "Execute workflow": the published',
	);
	say(
		'  workflow "Demo: new deal → get its contact → add an activity" then runs by itself (see its Executions tab).',
	);
	say(
		'  To see the OAuth flow, open the credential (Overview → Credentials), click "Switch account", then "Approve"',
	);
	say('  on the sandbox page.');
	say(
		openAi.data.apiKey
			? '  "Demo: AI agent with the Business Platform tools (needs an OpenAI key)": open it and click "Open chat" (OPENAI_API_KEY was used).'
			: '  "Demo: AI agent with the Business Platform tools (needs an OpenAI key)" needs a model: put your OpenAI API key in the credential "OpenAI (add your API key)" (or start with OPENAI_API_KEY=…), then click "Open chat".',
	);
	say(
		`  Sandbox admin: ${sb.baseUrl}/__admin/stats · emit an event: curl -X POST ${sb.baseUrl}/__admin/events -H 'content-type: application/json' -d '{"eventType":"CREATE_INVOICE"}'`,
	);
	say(`  n8n's log: ${logFile} (tail -f it to watch executions)`);
	say('Ctrl-C stops n8n and the sandbox.');

	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		say('\nStopping n8n and the sandbox…');
		await stopAll();
		say('n8n and the sandbox stopped.');
		process.exit(0);
	};
	handleSignalsInScript();
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());
}

if (require.main === module) {
	main().catch(async (e) => {
		process.stderr.write(`npm start failed: ${e instanceof Error ? e.message : String(e)}\n`);
		await stopAll(2000);
		process.exit(1);
	});
}
