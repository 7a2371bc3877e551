/**
 * Sales node → Deal, through n8n-core against the sandbox: every operation's effect
 * in the sandbox state, filters and paging on the wire, Simplify's parsed names,
 * and bad input stopped before any request.
 */
import type { IDataObject } from 'n8n-workflow';

import { createHarness, type Harness } from '../../testbed/harness/run';
import { expectDeleted } from '../helpers/outcomes';
import { call, useSandbox } from '../helpers/sandbox';

const ctx = useSandbox();
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb);
});

const tenant = () => ctx.sb.store.tenant(1);
const byId = (id: unknown) => ({ __rl: true, mode: 'id', value: String(id) });
const run = (parameters: IDataObject, input?: IDataObject[], continueOnFail = false) =>
	h.run(
		'businessPlatformSales',
		{ resource: 'deal', ...parameters },
		input?.map((json) => ({ json })),
		{ continueOnFail },
	);
const requestCount = () => ctx.sb.stats().requests as number;
const pipelines = () => tenant().pipelines.values() as unknown as IDataObject[];
const openStages = (p: IDataObject) =>
	(p.stages as IDataObject[]).filter((s) => s.won_lost_status === 'open');
const person = () =>
	tenant()
		.contacts.values()
		.find((c) => c.type === 'person')!;
const org = () =>
	tenant()
		.contacts.values()
		.find((c) => c.type === 'organization')!;
const lastRequest = (method: string, path: string) =>
	ctx.sb
		.requests()
		.filter((q) => q.method === method && q.path === path)
		.pop()!;

async function seedDeal(name: string, extra: IDataObject = {}): Promise<number> {
	const r = await run({ operation: 'create', name, additionalFields: { amount: 100, ...extra } });
	expect(r.error).toBeUndefined();
	return r.json[0].id as number;
}

