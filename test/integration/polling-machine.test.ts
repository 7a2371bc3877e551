/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The polling triggers' state machine (nodes/shared/polling/machine.ts; its table is in
 * docs/polling-triggers.md, "Exactly once: the state machine"), through n8n-core's PollContext
 * against the sandbox:
 * - every row of the table, driven and named (the rows each poll went through, from its log line);
 *   the table and the module name the same rows;
 * - the cases of issue 39: a burst of 150,000 changes in one poll; a trigger published again with
 *   a fresh cursor while a poll of the former activation runs; a backlog longer than five minutes
 *   on an n8n without a poll budget (1.x); the Regional API Base URL set to the API Base URL;
 * - what held before and must hold still: a copied workflow does not interfere, edits that do
 *   not change what the list reads keep the cursor, a failed poll frees its turn.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { OWN_POLL_BUDGET_MS } from '../../nodes/shared/n8n-internals';
import { CREDENTIAL_TYPE } from '../../testbed/harness/credentials';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { Poller, type PollerOptions } from '../helpers/poll-harness';
import { PageClock, recordPagesServed } from '../helpers/page-clock';
import { setClock } from '../helpers/poll-drivers';
import { call, useSandbox } from '../helpers/sandbox';
import { fileTuning } from '../helpers/tuning';

/** This file's tunables and clocks (test/helpers/tuning.ts): the harness's nodes run with them. */
const tuning = fileTuning();

const ctx = useSandbox({ rows: 4 });
let h: Harness;
const defaults = { ...tuning.poll };
let served: number;
beforeAll(() => {
	h = createHarness(ctx.sb);
	served = ctx.sb.config.maxPageSize;
});
afterEach(async () => {
	Object.assign(tuning.poll, defaults);
	ctx.sb.faults.clear();
	ctx.sb.config.maxPageSize = served;
	await setClock(ctx.sb, { freeze: false, advanceMs: 1000 });
});

const tableOf = (objectType: string) =>
	ctx.sb.store
		.tenant(1)
		.tables.values()
		.find((t) => t.objectType === objectType)!;
const recordsOf = (objectType: string) =>
	ctx.sb.store.tenant(1).records.get(String(tableOf(objectType)._id))!;
const params = (objectType = 'CONTACT', extra: IDataObject = {}): IDataObject => ({
	event: 'recordCreated',
	tableId: { __rl: true, mode: 'id', value: String(tableOf(objectType)._id) },
	options: {},
	...extra,
});
const trigger = (options: PollerOptions = {}, objectType = 'CONTACT', extra: IDataObject = {}) =>
	new Poller(h, 'businessPlatformTableTrigger', params(objectType, extra), options);
const ids = (items: IDataObject[] | null) => (items ?? []).map((j) => String(j._id));
const sorted = (list: string[]) => [...list].sort();

/** `n` records of a table, made over HTTP ten at a time (the sandbox's clock running); their IDs. */
async function create(n: number, objectType = 'CONTACT'): Promise<string[]> {
	const cells = structuredClone(recordsOf(objectType).values()[0].cells);
	const path = `/v1/crm/core/table/${String(tableOf(objectType)._id)}/record`;
	const made: string[] = [];
	for (let i = 0; i < n; i += 10) {
		const batch = await Promise.all(
			Array.from(
				{ length: Math.min(10, n - i) },
				async () => await call<IDataObject>(ctx.sb, 'POST', path, { body: { cells } }),
			),
		);
		for (const r of batch) made.push(String(r.body.id));
	}
	return made;
}

/** `count` records stored at once (the sandbox's bulk generator), `every` ms apart from the sandbox's now on. */
async function bulk(objectType: string, count: number, every = 1): Promise<void> {
	const at = ctx.sb.store.clock.now() + 1000;
	const res = await call(ctx.sb, 'POST', '/__admin/seed', {
		body: { kind: 'records', tableId: String(tableOf(objectType)._id), count, at, every },
	});
	expect(res.status).toBe(200);
	await setClock(ctx.sb, { at: new Date(at + count * every + 1000).toISOString() });
}

