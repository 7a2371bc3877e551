/**
 * The Sales Trigger's polling events (node version 4: Contact, Deal and Activity Changed;
 * nodes/BusinessPlatformSalesTrigger/polling/) through n8n-core's PollContext against the sandbox,
 * under n8n's default scheduler and its durable one with and without durable cursors
 * (test/helpers/poll-harness.ts): created and updated, once each; a field filter on the deal stage (an item
 * only for a stage change, with the stage before in `previous`); a deletion, and a deal that left
 * the chosen pipeline; two edits in one second; changes made while n8n was stopped; a platform that
 * ignores the sort (the list read whole); what the trigger remembers, and its bound; the test
 * button; instant and polling events mixed.
 */
import type { IDataObject } from 'n8n-workflow';

import { n8nAtLeast } from '../../testbed/runtime/versions';
import { useCrmPollFile } from '../helpers/crm-poll-file';
import type { Scheduler } from '../helpers/poll-harness';
import { setClock } from '../helpers/poll-drivers';
import { call } from '../helpers/sandbox';

const { ctx, tuning, harness, trigger, api } = useCrmPollFile(6, (sb) => {
	sb.config.unsortedLists = false;
});

/** n8n's schedulers on the n8n under test: 1.x has only its default one. */
const SCHEDULERS: Scheduler[] = n8nAtLeast('2.41.0')
	? ['default', 'durable', 'durableCursors']
	: ['default'];

const pipelines = () => ctx.sb.store.tenant(1).pipelines.values();
const stagesOf = (p: IDataObject) => (p.stages as IDataObject[]).map((s) => s.id as number);
const summary = (out: IDataObject[] | null) =>
	(out ?? []).map((i) => [i.change, (i.record as IDataObject | null)?.id ?? i.id]);

describe.each(SCHEDULERS)('under the %s scheduler', (scheduler) => {
	it('contacts: the first poll starts from now; a contact created, then updated: one item each, none twice', async () => {
		const p = trigger({ events: ['POLL_CRM_CONTACTS'] }, scheduler);
		expect(await p.poll()).toBeNull();
		expect(p.lastPath).toMatch(/^P4 → P6/);
		const { id } = await api('POST', '/v1/crm/contacts', { name: `Ada ${scheduler}` });
		const created = await p.poll();
		expect(summary(created)).toEqual([['created', id]]);
		expect(created![0]).toMatchObject({
			recordType: 'contact',
			changedFields: null,
			previous: null,
		});
		expect(p.lastPath).toBe('P5 → P8 → P16 → P12');
		await api('PATCH', `/v1/crm/contacts/${String(id)}`, { phone: '5550100' });
		expect(summary(await p.poll())).toEqual([['updated', id]]);
		expect(await p.poll()).toBeNull();
	});

	it('deals, only when the stage changes: an item for a stage change with the stage before in previous, none for another edit; a deletion', async () => {
		const [pipeline] = pipelines();
		const [s1, s2] = stagesOf(pipeline as IDataObject);
		const p = trigger(
			{ events: ['POLL_CRM_DEALS'], watchFields: ['stage_id'], changes: ['updated', 'deleted'] },
			scheduler,
		);
		const { id } = await api('POST', '/v1/crm/deals', {
			name: `Stage ${scheduler}`,
			pipeline_id: pipeline.id,
			stage_id: s1,
		});
		expect(await p.poll()).toBeNull(); // from now: the deal is remembered as it is
		await api('PUT', `/v1/crm/deals/${String(id)}`, { name: 'Renamed' });
		expect(await p.poll()).toBeNull();
		expect(p.lastPath).toMatch(/P16 → P1[34]$/);
		await api('PUT', `/v1/crm/deals/${String(id)}`, { stage_id: s2 });
		const [item] = (await p.poll())!;
		expect(item).toMatchObject({
			change: 'updated',
			changedFields: ['stage_id'],
			previous: { stage_id: s1 },
			record: { id, stage_id: s2 },
		});
		await api('DELETE', `/v1/crm/deals/${String(id)}`);
		const gone = await p.poll();
		expect(gone).toEqual([
			expect.objectContaining({ change: 'deleted', id, record: null, previous: { stage_id: s2 } }),
		]);
		expect(p.lastPath).toMatch(/P16 → P17 → P12$/);
		expect(await p.poll()).toBeNull();
	});

	it('activities: created and updated, one item each', async () => {
		const p = trigger({ events: ['POLL_CRM_ACTIVITIES'] }, scheduler);
		expect(await p.poll()).toBeNull();
		const { id } = await api('POST', '/v1/crm/activities', {
			name: `Call ${scheduler}`,
			activity_type: 'call',
		});
		expect(summary(await p.poll())).toEqual([['created', id]]);
		await api('PUT', `/v1/crm/activities/${String(id)}`, { name: 'Call back' });
		expect(summary(await p.poll())).toEqual([['updated', id]]);
		expect(await p.poll()).toBeNull();
	});

	it('n8n stopped, 50 changes made, n8n started: 50 items in the first poll, none twice', async () => {
		const p = trigger({ events: ['POLL_CRM_CONTACTS'] }, scheduler);
		expect(await p.poll()).toBeNull();
		const made: unknown[] = [];
		for (let i = 0; i < 50; i++) {
			const { id } = await call(ctx.sb, 'POST', '/v1/crm/contacts', {
				body: { name: `Down ${i}` },
			}).then((r) => r.body as IDataObject);
			made.push(id);
		}
		p.restart();
		const out = await p.poll();
		expect(summary(out).map(([, id]) => id)).toEqual(made);
		expect(await p.poll()).toBeNull();
	});
});

