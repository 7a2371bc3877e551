/**
 * Backlogs within n8n's poll budget (issue 34): a Table Trigger on Record Created under the
 * durable scheduler with durable cursors, its budget 8 s (getPollBudgetMs; n8n abandons a poll
 * past it and throws its result away), every list page taking 1 s (a clock that moves by the
 * pages read: test/helpers/page-clock.ts). A backlog of 1,200 records (13 pages of 100) cannot be
 * read in one poll: each poll reads what fits, delivers the oldest part of the backlog in order
 * and moves its cursor past it; the next polls deliver the rest. Every record exactly once, no
 * poll abandoned. Also: the backlog of Emit Existing Items, records created while the backlog is
 * read, and the poll as before where n8n has no budget.
 */
import type { IDataObject } from 'n8n-workflow';

import { createHarness, type Harness } from '../../testbed/harness/run';
import { Poller, type Scheduler } from '../helpers/poll-harness';
import { PageClock } from '../helpers/page-clock';
import { setClock } from '../helpers/poll-drivers';
import { call, useSandbox } from '../helpers/sandbox';
import { fileTuning } from '../helpers/tuning';

/** This file's tunables and clocks (test/helpers/tuning.ts): the harness's nodes run with them. */
const tuning = fileTuning();

const ctx = useSandbox({ rows: 4 });
let h: Harness;
const realNow = tuning.poll.now;
beforeAll(() => {
	h = createHarness(ctx.sb);
	ctx.sb.config.requestLog = 100_000;
});
afterEach(() => {
	tuning.poll.now = realNow;
});

const table = () =>
	ctx.sb.store
		.tenant(1)
		.tables.values()
		.find((t) => t.objectType === 'CONTACT')!;
const records = () => ctx.sb.store.tenant(1).records.get(String(table()._id))!.values();
const path = () => `/v1/crm/core/table/${String(table()._id)}/record`;
const listPages = () =>
	ctx.sb.requests().filter((r) => r.path.endsWith('/paged-record') && r.method === 'POST').length;

/** `n` records, 20 at a time, the platform's clock running (a few share a millisecond). */
async function createRecords(n: number): Promise<string[]> {
	const cells = structuredClone(records()[0].cells);
	const ids: string[] = [];
	for (let i = 0; i < n; i += 20) {
		const batch = await Promise.all(
			Array.from(
				{ length: Math.min(20, n - i) },
				async () => await call<IDataObject>(ctx.sb, 'POST', path(), { body: { cells } }),
			),
		);
		ids.push(...batch.map((r) => String(r.body.id)));
	}
	return ids;
}

interface Run {
	poller: Poller;
	clock: PageClock;
	/** Per poll: what it delivered. */
	polls: IDataObject[][];
}

function trigger(scheduler: Scheduler, budgetMs: number | undefined, emitExisting = false): Run {
	const clock = new PageClock(listPages);
	tuning.poll.now = clock.now;
	const poller = new Poller(
		h,
		'businessPlatformTableTrigger',
		{
			event: 'recordCreated',
			tableId: { __rl: true, mode: 'id', value: String(table()._id) },
			options: emitExisting ? { emitExisting: true } : {},
		},
		{ scheduler, budgetMs, now: clock.now },
	);
	return { poller, clock, polls: [] };
}

/** Polls until a poll delivers nothing and leaves no backlog behind (at most `max`); each poll's items and time. */
async function drain(run: Run, max = 40): Promise<Array<{ items: number; ms: number }>> {
	const seen: Array<{ items: number; ms: number }> = [];
	for (let n = 0; n < max; n++) {
		const before = run.clock.now();
		const out = await run.poller.poll();
		seen.push({ items: out?.length ?? 0, ms: run.clock.now() - before });
		if (out) run.polls.push(out);
		else if (!(run.poller.nodeData.cursor as { behind?: boolean } | undefined)?.behind) break;
	}
	return seen;
}

const ids = (run: Run) => run.polls.flat().map((j) => String(j._id));
const times = (run: Run) => run.polls.flat().map((j) => Date.parse(String(j.createdAt)));
const sorted = (list: number[]) => [...list].sort((a, b) => a - b);