/** Until the sandbox holds a request back (a `latency` fault of count 1 has fired: a poll is then reading). */
const held = async () => {
	while (ctx.sb.faults.list().some((f) => f.kind === 'latency')) await sleep(5);
};

const listPages = () => recordPagesServed(() => ctx.sb.stats());

describe('a burst past every bound in one poll', () => {
	it('150,000 records created after activation (a bulk import): one poll delivers each once, oldest first, and the next poll nothing', async () => {
		const p = trigger({}, 'PIPELINE');
		expect(await p.poll()).toBeNull();
		await bulk('PIPELINE', 150_000);
		const out = await p.poll();
		const got = ids(out);
		expect(got.length).toBe(150_000);
		expect(new Set(got).size).toBe(150_000);
		const times = (out ?? []).map((j) => Date.parse(String(j.createdAt)));
		expect(times.every((t, i) => i === 0 || t >= times[i - 1])).toBe(true);
		expect(p.lastPath).toBe('P5 → P8 → P12');
		expect(await p.poll()).toBeNull();
	}, 300_000);
});

describe('every row of the state machine (docs/polling-triggers.md)', () => {
	const doc = readFileSync(join(__dirname, '../../docs/polling-triggers.md'), 'utf8');
	const code = readFileSync(join(__dirname, '../../nodes/shared/polling/machine.ts'), 'utf8');
	const documented = [...doc.matchAll(/^\| (P\d+) \|/gm)].map((m) => m[1]);

	/** Each row: a poll that goes through it, and what it delivered and committed. */
	const ROWS: Record<string, () => Promise<void>> = {
		P1: async () => {
			const p = trigger();
			await p.poll();
			const [made] = await create(1);
			expect(ids(await p.poll('manual'))).toEqual([made]);
			expect(p.lastPath).toBe('P1');
			expect(ids(await p.poll())).toEqual([made]); // the cursor did not move
		},
		P2: async () => {
			const p = trigger();
			await p.poll();
			const made = await create(2);
			ctx.sb.faults.add({ kind: 'latency', ms: 400, count: 1 });
			const first = p.poll();
			await held();
			expect(await p.poll()).toBeNull();
			expect(p.lastPath).toBe('P2');
			expect(sorted(ids(await first))).toEqual(sorted(made));
		},
		P3: async () => {
			const p = trigger({ scheduler: 'durableCursors' });
			await p.poll();
			const [made] = await create(1);
			// The second poll loads the cursor from before the first one's delivery was committed.
			const [a, b] = await p.pollOverlapping(false);
			expect([ids(a), b]).toEqual([[made], null]);
			expect(p.lastPath).toBe('P3');
			expect(await p.poll()).toBeNull();
		},
		P4: async () => {
			const p = trigger();
			expect(await p.poll()).toBeNull();
			expect(p.lastPath).toMatch(/^P4 → /);
		},
		P5: async () => {
			const p = trigger();
			await p.poll();
			expect(await p.poll()).toBeNull();
			expect(p.lastPath).toMatch(/^P5 → /);
		},
		P6: async () => {
			const p = trigger();
			expect(await p.poll()).toBeNull();
			expect(p.lastPath).toBe('P4 → P6 → P13');
			expect((p.nodeData.cursor as { since: number }).since).toBeGreaterThan(0);
		},
		P7: async () => {
			const p = trigger({}, 'CONTACT', { options: { emitExisting: true } });
			expect(ids(await p.poll()).length).toBe(recordsOf('CONTACT').size);
			expect(p.lastPath).toBe('P4 → P7 → P8 → P12');
		},
		P8: async () => {
			const p = trigger();
			await p.poll();
			const made = await create(3);
			expect(sorted(ids(await p.poll()))).toEqual(sorted(made));
			expect(p.lastPath).toBe('P5 → P8 → P12');
		},
		P9: async () => {
			tuning.poll.pageSize = 3;
			const clock = new PageClock(listPages);
			tuning.poll.now = clock.now;
			const p = trigger({ budgetMs: 9000, now: clock.now });
			await p.poll();
			const made = await create(60);
			const first = ids(await p.poll());
			expect(p.lastPath).toBe('P5 → P9 → P12');
			expect(first.length).toBeGreaterThan(0);
			expect(first.length).toBeLessThan(60);
			const all = [...first];
			for (let n = 0; n < 30 && all.length < 60; n++) all.push(...ids(await p.poll()));
			expect(sorted(all)).toEqual(sorted(made));
		},
		P10: async () => {
			const p = trigger();
			await p.poll();
			const [made] = await create(1);
			ctx.sb.faults.add({ kind: 'status', status: 400, count: 1 });
			await expect(p.poll()).rejects.toThrow();
			expect(p.lastPath).toBe('P5 → P10');
			expect(ids(await p.poll())).toEqual([made]);
		},
		P11: async () => {
			const p = trigger();
			await p.poll();
			const made = await create(2);
			ctx.sb.faults.add({ kind: 'latency', ms: 400, count: 1 });
			const former = p.poll();
			await held();
			p.republish();
			expect(sorted(ids(await p.poll()))).toEqual(sorted(made));
			expect(await former).toBeNull();
			expect(p.lastPath).toBe('P5 → P8 → P11');
		},
		P12: async () => {
			const p = trigger();
			await p.poll();
			const [made] = await create(1);
			expect(ids(await p.poll())).toEqual([made]);
			expect(p.lastPath).toMatch(/ → P12$/);
			p.restart(); // what n8n saved with the execution
			expect(await p.poll()).toBeNull();
		},
		P13: async () => {
			const p = trigger({ scheduler: 'durableCursors' });
			expect(await p.poll()).toBeNull(); // the poll at publishing: n8n commits nothing for it
			expect(p.lastPath).toMatch(/ → P13$/);
			const [made] = await create(1);
			expect(ids(await p.poll())).toEqual([made]); // the pack's own commit kept the cursor
		},
		P14: async () => {
			const p = trigger();
			await p.poll();
			const cursor = JSON.stringify(p.nodeData.cursor);
			expect(await p.poll()).toBeNull();
			expect(p.lastPath).toBe('P5 → P8 → P14');
			expect(JSON.stringify(p.nodeData.cursor)).toBe(cursor);
		},
		P15: async () => {
			let now = 0;
			tuning.poll.now = () => now;
			const p = trigger({ scheduler: 'durableCursors', budgetMs: 36_000, now: () => now });
			await p.poll();
			const [made] = await create(1);
			expect(await p.poll('trigger', true)).toBeNull(); // n8n abandons it: the items never reach the workflow
			now += 60_000;
			expect(await p.poll()).toBeNull();
			expect(p.lastPath).toBe('P3');
			now += 2 * 36_000;
			expect(ids(await p.poll())).toEqual([made]);
			expect(await p.poll()).toBeNull();
		},
		P16: async () => {
			const p = dealTrigger();
			const { deal, stages } = await newDeal(p);
			await call(ctx.sb, 'PUT', `/v1/crm/deals/${deal}`, { body: { name: 'Renamed' } });
			await setClock(ctx.sb, { advanceMs: 1000 });
			expect(await p.poll()).toBeNull(); // not the watched field: the cursor and the memory move on
			expect(p.lastPath).toBe('P5 → P8 → P16 → P13');
			await call(ctx.sb, 'PUT', `/v1/crm/deals/${deal}`, { body: { stage_id: stages[1] } });
			await setClock(ctx.sb, { advanceMs: 1000 });
			expect(await p.poll()).toEqual([
				expect.objectContaining({ changedFields: ['stage_id'], previous: { stage_id: stages[0] } }),
			]);
			expect(p.lastPath).toBe('P5 → P8 → P16 → P12');
		},
		P17: async () => {
			const p = dealTrigger();
			const { deal } = await newDeal(p);
			await call(ctx.sb, 'DELETE', `/v1/crm/deals/${deal}`);
			expect(await p.poll()).toEqual([expect.objectContaining({ change: 'deleted', id: deal })]);
			expect(p.lastPath).toBe('P5 → P8 → P16 → P17 → P12');
			expect(await p.poll()).toBeNull();
		},
	};

	/** The Sales Trigger (version 4) on Deal Changed, only when the stage changes. */
	const dealTrigger = () =>
		new Poller(
			h,
			'businessPlatformSalesTrigger',
			{ events: ['POLL_CRM_DEALS'], watchFields: ['stage_id'] },
			{ typeVersion: 4 },
		);
	/** A deal in the first pipeline's first stage, made before the trigger's first poll (which remembers it). */
	const newDeal = async (p: Poller) => {
		const pipeline = ctx.sb.store.tenant(1).pipelines.values()[0];
		const stages = (pipeline.stages as IDataObject[]).map((s) => s.id as number);
		const made = await call(ctx.sb, 'POST', '/v1/crm/deals', {
			body: { name: 'Row', pipeline_id: pipeline.id, stage_id: stages[0] },
		});
		await setClock(ctx.sb, { advanceMs: 1000 });
		expect(await p.poll()).toBeNull();
		return { deal: (made.body as IDataObject).id as number, stages };
	};

	it('the table in the docs and the module name the same rows, P1 to P17, each once', () => {
		expect(documented).toEqual(Object.keys(ROWS));
		for (const row of documented) expect(code).toMatch(new RegExp(`\\b${row}\\b`));
	});

	it.each(Object.keys(ROWS))('%s', async (row) => {
		await ROWS[row]();
	});
});

