/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error, @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * A real n8n (the pinned runtime in .n8n-runtime) with this pack loaded, for the
 * end-to-end tests: the server on loopback, the owner's REST session and a public-API key,
 * credentials and workflows saved through n8n's REST API.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { sandboxCredentialData } from '../credential-data';
import { n8nAtLeast } from '../runtime/versions';
import { ensureRuntime } from '../runtime/install';
import {
	n8nCli,
	n8nEnvironment,
	ownerApi,
	prepareUserFolder,
	startN8n,
	type N8nApi,
	type N8nInstance,
} from './start';
import type { Sandbox } from '../../sandbox/src/server';
import { eventually } from '../eventually';

export const PKG = 'n8n-nodes-business-platform';
export const CRED_ID = 'bpE2eCredential1';

export interface Node {
	name: string;
	type: string;
	typeVersion?: number;
	parameters: Record<string, unknown>;
	credentials?: boolean;
	onError?: string;
	webhookId?: string;
}

/** A straight-line workflow: each node feeds the next. */
export function workflow(id: string, name: string, nodes: Node[]): Record<string, unknown> {
	const connections: Record<string, unknown> = {};
	nodes.slice(0, -1).forEach((n, i) => {
		connections[n.name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	});
	return {
		id,
		name,
		active: false,
		settings: { executionOrder: 'v1', saveManualExecutions: true, saveDataSuccessExecution: 'all' },
		connections,
		nodes: nodes.map((n, i) => ({
			id: randomUUID(),
			name: n.name,
			type: n.type,
			typeVersion: n.typeVersion ?? 1,
			position: [i * 220, 0],
			parameters: n.parameters,
			...(n.onError ? { onError: n.onError } : {}),
			...(n.webhookId ? { webhookId: n.webhookId } : {}),
			...(n.credentials
				? {
						credentials: {
							businessPlatformOAuth2Api: { id: CRED_ID, name: 'Business Platform (e2e)' },
						},
					}
				: {}),
		})),
	};
}

/** A Webhook node that starts a workflow and answers with every item of the last node. */
export const webhookStart = (path: string): Node => ({
	name: 'Start',
	type: 'n8n-nodes-base.webhook',
	typeVersion: 2,
	webhookId: randomUUID(),
	parameters: {
		httpMethod: 'POST',
		path,
		responseMode: 'lastNode',
		responseData: 'allEntries',
		options: {},
	},
});

export type PackNode =
	| 'businessPlatformSales'
	| 'businessPlatformCampaigns'
	| 'businessPlatformPeople'
	| 'businessPlatformSalesTrigger'
	| 'businessPlatformTrigger'
	| 'businessPlatformPeopleTrigger'
	| 'businessPlatformCampaignsTrigger'
	| 'businessPlatformTableTrigger';

export const pack = (
	node: PackNode,
	name: string,
	parameters: Record<string, unknown>,
	extra: Partial<Node> = {},
): Node => ({
	name,
	type: `${PKG}.${node}`,
	parameters,
	credentials: true,
	...extra,
});

export const rl = (value: string | number) => ({ __rl: true, mode: 'id', value: String(value) });

/** What a credential needs from a sandbox (in this process, or a sandbox process's ready line). */
export type SandboxAddress = Pick<Sandbox, 'baseUrl' | 'authUrl'> & {
	config: Pick<Sandbox['config'], 'clientId' | 'clientSecret'>;
};

export function credential(sb: SandboxAddress, tokenResponse?: Record<string, unknown>) {
	return {
		id: CRED_ID,
		name: 'Business Platform (e2e)',
		type: 'businessPlatformOAuth2Api',
		data: sandboxCredentialData(
			{ ...sb.config, baseUrl: sb.baseUrl, authUrl: sb.authUrl },
			tokenResponse,
		),
	};
}

export interface E2e {
	n8n: N8nInstance;
	api: N8nApi;
	env: NodeJS.ProcessEnv;
	/** The id n8n gave the credential given to startE2e as `id` (default: CRED_ID). */
	credentialId(id?: string): string;
	/** POSTs to a production webhook and returns the JSON answer. */
	call(path: string, body?: unknown): Promise<{ status: number; body: any }>;
	/** Activates a workflow through the public API; with a webhook path, waits until n8n serves it (activation is asynchronous). */
	activate(id: string, webhookPath?: string): Promise<void>;
	waitForWebhook(path: string): Promise<void>;
	/** Stops n8n, runs `whileStopped`, starts it again (with `env` on top of its environment from now on). */
	restart(whileStopped?: () => Promise<void> | void, env?: NodeJS.ProcessEnv): Promise<void>;
	stop(): Promise<void>;
}

/** A credential as `credential()` builds it (and n8n's CLI imports it). */
export interface CredentialFile {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

/**
 * Credentials and workflows into a running n8n through its REST API, as its editor saves them:
 * each credential gets an id of n8n's (one with tokens is connected through n8n's OAuth flow,
 * which alone keeps tokens), each workflow keeps its own id and points at those credentials.
 * Returns the credentials' ids: the one given → n8n's.
 */
export async function restImport(
	api: N8nApi,
	url: string,
	credentials: CredentialFile[],
	workflows: Array<Record<string, unknown>>,
): Promise<Record<string, string>> {
	const ids: Record<string, string> = {};
	for (const c of credentials) {
		const { oauthTokenData, ...data } = c.data;
		const created = await api.rest<{ data: { id: string } }>('POST', '/credentials', {
			name: c.name,
			type: c.type,
			data,
		});
		ids[c.id] = created.data.id;
		if (oauthTokenData) await authorize(api, url, created.data.id);
	}
	for (const wf of workflows) {
		const text = Object.entries(ids).reduce(
			(t, [from, to]) => t.replaceAll(JSON.stringify(from), JSON.stringify(to)),
			JSON.stringify(wf),
		);
		const saved = await api.rest<{ data: { id: string } }>('POST', '/workflows', JSON.parse(text));
		if (wf.id !== undefined && saved.data.id !== wf.id)
			throw new Error(`n8n saved the workflow ${String(wf.id)} as ${saved.data.id}`);
	}
	return ids;
}

/** n8n's CLI import, ids as given: for n8n 1.x (the REST path keeps a workflow's id on 2.41, not tried on 1.x) and where the REST API refuses what the CLI takes. */
async function cliImport(
	env: NodeJS.ProcessEnv,
	credentials: CredentialFile[],
	workflows: Array<Record<string, unknown>>,
): Promise<Record<string, string>> {
	const files = join(String(env.N8N_USER_FOLDER), 'import');
	mkdirSync(files, { recursive: true });
	for (const [what, list] of [
		['credentials', credentials],
		['workflow', workflows],
	] as const) {
		if (!list.length) continue;
		const file = join(files, `${what}.json`);
		writeFileSync(file, JSON.stringify(list));
		const r = await n8nCli(env, [`import:${what}`, `--input=${file}`]);
		if (r.status !== 0)
			throw new Error(
				`n8n import:${what} failed (${r.status}):\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`,
			);
	}
	return Object.fromEntries(credentials.map((c) => [c.id, c.id]));
}

/**
 * Installs the runtime if needed, starts n8n, sets up the owner, saves the credentials and
 * workflows (through n8n's REST API: each CLI import would start n8n's CLI once more, 5–8
 * CPU-seconds) and activates the given workflows (id → webhook path); `extraEnv` goes to n8n
 * (a bench's custom nodes). `credentialId(id)` is the id n8n gave the credential given as `id`.
 * `via: 'cli'` imports with n8n's CLI instead, which keeps the credentials' ids and the tokens
 * given (the in-n8n benchmarks: the pack and n8n's OAuth2 path on the same token).
 */
export async function startE2e(
	credentials: CredentialFile[],
	workflows: Array<Record<string, unknown>>,
	activate: Record<string, string | undefined>,
	extraEnv: NodeJS.ProcessEnv = {},
	{ via = 'rest' }: { via?: 'rest' | 'cli' } = {},
): Promise<E2e> {
	await ensureRuntime();
	const folder = prepareUserFolder();
	const env = { ...(await n8nEnvironment(folder)), ...extraEnv };
	const viaRest = via === 'rest' && n8nAtLeast('2.0.0');
	const ids = viaRest ? {} : await cliImport(env, credentials, workflows);
	let n8n = await startN8n(env);
	let api = await ownerApi(n8n);
	if (viaRest) Object.assign(ids, await restImport(api, n8n.url, credentials, workflows));
	const e2e: E2e = {
		get n8n() {
			return n8n;
		},
		get api() {
			return api;
		},
		env,
		credentialId: (id = CRED_ID) => ids[id] ?? id,
		call: (path, body = {}) => postJson(`${n8n.url}/webhook/${path}`, body),
		async activate(id, webhookPath) {
			try {
				await api.pub('POST', `/workflows/${id}/activate`);
			} catch (e) {
				// n8n answers a failed activation with "Internal server error": its own log says why.
				const why = n8n
					.log()
					.split('\n')
					.filter((l) => /error|fail/i.test(l))
					.slice(-15)
					.join('\n');
				throw new Error(
					`${e instanceof Error ? e.message : String(e)}\nn8n's log, its last lines about errors:\n${why}`,
				);
			}
			if (webhookPath) await e2e.waitForWebhook(webhookPath);
		},
		async waitForWebhook(path) {
			// A GET to a POST-only production webhook says "Did you mean to make a POST request?" once it is registered.
			await eventually(async () => {
				const res = await fetch(`${n8n.url}/webhook/${path}`);
				const text = await res.text();
				if (!/Did you mean to make a POST request/.test(text))
					throw new Error(`webhook ${path} not registered yet: ${text.slice(0, 120)}`);
			}, 30_000);
		},
		async restart(whileStopped, more) {
			await n8n.stop();
			await whileStopped?.();
			if (more) Object.assign(env, more);
			n8n = await startN8n(env);
			api = await ownerApi(n8n);
		},
		async stop() {
			await n8n.stop();
		},
	};
	for (const [id, path] of Object.entries(activate)) await e2e.activate(id, path);
	return e2e;
}

/**
 * Runs n8n's own OAuth2 flow for a new credential on the n8n at `url` (auth URL → sandbox
 * approval → n8n's callback), in the sandbox's current mode. Returns the credential's id.
 */
export async function connectCredential(
	api: N8nApi,
	url: string,
	sb: SandboxAddress,
	name: string,
): Promise<string> {
	const created = await api.rest<{ data: { id: string } }>('POST', '/credentials', {
		name,
		type: 'businessPlatformOAuth2Api',
		data: credential(sb).data,
	});
	const id = created.data.id;
	await authorize(api, url, id, sb.authUrl);
	return id;
}

/**
 * n8n's OAuth2 flow for a credential it holds: its authorization URL (under `authUrl` when
 * given), approved at once (the sandbox's `auto_approve`), and n8n's callback in the owner's session.
 */
export async function authorize(
	api: N8nApi,
	url: string,
	id: string,
	authUrl?: string,
): Promise<void> {
	const start = (await api.rest<{ data: string }>('GET', `/oauth2-credential/auth?id=${id}`)).data;
	if (authUrl !== undefined && !start.startsWith(authUrl))
		throw new Error(`n8n's authorization URL is not the sandbox's: ${start}`);
	const approved = await fetch(`${start}&auto_approve=true`, { redirect: 'manual' });
	const callback = approved.headers.get('location') ?? '';
	if (!callback.startsWith(`${url}/rest/oauth2-credential/callback?`))
		throw new Error(`the sandbox did not redirect to n8n's callback: ${callback}`);
	const done = await fetch(callback, { headers: { cookie: api.cookie }, redirect: 'manual' });
	const page = await done.text();
	if (done.status !== 200 || page.includes('error'))
		throw new Error(`n8n's OAuth callback failed (${done.status}): ${page.slice(0, 300)}`);
}

/** Creates a workflow (from `workflow()`) through the public API with its pack nodes on the given credential; returns its id. */
export async function createWorkflow(
	api: N8nApi,
	wf: Record<string, unknown>,
	credentialId: string,
): Promise<string> {
	const nodes = (wf.nodes as Array<Record<string, unknown>>).map((n) =>
		n.credentials
			? {
					...n,
					credentials: { businessPlatformOAuth2Api: { id: credentialId, name: String(wf.name) } },
				}
			: n,
	);
	const created = (await api.pub<{ id: string }>('POST', '/workflows', {
		name: wf.name,
		nodes,
		connections: wf.connections,
		settings: wf.settings,
	})) as { id: string };
	return created.id;
}

/** POSTs JSON (to a production webhook) and returns the status and the answer, parsed when it is JSON. */
export async function postJson(
	url: string,
	body: unknown = {},
): Promise<{ status: number; body: any }> {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const text = await res.text();
	let parsed: unknown = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		// keep the text
	}
	return { status: res.status, body: parsed };
}

export { eventually };
