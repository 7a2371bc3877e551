/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * One n8n per configuration per run: the e2e files that do not restart n8n share the n8n
 * the e2e global setup starts (test/jest/setup-n8n.ts), each with its own sandbox, its
 * own credentials and its own workflows, created through n8n's API and removed again after
 * the file. A file that tests restarts starts an n8n of its own (`startE2e`), so that no
 * other file sees its n8n go away.
 *
 * The global setup starts the shared n8n without waiting for it (it boots while the first
 * files run) and tells the workers where it is through `SHARED_N8N_ENV`; `joinSharedN8n`
 * waits until it serves. The global teardown stops it.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	n8nEnvironment,
	N8N_START_TIMEOUT_MS,
	ownerApi,
	prepareUserFolder,
	startN8n,
	type N8nApi,
	type N8nInstance,
} from '../../testbed/n8n/start';
import { authorize, eventually, postJson } from '../../testbed/n8n/env';
import { writeFloorCreate } from '../../bench/floor-create';

export const SHARED_N8N_ENV = 'BP_SHARED_N8N';

interface Where {
	url: string;
	userFolder: string;
}

const state = globalThis as { __bpSharedN8n?: Promise<N8nInstance> };

/** The global setup's part: the pack installed in a fresh user folder, n8n started in the background. */
export async function startSharedN8n(): Promise<void> {
	if (state.__bpSharedN8n) return;
	const folder = prepareUserFolder();
	// The bench's floor node (bench/floor-create.ts) as a custom node, for the bench smoke test's section inside n8n.
	const env = await n8nEnvironment(folder);
	env.N8N_CUSTOM_EXTENSIONS = writeFloorCreate(join(folder, 'bench-custom-nodes'));
	const where: Where = { url: `http://127.0.0.1:${env.N8N_PORT}`, userFolder: folder };
	process.env[SHARED_N8N_ENV] = JSON.stringify(where);
	state.__bpSharedN8n = startN8n(env, { name: 'n8n start (shared by the e2e files)' });
	// A failed start is reported by every file that joins: the workers read why from the user folder.
	state.__bpSharedN8n.catch((e: unknown) => reportStartFailure(folder, e));
}

/** Where the global setup writes why the shared n8n did not start (the files run in other processes). */
const startFailure = (userFolder: string) => join(userFolder, 'bp-shared-start-failed.txt');

/** Tells the files that join the shared n8n in `userFolder` that it did not start, and why. */
export function reportStartFailure(userFolder: string, e: unknown): void {
	writeFileSync(startFailure(userFolder), e instanceof Error ? e.message : String(e));
}

/** The global teardown's part: the shared n8n stopped (before the run's sweep looks for leftovers). */
export async function stopSharedN8n(): Promise<void> {
	const started = state.__bpSharedN8n;
	state.__bpSharedN8n = undefined;
	await (await started?.catch(() => undefined))?.stop();
}

/** What a file gets on the shared n8n: its own credentials and workflows, under ids n8n gave them. */
export interface SharedE2e {
	n8n: Where;
	api: N8nApi;
	/** The id n8n gave a credential or workflow the file named by its own id (or the id itself). */
	id(own: string): string;
	call(path: string, body?: unknown): Promise<{ status: number; body: any }>;
	/** Activates a workflow (the file's own id or n8n's); with a webhook path, waits until n8n serves it. */
	activate(id: string, webhookPath?: string): Promise<void>;
	waitForWebhook(path: string): Promise<void>;
	/** Deactivates and deletes the file's workflows and credentials. */
	stop(): Promise<void>;
}

type Credential = { id: string; name: string; type: string; data: unknown };
type Workflow = Record<string, unknown> & {
	id?: string;
	name: string;
	nodes: Array<Record<string, unknown>>;
};

/**
 * Joins the shared n8n (waiting until it serves): creates the file's credentials (named with
 * a tag of this file, so two files never pick each other's), then its workflows with their
 * credential references moved to the new ids, then activates `activate` (own id → webhook path).
 */
