/* eslint-disable @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
import { call, otherTenantToken, useSandbox } from '../helpers/sandbox';

const ctx = useSandbox();
const tenant = () => ctx.sb.store.tenant(1);
const ENVELOPE = [
	'data',
	'number_of_elements',
	'number_of_records',
	'page',
	'size_per_page',
	'total_pages',
];

describe('sandbox: pipelines and stages', () => {
	it('seeds a pipeline whose ordered stages end with system-generated won and lost stages', async () => {
		const r = await call(ctx.sb, 'GET', '/v1/crm/deals/pipelines');
		expect(r.status).toBe(200);
		const stages = r.body[0].stages;
		expect(stages.map((s: any) => s.order)).toEqual(stages.map((_: any, i: number) => i + 1));
		expect(stages.slice(-2).map((s: any) => [s.won_lost_status, s.system_generated])).toEqual([
			['won', true],
			['lost', true],
		]);
		expect(Array.isArray(stages[0].deals)).toBe(true);
	});

	it('round-trips a pipeline: create (201 CUD) → get → list → put (200 CUD) → stage delete (204) → delete (204) → 404', async () => {
		const created = await call(ctx.sb, 'POST', '/v1/crm/deals/pipelines', {
			body: {
				name: 'Renewals',
				stages: [
					{ name: 'Notice', order: 1, deal_probability: 10 },
					{ name: 'Quote', order: 2, deal_probability: 50, rotting_days: 7 },
				],
			},
		});
		expect(created.status).toBe(201);
		expect(created.body).toEqual({ Id: expect.any(Number), Success: true });
		const id = created.body.Id;
		const got = await call(ctx.sb, 'GET', `/v1/crm/deals/pipelines/${id}`);
		expect(got.body.stages.map((s: any) => s.name)).toEqual(['Notice', 'Quote', 'Won', 'Lost']);
		expect(
			(await call(ctx.sb, 'GET', '/v1/crm/deals/pipelines')).body.map((p: any) => p.id),
		).toContain(id);

		const [notice, quote] = got.body.stages;
		const put = await call(ctx.sb, 'PUT', `/v1/crm/deals/pipelines/${id}`, {
			body: {
				name: 'Renewals 2027',
				stages: [
					{ id: quote.id, name: 'Quote sent', order: 1 },
					{ id: notice.id, order: 2 },
					{ name: 'Signature', order: 3 },
				],
			},
		});
		expect(put.status).toBe(200);
		expect(put.body).toEqual({ Id: id, Success: true });
		const after = tenant().pipelines.get(id)!;
		expect(after.name).toBe('Renewals 2027');
		expect((after.stages as any[]).map((s) => s.name)).toEqual([
			'Quote sent',
			'Notice',
			'Signature',
			'Won',
			'Lost',
		]);

		const signature = (after.stages as any[])[2];
		expect(
			(await call(ctx.sb, 'DELETE', `/v1/crm/deals/pipelines/stages/${signature.id}`)).status,
		).toBe(204);
		expect((tenant().pipelines.get(id)!.stages as any[]).map((s) => s.id)).not.toContain(
			signature.id,
		);
		expect(
			(await call(ctx.sb, 'DELETE', `/v1/crm/deals/pipelines/stages/${signature.id}`)).status,
		).toBe(404);
		const won = (after.stages as any[]).find((s) => s.won_lost_status === 'won');
		expect((await call(ctx.sb, 'DELETE', `/v1/crm/deals/pipelines/stages/${won.id}`)).status).toBe(
			400,
		);

		expect((await call(ctx.sb, 'DELETE', `/v1/crm/deals/pipelines/${id}`)).status).toBe(204);
		expect((await call(ctx.sb, 'GET', `/v1/crm/deals/pipelines/${id}`)).status).toBe(404);
	});

	it('refuses to delete a pipeline or stage that holds deals', async () => {
		const p = tenant().pipelines.values()[0];
		expect((await call(ctx.sb, 'DELETE', `/v1/crm/deals/pipelines/${p.id}`)).status).toBe(400);
		const busy = tenant().deals.values()[0].stage_id;
		expect((await call(ctx.sb, 'DELETE', `/v1/crm/deals/pipelines/stages/${busy}`)).status).toBe(
			400,
		);
		expect(
			(
				await call(ctx.sb, 'POST', '/v1/crm/deals/pipelines', {
					body: { name: 'x', stages: [{ name: 1 }] },
				})
			).body.errors[0].field,
		).toBe('stages[0].name');
	});
});

describe('sandbox: deals', () => {
	it('GET /v1/crm/deals answers the FilterConfig envelope, pages, and hides closed deals unless asked', async () => {
		const r = await call(ctx.sb, 'GET', '/v1/crm/deals', {
			query: { limit: 5, page: 2, show_closed_deals: true },
		});
		expect(r.status).toBe(200);
		expect(Object.keys(r.body).sort()).toEqual(ENVELOPE);
		expect(r.body).toMatchObject({
			page: 2,
			size_per_page: 5,
			number_of_elements: 5,
			number_of_records: 30,
			total_pages: 6,
		});
		const open = await call(ctx.sb, 'GET', '/v1/crm/deals', { query: { limit: 100 } });
		expect(open.body.number_of_records).toBe(26);
		expect(open.body.data.every((d: any) => d.status === 0)).toBe(true);
	});

	it('GET /v1/crm/deals filters by pipeline, contact, ids and adds a summary', async () => {
		const [p1] = tenant().pipelines.values();
		const inP1 = tenant()
			.deals.values()
			.filter((d) => d.pipeline_id === p1.id).length;
		const r = await call(ctx.sb, 'GET', '/v1/crm/deals', {
			query: {
				pipeline_id: p1.id as number,
				show_closed_deals: true,
				limit: 100,
				deal_summary: true,
			},
		});
		expect(r.body.number_of_records).toBe(inP1);
		expect(r.body.summary.count).toBe(inP1);
		const some = tenant().deals.values().slice(10, 13);
		const byIds = await call(ctx.sb, 'GET', '/v1/crm/deals', {
			query: { deal_ids: some.map((d) => d.id).join(','), show_closed_deals: true },
		});
		expect(byIds.body.data.map((d: any) => d.id)).toEqual(some.map((d) => d.id));
		const withContact = some.find((d) => d.contact_id)!;
		const byContact = await call(ctx.sb, 'GET', '/v1/crm/deals', {
			query: { contact_id: String(withContact.contact_id), show_closed_deals: true, limit: 100 },
		});
		expect(byContact.body.data.map((d: any) => d.id)).toContain(withContact.id);
	});

	it('round-trips a deal: create (201 {id, success}) → get → list → put (200) → delete (204) → 404', async () => {
		const [p] = tenant().pipelines.values();
		const stage = (p.stages as any[])[1];
		const contact = tenant()
			.contacts.values()
			.find((c) => c.type === 'person')!;
		const created = await call(ctx.sb, 'POST', '/v1/crm/deals', {
			body: {
				name: 'Big one',
				amount: 12500.5,
				currency_code: 'EUR',
				pipeline_id: p.id,
				stage_id: stage.id,
				contact_id: contact.id,
				custom_field: [{ code: 'c', label: 'Src', module: 'deal', shortName: 'src', value: 'web' }],
			},
		});
		expect(created.status).toBe(201);
		expect(created.body).toEqual({ id: expect.any(Number), success: true });
		const id = created.body.id;
		const got = await call(ctx.sb, 'GET', `/v1/crm/deals/${id}`);
		expect(got.body).toMatchObject({
			id,
			name: 'Big one',
			amount: 12500.5,
			stage_id: stage.id,
			stage: { pipeline_id: p.id, name: stage.name },
			status: 0,
		});
		expect(JSON.parse(got.body.contact_info)).toMatchObject({ id: contact.id });
		expect(
			(await call(ctx.sb, 'GET', '/v1/crm/deals', { query: { deal_ids: String(id) } })).body.data,
		).toHaveLength(1);

		const put = await call(ctx.sb, 'PUT', `/v1/crm/deals/${id}`, {
			body: { name: 'Bigger one', amount: 20000, custom_field: '[]' },
		});
		expect(put.status).toBe(200);
		expect(put.body).toEqual({ id, success: true });
		expect(tenant().deals.get(id)).toMatchObject({
			name: 'Bigger one',
			amount: 20000,
			stage_id: stage.id,
			currency_code: 'EUR',
		});

		expect((await call(ctx.sb, 'DELETE', `/v1/crm/deals/${id}`)).status).toBe(204);
		expect(tenant().deals.has(id)).toBe(false);
		expect((await call(ctx.sb, 'GET', `/v1/crm/deals/${id}`)).status).toBe(404);
	});

	it('PATCH /v1/crm/deals bulk-updates every id and answers the ids; DELETE /v1/crm/deals removes every id', async () => {
		const [, p2] = tenant().pipelines.values();
		const lost = (p2.stages as any[]).find((s) => s.won_lost_status === 'lost');
		const ids = tenant()
			.deals.values()
			.slice(5, 12)
			.map((d) => d.id as number);
		const r = await call(ctx.sb, 'PATCH', '/v1/crm/deals', {
			body: {
				ids,
				stage_id: lost.id,
				status: 2,
				reason: 'Budget cut',
				owner_id: tenant().crmUsers[2].id,
			},
		});
		expect(r.status).toBe(200);
		expect(r.body).toEqual(ids);
		for (const id of ids)
			expect(tenant().deals.get(id)).toMatchObject({
				pipeline_id: p2.id,
				stage_id: lost.id,
				status: 2,
				reason: 'Budget cut',
				owner_id: tenant().crmUsers[2].id,
			});

		const del = await call(ctx.sb, 'DELETE', '/v1/crm/deals', { body: { ids: ids.slice(0, 3) } });
		expect(del.status).toBe(204);
		for (const id of ids.slice(0, 3)) expect(tenant().deals.has(id)).toBe(false);
		expect(
			(await call(ctx.sb, 'DELETE', '/v1/crm/deals', { body: { ids: [ids[0]] } })).status,
		).toBe(404);
	});

	it('validates references and types; keeps tenants apart', async () => {
		expect(
			(await call(ctx.sb, 'POST', '/v1/crm/deals', { body: { name: 'x', amount: '12' } })).body
				.errors[0],
		).toEqual({ field: 'amount', error: 'must be a number' });
		expect(
			(await call(ctx.sb, 'POST', '/v1/crm/deals', { body: { name: 'x', stage_id: 999999 } }))
				.status,
		).toBe(400);
		expect(
			(await call(ctx.sb, 'POST', '/v1/crm/deals', { body: { name: 'x', status: 7 } })).status,
		).toBe(400);
		const [p1, p2] = tenant().pipelines.values();
		const wrong = await call(ctx.sb, 'POST', '/v1/crm/deals', {
			body: { name: 'x', pipeline_id: p1.id, stage_id: (p2.stages as any[])[0].id },
		});
		expect(wrong.status).toBe(400);
		const other = otherTenantToken(ctx.sb);
		const mine = tenant().deals.values()[0].id;
		expect((await call(ctx.sb, 'GET', `/v1/crm/deals/${mine}`, { token: other })).status).toBe(404);
		expect(
			(
				await call(ctx.sb, 'PATCH', '/v1/crm/deals', {
					token: other,
					body: { ids: [mine], status: 1 },
				})
			).status,
		).toBe(404);
	});
});
