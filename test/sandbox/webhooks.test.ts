/* eslint-disable @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
import { call, otherTenantToken, useSandbox } from '../helpers/sandbox';
import { startReceiver, type Receiver } from '../helpers/receiver';

const ctx = useSandbox();
let rx: Receiver;
beforeAll(async () => {
	rx = await startReceiver();
});
afterAll(() => rx.close());

const register = (eventType: string, path = `/hook/${eventType}`, token?: string) =>
	call(ctx.sb, 'POST', '/v1/webhooks/register', {
		token,
		body: {
			clientId: ctx.sb.config.clientId,
			clientSecret: ctx.sb.config.clientSecret,
			accessToken: ctx.sb.demo.accessToken,
			refreshToken: ctx.sb.demo.refreshToken,
			eventType,
			webhookUrl: rx.url + path,
		},
	});

describe('sandbox: webhooks', () => {
	it('registers (record with hookId), lists, deletes (record with deleted true), then 404', async () => {
		const r = await register('CREATE_INVOICE');
		expect(r.status).toBe(200);
		expect(r.body).toEqual({
			hookId: expect.any(Number),
			eventType: 'CREATE_INVOICE',
			webhookUrl: `${rx.url}/hook/CREATE_INVOICE`,
			deleted: false,
		});
		const list = await call(ctx.sb, 'GET', '/v1/webhooks');
		expect(list.status).toBe(200);
		expect(list.body).toContainEqual(r.body);
		const del = await call(ctx.sb, 'DELETE', `/v1/webhooks/delete/${r.body.hookId}`);
		expect(del.status).toBe(200);
		expect(del.body).toEqual({ ...r.body, deleted: true });
		expect(
			(await call(ctx.sb, 'GET', '/v1/webhooks')).body.map((h: any) => h.hookId),
		).not.toContain(r.body.hookId);
		expect((await call(ctx.sb, 'DELETE', `/v1/webhooks/delete/${r.body.hookId}`)).status).toBe(404);
	});

	it('requires every register field, a known event type and the right client', async () => {
		const missing = await call(ctx.sb, 'POST', '/v1/webhooks/register', {
			body: { eventType: 'CREATE_BILL' },
		});
		expect(missing.status).toBe(400);
		expect(missing.body.errors.map((e: any) => e.field).sort()).toEqual([
			'accessToken',
			'clientId',
			'clientSecret',
			'refreshToken',
			'webhookUrl',
		]);
		expect((await register('CREATE_WIDGET')).status).toBe(400);
		const wrongClient = await call(ctx.sb, 'POST', '/v1/webhooks/register', {
			body: {
				clientId: 'x',
				clientSecret: 'y',
				accessToken: 'a',
				refreshToken: 'b',
				eventType: 'CREATE_BILL',
				webhookUrl: rx.url,
			},
		});
		expect(wrongClient.status).toBe(400);
	});

	it('delivers CRM contact and deal events from API changes, once per live registration', async () => {
		const hooks = await Promise.all(
			[
				'CREATE_CRM_CONTACT',
				'UPDATE_CRM_CONTACT',
				'DELETE_CRM_CONTACT',
				'CREATE_CRM_DEAL',
				'UPDATE_CRM_DEAL',
				'DELETE_CRM_DEAL',
			].map((e) => register(e)),
		);
		rx.calls.length = 0;
		const c = await call(ctx.sb, 'POST', '/v1/crm/contacts', {
			body: { name: 'Hooked', type: 'person' },
		});
		await call(ctx.sb, 'PATCH', `/v1/crm/contacts/${c.body.id}`, { body: { phone: '1' } });
		await call(ctx.sb, 'DELETE', `/v1/crm/contacts/${c.body.id}`);
		const d = await call(ctx.sb, 'POST', '/v1/crm/deals', {
			body: { name: 'Hooked deal', amount: 5 },
		});
		await call(ctx.sb, 'PUT', `/v1/crm/deals/${d.body.id}`, { body: { amount: 6 } });
		await call(ctx.sb, 'DELETE', `/v1/crm/deals/${d.body.id}`);
		await ctx.sb.hooks.idle();
		expect(rx.calls.map((x) => x.body.eventType)).toEqual([
			'CREATE_CRM_CONTACT',
			'UPDATE_CRM_CONTACT',
			'DELETE_CRM_CONTACT',
			'CREATE_CRM_DEAL',
			'UPDATE_CRM_DEAL',
			'DELETE_CRM_DEAL',
		]);
		expect(rx.calls[0].body).toMatchObject({
			tenantId: 1,
			data: { id: c.body.id, name: 'Hooked' },
		});
		expect(rx.calls[3].path).toBe('/hook/CREATE_CRM_DEAL');
		for (const h of hooks) await call(ctx.sb, 'DELETE', `/v1/webhooks/delete/${h.body.hookId}`);
		rx.calls.length = 0;
		await call(ctx.sb, 'POST', '/v1/crm/deals', { body: { name: 'Unheard' } });
		await ctx.sb.hooks.idle();
		expect(rx.calls).toHaveLength(0);
	});

	it('the admin endpoint emits any event type (accounting too), only to its tenant', async () => {
		const mine = await register('CREATE_INVOICE', '/mine');
		const theirs = await register('CREATE_INVOICE', '/theirs', otherTenantToken(ctx.sb));
		rx.calls.length = 0;
		const res = await call(ctx.sb, 'POST', '/__admin/events', {
			token: null,
			body: { eventType: 'CREATE_INVOICE', tenantId: 1, data: { invoiceId: 'INV-1', total: 99.5 } },
		});
		expect(res.status).toBe(200);
		expect(res.body.deliveries).toEqual([
			expect.objectContaining({ hookId: mine.body.hookId, status: 200 }),
		]);
		expect(rx.calls).toHaveLength(1);
		expect(rx.calls[0]).toMatchObject({
			path: '/mine',
			body: { eventType: 'CREATE_INVOICE', data: { invoiceId: 'INV-1', total: 99.5 } },
		});
		// Lists never leak another tenant's registrations.
		const list = await call(ctx.sb, 'GET', '/v1/webhooks');
		expect(list.body.map((h: any) => h.hookId)).not.toContain(theirs.body.hookId);
		expect((await call(ctx.sb, 'DELETE', `/v1/webhooks/delete/${theirs.body.hookId}`)).status).toBe(
			404,
		);
	});
});