describe('published again while a poll of the former activation runs (issue 39)', () => {
	it.each([
		['default', 'the table changed'],
		['default', 'the workflow re-created with the same IDs'],
		['durable', 'the table changed'],
		['durableCursors', 'the table changed'],
		['durableCursors', 'the workflow re-created with the same IDs'],
	] as const)(
		'%s scheduler, %s: the new activation sets its cursor at once, and a record made next is delivered',
		async (scheduler, how) => {
			const p = trigger({ scheduler });
			await p.poll();
			await create(2);
			ctx.sb.faults.add({ kind: 'latency', ms: 500, count: 1 });
			const former = scheduler === 'default' ? p.poll() : p.poll().catch(() => null);
			await held();
			if (how === 'the table changed') p.edit(params('DEAL'));
			else p.recreate();
			expect(await p.poll()).toBeNull(); // its first poll: from now
			expect(p.lastPath).toBe('P4 → P6 → P13');
			await former;
			const objectType = how === 'the table changed' ? 'DEAL' : 'CONTACT';
			const made = await create(1, objectType);
			expect(ids(await p.poll())).toEqual(made);
		},
	);
});

/** n8n's default scheduler: a poll at every Poll Time (each minute of the page clock), without waiting for the last one. */
async function everyMinute(p: Poller, clock: PageClock, minutes: number): Promise<IDataObject[]> {
	const delivered: IDataObject[] = [];
	const running = new Set<Promise<void>>();
	for (let minute = 1; minute <= minutes; minute++) {
		while (running.size > 0 && clock.now() < minute * 60_000) await sleep(1);
		if (clock.now() < minute * 60_000) clock.advance(minute * 60_000 - clock.now());
		const run: Promise<void> = p
			.poll()
			.then((out) => void delivered.push(...(out ?? [])))
			.finally(() => running.delete(run));
		running.add(run);
	}
	await Promise.all(running);
	return delivered;
}

