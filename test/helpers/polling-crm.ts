/**
 * The Sales Trigger's polling events in a real n8n (one process under each scheduler, and queue
 * mode): three published workflows with the Trigger's version 4, one per list (Contact Changed,
 * Deal Changed only when the stage changes, Activity Changed), polled every minute. A contact, a
 * deal and an activity created, then updated: one item each (the deal's rename starts nothing,
 * its stage change one item with the stage before in `previous`). Then n8n is stopped, 50
 * contacts are made, n8n is started: 50 items, none twice. No request ever asks for the
 * platform's webhooks (a polling event registers none: n8n-internals 13), and where the suite can
 * run the workflow by hand (one process), the test button fetches the newest change at once.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { call, type Sandbox } from './sandbox';
import { pack, workflow } from '../../testbed/n8n/env';
import { eventually } from '../../testbed/eventually';
import { LOG_EVERY_MS, LOOK_EVERY_MS, type PollingHost } from './polling';

/** How long the changes of a poll may take to show as executions (a minute tick, a loaded machine, a restart's lease). */
const WITHIN = 300_000;

export interface CrmHost extends Pick<PollingHost, 'publish' | 'executions'> {
	/** Stops n8n, runs `whileStopped`, starts it again (a restart shared with the lanes beside). */
	restart(whileStopped: () => Promise<void>): Promise<void>;
	/** The test button on the workflow's trigger: the manual run's items, or that n8n waits for a webhook. */
	runByHand?(workflowId: string, trigger: string): Promise<IDataObject[] | 'waiting'>;
}

const TRIGGERS = {
	contacts: { events: ['POLL_CRM_CONTACTS'] },
	deals: { events: ['POLL_CRM_DEALS'], watchFields: ['stage_id'], changes: ['created', 'updated'] },
	activities: { events: ['POLL_CRM_ACTIVITIES'] },
};
type List = keyof typeof TRIGGERS;

const made = async (sb: Sandbox, method: string, path: string, body: unknown) => {
	const res = await call(sb, method, path, { body });
	expect([path, res.status < 300]).toEqual([path, true]);
	return res.body as IDataObject;
};

/** The items every execution of a workflow delivered, in execution order. */
async function items(host: CrmHost, id: string, node: string): Promise<IDataObject[]> {
	const runs = await host.executions(id);
	return runs
		.slice()
		.reverse()
		.flatMap((e) => e.data?.resultData.runData[node]?.[0]?.data?.main[0] ?? [])
		.map((i) => i.json as IDataObject);
}

/** Waits until the workflow delivered `count` items; gives them all. */
async function delivered(host: CrmHost, id: string, node: string, count: number) {
	return await eventually(
		async () => {
			const got = await items(host, id, node);
			expect(got.length).toBeGreaterThanOrEqual(count);
			return got;
		},
		WITHIN,
		LOOK_EVERY_MS,
	);
}

const brief = (i: IDataObject) => [i.change, (i.record as IDataObject | null)?.id ?? i.id];

