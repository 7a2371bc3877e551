/**
 * Property: the polling state machine (nodes/shared/polling/machine.ts) delivers each change
 * exactly once past every bound, model-based. A Table Trigger on Record Created, polled as each of
 * n8n's schedulers polls it (test/helpers/poll-harness.ts) and on both ends of the tested n8n range (2.41,
 * with its poll budget and commit hook; 1.x, with neither: the pack's own budget), with a clock
 * that moves by the time each list page takes. Steps: single creates, bursts of one frozen
 * timestamp, bursts of 10^5 to 2·10^5 records in one poll (a bulk import), deletes, clock moves
 * and jumps past 2^31 ms, polls, two polls at once or one before the other's delivery landed,
 * takeovers (a poll held past the budget while the next Poll Time's poll starts), the workflow
 * published again or re-created with the same IDs while a poll runs, restarts, polls n8n
 * abandons, a platform serving smaller pages than asked. After the steps it polls until nothing
 * is left:
 * - no change is delivered twice, and deliveries come in the order of their times;
 * - every record created after the first poll is delivered, none that existed before it (a record
 *   that existed, undelivered, when the workflow was re-created belongs to the deleted workflow:
 *   it may come once, or not at all).
 * `npm run test:internals:oldest` runs it on n8n 1.123.81's n8n-core too (the default scheduler).
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { OWN_POLL_BUDGET_MS } from '../../nodes/shared/n8n-internals';
import { n8nAtLeast } from '../../testbed/runtime/versions';
import { Poller, type PollerOptions, type Scheduler } from '../helpers/poll-harness';
import { PageClock, recordPagesServed } from '../helpers/page-clock';
import { setClock } from '../helpers/poll-drivers';
import { checkProperty } from '../helpers/property';
import { pollWhileHeld, PROPERTY_PAGE, usePropertyPolls } from '../helpers/poll-property';
import { call } from '../helpers/sandbox';

/** This file's sandbox, tunables and clocks (test/helpers/poll-property.ts): the harness's nodes run with them. */
const { tuning, ctx, harness } = usePropertyPolls(2);
const PAGE = PROPERTY_PAGE;

type Step =
	| { kind: 'create' }
	| { kind: 'burst'; count: number }
	| { kind: 'bulk'; count: number }
	| { kind: 'delete'; pick: number }
	| { kind: 'clock'; freeze: boolean; advanceMs: number }
	| { kind: 'poll' }
	| { kind: 'overlap'; together: boolean }
	| { kind: 'takeover' }
	| { kind: 'republish'; recreate: boolean }
	| { kind: 'restart' }
	| { kind: 'abandon' }
	| { kind: 'served'; size: number };