describe('a backlog longer than five minutes of pages (issue 39)', () => {
	it.each([
		['oldest', 'without a poll budget (n8n 1.x): the pack keeps its own'],
		['newest', "with n8n 2.41's budget (5 minutes under the default scheduler)"],
	] as const)(
		'30,000 records, pages of 2 s, a poll every minute, %s end %s: each delivered once, in order, within 40 minutes',
		async (...[n8n]) => {
			const clock = new PageClock(listPages);
			clock.pageMs = 2000;
			tuning.poll.now = clock.now;
			const p = trigger({ n8n, now: clock.now }, 'STAGE');
			await p.poll();
			await bulk('STAGE', 30_000);
			const delivered = await everyMinute(p, clock, 40);
			const got = ids(delivered);
			expect(new Set(got).size).toBe(got.length);
			expect(got.length).toBe(30_000);
			const times = delivered.map((j) => Date.parse(String(j.createdAt)));
			expect(times.every((t, i) => i === 0 || t >= times[i - 1])).toBe(true);
			if (n8n === 'oldest') expect(OWN_POLL_BUDGET_MS).toBeLessThan(60_000);
		},
		120_000,
	);
});

describe('the account is the address a list is read from (issue 39)', () => {
	it.each([
		['the API Base URL itself', (base: string) => base],
		['the API Base URL with a trailing "/"', (base: string) => `${base}/`],
		[
			'the API Base URL with its scheme in capitals and two trailing "/"',
			(base: string) => `${base.replace('http://', 'HTTP://')}//`,
		],
	])(
		'a Regional API Base URL set to %s: the same account, the cursor kept, a record made before the edit delivered',
		async (_how, regional) => {
			const id = `cred-regional-${_how.length}`;
			h.credentials.add({
				id,
				name: 'Regional',
				type: CREDENTIAL_TYPE,
				data: { ...h.credentials.store.get(h.credentials.defaultId)!.data },
			});
			const p = trigger();
			p.useCredential(id, 'Regional');
			await p.poll();
			const [made] = await create(1);
			const stored = h.credentials.store.get(id)!;
			stored.data = { ...stored.data, regionalBaseUrl: regional(ctx.sb.baseUrl) };
			expect(ids(await p.poll())).toEqual([made]);
		},
	);
});

