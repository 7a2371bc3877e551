/**
 * The polling triggers (People, Table, Campaigns) through n8n-core's PollContext against the
 * sandbox, each event: the first poll starts from now, changes of one timestamp are all
 * delivered once, a restart (static data reloaded) delivers nothing twice, a backlog larger
 * than a page comes in order, a failed poll loses nothing, a poll that overlaps another of the
 * node delivers nothing, and "Fetch Test Event" shows the newest matching item without moving
 * the cursor.
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { request } from 'undici';

import { pick } from '../../testbed/harness/pickers';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { Poller } from '../helpers/poll-harness';
import { readBody, serveLoopback } from '../helpers/loopback';
import { makeChanges, POLL_DRIVERS, type PollDriver } from '../helpers/poll-drivers';
import { call, useSandbox } from '../helpers/sandbox';
import { fileTuning } from '../helpers/tuning';

/** This file's tunables and clocks (test/helpers/tuning.ts): the harness's nodes run with them. */
const tuning = fileTuning();

const ctx = useSandbox({ rows: 12 });
let h: Harness;
const defaults = { ...tuning.poll };
beforeAll(() => {
	h = createHarness(ctx.sb);
	tuning.retry.baseDelayMs = 5;
});
afterEach(() => {
	ctx.sb.faults.clear();
	Object.assign(tuning.poll, defaults);
});

const poller = (d: PollDriver, options: IDataObject = {}) =>
	new Poller(h, d.type, { event: d.event, ...d.params(ctx.sb), options });
const ids = (d: PollDriver, items: IDataObject[] | null) => (items ?? []).map((j) => d.idOf(j));
const sorted = (list: string[]) => [...list].sort();
/** Until the sandbox holds a request back (a `latency` fault of count 1 has fired: a poll is then reading). */
const held = async () => {
	while (ctx.sb.faults.list().some((f) => f.kind === 'latency')) await sleep(5);
};

describe.each(POLL_DRIVERS.map((d) => [d.title, d] as const))('%s', (_title, d) => {
	it('first poll starts from now: nothing that existed is delivered, then each change once', async () => {
		await makeChanges(ctx.sb, d, 2);
		const p = poller(d);
		expect(await p.poll()).toBeNull();
		expect(await p.poll()).toBeNull();
		const made = [...(await makeChanges(ctx.sb, d, 1)), ...(await makeChanges(ctx.sb, d, 1))];
		expect(ids(d, await p.poll())).toEqual(made);
		expect(await p.poll()).toBeNull();
	});

	it('changes with the same timestamp are all delivered, each once, also when they come after a poll of that second', async () => {
		const p = poller(d);
		await p.poll();
		const first = await makeChanges(ctx.sb, d, 2, { sameTime: true });
		expect(sorted(ids(d, await p.poll()))).toEqual(sorted(first));
		expect(await p.poll()).toBeNull();
	});

	it('a restart (static data reloaded as n8n saved it) delivers nothing twice and misses nothing', async () => {
		const p = poller(d);
		await p.poll();
		const a = await makeChanges(ctx.sb, d, 1);
		expect(ids(d, await p.poll())).toEqual(a);
		expect(await p.poll()).toBeNull(); // not saved by n8n: nothing new
		p.restart();
		expect(await p.poll()).toBeNull();
		const b = await makeChanges(ctx.sb, d, 1);
		p.restart();
		expect(ids(d, await p.poll())).toEqual(b);
		p.restart();
		expect(await p.poll()).toBeNull();
	});

	it('a backlog larger than one page comes whole, oldest first', async () => {
		tuning.poll.pageSize = 3;
		const p = poller(d);
		await p.poll();
		const made = [...(await makeChanges(ctx.sb, d, 4)), ...(await makeChanges(ctx.sb, d, 4))];
		const delivered = ids(d, await p.poll());
		expect(sorted(delivered)).toEqual(sorted(made));
		// Oldest first: the four changes of the earlier second come before the four of the later one.
		expect(sorted(delivered.slice(0, 4))).toEqual(sorted(made.slice(0, 4)));
		expect(await p.poll()).toBeNull();
	});

	it('a failed poll delivers nothing and loses nothing: the next poll delivers what it missed', async () => {
		const p = poller(d);
		await p.poll();
		const made = await makeChanges(ctx.sb, d, 2);
		ctx.sb.faults.add({ kind: 'status', status: 400, count: 1 });
		await expect(p.poll()).rejects.toThrow();
		expect(sorted(ids(d, await p.poll()))).toEqual(sorted(made));
		expect(await p.poll()).toBeNull();
	});

	it('a poll that starts while another of the node still reads delivers nothing: each change comes once, from the first', async () => {
		const p = poller(d);
		await p.poll();
		const made = await makeChanges(ctx.sb, d, 2);
		ctx.sb.faults.add({ kind: 'latency', ms: 400, count: 1 });
		const first = p.poll();
		await held(); // the first poll waits for the platform's answer
		expect(await p.poll()).toBeNull();
		expect(p.lastPath).toBe('P2');
		expect(sorted(ids(d, await first))).toEqual(sorted(made));
		expect(await p.poll()).toBeNull();
	});

	it('"Fetch Test Event" shows the newest matching item and leaves the cursor alone', async () => {
		const p = poller(d);
		await p.poll();
		const made = [...(await makeChanges(ctx.sb, d, 1)), ...(await makeChanges(ctx.sb, d, 1))];
		const test = await p.poll('manual');
		expect(ids(d, test)).toEqual([made[1]]);
		expect(ids(d, await p.poll())).toEqual(made);
	});
});