const step: fc.Arbitrary<Step> = fc.oneof(
	{ weight: 4, arbitrary: fc.constant({ kind: 'create' as const }) },
	{
		weight: 1,
		arbitrary: fc.constantFrom(2, 3, 10).map((count) => ({ kind: 'burst' as const, count })),
	},
	// 10^5 to 2·10^5 changes in one poll: past what a call's arguments hold (about 1.25·10^5).
	{
		weight: 1,
		arbitrary: fc
			.integer({ min: 100_000, max: 200_000 })
			.map((count) => ({ kind: 'bulk' as const, count })),
	},
	{ weight: 1, arbitrary: fc.nat(1000).map((pick) => ({ kind: 'delete' as const, pick })) },
	{
		weight: 1,
		arbitrary: fc.record({
			kind: fc.constant('clock' as const),
			freeze: fc.boolean(),
			advanceMs: fc.constantFrom(0, 1, 1000, 2 ** 31 + 1),
		}),
	},
	{ weight: 3, arbitrary: fc.constant({ kind: 'poll' as const }) },
	{
		weight: 3,
		arbitrary: fc.boolean().map((together) => ({ kind: 'overlap' as const, together })),
	},
	{ weight: 2, arbitrary: fc.constant({ kind: 'takeover' as const }) },
	{
		weight: 2,
		arbitrary: fc.boolean().map((recreate) => ({ kind: 'republish' as const, recreate })),
	},
	{ weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
	{ weight: 1, arbitrary: fc.constant({ kind: 'abandon' as const }) },
	{
		weight: 1,
		arbitrary: fc.constantFrom(250, 999).map((size) => ({ kind: 'served' as const, size })),
	},
);

/** The settings a run polls under: n8n's scheduler, its end of the range, the budget it gives. */
interface Setting {
	scheduler: Scheduler;
	n8n: 'newest' | 'oldest';
	budgetMs?: number;
}

const settings: fc.Arbitrary<Setting> = n8nAtLeast('2.41.0')
	? fc.oneof(
			fc.record({
				scheduler: fc.constantFrom<Scheduler>('default', 'durable', 'durableCursors'),
				n8n: fc.constant('newest' as const),
				budgetMs: fc.constantFrom(undefined, 9000, 36_000),
			}),
			fc.constant({ scheduler: 'default' as const, n8n: 'oldest' as const }),
		)
	: fc.constant({ scheduler: 'default' as const, n8n: 'oldest' as const });

const table = () =>
	ctx.sb.store
		.tenant(1)
		.tables.values()
		.find((t) => t.objectType === 'STAGE')!;
const store = () => ctx.sb.store.tenant(1).records.get(String(table()._id))!;
const records = () => store().values();
const path = () => `/v1/crm/core/table/${String(table()._id)}/record`;
const listPages = () => recordPagesServed(() => ctx.sb.stats());

/** A minute: n8n's shortest Poll Time; a page of the list takes 100 ms of it. */
const POLL_TIME = 60_000;
const PAGE_MS = 100;

/** Polls that may run before the last one delivers nothing, at most. */
const DRAIN = 100;

async function run(setting: Setting, steps: Step[]): Promise<void> {
	await setClock(ctx.sb, { freeze: false });
	ctx.sb.faults.clear();
	ctx.sb.config.maxPageSize = PAGE;
	// Each run starts with a table of two records (the records of earlier runs, and their bursts, are gone).
	const keep = records().slice(0, 2);
	store().clear();
	for (const r of keep) store().set(String(r._id), r);
	const clock = new PageClock(listPages);
	clock.pageMs = PAGE_MS;
	tuning.poll.now = clock.now;
	const options: PollerOptions = { ...setting, now: clock.now };
	const budget =
		setting.budgetMs ?? (setting.n8n === 'oldest' ? OWN_POLL_BUDGET_MS : 5 * POLL_TIME);
	const poller = new Poller(
		harness(),
		'businessPlatformTableTrigger',
		{
			event: 'recordCreated',
			tableId: { __rl: true, mode: 'id', value: String(table()._id) },
			options: {},
		},
		options,
	);
	const delivered: string[] = [];
	const times: number[] = [];
	const take = (out: IDataObject[] | null) => {
		for (const j of out ?? []) {
			delivered.push(String(j._id));
			times.push(Date.parse(String(j.createdAt)));
		}
	};
	/** A poll held by the platform while `meanwhile` happens; both polls' items. */
	const whileHeld = async (meanwhile: () => void) =>
		(await pollWhileHeld(ctx.sb, poller, meanwhile)).forEach(take);
	// The first poll (publishing) starts from now: what exists then is old.
	const old = new Set(records().map((r) => String(r._id)));
	const exempt = new Set<string>();
	take(await poller.poll());
	expect(delivered).toEqual([]);
	const durable = setting.scheduler !== 'default';
	const tick = () => clock.advance(POLL_TIME);
	// One bulk import a run at most: each costs 10^3 to 2·10^3 pages of the sandbox.
	let bulked = false;
	for (const s of steps) {
		const live = records();
		if (['poll', 'abandon', 'overlap', 'takeover', 'republish'].includes(s.kind)) tick();
		if (s.kind === 'create')
			await call(ctx.sb, 'POST', path(), {
				body: { cells: structuredClone(live[0]?.cells ?? {}) },
			});
		else if (s.kind === 'burst') {
			await setClock(ctx.sb, { freeze: true });
			for (let i = 0; i < s.count; i++) await call(ctx.sb, 'POST', path(), { body: { cells: {} } });
			await setClock(ctx.sb, { freeze: false, advanceMs: 1 });
		} else if (s.kind === 'bulk' && !bulked) {
			bulked = true;
			const at = ctx.sb.store.clock.now() + 1;
			await call(ctx.sb, 'POST', '/__admin/seed', {
				body: { kind: 'records', tableId: String(table()._id), count: s.count, at, every: 1 },
			});
			await setClock(ctx.sb, { at: new Date(at + s.count + 1).toISOString() });
		} else if (s.kind === 'delete' && live.length > 1)
			await call(ctx.sb, 'DELETE', `${path()}/${String(live[s.pick % live.length]._id)}`);
		else if (s.kind === 'clock')
			await setClock(ctx.sb, { freeze: s.freeze, advanceMs: s.advanceMs });
		else if (s.kind === 'poll') take(await poller.poll());
		else if (s.kind === 'overlap') (await poller.pollOverlapping(s.together)).forEach(take);
		else if (s.kind === 'takeover') await whileHeld(() => clock.advance(budget + 1));
		else if (s.kind === 'republish')
			await whileHeld(() => {
				if (!s.recreate) return poller.republish();
				const seen = new Set(delivered);
				for (const r of records())
					if (!old.has(String(r._id)) && !seen.has(String(r._id))) exempt.add(String(r._id));
				poller.recreate();
			});
		else if (s.kind === 'restart') poller.restart();
		else if (s.kind === 'abandon' && durable) take(await poller.poll('trigger', true));
		else if (s.kind === 'served') ctx.sb.config.maxPageSize = s.size;
	}
	// Drain: the platform back to full pages, a budget that holds the largest burst's pages at the
	// cursor, and time past the holds of deliveries n8n threw away (P3) before each poll.
	await setClock(ctx.sb, { freeze: false, advanceMs: 1000 });
	ctx.sb.config.maxPageSize = PAGE;
	clock.pageMs = PAGE_MS;
	const due = () => records().filter((r) => !old.has(String(r._id)) && !exempt.has(String(r._id)));
	const once = new Set<string>();
	for (let n = 0; n < DRAIN; n++) {
		clock.advance(Math.max(POLL_TIME, 2 * budget + 1));
		const out = await poller.poll();
		take(out);
		for (const id of delivered) once.add(id);
		if (out === null && due().every((r) => once.has(String(r._id)))) break;
	}
	for (const id of delivered) once.add(id);
	expect(delivered.length).toBe(once.size);
	const missing = due()
		.map((r) => String(r._id))
		.filter((id) => !once.has(id));
	expect(missing.slice(0, 5)).toEqual([]);
	const alive = new Set(records().map((r) => String(r._id)));
	expect(delivered.filter((id) => old.has(id) && alive.has(id))).toEqual([]);
	expect(times.every((t, i) => i === 0 || t >= times[i - 1])).toBe(true);
}

describe('the polling state machine delivers each change exactly once past every bound', () => {
	it('each scheduler, both n8n ends: creates, frozen bursts, bursts of 10^5 to 2·10^5, deletes, clock jumps, overlaps, takeovers, publishing again or re-creating while a poll runs, restarts, abandoned polls, smaller pages', async () => {
		await checkProperty(
			25,
			fc.asyncProperty(settings, fc.array(step, { minLength: 1, maxLength: 16 }), run),
		);
	}, 600_000);
});
