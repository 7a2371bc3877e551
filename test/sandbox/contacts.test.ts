/* eslint-disable @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
import { call, otherTenantToken, useSandbox } from '../helpers/sandbox';

const ctx = useSandbox();
const tenant = () => ctx.sb.store.tenant(1);

describe('sandbox: contacts', () => {
	it('GET /v1/crm/contacts pages with paginationInfo', async () => {
		const p1 = await call(ctx.sb, 'GET', '/v1/crm/contacts', { query: { page: 1, limit: 7 } });
		expect(p1.status).toBe(200);
		expect(p1.body.data).toHaveLength(7);
		expect(p1.body.paginationInfo).toEqual({ page: 1, totalRecords: 30 });
		const seen = new Set<number>();
		for (let page = 1; page <= 5; page++) {
			const r = await call(ctx.sb, 'GET', '/v1/crm/contacts', { query: { page, limit: 7 } });
			r.body.data.forEach((c: any) => seen.add(c.id));
		}
		expect(seen.size).toBe(30);
	});

	it('GET /v1/crm/contacts filters: type, search, contact_ids, contains_email, columns, order', async () => {
		const orgs = await call(ctx.sb, 'GET', '/v1/crm/contacts', {
			query: { type: 'organization', limit: 100 },
		});
		const expected = tenant()
			.contacts.values()
			.filter((c) => c.type === 'organization').length;
		expect(orgs.body.paginationInfo.totalRecords).toBe(expected);
		expect(orgs.body.data.every((c: any) => c.type === 'organization')).toBe(true);

		const someone = tenant().contacts.values()[3];
		const search = await call(ctx.sb, 'GET', '/v1/crm/contacts', {
			query: { search: String(someone.email).toUpperCase(), limit: 100 },
		});
		expect(search.body.data.map((c: any) => c.id)).toContain(someone.id);

		const ids = tenant()
			.contacts.values()
			.slice(0, 3)
			.map((c) => c.id as number);
		const byIds = await call(ctx.sb, 'GET', '/v1/crm/contacts', {
			query: { contact_ids: ids.join(','), columns: ['name', 'email'] },
		});
		expect(byIds.body.data.map((c: any) => c.id).sort()).toEqual([...ids].sort());
		expect(Object.keys(byIds.body.data[0]).sort()).toEqual(['email', 'id', 'name']);

		const withEmail = await call(ctx.sb, 'GET', '/v1/crm/contacts', {
			query: { contains_email: true, limit: 100 },
		});
		expect(withEmail.body.data.every((c: any) => !!c.email)).toBe(true);

		const asc = await call(ctx.sb, 'GET', '/v1/crm/contacts', {
			query: { orderBy: 'name', order: 'asc', limit: 100 },
		});
		const names = asc.body.data.map((c: any) => c.name);
		expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
	});

	it('round-trips a contact: create (200 + contact) → get → list → patch (201) → put (201) → delete (200) → 404', async () => {
		const label = tenant().labels.values()[0];
		const created = await call(ctx.sb, 'POST', '/v1/crm/contacts', {
			body: {
				name: 'Zoë Müller',
				type: 'person',
				email: 'zoe@test.example',
				label_id: label.id,
				custom_field: [
					{ code: 'cf1', label: 'Size', module: 'contact', shortName: 'size', value: 'L' },
				],
			},
		});
		expect(created.status).toBe(200);
		const id = created.body.id;
		expect(created.body).toMatchObject({
			id,
			name: 'Zoë Müller',
			label: { id: label.id, name: label.name },
			c_field: { size: 'L' },
			tenant_id: 1,
		});

		const got = await call(ctx.sb, 'GET', `/v1/crm/contacts/${id}`);
		expect(got.status).toBe(200);
		expect(got.body.owner_details).toMatchObject({ id: 1, email: 'demo@acme.example' });

		const listed = await call(ctx.sb, 'GET', '/v1/crm/contacts', {
			query: { email: 'zoe@test.example' },
		});
		expect(listed.body.data.map((c: any) => c.id)).toEqual([id]);

		const patched = await call(ctx.sb, 'PATCH', `/v1/crm/contacts/${id}`, {
			body: { phone: '5551234' },
		});
		expect(patched.status).toBe(201);
		expect(tenant().contacts.get(id)).toMatchObject({ name: 'Zoë Müller', phone: '5551234' });

		const put = await call(ctx.sb, 'PUT', `/v1/crm/contacts/${id}`, {
			body: { name: 'Zoe Replaced', type: 'person' },
		});
		expect(put.status).toBe(201);
		expect(tenant().contacts.get(id)).toMatchObject({
			name: 'Zoe Replaced',
			phone: null,
			email: null,
			label_id: null,
		});

		expect((await call(ctx.sb, 'DELETE', `/v1/crm/contacts/${id}`)).status).toBe(200);
		expect(tenant().contacts.has(id)).toBe(false);
		expect((await call(ctx.sb, 'GET', `/v1/crm/contacts/${id}`)).status).toBe(404);
		expect((await call(ctx.sb, 'DELETE', `/v1/crm/contacts/${id}`)).status).toBe(404);
	});

	it('POST /v1/crm/contacts/multiple returns the listed contacts', async () => {
		const ids = tenant()
			.contacts.values()
			.slice(0, 4)
			.map((c) => c.id as number);
		const r = await call(ctx.sb, 'POST', '/v1/crm/contacts/multiple', {
			body: { contact_ids: [...ids, 999999] },
		});
		expect(r.status).toBe(200);
		expect(r.body.map((c: any) => c.id)).toEqual(ids);
	});

	it('PATCH /v1/crm/contacts bulk-updates every listed id (201)', async () => {
		const ids = tenant()
			.contacts.values()
			.slice(5, 10)
			.map((c) => c.id as number);
		const label = tenant().labels.values()[1];
		const r = await call(ctx.sb, 'PATCH', '/v1/crm/contacts', {
			body: { ids, label_id: label.id, owner_id: tenant().crmUsers[1].id, visibility_type: 'team' },
		});
		expect(r.status).toBe(201);
		for (const id of ids)
			expect(tenant().contacts.get(id)).toMatchObject({
				label_id: label.id,
				owner_id: tenant().crmUsers[1].id,
				visibility_type: 'team',
			});
		expect(
			(
				await call(ctx.sb, 'PATCH', '/v1/crm/contacts', {
					body: { ids: [ids[0], 424242], label_id: label.id },
				})
			).status,
		).toBe(404);
	});

	it('refuses wrong types with the platform error body', async () => {
		const r = await call(ctx.sb, 'POST', '/v1/crm/contacts', {
			body: { name: 42, label_id: 'seven', type: 'robot' },
		});
		expect(r.status).toBe(400);
		expect(r.body).toMatchObject({ code: 400, httpStatus: '400 BAD_REQUEST' });
		expect(r.body.errors.map((e: any) => e.field).sort()).toEqual(['label_id', 'name']);
		expect(
			(await call(ctx.sb, 'POST', '/v1/crm/contacts', { body: { name: 'x', type: 'robot' } })).body
				.errors[0].field,
		).toBe('type');
		expect((await call(ctx.sb, 'GET', '/v1/crm/contacts/abc')).status).toBe(400);
		expect((await call(ctx.sb, 'GET', '/v1/crm/contacts', { query: { page: 'x' } })).status).toBe(
			400,
		);
	});

	it('keeps tenants apart', async () => {
		const other = otherTenantToken(ctx.sb);
		const mine = tenant().contacts.values()[0].id;
		expect((await call(ctx.sb, 'GET', `/v1/crm/contacts/${mine}`, { token: other })).status).toBe(
			404,
		);
		const theirs = await call(ctx.sb, 'GET', '/v1/crm/contacts', {
			token: other,
			query: { limit: 100 },
		});
		const myIds = new Set(
			tenant()
				.contacts.values()
				.map((c) => c.id),
		);
		expect(theirs.body.data.some((c: any) => myIds.has(c.id))).toBe(false);
		expect(theirs.body.data.every((c: any) => c.tenant_id === 2)).toBe(true);
	});
});

describe('sandbox: contact labels', () => {
	it('round-trips a label: create (201 {id}) → get → list → put (201) → delete (200) → 404', async () => {
		const created = await call(ctx.sb, 'POST', '/v1/crm/contacts/labels', {
			body: { name: 'VIP', color: '#ff00ff', icon: 'crown' },
		});
		expect(created.status).toBe(201);
		expect(Object.keys(created.body)).toEqual(['id']);
		const id = created.body.id;
		expect((await call(ctx.sb, 'GET', `/v1/crm/contacts/labels/${id}`)).body).toEqual({
			id,
			name: 'VIP',
			color: '#ff00ff',
			icon: 'crown',
			owner_id: 1,
			tenant_id: 1,
		});
		expect(
			(await call(ctx.sb, 'GET', '/v1/crm/contacts/labels')).body.map((l: any) => l.id),
		).toContain(id);
		expect(
			(
				await call(ctx.sb, 'PUT', `/v1/crm/contacts/labels/${id}`, {
					body: { name: 'VIP+', color: '#000000' },
				})
			).status,
		).toBe(201);
		expect(tenant().labels.get(id)).toMatchObject({
			name: 'VIP+',
			color: '#000000',
			icon: 'crown',
		});
		expect((await call(ctx.sb, 'DELETE', `/v1/crm/contacts/labels/${id}`)).status).toBe(200);
		expect((await call(ctx.sb, 'GET', `/v1/crm/contacts/labels/${id}`)).status).toBe(404);
	});

	it('deleting a label clears it from contacts; other tenants see only their labels', async () => {
		const { body } = await call(ctx.sb, 'POST', '/v1/crm/contacts/labels', {
			body: { name: 'Temp' },
		});
		const c = tenant().contacts.values()[12];
		await call(ctx.sb, 'PATCH', `/v1/crm/contacts/${c.id}`, { body: { label_id: body.id } });
		await call(ctx.sb, 'DELETE', `/v1/crm/contacts/labels/${body.id}`);
		expect(tenant().contacts.get(c.id as number)!.label_id).toBeNull();
		const theirs = await call(ctx.sb, 'GET', '/v1/crm/contacts/labels', {
			token: otherTenantToken(ctx.sb),
		});
		expect(theirs.body.every((l: any) => l.tenant_id === 2)).toBe(true);
		expect(
			(await call(ctx.sb, 'POST', '/v1/crm/contacts/labels', { body: { color: '#fff' } })).status,
		).toBe(400);
	});
});
