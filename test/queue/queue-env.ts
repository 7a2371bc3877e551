/* eslint-disable @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The queue-mode suite's cluster (testbed/queue/cluster.ts) wired to an in-process sandbox:
 * credentials connected through n8n's own OAuth flow on main, workflows created through
 * the public API, executions started through the webhook processor, and the executions
 * n8n stored, read back.
 */
import {
	startQueueCluster,
	type QueueCluster,
	type QueueOptions,
} from '../../testbed/queue/cluster';
import type { Sandbox } from '../helpers/sandbox';
import { connectCredential, createWorkflow, eventually, postJson } from '../../testbed/n8n/env';
import { QUEUE_SKIP_ENV } from '../../testbed/queue/folders';

/** `describe`, or `describe.skip` with the reason printed where queue mode cannot run. */
export const describeQueue: jest.Describe = process.env[QUEUE_SKIP_ENV] ? describe.skip : describe;

export interface Execution {
	id: string;
	status: string;
	workflowId: string;
	mode: string;
	data?: {
		resultData: {
			error?: { message: string };
			runData: Record<
				string,
				Array<{ data?: { main: Array<Array<{ json: Record<string, any> }>> } }>
			>;
		};
	};
}

export interface Queue {
	cluster: QueueCluster;
	/** Connects a new credential through n8n's OAuth flow in the sandbox's current mode. */
	connect(name: string): Promise<string>;
	/** Creates a workflow with its pack nodes on `credentialId`; activates it when it has a webhook path, and waits until the webhook processor serves it. */
	create(wf: Record<string, unknown>, credentialId: string, webhookPath?: string): Promise<string>;
	/** POSTs to a production webhook on the webhook processor. */
	call(path: string, body?: unknown): Promise<{ status: number; body: any }>;
	/** Every finished execution n8n stored for a workflow (public API, all pages; those main hides, by ID). */
	executions(workflowId: string, includeData?: boolean): Promise<Execution[]>;
	/** Waits until the webhook processor serves a production webhook. */
	waitForWebhook(path: string): Promise<void>;
}

export async function startQueue(sb: Sandbox, opts: QueueOptions = {}): Promise<Queue> {
	const cluster = await startQueueCluster(opts);
	const q: Queue = {
		cluster,
		connect: (name) => connectCredential(cluster.api, cluster.main.instance.url, sb, name),
		async create(wf, credentialId, webhookPath) {
			const id = await createWorkflow(cluster.api, wf, credentialId);
			if (webhookPath) {
				await cluster.api.pub('POST', `/workflows/${id}/activate`);
				await q.waitForWebhook(webhookPath);
			}
			return id;
		},
		call: (path, body = {}) => postJson(`${cluster.webhookUrl}/webhook/${path}`, body),
		async executions(workflowId, includeData = false) {
			const all: Execution[] = [];
			let cursor = '';
			do {
				const page = (await cluster.api.pub<{ data: Execution[]; nextCursor?: string | null }>(
					'GET',
					`/executions?workflowId=${workflowId}&limit=250&includeData=${includeData}${cursor ? `&cursor=${cursor}` : ''}`,
				)) as { data: Execution[]; nextCursor?: string | null };
				all.push(...page.data);
				cursor = page.nextCursor ?? '';
			} while (cursor);
			// The public API leaves out what main still holds as running, and main can hold a finished
			// execution so forever: it waits for Bull's job.finished(), which checks the job's state and
			// then listens for its completion, and a completion published between the two is missed
			// (bull/lib/job.js). What n8n stored is in its database: the REST list reads it.
			const listed = new Set(all.map((e) => String(e.id)));
			for (const id of await storedIds(cluster, workflowId))
				if (!listed.has(id)) {
					const e = await cluster.api.pub<Execution>(
						'GET',
						`/executions/${id}?includeData=${includeData}`,
					);
					if (!['new', 'running', 'waiting'].includes(e.status)) {
						hiddenByMain.add(`workflow ${workflowId}, execution ${id}`);
						all.push(e);
					}
				}
			return all.sort((a, b) => Number(b.id) - Number(a.id));
		},
		async waitForWebhook(path) {
			// A GET to a POST-only production webhook says "Did you mean to make a POST request?" once it is registered.
			await eventually(async () => {
				const res = await fetch(`${cluster.webhookUrl}/webhook/${path}`);
				const text = await res.text();
				if (!/Did you mean to make a POST request/.test(text))
					throw new Error(
						`webhook ${path} not served by the webhook processor yet: ${text.slice(0, 120)}`,
					);
			}, 30_000);
		},
	};
	return q;
}

/** The IDs of a workflow's executions, from the database (n8n's REST list, whatever main holds as running). */
async function storedIds(cluster: QueueCluster, workflowId: string): Promise<string[]> {
	const ids: string[] = [];
	const filter = encodeURIComponent(JSON.stringify({ workflowId, status: [...STORED_STATUSES] }));
	let cursor = '';
	do {
		const page = await cluster.api.rest<{
			data: { results: Array<{ id: string }>; nextCursor?: string | null };
		}>('GET', `/executions?filter=${filter}&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
		ids.push(...page.data.results.map((e) => String(e.id)));
		cursor = page.data.nextCursor ? encodeURIComponent(page.data.nextCursor) : '';
	} while (cursor);
	return ids;
}

/** Every status but the ones of an execution under way: n8n's REST list then reads the database only. */
const STORED_STATUSES = ['success', 'error', 'crashed', 'canceled', 'unknown'] as const;

/**
 * Finished executions the public API left out because main still held them as running (all
 * clusters of this jest worker): a lane's failure message names them.
 */
export const hiddenByMain = new Set<string>();

/** Contacts of tenant 1 whose name starts with `prefix`, counted by name: duplicates show as counts above 1. */
export function contactsByName(sb: Sandbox, prefix: string): Map<string, number> {
	const counts = new Map<string, number>();
	for (const c of sb.store.tenant(1).contacts.values()) {
		const name = String(c.name);
		if (name.startsWith(prefix)) counts.set(name, (counts.get(name) ?? 0) + 1);
	}
	return counts;
}