describe('the cursor', () => {
	const d = POLL_DRIVERS.find((x) => x.event === 'recordCreated')!;

	it('stays small: only the keys of the newest timestamp are kept', async () => {
		const p = poller(d);
		await p.poll();
		await makeChanges(ctx.sb, d, 5);
		await p.poll();
		const cursor = p.nodeData.cursor as { since: number; seen: string[] };
		const records = ctx.sb.store
			.tenant(1)
			.records.get(String((d.params(ctx.sb).tableId as IDataObject).value))!;
		expect(cursor.seen.length).toBeGreaterThan(0);
		for (const key of cursor.seen)
			expect(Date.parse(String(records.get(key)!.createdAt))).toBe(cursor.since);
	});

	it('a first poll that finds more changes of the newest timestamp than a page marks them all done', async () => {
		tuning.poll.pageSize = 3;
		await makeChanges(ctx.sb, d, 5, { sameTime: true });
		const p = poller(d);
		expect(await p.poll()).toBeNull();
		expect(await p.poll()).toBeNull();
	});

	it('starts again from now when the event or a filter changes (no flood of what the other list held)', async () => {
		const p = poller(d);
		await p.poll();
		await makeChanges(ctx.sb, d, 2);
		p.edit({ event: 'recordUpdated', ...d.params(ctx.sb), options: {} });
		expect(await p.poll()).toBeNull();
	});

	it('"Emit Existing Items on First Poll" delivers every record of the table once', async () => {
		const p = poller(d, { emitExisting: true });
		const all = ctx.sb.store
			.tenant(1)
			.records.get(String((d.params(ctx.sb).tableId as IDataObject).value))!
			.values();
		const first = await p.poll();
		expect(new Set(ids(d, first))).toEqual(new Set(all.map((r) => String(r._id))));
		expect(await p.poll()).toBeNull();
	});
});

