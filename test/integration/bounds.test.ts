/**
 * The pack's own numbers, crossed (issue 32): the retry limits of the transport (the tuning's retry: the
 * longest Retry-After it waits for, the total wait, one attempt's timeout, all attempts
 * together), Parallel Requests past its largest value, Limit past a page and below 1, the
 * safety stop of Return All and of a poll (the tuning's paging.maxPages), the readings a poll makes of a list
 * that keeps moving (tuning.poll.maxReadings) and the pages "Fetch Test Event" looks through
 * (tuning.poll.testPages). Each against the sandbox (or a front of it) over real HTTP; docs/faults-and-
 * security.md lists every bound with the test that crosses it.
 */
import type { IDataObject } from 'n8n-workflow';
import { request } from 'undici';

import { MAX_CONCURRENCY } from '../../nodes/shared/engine/execute';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { Poller } from '../helpers/poll-harness';
import { readBody, serveLoopback } from '../helpers/loopback';
import { makeChanges, POLL_DRIVERS } from '../helpers/poll-drivers';
import { call, useSandbox } from '../helpers/sandbox';
import { fileTuning } from '../helpers/tuning';

/** This file's tunables and clocks (test/helpers/tuning.ts): the harness's nodes run with them. */
const tuning = fileTuning();

const ctx = useSandbox({ rows: 6 });
let h: Harness;
const retryDefaults = { ...tuning.retry };
const pollDefaults = { ...tuning.poll };
const pagingDefaults = { ...tuning.paging };
beforeAll(() => {
	h = createHarness(ctx.sb);
});
beforeEach(() => {
	tuning.retry.baseDelayMs = 5;
});
afterEach(() => {
	ctx.sb.faults.clear();
	Object.assign(tuning.retry, retryDefaults);
	Object.assign(tuning.poll, pollDefaults);
	Object.assign(tuning.paging, pagingDefaults);
});

const contactId = () => ctx.sb.store.tenant(1).contacts.values()[0].id as number;
const seq = () => ctx.sb.requests().at(-1)?.seq ?? 0;
const sentSince = (from: number, route: string) =>
	ctx.sb.requests().filter((r) => r.seq > from && r.route === route).length;
const getContact = async () =>
	await h.run('businessPlatformSales', {
		resource: 'contact',
		operation: 'get',
		contactId: { __rl: true, mode: 'id', value: String(contactId()) },
	});

describe('the retry tuning (nodes/shared/tuning.ts)', () => {
	it(`maxDelayMs (${retryDefaults.maxDelayMs} ms): a Retry-After of 21 s is not waited for; one request, and the error says what the platform asked`, async () => {
		ctx.sb.faults.add({
			kind: 'status',
			status: 429,
			retryAfter: 21,
			method: 'GET',
			path: `/v1/crm/contacts/${contactId()}`,
			count: 1,
		});
		const from = seq();
		const run = await getContact();
		expect(run.error?.description).toMatch(/asked to wait 21 s/);
		expect(sentSince(from, 'GET /v1/crm/contacts/:id')).toBe(1);
	});

	it('maxTotalWaitMs: retries stop once the waits together would pass it (lowered to 100 ms, Retry-After 60 ms each)', async () => {
		tuning.retry.maxTotalWaitMs = 100;
		ctx.sb.faults.add({
			kind: 'status',
			status: 429,
			retryAfter: 0.06,
			method: 'GET',
			path: `/v1/crm/contacts/${contactId()}`,
		});
		const from = seq();
		const run = await getContact();
		expect(run.error?.message).toMatch(/answered 429/);
		expect(sentSince(from, 'GET /v1/crm/contacts/:id')).toBe(2);
	});

	it('timeoutMs (no Timeout set on the node): an answer later than it is a failed attempt; a read is sent again, a create is not', async () => {
		tuning.retry.timeoutMs = 300;
		ctx.sb.resetStats();
		ctx.sb.faults.add({
			kind: 'latency',
			ms: 700,
			method: 'GET',
			path: `/v1/crm/contacts/${contactId()}`,
			count: 1,
		});
		// The first attempt waited past the timeout (the fault fired); the second was answered.
		expect((await getContact()).error).toBeUndefined();
		expect(ctx.sb.stats().faultsFired).toBe(1);
		ctx.sb.faults.add({
			kind: 'latency',
			ms: 700,
			method: 'POST',
			path: '/v1/crm/contacts',
			count: 1,
		});
		const run = await h.run('businessPlatformSales', {
			resource: 'contact',
			operation: 'create',
			name: 'Timeout Bound',
			type: 'person',
		});
		expect(run.error?.description).toMatch(/not repeated automatically/);
		// One attempt of the create reached the platform, and nothing was created twice.
		expect(ctx.sb.stats().faultsFired).toBe(2);
		expect(
			ctx.sb.store
				.tenant(1)
				.contacts.values()
				.filter((c) => c.name === 'Timeout Bound').length,
		).toBeLessThanOrEqual(1);
	});

	it(`maxTotalMs: no attempt starts once all of them together would pass it (lowered to 500 ms; every answer 400 ms late, timeout 200 ms): fewer than ${retryDefaults.attempts} attempts`, async () => {
		tuning.retry.maxTotalMs = 500;
		tuning.retry.timeoutMs = 200;
		ctx.sb.resetStats();
		ctx.sb.faults.add({
			kind: 'latency',
			ms: 400,
			method: 'GET',
			path: `/v1/crm/contacts/${contactId()}`,
		});
		const run = await getContact();
		const attempts = Number(/\((\d+) attempts\.\)/.exec(run.error?.description ?? '')?.[1]);
		expect(attempts).toBeGreaterThanOrEqual(2);
		expect(attempts).toBeLessThan(tuning.retry.attempts);
		expect(ctx.sb.stats().faultsFired).toBe(attempts);
	});
});

