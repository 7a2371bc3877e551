/**
 * Property: exactly once on the scheduler n8n is moving to (issue 34). A Table Trigger on Record
 * Created, polled as n8n's default scheduler, its durable scheduler, or the durable scheduler with
 * durable cursors polls it (test/helpers/poll-harness.ts), with a poll budget (getPollBudgetMs) and a
 * clock that moves by the time each list page takes. Steps: creates, bursts of one frozen
 * timestamp, deletes (a list that moves while a backlog is read), pages that take longer (a
 * budget that ends in the middle of a page: n8n abandons the poll and throws its result away),
 * polls n8n abandons anyway, one poll run twice (durable cursors: the first commit wins), two
 * polls of the node from one cursor, both committed (at once, or the second before the first's
 * delivery landed: n8n-internals 10), the
 * workflow published again (its activation poll is a test poll, whose cursor n8n does not
 * commit), restarts, a platform that serves fewer records a page than asked, and a stale or odd
 * backlog mark in the saved cursor (up to 2^53 − 1).
 * After the steps, polls (with a budget that holds the records of one timestamp) until nothing is
 * left:
 * - no change is delivered twice, and deliveries come in the order of their times;
 * - every record created after the first poll is delivered (the first poll starts from now), and
 *   none that existed before it.
 * (A backlog of many pages drained within a small budget, poll by poll: polling-budget.test.ts.)
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { searchPages } from '../../nodes/shared/polling/backlog';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { Poller, type Scheduler } from '../helpers/poll-harness';
import { PageClock } from '../helpers/page-clock';
import { setClock } from '../helpers/poll-drivers';
import { checkProperty } from '../helpers/property';
import { call, useSandbox } from '../helpers/sandbox';
import { fileTuning } from '../helpers/tuning';

/** This file's tunables and clocks (test/helpers/tuning.ts): the harness's nodes run with them. */
const tuning = fileTuning();

const ctx = useSandbox({ rows: 4 });
let h: Harness;
let served: number;
const realNow = tuning.poll.now;
beforeAll(() => {
	h = createHarness(ctx.sb);
	tuning.poll.pageSize = 3;
	served = ctx.sb.config.maxPageSize;
});
afterAll(() => {
	tuning.poll.pageSize = 100;
	tuning.poll.now = realNow;
	ctx.sb.config.maxPageSize = served;
});

type Step =
	| { kind: 'create' }
	| { kind: 'burst'; count: number }
	| { kind: 'delete'; pick: number }
	| { kind: 'clock'; freeze: boolean; advanceMs: number }
	| { kind: 'poll' }
	| { kind: 'slow'; pageMs: number }
	| { kind: 'abandon' }
	| { kind: 'twice' }
	| { kind: 'overlap'; together: boolean }
	| { kind: 'republish' }
	| { kind: 'restart' }
	| { kind: 'served'; size: number }
	| { kind: 'mark'; page: number };

