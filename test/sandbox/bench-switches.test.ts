/**
 * What the benchmarks need from the sandbox: the `acceptBearer` switch (off by default),
 * the connection and in-flight counters, and many events emitted at a bounded pace.
 */
import { Agent, request } from 'undici';

import { startTestSandbox, call, type Sandbox } from '../helpers/sandbox';
import { startReceiver, type Receiver } from '../helpers/receiver';

const bearer = (sb: Sandbox, token: string) =>
	call(sb, 'GET', '/v1/iam/token/app/validate', {
		token: null,
		headers: { authorization: `Bearer ${token}` },
	});

describe('sandbox: Authorization: Bearer', () => {
	it('is refused by default, as the spec has the token in x-access-token only', async () => {
		const sb = await startTestSandbox({ mode: 'v2' });
		const res = await bearer(sb, sb.demo.accessToken);
		expect(res.status).toBe(401);
		expect(res.body.debugMessage).toMatch(/x-access-token header is missing/);
		await sb.stop();
	});

	it('with acceptBearer in v2: the access_token works as Bearer; a wrong one is refused', async () => {
		const sb = await startTestSandbox({ mode: 'v2', acceptBearer: true });
		expect((await bearer(sb, String(sb.demo.tokenResponse.access_token))).status).toBe(200);
		expect((await bearer(sb, 'not-a-token')).status).toBe(401);
		// x-access-token, when present, is what counts.
		const both = await call(sb, 'GET', '/v1/iam/token/app/validate', {
			token: 'not-a-token',
			headers: { authorization: `Bearer ${sb.demo.accessToken}` },
		});
		expect(both.status).toBe(401);
		await sb.stop();
	});

	it('with acceptBearer in v1: Bearer carries the platform token; the OAuth access_token is still refused', async () => {
		const sb = await startTestSandbox({ mode: 'v1', acceptBearer: true });
		expect((await bearer(sb, String(sb.demo.tokenResponse['platform-token']))).status).toBe(200);
		expect((await bearer(sb, String(sb.demo.tokenResponse.access_token))).status).toBe(401);
		await sb.stop();
	});
});

describe('sandbox: counters for the benchmarks', () => {
	it('counts TCP connections and the most open at once', async () => {
		const sb = await startTestSandbox({
			faults: [{ kind: 'latency', ms: 150, path: '/v1/crm/contacts' }],
		});
		sb.resetStats();
		// Five requests at once, each on a connection of its own.
		await Promise.all(
			Array.from({ length: 5 }, async () => {
				const dispatcher = new Agent({ pipelining: 0 });
				const res = await request(`${sb.baseUrl}/v1/crm/contacts`, {
					headers: { 'x-access-token': sb.demo.accessToken },
					dispatcher,
					reset: true,
				});
				await res.body.dump();
				await dispatcher.close();
			}),
		);
		const stats = sb.stats() as { connections: number; maxOpenConnections: number };
		expect(stats.connections).toBe(5);
		expect(stats.maxOpenConnections).toBe(5);
		sb.resetStats();
		expect(sb.stats()).toMatchObject({ connections: 0 });
		await sb.stop();
	});
});

describe('sandbox: many events', () => {
	let rx: Receiver;
	beforeAll(async () => {
		rx = await startReceiver();
	});
	afterAll(() => rx.close());

	it('emits count events, each delivered once, and answers the deliveries by status', async () => {
		const sb = await startTestSandbox();
		await call(sb, 'POST', '/v1/webhooks/register', {
			body: {
				clientId: sb.config.clientId,
				clientSecret: sb.config.clientSecret,
				accessToken: sb.demo.accessToken,
				refreshToken: sb.demo.refreshToken,
				eventType: 'CREATE_BILL',
				webhookUrl: `${rx.url}/bills`,
			},
		});
		const res = await call(sb, 'POST', '/__admin/events', {
			token: null,
			body: { eventType: 'CREATE_BILL', count: 40, concurrency: 4 },
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ emitted: 40, statuses: { 200: 40 } });
		const ids = rx.calls.map((c) => c.body.eventId);
		expect(new Set(ids).size).toBe(40);
		expect(rx.calls.map((c) => c.body.data.seq).sort((a: number, b: number) => a - b)).toEqual(
			Array.from({ length: 40 }, (_, i) => i),
		);
		await sb.stop();
	});
});
