/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * `npm start`: the demo. Builds and packs the pack, installs a pinned n8n the first time,
 * starts the sandbox and n8n on 127.0.0.1 with the tarball installed as n8n installs a
 * community package, a credential
 * already connected to the sandbox and the demo workflows imported, and prints
 * what to open and click. Ctrl-C stops everything it started.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	DEMO_ACTIVE,
	demoCredential,
	demoOpenAiCredential,
	demoWorkflows,
	editorStartUrl,
} from '../demo/demo';
import { startSandbox } from '../sandbox/src/server';
import { buildPack } from '../testbed/pack/build';
import {
	DEMO_DIR,
	n8nCli,
	n8nEnvironment,
	OWNER,
	ownerApi,
	prepareUserFolder,
	startN8n,
} from '../testbed/n8n/start';
import { freePort } from '../testbed/ports';
import { ensureRuntime } from '../testbed/runtime/install';
import { packTarball, tarballIsCurrent } from '../testbed/pack/tarball';
import { handleSignalsInScript, onCleanup, stopAll } from '../testbed/processes';

const say = (line: string) => process.stdout.write(`${line}\n`);
const portFrom = (name: string, dflt: number) => Number(process.env[name] ?? dflt);

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