describe('one poll of a node at a time (docs/polling-triggers.md, the state machine)', () => {
	const d = POLL_DRIVERS.find((x) => x.event === 'recordCreated')!;

	it('a poll older than the budget is taken as stuck: the next poll runs beside it and delivers, and the stuck one, when it ends, delivers nothing (P11)', async () => {
		const p = new Poller(
			h,
			d.type,
			{ event: d.event, ...d.params(ctx.sb), options: {} },
			{ budgetMs: 200 },
		);
		await p.poll();
		const made = await makeChanges(ctx.sb, d, 2);
		ctx.sb.faults.add({ kind: 'latency', ms: 1500, count: 1 });
		const stuck = p.poll();
		await held();
		await sleep(250); // past the budget
		expect(sorted(ids(d, await p.poll()))).toEqual(sorted(made));
		expect(await stuck).toBeNull();
		expect(p.lastPath).toBe('P5 → P8 → P11');
		expect(await p.poll()).toBeNull();
	});

	it('a stuck poll that ends first delivers: the poll that took over delivers nothing (P11), and nothing comes twice', async () => {
		const p = new Poller(
			h,
			d.type,
			{ event: d.event, ...d.params(ctx.sb), options: {} },
			{ budgetMs: 200 },
		);
		await p.poll();
		const made = await makeChanges(ctx.sb, d, 2);
		ctx.sb.faults.add({ kind: 'latency', ms: 600, count: 1 });
		const stuck = p.poll();
		await held();
		await sleep(250);
		ctx.sb.faults.add({ kind: 'latency', ms: 1500, count: 1 });
		const late = p.poll();
		expect(sorted(ids(d, await stuck))).toEqual(sorted(made));
		expect(await late).toBeNull();
		expect(p.lastPath).toBe('P5 → P8 → P11');
		expect(await p.poll()).toBeNull();
	});

	it('the workflow published again while a poll reads: the new activation polls at once, the earlier poll delivers nothing, each change comes once (P11)', async () => {
		const p = poller(d);
		await p.poll();
		const made = await makeChanges(ctx.sb, d, 2);
		ctx.sb.faults.add({ kind: 'latency', ms: 400, count: 1 });
		const before = p.poll();
		await held();
		p.republish();
		expect(sorted(ids(d, await p.poll()))).toEqual(sorted(made));
		expect(await before).toBeNull();
		expect(await p.poll()).toBeNull();
	});
});

describe('a list that moves while the poll pages', () => {
	const d = POLL_DRIVERS.find((x) => x.event === 'recordCreated')!;

	/** Passes every request to the sandbox; once armed, after the next first page of the record list, deletes the newest record. */
	async function deletingFront(tableId: string) {
		const state = { armed: false };
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
			if (state.armed && req.url?.includes('/paged-record') && req.url.includes('pageNo=1')) {
				state.armed = false;
				const newest = (JSON.parse(text) as { data: IDataObject[] }).data[0];
				await call(ctx.sb, 'DELETE', `/v1/crm/core/table/${tableId}/record/${String(newest._id)}`);
			}
			res.writeHead(answer.statusCode, {
				'content-type': String(answer.headers['content-type'] ?? 'application/json'),
			});
			res.end(text);
		});
		return { server, arm: () => (state.armed = true) };
	}

	it('a list that stands still is read once: a backlog of several pages asks for each page once', async () => {
		tuning.poll.pageSize = 3;
		const p = poller(d);
		await p.poll();
		const made = await makeChanges(ctx.sb, d, 7);
		const before = ctx.sb.requests().length;
		expect(sorted(ids(d, await p.poll()))).toEqual(sorted(made));
		const pages = ctx.sb
			.requests()
			.slice(before)
			.filter((r) => r.path.endsWith('/paged-record'))
			.map((r) => Number(new URLSearchParams(r.query).get('pageNo')));
		expect(pages.length).toBeGreaterThanOrEqual(3);
		expect(pages).toEqual(pages.map((_, i) => i + 1));
	});

	it('a record deleted after the first page was read hides no other: the poll reads again and delivers every change', async () => {
		tuning.poll.pageSize = 3;
		const params: IDataObject = { event: d.event, ...d.params(ctx.sb), options: {} };
		const tableId = String((params.tableId as IDataObject).value);
		const { server, arm } = await deletingFront(tableId);
		try {
			const moving = new Poller(
				createHarness(ctx.sb, ctx.sb.demo.tokenResponse, { baseUrl: server.url }),
				d.type,
				params,
			);
			await moving.poll();
			const made = await makeChanges(ctx.sb, d, 7);
			arm();
			const delivered = ids(d, await moving.poll());
			// The deleted record was on the first page, read before it went: it is delivered too.
			expect(sorted(delivered)).toEqual(sorted(made));
		} finally {
			await server.close();
		}
	});
});

