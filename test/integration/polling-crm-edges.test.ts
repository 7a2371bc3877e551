/**
 * The Sales Trigger's polling events (version 4) where the platform or the user gives odd values,
 * through n8n-core's PollContext against the sandbox (the default scheduler: the cases are about
 * what a poll reads, not about who commits it):
 * - a 200 that is not the contract's shape (`{}`, `{data: null}`, an HTML page, a page shorter
 *   than its envelope's count, a deal asked for on its own answered without that deal): the poll
 *   fails or acts on nothing, says so once, and forgets nothing;
 * - records without `updated_at` (a contract-faithful DealResponse has none), with an impossible
 *   or far-future one;
 * - a deal marked `is_deleted`, a deal ID past 2^53, watched field names n8n's deep copy drops;
 * - what the trigger could not keep (past its memory's bound, a first poll that read part of the
 *   list) said on the items that follow, and a deal list too long for one poll's budget.
 */
import type { IDataObject } from 'n8n-workflow';

import { allowOffContract } from '../helpers/contract';
import { n8nAtLeast } from '../../testbed/runtime/versions';
import { useCrmPollFile } from '../helpers/crm-poll-file';
import { Poller, type Scheduler } from '../helpers/poll-harness';
import { PageClock } from '../helpers/page-clock';
import { call } from '../helpers/sandbox';

const { ctx, tuning, harness, trigger, api } = useCrmPollFile(4, (sb) => sb.faults.clear());
const pipeline = () => ctx.sb.store.tenant(1).pipelines.values()[0];
const stages = () => (pipeline().stages as IDataObject[]).map((s) => s.id as number);
/** The paths the sandbox was asked for since `from` (its request log). */
const askedSince = (from: number) =>
	ctx.sb
		.requests()
		.slice(from)
		.map((r) => r.path);
const dealTrigger = (scheduler: Scheduler = 'default') =>
	trigger(
		{
			events: ['POLL_CRM_DEALS'],
			watchFields: ['stage_id'],
			changes: ['created', 'updated', 'deleted'],
		},
		scheduler,
	);
/** The sandbox answers off the contract on purpose (its `body` faults). */
const offContract = () =>
	allowOffContract(
		ctx.sb,
		/must be|must match|not JSON|required/,
		'a 200 that is not the contract’s shape',
	);
const LIST = { deals: '/^\\/v1\\/crm\\/deals$/', contacts: '/^\\/v1\\/crm\\/contacts$/' };

