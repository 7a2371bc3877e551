/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Token refresh through n8n's own OAuth2 code (n8n-core), against the sandbox in
 * each of its three OAuth modes, with tokens that live one second. The tokens expire by
 * the sandbox's token clock, moved on past their lifetime (`sb.auth.clock`); in mode v1
 * the first expiry is waited for in real time, once, so the clock's own expiry is checked too.
 */
import { inspect } from 'node:util';

import type { IDataObject } from 'n8n-workflow';

import { platformTokenKey } from '../../nodes/shared/transport';
import { startSandbox, type Sandbox } from '../../sandbox/src/server';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { call } from '../helpers/sandbox';

const TTL = 1;
/** The tokens' lifetime passes: by the sandbox's token clock, or (`real`) on the machine's clock. */
const expire = async (sb: Sandbox, real = false) => {
	if (real) await new Promise((r) => setTimeout(r, TTL * 1000 + 150));
	else sb.auth.clock.set({ advanceMs: TTL * 1000 + 150 });
};
const getMany = (h: Harness) =>
	h.run('businessPlatformSales', {
		resource: 'contact',
		operation: 'getAll',
		returnAll: false,
		limit: 2,
	});

/** The x-access-token value the stored credential would send now. */
const storedToken = (h: Harness) => {
	const data = h.credentials.data().oauthTokenData as IDataObject;
	return String(data[platformTokenKey(data) ?? 'access_token']);
};

describe.each(['v1', 'v1-legacy', 'v2'] as const)('refresh in sandbox mode %s', (mode) => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox({ mode, tokenTtl: TTL, rows: 25 });
	});
	afterAll(() => sb.stop());

	it('a workflow before and after expiry succeeds; one refresh; the stored credential has the new tokens; rotation works', async () => {
		const h = createHarness(sb, sb.issueTokens());
		const first = h.credentials.data().oauthTokenData as IDataObject;

		expect((await getMany(h)).error).toBeUndefined();
		expect(sb.auth.stats.refreshGrant).toBe(0);

		// The one real-time wait for a token's expiry (mode v1); the others move the sandbox's token clock.
		await expire(sb, mode === 'v1');
		const second = await getMany(h);
		expect(second.error).toBeUndefined();
		expect(second.json).toHaveLength(2);
		expect(sb.auth.stats.refreshGrant).toBe(1);
		expect(sb.auth.stats.getRefreshToken).toBe(mode === 'v1-legacy' ? 1 : 0);

		const stored = h.credentials.data().oauthTokenData as IDataObject;
		expect(stored.refresh_token).not.toBe(first.refresh_token);
		expect(storedToken(h)).not.toBe(String(first[platformTokenKey(first) ?? 'access_token']));
		expect(
			(await call(sb, 'GET', '/v1/iam/token/app/validate', { token: storedToken(h) })).status,
		).toBe(200);
		expect(h.credentials.saves.length).toBeGreaterThanOrEqual(1);

		// A later execution starts from the stored credential; after a second expiry the rotated refresh token works.
		await expire(sb);
		const third = await getMany(h);
		expect(third.error).toBeUndefined();
		expect(sb.auth.stats.refreshGrant).toBe(2);
		expect(sb.auth.stats.failedRefresh).toBe(0);
		expect((h.credentials.data().oauthTokenData as IDataObject).refresh_token).not.toBe(
			stored.refresh_token,
		);
	});

	/** Gets 20 contacts, 20 at once: all succeed after exactly one refresh (and, for a legacy app, one platform token renewal). */
	const getTwentyAtOnce = async (h: Harness) => {
		const ids = sb.store
			.tenant(1)
			.contacts.values()
			.slice(0, 20)
			.map((c) => c.id);
		const run = await h.run(
			'businessPlatformSales',
			{
				resource: 'contact',
				operation: 'get',
				contactId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				requestOptions: { concurrency: 20 },
			},
			ids.map((id) => ({ json: { id } })),
		);
		expect(run.error).toBeUndefined();
		expect(run.json.map((c) => c.id)).toEqual(ids);
		expect(sb.auth.stats.refreshGrant).toBe(1);
		expect(sb.auth.stats.getRefreshToken).toBe(mode === 'v1-legacy' ? 1 : 0);
	};

	it('20 concurrent requests on an expired token cause exactly one refresh', async () => {
		const h = createHarness(sb, sb.issueTokens());
		sb.auth.expireAll();
		sb.auth.resetStats();
		await getTwentyAtOnce(h);
	});

	it('after its first refresh (the token pair is remembered), 20 concurrent requests on an expired token: one 401 per item at most, one refresh, the platform token renewed', async () => {
		const h = createHarness(sb, sb.issueTokens());
		sb.auth.expireAll();
		expect((await getMany(h)).error).toBeUndefined();
		// From here on the items carry the stored token themselves (no credential read per request).
		sb.auth.expireAll();
		sb.auth.resetStats();
		const since = Math.max(0, ...sb.requests().map((r) => r.seq));
		await getTwentyAtOnce(h);
		const gets = sb
			.requests()
			.filter(
				(r) => r.seq > since && r.method === 'GET' && /^\/v1\/crm\/contacts\/\d+$/.test(r.path),
			);
		// Each item's own 401, and one more on n8n's OAuth2 path, which refreshes.
		expect(gets.filter((r) => r.status === 401).length).toBeLessThanOrEqual(21);
		expect(gets.filter((r) => r.status === 200)).toHaveLength(20);
		expect(
			(await call(sb, 'GET', '/v1/iam/token/app/validate', { token: storedToken(h) })).status,
		).toBe(200);
	});

	it.each([1, 5])(
		'an endpoint that keeps answering 401 (Parallel Requests %i): one refresh for 10 items, each failing with one clear error',
		async (concurrency) => {
			const h = createHarness(sb, sb.issueTokens());
			const ids = sb.store
				.tenant(1)
				.contacts.values()
				.slice(0, 10)
				.map((c) => c.id);
			sb.faults.add({
				kind: 'status',
				status: 401,
				method: 'GET',
				path: '/^\\/v1\\/crm\\/contacts\\/\\d+$/',
			});
			sb.auth.resetStats();
			try {
				const run = await h.run(
					'businessPlatformSales',
					{
						resource: 'contact',
						operation: 'get',
						contactId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
						requestOptions: { concurrency },
					},
					ids.map((id) => ({ json: { id } })),
					{ continueOnFail: true },
				);
				expect(sb.auth.stats.refreshGrant).toBe(1);
				expect(run.json).toHaveLength(10);
				for (const item of run.json)
					expect(item.error).toBe(
						'The platform refused the Business Platform token even right after n8n renewed it',
					);
			} finally {
				sb.faults.clear();
			}
		},
	);

	it('a revoked refresh token: the error says to reconnect and holds no token', async () => {
		const tokens = sb.issueTokens();
		const h = createHarness(sb, tokens);
		sb.auth.expireAll();
		sb.auth.revokeAllRefresh();
		const run = await getMany(h);
		expect(run.error).toBeDefined();
		expect(run.error!.message).toMatch(/reconnect/i);
		expect(`${run.error!.message} ${run.error!.description ?? ''}`).toMatch(/Reconnect/);
		const everything =
			JSON.stringify(run.error) +
			inspect(run.error, { depth: 20, showHidden: true }) +
			JSON.stringify(run.run.data.resultData);
		const secrets = [
			...Object.entries(tokens)
				.filter(([k]) => /token/.test(k))
				.map(([, v]) => String(v)),
			sb.config.clientSecret,
		];
		for (const secret of secrets) expect(everything).not.toContain(secret);
	});
});