const step: fc.Arbitrary<Step> = fc.oneof(
	{ weight: 4, arbitrary: fc.constant({ kind: 'create' as const }) },
	// Around and past a page (3), the pages a budget holds, and the pages a poll reads at most.
	{
		weight: 2,
		arbitrary: fc.constantFrom(2, 3, 4, 10, 25).map((count) => ({ kind: 'burst' as const, count })),
	},
	{ weight: 1, arbitrary: fc.nat(1000).map((pick) => ({ kind: 'delete' as const, pick })) },
	{
		weight: 2,
		arbitrary: fc.record({
			kind: fc.constant('clock' as const),
			freeze: fc.boolean(),
			advanceMs: fc.constantFrom(0, 1, 1000, 2 ** 31 + 1),
		}),
	},
	{ weight: 4, arbitrary: fc.constant({ kind: 'poll' as const }) },
	// Pages that take longer than the ones before: a poll may run past its budget mid-page.
	{
		weight: 1,
		arbitrary: fc
			.constantFrom(500, 1000, 2500, 9000)
			.map((pageMs) => ({ kind: 'slow' as const, pageMs })),
	},
	{ weight: 1, arbitrary: fc.constant({ kind: 'abandon' as const }) },
	{ weight: 1, arbitrary: fc.constant({ kind: 'twice' as const }) },
	// Two polls of the node from one cursor, both committed (n8n-internals 10).
	{
		weight: 1,
		arbitrary: fc.boolean().map((together) => ({ kind: 'overlap' as const, together })),
	},
	{ weight: 1, arbitrary: fc.constant({ kind: 'republish' as const }) },
	{ weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
	{
		weight: 1,
		arbitrary: fc.constantFrom(1, 2, 3, 500).map((size) => ({ kind: 'served' as const, size })),
	},
	// A stale or odd backlog mark in what n8n saved: inside, at and far past the list's pages.
	{
		weight: 1,
		arbitrary: fc
			.constantFrom(1, 2, 7, 2 ** 31 + 1, Number.MAX_SAFE_INTEGER)
			.map((page) => ({ kind: 'mark' as const, page })),
	},
);

const table = () =>
	ctx.sb.store
		.tenant(1)
		.tables.values()
		.find((t) => t.objectType === 'CONTACT')!;
const records = () => ctx.sb.store.tenant(1).records.get(String(table()._id))!.values();
const path = () => `/v1/crm/core/table/${String(table()._id)}/record`;
const create = async () =>
	await call(ctx.sb, 'POST', path(), { body: { cells: structuredClone(records()[0].cells) } });
const listPages = () =>
	ctx.sb.requests().filter((r) => r.path.endsWith('/paged-record') && r.method === 'POST').length;

/** A minute: n8n's shortest Poll Time. */
const POLL_TIME = 60_000;

/** Polls that may run (and be abandoned) before the last one delivers nothing, at most. */
const DRAIN = 200;

/** The drain's budget in pages: see `run`. */
function drainPages(): number {
	const all = records();
	const perTime = new Map<string, number>();
	for (const r of all)
		perTime.set(String(r.createdAt), (perTime.get(String(r.createdAt)) ?? 0) + 1);
	const page = tuning.poll.pageSize;
	const ofOneTime = Math.ceil(Math.max(0, ...perTime.values()) / page);
	return 2 + searchPages(Math.ceil(all.length / page)) + ofOneTime + 1;
}

async function run(scheduler: Scheduler, budgetMs: number | undefined, steps: Step[]) {
	await setClock(ctx.sb, { freeze: false });
	ctx.sb.config.maxPageSize = served;
	ctx.sb.config.requestLog = 100_000;
	const clock = new PageClock(listPages);
	tuning.poll.now = clock.now;
	const poller = new Poller(
		h,
		'businessPlatformTableTrigger',
		{
			event: 'recordCreated',
			tableId: { __rl: true, mode: 'id', value: String(table()._id) },
			options: {},
		},
		{ scheduler, budgetMs, now: clock.now },
	);
	const delivered: string[] = [];
	const times: number[] = [];
	const take = (out: IDataObject[] | null) => {
		for (const j of out ?? []) {
			delivered.push(String(j._id));
			times.push(Date.parse(String(j.createdAt)));
		}
	};
	// The first poll (publishing) starts from now: what exists then is old.
	const old = new Set(records().map((r) => String(r._id)));
	take(await poller.poll());
	expect(delivered).toEqual([]);
	const durable = scheduler !== 'default';
	// n8n's shortest Poll Time passes before each scheduled poll.
	const tick = () => clock.advance(POLL_TIME);
	for (const s of steps) {
		const live = records();
		if (['poll', 'abandon', 'twice', 'overlap'].includes(s.kind)) tick();
		if (s.kind === 'create') await create();
		else if (s.kind === 'burst') {
			await setClock(ctx.sb, { freeze: true });
			for (let i = 0; i < s.count; i++) await create();
		} else if (s.kind === 'delete' && live.length > 1)
			await call(ctx.sb, 'DELETE', `${path()}/${String(live[s.pick % live.length]._id)}`);
		else if (s.kind === 'clock')
			await setClock(ctx.sb, { freeze: s.freeze, advanceMs: s.advanceMs });
		else if (s.kind === 'poll') take(await poller.poll());
		else if (s.kind === 'slow') clock.pageMs = s.pageMs;
		else if (s.kind === 'abandon' && durable) take(await poller.poll('trigger', true));
		else if (s.kind === 'twice' && scheduler === 'durableCursors')
			(await poller.pollTwice()).forEach(take);
		else if (s.kind === 'overlap') (await poller.pollOverlapping(s.together)).forEach(take);
		else if (s.kind === 'republish') poller.republish();
		else if (s.kind === 'restart') poller.restart();
		else if (s.kind === 'served') ctx.sb.config.maxPageSize = s.size;
		else if (s.kind === 'mark')
			poller.editSaved((node) => {
				if (node.cursor) Object.assign(node.cursor as IDataObject, { behind: s.page });
			});
	}
	// Drain: the platform back to its default pages at the first page time, polls until nothing is
	// left, with the smallest budget a backlog read needs (docs/polling-triggers.md): page 1, the
	// pages that find the backlog without a mark, and the pages of the cursor's own timestamp.
	// Without durable cursors no mark survives a poll that delivers nothing: each must deliver.
	await setClock(ctx.sb, { freeze: false, advanceMs: 1000 });
	ctx.sb.config.maxPageSize = served;
	clock.pageMs = 1000;
	if (poller.budgetMs !== undefined) poller.budgetMs = 1000 * drainPages();
	const due = () => records().filter((r) => !old.has(String(r._id)));
	for (let n = 0; n < DRAIN; n++) {
		tick();
		const out = await poller.poll();
		take(out);
		if (out === null && due().every((r) => delivered.includes(String(r._id)))) break;
	}
	expect(delivered).toEqual([...new Set(delivered)]);
	const deleted = (id: string) => !records().some((r) => String(r._id) === id);
	// Every record created after publishing and still there is delivered (a deleted one may be, if a poll saw it).
	expect(
		due()
			.map((r) => String(r._id))
			.filter((id) => !delivered.includes(id)),
	).toEqual([]);
	expect(delivered.filter((id) => old.has(id) && !deleted(id))).toEqual([]);
	expect(times).toEqual([...times].sort((a, b) => a - b));
}

describe('polling triggers deliver each change exactly once on every scheduler', () => {
	it('default, durable, durable cursors: creates, bursts, deletes, slow pages past the budget, abandoned polls, a poll run twice, republishing, restarts, smaller served pages, stale backlog marks', async () => {
		await checkProperty(
			100,
			fc.asyncProperty(
				fc.constantFrom<Scheduler>('default', 'durable', 'durableCursors'),
				fc.constantFrom(undefined, 9000, 12_000, 36_000),
				fc.array(step, { minLength: 1, maxLength: 30 }),
				run,
			),
		);
	}, 300_000);
});