describe('what held and still holds', () => {
	it('a copied workflow (the same node ID in another workflow) is another trigger: a poll of one never holds back the other', async () => {
		const [a, b] = [trigger(), trigger()];
		await a.poll();
		await b.poll();
		const made = await create(2);
		ctx.sb.faults.add({ kind: 'latency', ms: 400, count: 1 });
		const first = a.poll();
		await held();
		expect(sorted(ids(await b.poll()))).toEqual(sorted(made));
		expect(sorted(ids(await first))).toEqual(sorted(made));
	});

	it.each([
		['Poll Times', (x: IDataObject) => ({ ...x, pollTimes: { item: [{ mode: 'everyHour' }] } })],
		['Emit Existing Items', (x: IDataObject) => ({ ...x, options: { emitExisting: true } })],
		[
			"the table picker's mode (From list, the same table)",
			(x: IDataObject) => ({
				...x,
				tableId: { ...(x.tableId as IDataObject), mode: 'list', cachedResultName: 'Contacts' },
			}),
		],
		['nothing the list reads (notes, the node renamed)', (x: IDataObject) => ({ ...x })],
	])(
		'an edit of %s keeps the cursor: a record made before it is delivered once',
		async (_what, edit) => {
			const p = trigger();
			await p.poll();
			const [made] = await create(1);
			p.edit(edit(params()));
			expect(ids(await p.poll())).toEqual([made]);
			expect(await p.poll()).toBeNull();
		},
	);

	it('a renamed credential keeps the cursor', async () => {
		const p = trigger();
		await p.poll();
		const [made] = await create(1);
		p.useCredential(h.credentials.defaultId, 'Renamed');
		expect(ids(await p.poll())).toEqual([made]);
	});

	it('a failed poll frees its turn: the next poll from the same start runs at once and delivers', async () => {
		const p = trigger();
		await p.poll();
		const [made] = await create(1);
		ctx.sb.faults.add({ kind: 'status', status: 400, count: 1 });
		await expect(p.poll()).rejects.toThrow();
		expect(ids(await p.poll())).toEqual([made]);
		expect(p.lastPath).toBe('P5 → P8 → P12');
	});
});
