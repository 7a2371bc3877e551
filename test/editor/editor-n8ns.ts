/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The editor suite's n8ns: one per jest worker, not one per file. The editor's global setup
 * (test/jest/setup-editor.ts) starts them without waiting (they boot while the first files
 * start their sandboxes and Chromium) and tells the workers where they are through
 * `EDITOR_N8NS_ENV`; the global teardown stops them. A file claims a free one for its whole run
 * (a lock folder next to its user folder, holding the claiming worker's pid), finds it emptied
 * of every workflow and credential, and empties it again before it gives it back, while its own
 * sandbox still answers the Trigger's webhook removals. Files never share an n8n at the same time,
 * so each sees only its own workflows and credentials, under the ids and names it gave them, as it
 * did with an n8n of its own. A claim whose worker died is taken over.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

import {
	n8nEnvironment,
	ownerApi,
	prepareUserFolder,
	startN8n,
	type N8nApi,
	type N8nInstance,
} from '../../testbed/n8n/start';
import { eventually } from '../../testbed/n8n/env';
import { alive } from '../../testbed/processes';

export const EDITOR_N8NS_ENV = 'BP_EDITOR_N8NS';

interface Where {
	url: string;
	userFolder: string;
}

/** What a file gets: its n8n (to itself while it runs) and the owner's APIs. */
export interface EditorN8n {
	n8n: Where;
	api: N8nApi;
	/** Publishes (activates) a workflow by its id. */
	activate(id: string): Promise<void>;
	/** Empties the n8n of the file's workflows and credentials and gives it back. */
	stop(): Promise<void>;
}

const state = globalThis as { __bpEditorN8ns?: Array<Promise<N8nInstance>> };

/** The global setup's part: `count` n8ns with the pack, each in a fresh user folder, started in the background. */
export async function startEditorN8ns(count: number): Promise<void> {
	if (state.__bpEditorN8ns) return;
	const where: Where[] = [];
	const started: Array<Promise<N8nInstance>> = [];
	for (let i = 0; i < count; i++) {
		const folder = prepareUserFolder();
		const env = await n8nEnvironment(folder);
		where.push({ url: `http://127.0.0.1:${env.N8N_PORT}`, userFolder: folder });
		const n8n = startN8n(env, { name: `n8n start (editor files, ${i + 1} of ${count})` });
		// A failed start is reported by the file that claims it (it waits for the same n8n).
		n8n.catch(() => undefined);
		started.push(n8n);
	}
	state.__bpEditorN8ns = started;
	process.env[EDITOR_N8NS_ENV] = JSON.stringify(where);
}

/** The global teardown's part: every editor n8n stopped. */
export async function stopEditorN8ns(): Promise<void> {
	const started = state.__bpEditorN8ns ?? [];
	state.__bpEditorN8ns = undefined;
	await Promise.all(started.map(async (n) => await (await n.catch(() => undefined))?.stop()));
}

export const claimFolder = (where: Where) => `${where.userFolder}.claimed`;

/** Takes a free n8n (or one whose claiming worker died) for this process; undefined while all are in use. */
export function claim(all: Where[]): Where | undefined {
	for (const where of all) {
		const folder = claimFolder(where);
		try {
			mkdirSync(folder);
		} catch {
			let owner = NaN;
			try {
				owner = Number(readFileSync(`${folder}/pid`, 'utf8'));
			} catch {
				continue; // claimed a moment ago, its pid not written yet
			}
			if (!Number.isInteger(owner) || alive(owner)) continue;
			rmSync(folder, { recursive: true, force: true });
			try {
				mkdirSync(folder);
			} catch {
				continue;
			}
		}
		writeFileSync(`${folder}/pid`, String(process.pid));
		return where;
	}
	return undefined;
}

/**
 * Deactivates and deletes every workflow, then deletes every credential, until n8n lists none:
 * a step that failed (n8n busy deactivating a trigger, say) is tried again, and what n8n still
 * holds after a minute fails the file by name, never a later file with "exists already".
 */
async function empty(api: N8nApi): Promise<void> {
	const failures: string[] = [];
	const attempt = async (what: string, step: () => Promise<unknown>) =>
		await step().catch((e: unknown) => failures.push(`${what}: ${String(e).slice(0, 200)}`));
	await eventually(async () => {
		const workflows = await api.pub<{ data: Array<{ id: string; active: boolean }> }>(
			'GET',
			'/workflows?limit=250',
		);
		for (const w of workflows.data) {
			if (w.active)
				await attempt(`deactivate ${w.id}`, () => api.pub('POST', `/workflows/${w.id}/deactivate`));
			await attempt(`delete ${w.id}`, () => api.pub('DELETE', `/workflows/${w.id}`));
		}
		const credentials = await api.rest<{ data: Array<{ id: string }> }>('GET', '/credentials');
		for (const c of credentials.data)
			await attempt(`delete credential ${c.id}`, () => api.rest('DELETE', `/credentials/${c.id}`));
		const left = [
			...(await api.pub<{ data: Array<{ id: string }> }>('GET', '/workflows?limit=250')).data,
			...(await api.rest<{ data: Array<{ id: string }> }>('GET', '/credentials')).data,
		];
		if (left.length)
			throw new Error(
				`the editor n8n still holds ${left.map((x) => x.id).join(', ')} (${failures.slice(-5).join('; ')})`,
			);
	}, 60_000);
}

/** Claims an editor n8n for this file (waiting for one to be free and to serve), emptied. */
export async function claimEditorN8n(): Promise<EditorN8n> {
	const raw = process.env[EDITOR_N8NS_ENV];
	if (!raw)
		throw new Error(
			`${EDITOR_N8NS_ENV} is not set: this file runs in the editor project, whose global setup starts its n8ns (npm run test:editor)`,
		);
	const all = JSON.parse(raw) as Where[];
	const where = await eventually(async () => {
		const free = claim(all);
		if (!free) throw new Error(`all ${all.length} editor n8ns are in use by other files`);
		return free;
	}, 600_000);
	const release = () => rmSync(claimFolder(where), { recursive: true, force: true });
	try {
		await eventually(async () => {
			const res = await fetch(`${where.url}/healthz/readiness`);
			if (res.status !== 200) throw new Error(`the editor n8n is not ready yet (${res.status})`);
		}, 180_000);
		const api = await eventually(async () => await ownerApi(where), 30_000);
		await empty(api);
		return {
			n8n: where,
			api,
			activate: async (id) => void (await api.pub('POST', `/workflows/${id}/activate`)),
			async stop() {
				try {
					await empty(api);
				} finally {
					release();
				}
			},
		};
	} catch (e) {
		release();
		throw e;
	}
}