describe('a backlog longer than the poll budget', () => {
	beforeEach(async () => await setClock(ctx.sb, { freeze: false }));

	// Without durable cursors n8n keeps nothing of a poll that returns nothing (no backlog mark):
	// every poll must deliver on its own.
	it.each(['durableCursors', 'durable', 'default'] as const)(
		'1,200 records (13 pages of 1 s, budget 8 s, %s): delivered over several polls, oldest first, each exactly once, no poll past the budget',
		async (scheduler) => {
			const run = trigger(scheduler, 8000);
			expect(await run.poller.poll()).toBeNull(); // publishing: from now
			const made = await createRecords(1200);
			const seen = await drain(run);

			expect(ids(run).sort()).toEqual([...made].sort());
			expect(times(run)).toEqual(sorted(times(run)));
			expect(run.poller.abandoned).toBe(0);
			// More than one poll delivered, and none took more than the budget.
			expect(run.polls.length).toBeGreaterThan(1);
			expect(seen.every((p) => p.ms <= 8000)).toBe(true);
			// The cursor ends at the newest record: one more poll delivers nothing.
			expect(await run.poller.poll()).toBeNull();
		},
	);

	it('records created while the backlog is read, and a page that takes longer once (that poll is abandoned): still each exactly once, in order', async () => {
		const run = trigger('durableCursors', 8000);
		await run.poller.poll();
		const made = await createRecords(700);
		const first = await run.poller.poll();
		run.polls.push(first ?? []);
		made.push(...(await createRecords(150)));
		// The poll's second page takes 9 s: it ends past the budget, n8n abandons it.
		run.clock.next = [1000, 9000];
		const slow = await run.poller.poll();
		expect(slow).toBeNull();
		expect(run.poller.abandoned).toBe(1);
		made.push(...(await createRecords(150)));
		await drain(run);
		expect(ids(run).sort()).toEqual([...made].sort());
		expect(new Set(ids(run)).size).toBe(ids(run).length);
		expect(times(run)).toEqual(sorted(times(run)));
	});

	it('a backlog mark past the list (a stale or odd page number: 2^53 − 1, 10^6) still drains the backlog, each record once', async () => {
		for (const page of [Number.MAX_SAFE_INTEGER, 1_000_000]) {
			const run = trigger('durableCursors', 8000);
			await run.poller.poll();
			const made = await createRecords(300);
			run.poller.editSaved((node) => Object.assign(node.cursor as IDataObject, { behind: page }));
			await drain(run);
			expect(ids(run).sort()).toEqual([...made].sort());
			expect(times(run)).toEqual(sorted(times(run)));
		}
	});

	it('a backlog mark left when every record of the list is gone: the next poll finds the list empty and clears it', async () => {
		const run = trigger('durableCursors', 8000);
		await run.poller.poll();
		run.poller.editSaved((node) => Object.assign(node.cursor as IDataObject, { behind: 5 }));
		const saved = ctx.sb.config.maxPageSize;
		const all = records().map((r) => String(r._id));
		const store = ctx.sb.store.tenant(1).records.get(String(table()._id))!;
		const kept = new Map(all.map((id) => [id, store.get(id)]));
		for (const id of all) store.delete(id);
		try {
			expect(await run.poller.poll()).toBeNull();
			expect((run.poller.nodeData.cursor as { behind?: number }).behind).toBeUndefined();
		} finally {
			for (const [id, r] of kept) if (r) store.set(id, r);
			ctx.sb.config.maxPageSize = saved;
		}
	});

	it('Emit Existing Items with every record of the table: the first polls deliver them oldest first, within the budget', async () => {
		const run = trigger('durable', 8000, true);
		const all = records().map((r) => String(r._id));
		expect(all.length).toBeGreaterThan(1000);
		const seen = await drain(run, 60);
		expect(ids(run).sort()).toEqual([...all].sort());
		expect(times(run)).toEqual(sorted(times(run)));
		expect(run.poller.abandoned).toBe(0);
		expect(seen.every((p) => p.ms <= 8000)).toBe(true);
	});

	it('under the default scheduler (its budget of five minutes) a backlog that fits is read whole and delivered at once, as before', async () => {
		const run = trigger('default', undefined);
		await run.poller.poll();
		const made = await createRecords(500);
		const seen = await drain(run);
		expect(run.polls).toHaveLength(1);
		expect(ids(run).sort()).toEqual([...made].sort());
		expect(seen[0].ms).toBeGreaterThan(5000);
	});
});