export async function joinSharedN8n(
	credentials: Credential[],
	workflows: Array<Record<string, unknown>>,
	activate: Record<string, string | undefined> = {},
): Promise<SharedE2e> {
	const raw = process.env[SHARED_N8N_ENV];
	if (!raw)
		throw new Error(
			`${SHARED_N8N_ENV} is not set: this file runs in the e2e project, whose global setup starts the shared n8n (jest --selectProjects e2e)`,
		);
	const where = JSON.parse(raw) as Where;
	// As long as its start may take (it boots beside a dozen other n8n processes); a failed start
	// ends the wait at once.
	const deadline = Date.now() + N8N_START_TIMEOUT_MS + 30_000;
	for (;;) {
		const failed = startFailure(where.userFolder);
		if (existsSync(failed))
			throw new Error(`the shared n8n did not start: ${readFileSync(failed, 'utf8')}`);
		const status = await fetch(`${where.url}/healthz/readiness`).then(
			(res) => res.status,
			(e: Error) => e.message,
		);
		if (status === 200) break;
		if (Date.now() > deadline)
			throw new Error(`the shared n8n at ${where.url} is not ready (${status})`);
		await new Promise((r) => setTimeout(r, 250));
	}
	const api = await eventually(async () => await ownerApi(where), 30_000);
	const tag = randomUUID().slice(0, 8);
	const ids = new Map<string, string>();
	const credentialIds: string[] = [];
	for (const c of credentials) {
		const { oauthTokenData, ...data } = c.data as Record<string, unknown>;
		const created = await api.rest<{ data: { id: string } }>('POST', '/credentials', {
			name: `${c.name} ${tag}`,
			type: c.type,
			data,
		});
		ids.set(c.id, created.data.id);
		credentialIds.push(created.data.id);
		// n8n keeps tokens only from its own OAuth flow: connect as a user's Connect button does.
		if (oauthTokenData) await authorize(api, where.url, created.data.id);
	}
	const workflowIds: string[] = [];
	for (const wf of workflows as Workflow[]) {
		const nodes = wf.nodes.map((n) => {
			const refs = n.credentials as Record<string, { id: string; name: string }> | undefined;
			if (!refs) return n;
			const moved = Object.fromEntries(
				Object.entries(refs).map(([type, ref]) => [
					type,
					{ id: ids.get(ref.id) ?? ref.id, name: ref.name },
				]),
			);
			return { ...n, credentials: moved };
		});
		const created = await api.pub<{ id: string }>('POST', '/workflows', {
			name: `${wf.name} ${tag}`,
			nodes,
			connections: wf.connections,
			settings: wf.settings ?? { executionOrder: 'v1' },
		});
		if (wf.id) ids.set(wf.id, created.id);
		workflowIds.push(created.id);
	}
	const id = (own: string) => ids.get(own) ?? own;
	const e2e: SharedE2e = {
		n8n: where,
		api,
		id,
		call: async (path, body = {}) => await postJson(`${where.url}/webhook/${path}`, body),
		async activate(wfId, webhookPath) {
			await api.pub('POST', `/workflows/${id(wfId)}/activate`);
			if (webhookPath) await e2e.waitForWebhook(webhookPath);
		},
		async waitForWebhook(path) {
			await eventually(async () => {
				const res = await fetch(`${where.url}/webhook/${path}`);
				const text = await res.text();
				if (!/Did you mean to make a POST request/.test(text))
					throw new Error(`webhook ${path} not registered yet: ${text.slice(0, 120)}`);
			}, 30_000);
		},
		async stop() {
			// Best effort: the n8n is stopped at the end of the run anyway.
			for (const w of workflowIds) {
				await api.pub('POST', `/workflows/${w}/deactivate`).catch(() => undefined);
				await api.pub('DELETE', `/workflows/${w}`).catch(() => undefined);
			}
			for (const c of credentialIds)
				await api.rest('DELETE', `/credentials/${c}`).catch(() => undefined);
		},
	};
	for (const [own, path] of Object.entries(activate)) await e2e.activate(own, path);
	return e2e;
}