describe('Deal operations', () => {
	it('Create: the deal exists in the chosen pipeline and stage with its links and custom fields; the output is read back', async () => {
		const p = pipelines()[1];
		const stage = openStages(p)[1];
		const owner = tenant().crmUsers[2];
		const r = await run({
			operation: 'create',
			name: 'Big Deal',
			pipelineId: p.id,
			stageId: stage.id,
			additionalFields: {
				amount: 12500.5,
				currencyCode: 'eur',
				closingDate: '2027-03-31T00:00:00',
				contactId: byId(person().id),
				organizationId: byId(org().id),
				ownerId: owner.id,
				status: 0,
				customFields: { field: [{ shortName: 'channel', value: 'partner' }] },
			},
		});
		expect(r.error).toBeUndefined();
		const id = r.json[0].id as number;
		expect(r.json[0]).toMatchObject({
			id,
			name: 'Big Deal',
			pipeline_id: p.id,
			stage_id: stage.id,
			amount: 12500.5,
			currency_code: 'EUR',
			owner_id: owner.id,
		});
		expect(tenant().deals.get(id)).toMatchObject({
			name: 'Big Deal',
			pipeline_id: p.id,
			stage_id: stage.id,
			amount: 12500.5,
			currency_code: 'EUR',
			closing_date: '2027-03-31',
			contact_id: person().id,
			organization_id: org().id,
			owner_id: owner.id,
			status: 0,
			custom_field: [
				{
					code: 'channel',
					label: 'channel',
					module: 'deal',
					shortName: 'channel',
					value: 'partner',
				},
			],
		});
	});

	it('Get: the raw deal, and Simplify with contact, organization and owner names parsed from their JSON text', async () => {
		const id = await seedDeal('Get me', {
			contactId: byId(person().id),
			organizationId: byId(org().id),
			ownerId: tenant().crmUsers[1].id,
		});
		const raw = await run({ operation: 'get', dealId: byId(id), simplify: false });
		expect(raw.error).toBeUndefined();
		expect(typeof raw.json[0].contact_info).toBe('string');
		const simple = await run({ operation: 'get', dealId: byId(id) });
		const u = tenant().crmUsers[1];
		expect(simple.json[0]).toMatchObject({
			id,
			name: 'Get me',
			amount: 100,
			status: 'open',
			contact: person().name,
			organization: org().name,
			owner: `${String(u.first_name)} ${String(u.last_name)}`,
		});
		expect(Object.keys(simple.json[0]).length).toBeLessThanOrEqual(13);
	});

	it('Get Many: pipeline, contact and closed-deal filters on the wire; the rows are the matching deals; the summary rides along', async () => {
		const p = pipelines()[0];
		const expected = tenant()
			.deals.values()
			.filter((d) => d.pipeline_id === p.id)
			.map((d) => d.id)
			.sort((a, b) => Number(a) - Number(b));
		ctx.sb.resetStats();
		const r = await run({
			operation: 'getAll',
			returnAll: true,
			simplify: false,
			filters: { pipelineId: p.id, showClosedDeals: true },
			options: { includeSummary: true },
		});
		expect(r.error).toBeUndefined();
		expect(r.json.map((d) => d.id)).toEqual(expected);
		expect(r.json[0].summary).toMatchObject({ count: expected.length });
		const q = new URLSearchParams(ctx.sb.requests()[0].query);
		expect(q.get('pipeline_id')).toBe(String(p.id));
		expect(q.get('show_closed_deals')).toBe('true');

		const contact = person();
		const mine = tenant()
			.deals.values()
			.filter((d) => d.contact_id === contact.id || d.organization_id === contact.id)
			.filter((d) => d.status !== 1 && d.status !== 2);
		expect(mine.length).toBeGreaterThan(0);
		ctx.sb.resetStats();
		const byContact = await run({
			operation: 'getAll',
			returnAll: true,
			filters: { contactId: byId(contact.id), dealIds: mine.map((d) => d.id).join(',') },
		});
		expect(byContact.error).toBeUndefined();
		expect(byContact.json.map((d) => d.id).sort()).toEqual(mine.map((d) => d.id).sort());
		const q2 = new URLSearchParams(ctx.sb.requests()[0].query);
		expect(q2.get('contact_id')).toBe(String(contact.id));
	});

	it('Get Many: Limit over many deals fetches one page of that size', async () => {
		await call(ctx.sb, 'POST', '/__admin/seed', {
			token: null,
			body: { kind: 'deals', count: 400 },
		});
		ctx.sb.resetStats();
		const r = await run({ operation: 'getAll', limit: 7 });
		expect(r.error).toBeUndefined();
		expect(r.json).toHaveLength(7);
		const log = ctx.sb.requests().filter((q) => q.path === '/v1/crm/deals');
		expect(log).toHaveLength(1);
		expect(new URLSearchParams(log[0].query).get('limit')).toBe('7');
	});

	it('Update (PUT): changes the given fields, merges custom fields, keeps the others; the output is read back', async () => {
		const p = pipelines()[0];
		const id = await seedDeal('Before', {
			pipelineId: p.id,
			reason: 'kept',
			customFields: {
				field: [
					{ shortName: 'channel', value: 'inbound' },
					{ shortName: 'region', value: 'EU' },
				],
			},
		});
		const target = openStages(p)[2];
		const r = await run({
			operation: 'update',
			dealId: byId(id),
			updateFields: {
				name: 'After',
				amount: 999,
				stageId: target.id,
				customFields: { field: [{ shortName: 'channel', value: 'outbound' }] },
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.json[0]).toMatchObject({ id, name: 'After', amount: 999, stage_id: target.id });
		const stored = tenant().deals.get(id)!;
		expect(stored).toMatchObject({
			name: 'After',
			amount: 999,
			stage_id: target.id,
			pipeline_id: p.id,
			reason: 'kept',
		});
		expect((stored.custom_field as IDataObject[]).map((f) => [f.shortName, f.value])).toEqual([
			['channel', 'outbound'],
			['region', 'EU'],
		]);
		// The update model's custom_field is text.
		expect(typeof JSON.parse(lastRequest('PUT', `/v1/crm/deals/${id}`).body!).custom_field).toBe(
			'string',
		);
	});

	it('Delete: the deal is gone; the output says so', async () => {
		const id = await seedDeal('Delete me');
		expectDeleted(await run({ operation: 'delete', dealId: byId(id) }), id, tenant().deals);
	});

	it('Bulk Update: every deal moves to the stage, owner and status; one output item per ID', async () => {
		const p = pipelines()[1];
		const stage = openStages(p)[1];
		const owner = tenant().crmUsers[3].id;
		const ids = [await seedDeal('B1'), await seedDeal('B2'), await seedDeal('B3')];
		const r = await run({
			operation: 'bulkUpdate',
			dealIds: ids.join(','),
			updateFields: {
				pipelineId: p.id,
				stageId: stage.id,
				ownerId: owner,
				status: 2,
				reason: 'Budget cut',
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.json).toEqual(ids.map((id) => ({ id, updated: true })));
		for (const id of ids)
			expect(tenant().deals.get(id)).toMatchObject({
				pipeline_id: p.id,
				stage_id: stage.id,
				owner_id: owner,
				status: 2,
				reason: 'Budget cut',
			});
		expect(JSON.parse(lastRequest('PATCH', '/v1/crm/deals').body!)).toEqual({
			ids,
			pipeline_id: p.id,
			stage_id: stage.id,
			owner_id: owner,
			status: 2,
			reason: 'Budget cut',
		});
	});

	it('Bulk Delete: DELETE with { ids }; every deal is gone; one item per ID', async () => {
		const ids = [await seedDeal('D1'), await seedDeal('D2')];
		const r = await run({ operation: 'bulkDelete', dealIds: `${ids[0]}, ${ids[1]}, ${ids[0]}` });
		expect(r.error).toBeUndefined();
		expect(r.json).toEqual(ids.map((id) => ({ deleted: true, id })));
		for (const id of ids) expect(tenant().deals.get(id)).toBeUndefined();
		expect(JSON.parse(lastRequest('DELETE', '/v1/crm/deals').body!)).toEqual({ ids });
	});
});

describe('Deal: bad input and failures', () => {
	it('an empty update, a non-numeric bulk ID and a nameless create fail before any request, naming the field and the item', async () => {
		const id = tenant().deals.values()[0].id;
		const before = requestCount();
		const empty = await run({ operation: 'update', dealId: byId(id), updateFields: {} });
		expect(empty.error?.message).toBe('Nothing to update');
		expect(empty.error?.description).toMatch(/Update Fields/);
		expect(empty.error?.context?.itemIndex).toBe(0);
		const bulk = await run({
			operation: 'bulkUpdate',
			dealIds: '1,2,three',
			updateFields: { status: 1 },
		});
		expect(bulk.error?.message).toBe('Deal IDs must be a whole number, got "three"');
		const noUpdate = await run({ operation: 'bulkUpdate', dealIds: '1,2', updateFields: {} });
		expect(noUpdate.error?.message).toBe('Nothing to update');
		const nameless = await run(
			{ operation: 'create', name: '={{ $json.name }}' },
			[{ name: 'ok' }, { name: '  ' }],
			true,
		);
		expect(nameless.json[1]).toMatchObject({ error: 'Name is empty', itemIndex: 1 });
		const badId = await run(
			{ operation: 'get', dealId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
			[{ id: '4.5' }],
		);
		expect(badId.error?.message).toBe('Deal must be a whole number, got "4.5"');
		// Only the good create was sent (and read back).
		expect(requestCount()).toBe(before + 2);
	});

	it('continue on fail: one unknown deal among good ones gives that item the error and its index', async () => {
		const good = tenant()
			.deals.values()
			.slice(0, 2)
			.map((d) => d.id as number);
		const r = await run(
			{ operation: 'get', dealId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
			[{ id: good[0] }, { id: 987654 }, { id: good[1] }],
			true,
		);
		expect(r.error).toBeUndefined();
		expect(r.json.map((j) => j.id ?? j.itemIndex)).toEqual([good[0], 1, good[1]]);
		expect(String(r.json[1].error)).toMatch(/404/);
		expect(r.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('without continue on fail, a platform refusal stops the node with the item and no token in the error', async () => {
		const r = await run({ operation: 'create', name: 'Bad stage', stageId: 999999 });
		expect(r.error?.message).toMatch(/400/);
		expect(r.error?.context?.itemIndex).toBe(0);
		expect(JSON.stringify({ m: r.error?.message, d: r.error?.description })).not.toContain(
			ctx.sb.demo.accessToken,
		);
	});
});