/** Runs the scenario on `sb` with `host`'s n8n; `tag` keeps its workflows apart from other lanes'. */
export async function crmPollingExactlyOnce(
	sb: Sandbox,
	host: CrmHost,
	tag: string,
): Promise<void> {
	const webhookCalls = () => sb.requests().filter((r) => r.path.startsWith('/v1/webhooks')).length;
	const before = webhookCalls();
	const ids = {} as Record<List, string>;
	const listed = (path: string) =>
		sb.requests().filter((r) => r.method === 'GET' && r.path === path).length;
	const polled = { contacts: 0, deals: 0, activities: 0 };
	for (const list of Object.keys(TRIGGERS) as List[]) {
		const path = `/v1/crm/${list}`;
		polled[list] = listed(path);
		const wf = workflow(`e2eCrm${tag}${list}`.padEnd(16, '0').slice(0, 16), `CRM ${list} ${tag}`, [
			pack('businessPlatformSalesTrigger', 'Changes', TRIGGERS[list], {
				typeVersion: 4,
				webhookId: randomUUID(),
			}),
		]);
		ids[list] = await host.publish(wf);
		// Publishing polls once: the trigger starts from now.
		await eventually(
			() => expect(listed(path)).toBeGreaterThan(polled[list]),
			120_000,
			LOG_EVERY_MS,
		);
	}
	const pipeline = sb.store.tenant(1).pipelines.values()[0];
	const stages = (pipeline.stages as IDataObject[]).map((s) => s.id as number);

	// Created: one item each.
	const contact = await made(sb, 'POST', '/v1/crm/contacts', { name: `E2E ${tag}` });
	const deal = await made(sb, 'POST', '/v1/crm/deals', {
		name: `E2E ${tag}`,
		pipeline_id: pipeline.id,
		stage_id: stages[0],
	});
	const activity = await made(sb, 'POST', '/v1/crm/activities', {
		name: `E2E ${tag}`,
		activity_type: 'call',
	});
	for (const [list, record] of [
		['contacts', contact],
		['deals', deal],
		['activities', activity],
	] as const)
		expect((await delivered(host, ids[list], 'Changes', 1)).map(brief)).toEqual([
			['created', record.id],
		]);

	// Updated: one item each; the deal's rename starts nothing, its stage change one item.
	await made(sb, 'PATCH', `/v1/crm/contacts/${String(contact.id)}`, { phone: '5550101' });
	await made(sb, 'PUT', `/v1/crm/activities/${String(activity.id)}`, { name: 'Call back' });
	await made(sb, 'PUT', `/v1/crm/deals/${String(deal.id)}`, { name: 'Renamed' });
	// A poll reads the list after the rename (the sandbox's request log) before the stage changes:
	// one poll would otherwise read both edits and merge them (a stage change either way).
	const renamed = listed('/v1/crm/deals');
	await eventually(
		() => expect(listed('/v1/crm/deals')).toBeGreaterThan(renamed),
		WITHIN,
		LOG_EVERY_MS,
	);
	await made(sb, 'PUT', `/v1/crm/deals/${String(deal.id)}`, { stage_id: stages[1] });
	const deals = await delivered(host, ids.deals, 'Changes', 2);
	expect(deals.length).toBe(2);
	expect(deals[1]).toMatchObject({
		change: 'updated',
		changedFields: ['stage_id'],
		previous: { stage_id: stages[0] },
		record: { id: deal.id, stage_id: stages[1] },
	});
	for (const [list, record] of [
		['contacts', contact],
		['activities', activity],
	] as const)
		expect((await delivered(host, ids[list], 'Changes', 2)).map(brief)).toEqual([
			['created', record.id],
			['updated', record.id],
		]);

	// n8n stopped, 50 changes made, n8n started: 50 items, none twice.
	const down: unknown[] = [];
	await host.restart(async () => {
		for (let i = 0; i < 50; i++)
			down.push((await made(sb, 'POST', '/v1/crm/contacts', { name: `Down ${tag} ${i}` })).id);
	});
	const after = await delivered(host, ids.contacts, 'Changes', 52);
	expect(after.slice(2).map(brief)).toEqual(down.map((id) => ['created', id]));
	await eventually(
		async () => {
			expect(listed('/v1/crm/contacts')).toBeGreaterThan(polled.contacts + 3);
			expect((await items(host, ids.contacts, 'Changes')).length).toBe(52);
		},
		WITHIN,
		LOOK_EVERY_MS,
	);
	expect((await items(host, ids.deals, 'Changes')).length).toBe(2);

	// A polling event asks for no webhook; the test button runs the trigger at once.
	expect(webhookCalls()).toBe(before);
	if (host.runByHand) {
		const byHand = await host.runByHand(ids.contacts, 'Changes');
		expect(byHand).not.toBe('waiting');
		expect((byHand as IDataObject[]).map((i) => i.recordType)).toEqual(['contact']);
	}
}
