/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The polling scenarios bench/measure.ts runs in a fresh process (bench/polls.ts reads them): a
 * poll of the Sales Trigger's polling events that finds no change, through n8n-core's PollContext
 * as n8n's default scheduler runs it (one static data object for the activation), and what a
 * careful hand-written poller reads for the same answer (undici, the pages the list needs).
 */
import { PollContext } from 'n8n-core';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { Pool, request } from 'undici';

import type { Base } from './measure-kit';

export interface PollArgs extends Base {
	/** Which list: contacts (newest first) or deals (read whole). */
	list: 'contacts' | 'deals';
	watchFields: string[];
	/** Polls measured after the first (which remembers every record). */
	polls: number;
}

/** The CRM list and record requests the sandbox answered so far (its counters, by route). */
async function crmRequests(baseUrl: string): Promise<number> {
	const res = await request(`${baseUrl}/__admin/stats`, { reset: true });
	const stats = (await res.body.json()) as { byRoute?: Record<string, number> };
	return Object.entries(stats.byRoute ?? {})
		.filter(([route]) => route.startsWith('GET /v1/crm/'))
		.reduce((n, [, count]) => n + count, 0);
}

const cpuMs = (since: NodeJS.CpuUsage) => {
	const u = process.cpuUsage(since);
	return (u.user + u.system) / 1000;
};

export const pollScenarios: Record<string, (a: PollArgs) => Promise<Record<string, unknown>>> = {
	/** The pack: the first poll, then `polls` polls without a change; CPU and time per poll, the static data's size. */
	async packPoll(a) {
		const { additionalData } = await import('../testbed/harness/additional-data');
		const { NODE_TYPES, nodeTypeOf, PACKAGE } = await import('../testbed/harness/nodes');
		const { createHarness } = await import('../testbed/harness/run');
		const { triggerWorkflow } = await import('../testbed/harness/triggers');
		const h = createHarness(
			{
				baseUrl: a.baseUrl,
				authUrl: a.authUrl,
				config: { clientId: a.clientId, clientSecret: a.clientSecret },
				demo: { tokenResponse: a.tokenResponse },
			} as never,
			a.tokenResponse,
		);
		const events = [a.list === 'contacts' ? 'POLL_CRM_CONTACTS' : 'POLL_CRM_DEALS'];
		const node = h.node(
			'businessPlatformSalesTrigger',
			{ events, watchFields: a.watchFields },
			'Poll',
			4,
		);
		const workflow = triggerWorkflow(node, {}, 'wf-bench-poll');
		const type = nodeTypeOf(NODE_TYPES[`${PACKAGE}.businessPlatformSalesTrigger`], 4);
		const poll = async (): Promise<unknown> => {
			const ctx = new PollContext(
				workflow,
				workflow.getNode('Poll')!,
				additionalData(h.credentials),
				'trigger',
				'update',
			);
			return await type.poll!.call(ctx as unknown as IPollFunctions);
		};
		const firstAt = process.cpuUsage();
		if ((await poll()) !== null) throw new Error('the first poll delivered: it starts from now');
		const firstCpuMs = cpuMs(firstAt);
		const staticData = JSON.stringify(workflow.staticData);
		const memory = (workflow.staticData['node:Poll'] as IDataObject | undefined)?.memory as
			| IDataObject
			| undefined;
		const records = String(memory?.recs ?? '')
			.split('\n')
			.filter(Boolean).length;
		await poll(); // warm: the code paths of a poll without a first
		const asked = await crmRequests(a.baseUrl);
		const t0 = process.hrtime.bigint();
		const c0 = process.cpuUsage();
		for (let i = 0; i < a.polls; i++)
			if ((await poll()) !== null) throw new Error('a poll without a change delivered');
		const cpu = cpuMs(c0);
		const ms = Number(process.hrtime.bigint() - t0) / 1e6;
		return {
			cpuMsPerPoll: cpu / a.polls,
			msPerPoll: ms / a.polls,
			requestsPerPoll: ((await crmRequests(a.baseUrl)) - asked) / a.polls,
			firstCpuMs,
			staticDataBytes: Buffer.byteLength(staticData),
			memoryBytes: Buffer.byteLength(JSON.stringify(memory ?? null)),
			records,
		};
	},

	/** The floor: the pages a poller must read to see that nothing changed (contacts: page 1; deals: every page), parsed. */
	async rawPoll(a) {
		const pool = new Pool(a.baseUrl, { connections: 1 });
		const headers = { 'x-access-token': a.accessToken };
		const page = async (n: number) => {
			const qs =
				a.list === 'contacts'
					? `orderBy=updated_at&order=desc&page=${n}&limit=100`
					: `show_closed_deals=true&page=${n}&limit=100`;
			const res = await pool.request({ method: 'GET', path: `/v1/crm/${a.list}?${qs}`, headers });
			return (await res.body.json()) as { data: unknown[]; total_pages?: number };
		};
		const once = async () => {
			const first = await page(1);
			if (a.list === 'deals') for (let n = 2; n <= (first.total_pages ?? 1); n++) await page(n);
		};
		await once();
		const asked = await crmRequests(a.baseUrl);
		const t0 = process.hrtime.bigint();
		const c0 = process.cpuUsage();
		for (let i = 0; i < a.polls; i++) await once();
		const cpu = cpuMs(c0);
		const ms = Number(process.hrtime.bigint() - t0) / 1e6;
		const result = {
			cpuMsPerPoll: cpu / a.polls,
			msPerPoll: ms / a.polls,
			requestsPerPoll: ((await crmRequests(a.baseUrl)) - asked) / a.polls,
		};
		await pool.close();
		return result;
	},
};