describe('edits in one second, a list out of order, what the trigger remembers', () => {
	it('two edits of a contact within one platform second in two polls are two items; within one poll, one', async () => {
		const p = trigger({ events: ['POLL_CRM_CONTACTS'] });
		expect(await p.poll()).toBeNull();
		const { id } = await api('POST', '/v1/crm/contacts', { name: 'Same second' });
		expect(summary(await p.poll())).toEqual([['created', id]]);
		await setClock(ctx.sb, { freeze: true });
		await call(ctx.sb, 'PATCH', `/v1/crm/contacts/${String(id)}`, { body: { phone: '1' } });
		expect(summary(await p.poll())).toEqual([['updated', id]]);
		await call(ctx.sb, 'PATCH', `/v1/crm/contacts/${String(id)}`, { body: { phone: '2' } });
		await call(ctx.sb, 'PATCH', `/v1/crm/contacts/${String(id)}`, { body: { phone: '3' } });
		const out = await p.poll();
		expect(summary(out)).toEqual([['updated', id]]);
		expect((out![0].record as IDataObject).phone).toBe('3');
		expect(await p.poll()).toBeNull();
	});

	it('a platform that ignores the sort: the poll reads the whole list, and misses nothing', async () => {
		ctx.sb.config.unsortedLists = true;
		tuning.poll.pageSize = 2;
		const p = trigger({ events: ['POLL_CRM_CONTACTS'] });
		expect(await p.poll()).toBeNull();
		const first = ctx.sb.store.tenant(1).contacts.values()[0];
		await api('PATCH', `/v1/crm/contacts/${String(first.id)}`, {
			note: 'oldest id, newest change',
		});
		const { id } = await api('POST', '/v1/crm/contacts', { name: 'Newest' });
		expect(summary(await p.poll())).toEqual([
			['updated', first.id],
			['created', id],
		]);
	});

	it('a watched custom field: previous holds its value before; a deal that left the chosen pipeline is an update, then no longer followed', async () => {
		const [a, b] = pipelines();
		const p = trigger({
			events: ['POLL_CRM_DEALS'],
			watchFields: ['pipeline_id', 'custom_field.region'],
			pipelineId: { __rl: true, mode: 'id', value: String(a.id) },
		});
		const { id } = await api('POST', '/v1/crm/deals', {
			name: 'Moving',
			pipeline_id: a.id,
			custom_field: [
				{ shortName: 'region', code: 'r', label: 'Region', module: 'deal', value: 'EU' },
			],
		});
		expect(await p.poll()).toBeNull();
		await api('PUT', `/v1/crm/deals/${String(id)}`, {
			custom_field: [
				{ shortName: 'region', code: 'r', label: 'Region', module: 'deal', value: 'US' },
			],
		});
		expect(await p.poll()).toEqual([
			expect.objectContaining({
				changedFields: ['custom_field.region'],
				previous: { 'custom_field.region': 'EU' },
			}),
		]);
		await api('PUT', `/v1/crm/deals/${String(id)}`, { pipeline_id: b.id });
		expect(await p.poll()).toEqual([
			expect.objectContaining({
				change: 'updated',
				changedFields: ['pipeline_id'],
				previous: { pipeline_id: a.id },
			}),
		]);
		expect(await p.poll()).toBeNull();
	});

	it('past its bound the trigger forgets the records changed longest ago, and the next change of one says so', async () => {
		tuning.poll.memoryChars = 60;
		const p = trigger({ events: ['POLL_CRM_CONTACTS'], watchFields: ['phone'] });
		expect(await p.poll()).toBeNull();
		const data = p.nodeData.memory as IDataObject;
		expect(data.forgotten).toBeGreaterThan(0);
		const oldest = ctx.sb.store.tenant(1).contacts.values()[0];
		await api('PATCH', `/v1/crm/contacts/${String(oldest.id)}`, { phone: '5550199' });
		const [item] = (await p.poll())!;
		expect(item).toMatchObject({ change: 'updated', changedFields: null, previous: null });
		expect(String(item.notice)).toMatch(/forgot/);
	});
});

describe('the test button and the choice of events', () => {
	it('a manual run with a polling event gives the newest change, shaped as a delivery, and asks for no webhook', async () => {
		await api('POST', '/v1/crm/contacts', { name: 'Newest for the test' });
		const before = ctx.sb.requests().length;
		const run = await harness().run(
			'businessPlatformSalesTrigger',
			{ events: ['POLL_CRM_CONTACTS'] },
			[{ json: {} }],
			{
				typeVersion: 4,
			},
		);
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([
			expect.objectContaining({
				recordType: 'contact',
				record: expect.objectContaining({ name: 'Newest for the test' }),
			}),
		]);
		const asked = ctx.sb
			.requests()
			.slice(before)
			.map((r) => r.path);
		expect(asked.every((path) => path === '/v1/crm/contacts')).toBe(true);
	});

	it('instant and polling events together, or two polling events, fail the poll saying how to fix it', async () => {
		for (const events of [
			['POLL_CRM_DEALS', 'CREATE_CRM_DEAL'],
			['POLL_CRM_DEALS', 'POLL_CRM_CONTACTS'],
		]) {
			const p = trigger({ events });
			await expect(p.poll()).rejects.toThrow('Choose instant events, or one polling event');
		}
	});
});
