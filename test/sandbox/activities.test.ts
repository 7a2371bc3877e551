/* eslint-disable @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
import { call, otherTenantToken, useSandbox } from '../helpers/sandbox';

const ctx = useSandbox();
const tenant = () => ctx.sb.store.tenant(1);
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('sandbox: activities', () => {
	it('GET /v1/crm/activities pages with paginationInfo incl. isZeroState, sorted by updated_at DESC', async () => {
		const r = await call(ctx.sb, 'GET', '/v1/crm/activities', {
			query: { page: 1, pageSize: 4, sortBy: 'updated_at', sortDir: 'DESC' },
		});
		expect(r.status).toBe(200);
		expect(r.body.paginationInfo).toEqual({ page: 1, totalRecords: 30, isZeroState: false });
		const times = r.body.data.map((a: any) => a.updated_at);
		expect(times).toEqual([...times].sort().reverse());
		expect(r.body.data[0]).toHaveProperty('assignee_details');
		expect(r.body.data[0]).toHaveProperty('duration');
	});

	it('applies every key of the query mini-language', async () => {
		const all = tenant().activities.values();
		const a = all.find((x) => x.linked_to && (x.contact_ids as number[]).length)!;
		const count = async (query: string) =>
			(await call(ctx.sb, 'GET', '/v1/crm/activities', { query: { query, pageSize: 100 } })).body;
		const expectIds = async (query: string, pred: (x: any) => boolean) => {
			const body = await count(query);
			expect(body.data.map((x: any) => x.id).sort()).toEqual(
				all
					.filter(pred)
					.map((x) => x.id)
					.sort(),
			);
		};
		await expectIds(`contact_id=${(a.contact_ids as number[])[0]}`, (x) =>
			x.contact_ids.includes((a.contact_ids as number[])[0]),
		);
		await expectIds(`deal_id=${String(a.linked_to)}`, (x) => x.linked_to === a.linked_to);
		await expectIds(`assignee_id=${(a.assignee_ids as number[])[0]}`, (x) =>
			x.assignee_ids.includes((a.assignee_ids as number[])[0]),
		);
		await expectIds('activityType=meeting', (x) => x.activity_type === 'meeting');
		await expectIds('is_status=true', (x) => x.is_status === true);
		await expectIds('source=web', (x) => x.source === 'web');
		await expectIds(`source_id=${String(a.source_id)}`, (x) => x.source_id === a.source_id);
		await expectIds('name=meeting', (x) => String(x.name).toLowerCase().includes('meeting'));
		await expectIds('organization_id=1', () => false);
		const epoch = Math.floor(Date.parse(String(all[10].start)) / 1000);
		await expectIds(
			`date>${epoch},activityType=call`,
			(x) => Date.parse(x.start) > epoch * 1000 && x.activity_type === 'call',
		);
		expect(
			(await call(ctx.sb, 'GET', '/v1/crm/activities', { query: { query: 'colour=red' } })).status,
		).toBe(400);
	});

	it('round-trips an activity: create (201 {id}) → get → put (200 {id}) → delete (204) → 404', async () => {
		const contact = tenant().contacts.values()[0];
		const deal = tenant().deals.values()[0];
		const created = await call(ctx.sb, 'POST', '/v1/crm/activities', {
			body: {
				name: 'Kick-off',
				activity_type: 'meeting',
				start: '2026-12-01T10:00:00Z',
				end: '2026-12-01T11:30:00Z',
				notes: b64('Bring the contract — ünïcødé ✓'),
				contact_ids: [contact.id],
				assignee_ids: [1],
				linked_to: deal.id,
				user_timezone: 'Europe/Paris',
				is_send_invitation: false,
				is_send_contacts_invitation: false,
				is_status: false,
			},
		});
		expect(created.status).toBe(201);
		expect(Object.keys(created.body)).toEqual(['id']);
		const id = created.body.id;
		const got = await call(ctx.sb, 'GET', `/v1/crm/activities/${id}`);
		expect(got.body).toMatchObject({
			id,
			name: 'Kick-off',
			duration: '1h 30m',
			linked_to: deal.id,
			deal_details: { id: deal.id },
		});
		expect(Buffer.from(got.body.notes, 'base64').toString('utf8')).toBe(
			'Bring the contract — ünïcødé ✓',
		);
		expect(got.body.contact_details[0]).toMatchObject({ id: contact.id, name: contact.name });

		const put = await call(ctx.sb, 'PUT', `/v1/crm/activities/${id}`, {
			body: { name: 'Kick-off (moved)', is_status: true },
		});
		expect(put.status).toBe(200);
		expect(put.body).toEqual({ id });
		expect(tenant().activities.get(id)).toMatchObject({
			name: 'Kick-off (moved)',
			is_status: true,
			activity_type: 'meeting',
		});

		expect((await call(ctx.sb, 'DELETE', `/v1/crm/activities/${id}`)).status).toBe(204);
		expect((await call(ctx.sb, 'GET', `/v1/crm/activities/${id}`)).status).toBe(404);
	});

	it('bulkUpdate (200) changes every id; bulkDelete (204) removes every id', async () => {
		const ids = tenant()
			.activities.values()
			.slice(0, 6)
			.map((a) => a.id as number);
		const up = await call(ctx.sb, 'PATCH', '/v1/crm/activities/bulkUpdate', {
			body: { ids, visibility_type: 'private', is_status: true },
		});
		expect(up.status).toBe(200);
		for (const id of ids)
			expect(tenant().activities.get(id)).toMatchObject({
				visibility_type: 'private',
				is_status: true,
			});
		const del = await call(ctx.sb, 'POST', '/v1/crm/activities/bulkDelete', {
			body: ids.slice(0, 3),
		});
		expect(del.status).toBe(204);
		for (const id of ids.slice(0, 3)) expect(tenant().activities.has(id)).toBe(false);
		expect(
			(await call(ctx.sb, 'POST', '/v1/crm/activities/bulkDelete', { body: { ids } })).status,
		).toBe(400);
	});

	it('validates notes, type and times; keeps tenants apart', async () => {
		expect(
			(
				await call(ctx.sb, 'POST', '/v1/crm/activities', {
					body: { name: 'x', notes: 'not base64!' },
				})
			).body.errors[0].field,
		).toBe('notes');
		expect(
			(
				await call(ctx.sb, 'POST', '/v1/crm/activities', {
					body: { name: 'x', activity_type: 'lunch' },
				})
			).status,
		).toBe(400);
		expect(
			(await call(ctx.sb, 'POST', '/v1/crm/activities', { body: { name: 'x', start: 'tomorrow' } }))
				.status,
		).toBe(400);
		expect(
			(
				await call(ctx.sb, 'POST', '/v1/crm/activities', {
					body: { name: 'x', start: '2026-01-02T00:00:00Z', end: '2026-01-01T00:00:00Z' },
				})
			).status,
		).toBe(400);
		const theirs = await call(ctx.sb, 'GET', '/v1/crm/activities', {
			token: otherTenantToken(ctx.sb),
			query: { pageSize: 100 },
		});
		expect(theirs.body.data.every((a: any) => a.tenant_id === 2)).toBe(true);
	});
});
