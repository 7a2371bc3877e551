import { call, otherTenantToken, useSandbox } from '../helpers/sandbox';

const ctx = useSandbox();

describe('sandbox: contacts and labels', () => {
	it('lists contacts with paginationInfo', async () => {
		const res = await call(ctx.sb, 'GET', '/v1/crm/contacts', { query: { page: 1, limit: 5 } });
		expect(res.status).toBe(200);
		expect(res.body.data).toHaveLength(5);
		expect(res.body.paginationInfo).toEqual({ page: 1, totalRecords: 30 });
	});
	it('rejects missing token', async () => {
		const res = await call(ctx.sb, 'GET', '/v1/crm/contacts', { token: null });
		expect(res.status).toBe(401);
		expect(res.body.errorMessage).toBe('Invalid token!');
	});
	it('round-trips a contact', async () => {
		const created = await call(ctx.sb, 'POST', '/v1/crm/contacts', { body: { name: 'Zoë Test', type: 'person', email: 'zoe@test.example' } });
		expect(created.status).toBe(200);
		const id = created.body.id;
		expect((await call(ctx.sb, 'GET', `/v1/crm/contacts/${id}`)).body.name).toBe('Zoë Test');
		expect((await call(ctx.sb, 'GET', `/v1/crm/contacts/${id}`, { token: otherTenantToken(ctx.sb) })).status).toBe(404);
	});
});