describe('a 200 that is not the contract’s shape', () => {
	it.each([
		['an empty object', '{}'],
		['a null list', '{"data": null, "number_of_records": 4}'],
		['an HTML maintenance page', '<html><body>Back soon</body></html>'],
	])(
		'deals, %s: the poll fails (P10) with one warning, asks for no deal on its own, delivers and forgets nothing',
		async (_what, body) => {
			const p = dealTrigger();
			const { id } = await api('POST', '/v1/crm/deals', {
				name: 'Kept',
				pipeline_id: pipeline().id,
			});
			expect(await p.poll()).toBeNull();
			const memory = JSON.stringify(p.nodeData.memory);
			offContract();
			ctx.sb.faults.add({ kind: 'body', method: 'GET', path: LIST.deals, body, count: 1 });
			const from = ctx.sb.requests().length;
			await expect(p.poll()).rejects.toThrow(/answered without a list/);
			expect(p.lastPath).toBe('P5 → P10');
			expect(p.warnings.filter((w) => /without a list of items/.test(w))).toHaveLength(1);
			expect(askedSince(from).filter((path) => /\/deals\/\d+$/.test(path))).toEqual([]);
			expect(JSON.stringify(p.nodeData.memory)).toBe(memory);
			// The platform answers well again: nothing was lost, nothing is announced as deleted.
			expect(await p.poll()).toBeNull();
			await api('PUT', `/v1/crm/deals/${String(id)}`, { stage_id: stages()[1] });
			expect(await p.poll()).toEqual([
				expect.objectContaining({ change: 'updated', id, previous: { stage_id: stages()[0] } }),
			]);
		},
	);

	it('contacts, an empty object: the poll fails with one warning instead of reading nothing in silence', async () => {
		const p = trigger({ events: ['POLL_CRM_CONTACTS'] });
		expect(await p.poll()).toBeNull();
		const { id } = await api('POST', '/v1/crm/contacts', { name: 'After the junk' });
		offContract();
		ctx.sb.faults.add({ kind: 'body', method: 'GET', path: LIST.contacts, body: '{}', count: 1 });
		await expect(p.poll()).rejects.toThrow(/answered without a list/);
		expect(p.warnings).toHaveLength(1);
		expect(await p.poll()).toEqual([expect.objectContaining({ change: 'created', id })]);
	});

	it('deals, a page that lists fewer deals than its envelope counts: not a whole reading, so no remembered deal counts as missing', async () => {
		const p = dealTrigger();
		expect(await p.poll()).toBeNull();
		offContract();
		const body = JSON.stringify({ data: [], total_pages: 1, number_of_records: 4 });
		ctx.sb.faults.add({ kind: 'body', method: 'GET', path: LIST.deals, body, count: 1 });
		const from = ctx.sb.requests().length;
		expect(await p.poll()).toBeNull();
		expect(askedSince(from).filter((path) => /\/deals\/\d+$/.test(path))).toEqual([]);
		expect(await p.poll()).toBeNull();
	});

	it('a deal asked for on its own answered 200 without that deal: unknown, asked again at the next poll (not forgotten, not deleted)', async () => {
		const p = dealTrigger();
		const { id } = await api('POST', '/v1/crm/deals', { name: 'Gone', pipeline_id: pipeline().id });
		expect(await p.poll()).toBeNull();
		await api('DELETE', `/v1/crm/deals/${String(id)}`);
		offContract();
		const one = `/^\\/v1\\/crm\\/deals\\/${String(id)}$/`;
		ctx.sb.faults.add({ kind: 'body', method: 'GET', path: one, body: '{}', count: 1 });
		expect(await p.poll()).toBeNull();
		expect(p.warnings.filter((w) => w.includes(`deals/${String(id)}`))).toHaveLength(1);
		expect(await p.poll()).toEqual([
			expect.objectContaining({ change: 'deleted', id, previous: { stage_id: stages()[0] } }),
		]);
	});
});

describe('records without a usable updated_at', () => {
	/** Contacts of the sandbox with `updated_at` as given (the store written directly: the API always stamps). */
	const stamp = (count: number, updatedAt: string) => {
		const contacts = ctx.sb.store.tenant(1).contacts.values().slice(0, count);
		for (const c of contacts) c.updated_at = updatedAt;
		return contacts.map((c) => c.id);
	};
	const restamp = (ids: unknown[]) => {
		for (const id of ids)
			ctx.sb.store.tenant(1).contacts.get(id as number)!.updated_at = new Date().toISOString();
	};

	it('a first page of contacts without a time: the reading goes on to the next pages, the edit there is delivered, one warning says how many had none', async () => {
		tuning.poll.pageSize = 2;
		const p = trigger({ events: ['POLL_CRM_CONTACTS'] });
		expect(await p.poll()).toBeNull();
		offContract();
		// 'unknown' sorts before every date, newest first: the first page holds only these two.
		const odd = stamp(2, 'unknown');
		try {
			const { id } = await api('POST', '/v1/crm/contacts', { name: 'Below the odd ones' });
			await api('PATCH', `/v1/crm/contacts/${String(id)}`, { phone: '5550101' });
			const out = await p.poll();
			expect(out).toEqual([expect.objectContaining({ id, change: 'created' })]);
			expect(p.warnings.filter((w) => /2 items .* no usable change time/.test(w))).toHaveLength(1);
		} finally {
			restamp(odd);
		}
	});

	it('a contact dated 9999-12-31 is no change time (warned), and the cursor stays where it was: later edits still come', async () => {
		const p = trigger({ events: ['POLL_CRM_CONTACTS'] });
		expect(await p.poll()).toBeNull();
		offContract();
		const far = stamp(1, '9999-12-31T00:00:00.000Z');
		try {
			const { id } = await api('POST', '/v1/crm/contacts', { name: 'After the far one' });
			expect(await p.poll()).toEqual([expect.objectContaining({ id, change: 'created' })]);
			expect(p.warnings.some((w) => /1 items .* more than a day past/.test(w))).toBe(true);
			await api('PATCH', `/v1/crm/contacts/${String(id)}`, { phone: '5550102' });
			expect(await p.poll()).toEqual([expect.objectContaining({ id, change: 'updated' })]);
		} finally {
			restamp(far);
		}
	});
});