describe('pickers of the polling triggers', () => {
	it('People Trigger → Employee lists the tenant’s users; Table Trigger → Table its tables and → Column the chosen table’s columns; Campaigns Trigger → Category its categories', async () => {
		const t = ctx.sb.store.tenant(1);
		const users = await pick<{ results: Array<{ value: string }> }>(
			h,
			'businessPlatformPeopleTrigger',
			'listSearch',
			'searchPeopleUsers',
			{ event: 'paystubCreated' },
		);
		expect(users.results.length).toBeGreaterThan(0);
		expect(users.results.every((u) => t.peopleUsers.has(u.value))).toBe(true);
		const tables = await pick<{ results: Array<{ value: string }> }>(
			h,
			'businessPlatformTableTrigger',
			'listSearch',
			'searchTables',
			{ event: 'recordCreated' },
		);
		expect(tables.results.map((x) => x.value).sort()).toEqual(
			t.tables
				.values()
				.map((x) => String(x._id))
				.sort(),
		);
		const table = t.tables.values()[0];
		const columns = await pick<Array<{ value: string }>>(
			h,
			'businessPlatformTableTrigger',
			'loadOptions',
			'getFilterColumns',
			{ event: 'recordCreated', tableId: { __rl: true, mode: 'id', value: String(table._id) } },
		);
		expect(columns.map((c) => c.value)).toEqual(
			expect.arrayContaining([
				...(table.columnsMetaData as IDataObject[]).map((c) => String(c.id)),
				'createdAt',
				'updatedAt',
			]),
		);
		const categories = await pick<{ results: Array<{ value: string }> }>(
			h,
			'businessPlatformCampaignsTrigger',
			'listSearch',
			'searchCategories',
			{ event: 'emailTemplateCreated' },
		);
		expect(categories.results.map((c) => c.value).sort()).toEqual(
			t.categories
				.values()
				.map((c) => String(c.id))
				.sort(),
		);
	});

	it('Table Trigger → Conditions are sent as the platform’s FilterRequest: only matching records start the workflow', async () => {
		const d = POLL_DRIVERS.find((x) => x.event === 'recordCreated')!;
		const params = d.params(ctx.sb);
		const tableId = String((params.tableId as IDataObject).value);
		const p = new Poller(h, d.type, {
			...params,
			event: d.event,
			match: 'and',
			conditions: { condition: [{ column: '_id', operator: 'eq', value: 'no-such-record' }] },
			options: {},
		});
		await p.poll();
		await makeChanges(ctx.sb, d, 2);
		expect(await p.poll()).toBeNull();
		const last = ctx.sb
			.requests()
			.filter((r) => r.path === `/v1/crm/core/table/${tableId}/paged-record`)
			.pop()!;
		expect(JSON.parse(last.body!)).toEqual({
			logicalOperator: 'and',
			conditions: [{ colId: '_id', opr: 'eq', value: 'no-such-record' }],
		});
	});
});

describe('errors', () => {
	it('an unknown table fails the poll with the platform’s words and a fix, and no token', async () => {
		const p = new Poller(h, 'businessPlatformTableTrigger', {
			event: 'recordCreated',
			tableId: { __rl: true, mode: 'id', value: 'no-such-table' },
			options: {},
		});
		const error = await p.poll().then(
			() => undefined,
			(e: Error & { description?: string }) => e,
		);
		expect(error).toBeDefined();
		expect(`${error!.message} ${error!.description ?? ''}`).not.toContain(ctx.sb.demo.accessToken);
	});

	it('"Fetch Test Event" with nothing to show says what to do', async () => {
		const p = new Poller(h, 'businessPlatformPeopleTrigger', {
			event: 'payrunCreated',
			year: 1999,
			options: {},
		});
		await expect(p.poll('manual')).rejects.toThrow('No payrun matches this event yet');
	});
});