describe('Request Options and Limit (nodes/shared/engine/execute.ts)', () => {
	it(`Parallel Requests past ${MAX_CONCURRENCY} (2^31 from an expression): at most ${MAX_CONCURRENCY} requests at once, every item created once`, async () => {
		ctx.sb.faults.add({ kind: 'latency', ms: 40, method: 'POST', path: '/v1/crm/contacts' });
		ctx.sb.resetStats();
		const names = Array.from({ length: 30 }, (_, i) => `Concurrency Bound ${i}`);
		const run = await h.run(
			'businessPlatformSales',
			{
				resource: 'contact',
				operation: 'create',
				name: '={{ $json.name }}',
				type: 'person',
				requestOptions: { concurrency: '={{ 2 ** 31 }}' },
			},
			names.map((name) => ({ json: { name } })),
		);
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(30);
		expect(ctx.sb.stats().maxRequestsAtOnce).toBeLessThanOrEqual(MAX_CONCURRENCY);
		const stored = ctx.sb.store
			.tenant(1)
			.contacts.values()
			.filter((c) => names.includes(String(c.name)));
		expect(stored.map((c) => c.name).sort()).toEqual([...names].sort());
	});

	it('Limit past a page (150 over pages of 100): two pages, 150 items; Limit below 1 or not a number: refused before sending, naming the field', async () => {
		await call(ctx.sb, 'POST', '/__admin/seed', { body: { kind: 'contacts', count: 200 } });
		let from = seq();
		const run = await h.run('businessPlatformSales', {
			resource: 'contact',
			operation: 'getAll',
			returnAll: false,
			limit: 150,
		});
		expect(run.json).toHaveLength(150);
		expect(sentSince(from, 'GET /v1/crm/contacts')).toBe(2);
		for (const limit of [0, -1, '={{ "many" }}', 0.5]) {
			from = seq();
			const refused = await h.run('businessPlatformSales', {
				resource: 'contact',
				operation: 'getAll',
				returnAll: false,
				limit,
			});
			expect(refused.error?.message).toMatch(/Limit must be a whole number of 1 or more/);
			expect(sentSince(from, 'GET /v1/crm/contacts')).toBe(0);
		}
	});
});

/** A platform whose lists never end: every page is full of new forms or templates, and it says there are always more. */
async function endlessFront() {
	let served = 0;
	const server = await serveLoopback(async (req, res) => {
		await readBody(req);
		const url = new URL(req.url ?? '/', 'http://x');
		const page = Number(url.searchParams.get('page') ?? 1);
		const size = Number(url.searchParams.get('limit') ?? 10);
		served++;
		const data = Array.from({ length: size }, (_, i) => ({
			id: page * 1000 + i,
			name: `Item ${page}-${i}`,
			created_at: new Date(Date.UTC(2026, 0, 1) - page * 1000 - i).toISOString(),
		}));
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(
			JSON.stringify(
				url.pathname.endsWith('/email-templates')
					? { data, page, total_pages: page + 1, number_of_records: (page + 1) * size }
					: { data },
			),
		);
	});
	return { server, served: () => served };
}