describe('deals as the spec documents them: no updated_at (the sandbox strips it)', () => {
	beforeEach(() => {
		ctx.sb.config.dealsWithoutUpdatedAt = true;
	});
	afterEach(() => {
		ctx.sb.config.dealsWithoutUpdatedAt = false;
	});

	it.each<Scheduler>(n8nAtLeast('2.41.0') ? ['default', 'durable', 'durableCursors'] : ['default'])(
		'under the %s scheduler, watching the stage: a rename starts nothing, a stage change is one item with the stage before, a new deal is created, a deletion deleted; each once',
		async (scheduler) => {
			const p = dealTrigger(scheduler);
			const { id } = await api('POST', '/v1/crm/deals', {
				name: 'Plain',
				pipeline_id: pipeline().id,
			});
			expect(await p.poll()).toBeNull();
			await api('PUT', `/v1/crm/deals/${String(id)}`, { name: 'Plainer' });
			expect(await p.poll()).toBeNull();
			await api('PUT', `/v1/crm/deals/${String(id)}`, { stage_id: stages()[1] });
			expect(await p.poll()).toEqual([
				expect.objectContaining({
					change: 'updated',
					id,
					changedAt: null,
					changedFields: ['stage_id'],
					previous: { stage_id: stages()[0] },
				}),
			]);
			expect(await p.poll()).toBeNull();
			const made = await api('POST', '/v1/crm/deals', { name: 'New', pipeline_id: pipeline().id });
			expect(await p.poll()).toEqual([expect.objectContaining({ change: 'created', id: made.id })]);
			await api('DELETE', `/v1/crm/deals/${String(id)}`);
			expect(await p.poll()).toEqual([expect.objectContaining({ change: 'deleted', id })]);
			expect(await p.poll()).toBeNull();
			expect(p.warnings).toEqual([]);
		},
	);

	it('watching no field: any edit of the deal’s own fields is one update', async () => {
		const p = trigger({ events: ['POLL_CRM_DEALS'] });
		const { id } = await api('POST', '/v1/crm/deals', { name: 'Any', pipeline_id: pipeline().id });
		expect(await p.poll()).toBeNull();
		await api('PUT', `/v1/crm/deals/${String(id)}`, { amount: 1200 });
		expect(await p.poll()).toEqual([
			expect.objectContaining({ change: 'updated', id, changedFields: null }),
		]);
		expect(await p.poll()).toBeNull();
	});
});

describe('odd records and odd field names', () => {
	it('a deal the list marks is_deleted: one deletion item with what it held, then nothing', async () => {
		const p = dealTrigger();
		const { id } = await api('POST', '/v1/crm/deals', {
			name: 'Marked',
			pipeline_id: pipeline().id,
		});
		expect(await p.poll()).toBeNull();
		const listed = await call<IDataObject>(
			ctx.sb,
			'GET',
			'/v1/crm/deals?show_closed_deals=true&page=1&limit=100',
		);
		const data = (listed.body.data as IDataObject[]).map((d) =>
			d.id === id ? { ...d, is_deleted: true } : d,
		);
		const body = JSON.stringify({ ...listed.body, data });
		ctx.sb.faults.add({ kind: 'body', method: 'GET', path: LIST.deals, body, count: 1 });
		expect(await p.poll()).toEqual([
			expect.objectContaining({
				change: 'deleted',
				id,
				record: null,
				previous: { stage_id: stages()[0] },
			}),
		]);
		ctx.sb.faults.add({ kind: 'body', method: 'GET', path: LIST.deals, body, count: 1 });
		expect(await p.poll()).toBeNull();
	});

	it('a contact whose ID is past 2^53: delivered once with a notice naming the ID problem, one warning', async () => {
		const p = trigger({ events: ['POLL_CRM_CONTACTS'] });
		expect(await p.poll()).toBeNull();
		offContract();
		const at = new Date(ctx.sb.store.clock.now() + 1000).toISOString();
		const body = `{"data":[{"id":9007199254740993,"name":"Big","created_at":"${at}","updated_at":"${at}"}],"paginationInfo":{"totalRecords":1}}`;
		ctx.sb.faults.add({ kind: 'body', method: 'GET', path: LIST.contacts, body, count: 1 });
		const out = await p.poll();
		expect(out).toEqual([
			expect.objectContaining({ change: 'created', notice: expect.stringMatching(/2\^53/) }),
		]);
		expect(p.warnings.filter((w) => /2\^53/.test(w))).toHaveLength(1);
	});

	it.each(['__proto__', 'constructor', 'prototype'])(
		'a watched field named %s fails the poll saying why',
		async (name) => {
			const p = trigger({ events: ['POLL_CRM_DEALS'], watchFields: ['stage_id', name] });
			await expect(p.poll()).rejects.toThrow(/n8n drops a key of that name/);
		},
	);
});

describe('what the trigger could not keep, said on the items', () => {
	it('past its bound: the next items say how many records it forgot, once', async () => {
		tuning.poll.memoryChars = 60;
		const p = trigger({ events: ['POLL_CRM_CONTACTS'], watchFields: ['phone'] });
		expect(await p.poll()).toBeNull();
		expect((p.nodeData.memory as IDataObject).forgotten).toBeGreaterThan(0);
		const newest = ctx.sb.store.tenant(1).contacts.values().at(-1)!;
		await api('PATCH', `/v1/crm/contacts/${String(newest.id)}`, { phone: '5550111' });
		const [item] = (await p.poll())!;
		expect(String(item.memoryNotice)).toMatch(/^The trigger forgot \d+ records/);
		await api('PATCH', `/v1/crm/contacts/${String(newest.id)}`, { phone: '5550112' });
		const [next] = (await p.poll())!;
		expect(next.memoryNotice).toBeUndefined();
	});
});

describe('a deal list too long for one poll', () => {
	it('under the durable scheduler’s budget, a deal list that cannot be read whole fails the poll naming its size and what to do (instead of n8n abandoning it every time)', async () => {
		// n8n 1.x has no durable scheduler: its polls get no budget from n8n (the pack's own 45 s).
		if (!n8nAtLeast('2.41.0')) return;
		const pages = () =>
			((ctx.sb.stats().byRoute as Record<string, number>)['GET /v1/crm/deals'] ?? 0) as number;
		const clock = new PageClock(pages);
		clock.advance(Date.now());
		tuning.poll.now = clock.now;
		tuning.poll.pageSize = 1;
		for (let i = 0; i < 4; i++)
			await api('POST', '/v1/crm/deals', { name: `Long ${i}`, pipeline_id: pipeline().id });
		const p = new Poller(
			harness(),
			'businessPlatformSalesTrigger',
			{ events: ['POLL_CRM_DEALS'] },
			{ typeVersion: 4, scheduler: 'durable', budgetMs: 2000, now: clock.now },
		);
		expect(await p.poll()).toBeNull(); // the first poll remembers what fits, and says it read part
		await expect(p.poll()).rejects.toThrow(
			/records\) cannot be read whole within the poll budget of 2 s/,
		);
		expect(p.lastPath).toBe('P5 → P10');
	});
});