describe('the paging tuning: maxPages (nodes/shared/tuning.ts): a list that never ends', () => {
	it('Return All past the safety stop (lowered to 3 pages) fails and says so instead of returning part of the list', async () => {
		tuning.paging.maxPages = 3;
		const { server, served } = await endlessFront();
		try {
			const run = await createHarness(ctx.sb, ctx.sb.demo.tokenResponse, {
				baseUrl: server.url,
			}).run('businessPlatformCampaigns', {
				resource: 'form',
				operation: 'getAll',
				returnAll: true,
			});
			expect(run.error?.message).toMatch(/did not end after 3 pages/);
			expect(run.json).toEqual([]);
			expect(served()).toBeLessThanOrEqual(3 + tuning.paging.readAhead);
		} finally {
			await server.close();
		}
	});

	it('a poll past it fails, delivers nothing and keeps its cursor', async () => {
		tuning.paging.maxPages = 3;
		tuning.poll.pageSize = 5;
		const { server } = await endlessFront();
		try {
			const p = new Poller(
				createHarness(ctx.sb, ctx.sb.demo.tokenResponse, { baseUrl: server.url }),
				'businessPlatformCampaignsTrigger',
				{ event: 'emailTemplateCreated', options: {} },
			);
			await expect(p.poll()).rejects.toThrow(/did not end after 3 pages/);
			expect(p.nodeData.cursor).toBeUndefined();
		} finally {
			await server.close();
		}
	});
});

describe('the poll tuning (nodes/shared/tuning.ts)', () => {
	const d = POLL_DRIVERS.find((x) => x.event === 'recordCreated')!;

	it(`maxReadings (${pollDefaults.maxReadings}): a list that moves at every reading is read ${pollDefaults.maxReadings} times, no more, and every change listed is delivered once`, async () => {
		tuning.poll.pageSize = 3;
		const params: IDataObject = { event: d.event, ...d.params(ctx.sb), options: {} };
		const tableId = String((params.tableId as IDataObject).value);
		let firstPages = 0;
		let moving = false;
		// Deletes the newest record after every first page it passes on, while moving.
		const server = await serveLoopback(async (req, res) => {
			const body = await readBody(req);
			const headers = Object.fromEntries(
				Object.entries(req.headers).filter(
					([k]) => !['host', 'connection', 'content-length'].includes(k),
				),
			) as Record<string, string>;
			const answer = await request(ctx.sb.baseUrl + (req.url ?? '/'), {
				method: req.method as 'POST',
				headers,
				body: body || undefined,
			});
			const text = await answer.body.text();
			if (moving && req.url?.includes('/paged-record') && req.url.includes('pageNo=1')) {
				firstPages++;
				const newest = (JSON.parse(text) as { data: IDataObject[] }).data[0];
				await call(ctx.sb, 'DELETE', `/v1/crm/core/table/${tableId}/record/${String(newest._id)}`);
			}
			res.writeHead(answer.statusCode, {
				'content-type': String(answer.headers['content-type'] ?? 'application/json'),
			});
			res.end(text);
		});
		try {
			const p = new Poller(
				createHarness(ctx.sb, ctx.sb.demo.tokenResponse, { baseUrl: server.url }),
				d.type,
				params,
			);
			await p.poll();
			const made = await makeChanges(ctx.sb, d, 9);
			moving = true;
			const delivered = ((await p.poll()) ?? []).map((j) => d.idOf(j));
			moving = false;
			expect(firstPages).toBe(tuning.poll.maxReadings);
			expect(new Set(delivered).size).toBe(delivered.length);
			expect(delivered.sort()).toEqual([...made].sort());
		} finally {
			await server.close();
		}
	});

	it(`testPages (${pollDefaults.testPages}): "Fetch Test Event" looks through ${pollDefaults.testPages} pages of the newest items and no further, and says how many it looked at`, async () => {
		tuning.poll.pageSize = 2;
		const posted = POLL_DRIVERS.find((x) => x.event === 'journalEntryPosted')!;
		await makeChanges(ctx.sb, posted, 1, {});
		// Newer payruns that are not posted: more than the pages "Fetch Test Event" reads.
		await makeChanges(
			ctx.sb,
			POLL_DRIVERS.find((x) => x.event === 'payrunCreated')!,
			tuning.poll.testPages * tuning.poll.pageSize + 1,
		);
		const from = seq();
		const p = new Poller(h, posted.type, { event: posted.event, options: {} });
		await expect(p.poll('manual')).rejects.toThrow(
			/No payrun with a posted journal entry matches this event yet/,
		);
		expect(sentSince(from, 'GET /v1/people-pay-run/payruns')).toBe(tuning.poll.testPages);
	});
});
