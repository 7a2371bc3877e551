/**
 * Property: the Sales Trigger's polling events (version 4: contacts, deals, activities;
 * nodes/BusinessPlatformSalesTrigger/polling/) deliver each change exactly once, with what changed,
 * past every bound; model-based, as polling-machine.property.test.ts is for the state machine. A
 * run picks a list (and whether it watches a field: a contact's custom field, a deal's stage) and
 * one of n8n's schedulers on either end of the tested n8n range; the platform's clock is n8n's
 * ± 10 minutes. Steps: creates, edits (of the watched field or another), edits within one
 * platform second, deletions (deals), a burst of 10^5 records or more in one poll (once a run at most),
 * polls, two polls at once or one before the other's delivery landed, takeovers, the workflow
 * published again while a poll runs, restarts, abandoned polls, a platform serving smaller pages
 * than asked. After the steps it polls until nothing is left. Then, per record:
 * - no item twice (the same record in the same state), items in the order of their times;
 * - the last state of every record changed after the first poll is delivered (watching a field:
 *   its last value, when it changed);
 * - watching a field, each item's `previous` is the value the item before it delivered (or the
 *   value at the first poll), and says a change: the chain of values is the record's own, none
 *   skipped, none repeated; only a record the trigger had to forget past its bound starts the
 *   chain again (and its item says so);
 * - a record created after the first poll comes first as `created`; a deal deleted after being
 *   listed comes once as `deleted`, last.
 * `npm run test:internals:oldest` runs it on n8n 1.123.81's n8n-core too.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { OWN_POLL_BUDGET_MS } from '../../nodes/shared/n8n-internals';
import { n8nAtLeast } from '../../testbed/runtime/versions';
import { Poller, type Scheduler } from '../helpers/poll-harness';
import { PageClock } from '../helpers/page-clock';
import { setClock } from '../helpers/poll-drivers';
import { checkProperty } from '../helpers/property';
import { pollWhileHeld, PROPERTY_PAGE, usePropertyPolls } from '../helpers/poll-property';
import { call } from '../helpers/sandbox';

/** This file's sandbox, tunables and clocks (test/helpers/poll-property.ts): the harness's nodes run with them. */
const { tuning, ctx, harness } = usePropertyPolls(3);
const PAGE = PROPERTY_PAGE;

type Kind = 'contact' | 'deal' | 'activity';
interface Setting {
	kind: Kind;
	watch: boolean;
	scheduler: Scheduler;
	n8n: 'newest' | 'oldest';
	budgetMs?: number;
	/** n8n's clock against the platform's. */
	skewMs: number;
	/** What a list page takes on n8n's clock (default 100 ms). */
	pageMs?: number;
	/** The run goes past the memory's bound: a record may be forgotten (and its next item says so). */
	mayForget?: boolean;
}

type Step =
	| { kind: 'create' }
	| { kind: 'edit'; pick: number; watched: boolean }
	| { kind: 'sameSecond'; picks: number[] }
	| { kind: 'freeze'; frozen: boolean }
	| { kind: 'delete'; pick: number }
	| { kind: 'bulk'; count: number }
	| { kind: 'poll' }
	| { kind: 'overlap'; together: boolean }
	| { kind: 'takeover' }
	| { kind: 'republish' }
	| { kind: 'restart' }
	| { kind: 'abandon' }
	| { kind: 'served'; size: number };

const step: fc.Arbitrary<Step> = fc.oneof(
	{ weight: 4, arbitrary: fc.constant({ kind: 'create' as const }) },
	{
		weight: 5,
		arbitrary: fc.record({
			kind: fc.constant('edit' as const),
			pick: fc.nat(1000),
			watched: fc.boolean(),
		}),
	},
	{
		weight: 2,
		arbitrary: fc
			.array(fc.nat(1000), { minLength: 2, maxLength: 4 })
			.map((picks) => ({ kind: 'sameSecond' as const, picks })),
	},
	{ weight: 1, arbitrary: fc.nat(1000).map((pick) => ({ kind: 'delete' as const, pick })) },
	// The platform's clock standing still over several steps (polls too): edits share their time.
	{
		weight: 2,
		arbitrary: fc.boolean().map((frozen) => ({ kind: 'freeze' as const, frozen })),
	},
	// A bulk import between two polls (at most once a run; past a page, within the memory's bound):
	// rare and small, for the CPU; the bursts of 10^5 and more are the fixed runs below.
	{
		weight: 1,
		arbitrary: fc.constantFrom(120, 300).map((count) => ({ kind: 'bulk' as const, count })),
	},
	{ weight: 4, arbitrary: fc.constant({ kind: 'poll' as const }) },
	{
		weight: 2,
		arbitrary: fc.boolean().map((together) => ({ kind: 'overlap' as const, together })),
	},
	{ weight: 1, arbitrary: fc.constant({ kind: 'takeover' as const }) },
	{ weight: 2, arbitrary: fc.constant({ kind: 'republish' as const }) },
	{ weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
	{ weight: 1, arbitrary: fc.constant({ kind: 'abandon' as const }) },
	{
		weight: 1,
		arbitrary: fc.constantFrom(2, 7).map((size) => ({ kind: 'served' as const, size })),
	},
);

const settings: fc.Arbitrary<Setting> = fc
	.record({
		kind: fc.constantFrom<Kind>('contact', 'deal', 'activity'),
		watch: fc.boolean(),
		skewMs: fc.constantFrom(-600_000, 0, 600_000),
		where: n8nAtLeast('2.41.0')
			? fc.oneof(
					fc.record({
						scheduler: fc.constantFrom<Scheduler>('default', 'durable', 'durableCursors'),
						n8n: fc.constant('newest' as const),
						budgetMs: fc.constantFrom(undefined, 9000, 36_000),
					}),
					fc.constant({ scheduler: 'default' as const, n8n: 'oldest' as const }),
				)
			: fc.constant({ scheduler: 'default' as const, n8n: 'oldest' as const }),
	})
	.map(({ where, ...s }) => ({ ...s, ...where, watch: s.watch && s.kind !== 'activity' }));

const PATHS: Record<Kind, string> = {
	contact: '/v1/crm/contacts',
	deal: '/v1/crm/deals',
	activity: '/v1/crm/activities',
};
/** The watched field of a run that watches one: a contact's custom field, a deal's stage. */
const WATCHED: Record<Kind, string> = { contact: 'c_field.tier', deal: 'stage_id', activity: '' };

const tenant = () => ctx.sb.store.tenant(1);
const collection = (kind: Kind) =>
	kind === 'contact' ? tenant().contacts : kind === 'deal' ? tenant().deals : tenant().activities;
const stages = () =>
	(tenant().pipelines.values()[0].stages as IDataObject[]).map((s) => s.id as number);
const tiers = ['gold', 'silver', 'bronze'];
/** The list pages the sandbox served (the page clock's measure). */
const listPages = () => {
	const byRoute = ctx.sb.stats().byRoute as Record<string, number>;
	return Object.keys(byRoute)
		.filter((r) => /^GET \/v1\/crm\/(contacts|deals|activities)$/.test(r))
		.reduce((n, r) => n + byRoute[r], 0);
};

/** The watched value of a record as it is now (in the sandbox), for the model. */
const watchedOf = (kind: Kind, r: IDataObject | Record<string, unknown>): unknown =>
	kind === 'deal'
		? r.stage_id
		: ((r.custom_field as IDataObject[] | undefined) ?? []).find((f) => f.shortName === 'tier')
				?.value;

/** A create or an edit through the platform's API; an edit of the watched field or another. */
async function change(kind: Kind, id: number | undefined, watched: boolean, n: number) {
	const path = id === undefined ? PATHS[kind] : `${PATHS[kind]}/${id}`;
	const method = id === undefined ? 'POST' : kind === 'contact' ? 'PATCH' : 'PUT';
	const tier = { shortName: 'tier', code: 'cf_tier', label: 'Tier', module: 'contact' };
	const body: IDataObject =
		kind === 'deal'
			? watched
				? { stage_id: stages()[n % stages().length] }
				: { name: `Deal ${n}` }
			: kind === 'contact'
				? watched
					? { custom_field: [{ ...tier, value: tiers[n % 3] }] }
					: { phone: `555${n}` }
				: { name: `Activity ${n}` };
	if (id === undefined) body.name = `${kind} ${n}`;
	if (id === undefined && kind === 'activity') body.activity_type = 'call';
	const res = await call(ctx.sb, method, path, { body });
	expect(res.status).toBeLessThan(300);
}

async function run(s: Setting, steps: Step[]): Promise<IDataObject[]> {
	await setClock(ctx.sb, { freeze: false, advanceMs: 1000 });
	ctx.sb.faults.clear();
	ctx.sb.config.maxPageSize = PAGE;
	// n8n's clock: the platform's ± 10 minutes (the platform's never goes back: what it wrote stays in the past).
	const clock = new PageClock(listPages);
	clock.advance(ctx.sb.store.clock.now() + s.skewMs);
	clock.pageMs = s.pageMs ?? 100;
	tuning.poll.now = clock.now;
	const budget = s.budgetMs ?? (s.n8n === 'oldest' ? OWN_POLL_BUDGET_MS : 300_000);
	const poller = new Poller(
		harness(),
		'businessPlatformSalesTrigger',
		{
			events: [`POLL_CRM_${s.kind.toUpperCase()}S`.replace('ACTIVITYS', 'ACTIVITIES')],
			watchFields: s.watch ? [WATCHED[s.kind]] : [],
			changes: s.kind === 'deal' ? ['created', 'updated', 'deleted'] : ['created', 'updated'],
		},
		{ scheduler: s.scheduler, n8n: s.n8n, budgetMs: s.budgetMs, now: clock.now, typeVersion: 4 },
	);
	const items: IDataObject[] = [];
	const take = (out: IDataObject[] | null) => {
		for (const i of out ?? []) items.push(i);
	};
	const whileHeld = async (meanwhile: () => void) =>
		(await pollWhileHeld(ctx.sb, poller, meanwhile)).forEach(take);
	// What each record was at the first poll (publishing): the trigger starts from there.
	take(await poller.poll());
	expect(items).toEqual([]);
	const start = new Map<number, IDataObject>(
		collection(s.kind)
			.values()
			.map((r) => [Number(r.id), { ...r } as IDataObject]),
	);
	const deleted = new Set<number>();
	let n = 0;
	let bulked = false;
	const tick = () => clock.advance(60_000);
	// Half the picks among the newest four records (those the steps made), half among all.
	const pick = (k: number) => {
		const live = collection(s.kind).values();
		if (!live.length) return undefined;
		const at = k % 2 ? k % live.length : live.length - 1 - ((k >> 1) % Math.min(4, live.length));
		return Number(live[at].id);
	};
	for (const st of steps) {
		n++;
		if (['poll', 'abandon', 'overlap', 'takeover', 'republish'].includes(st.kind)) tick();
		if (st.kind === 'create') await change(s.kind, undefined, false, n);
		else if (st.kind === 'edit') {
			const id = pick(st.pick);
			if (id !== undefined) await change(s.kind, id, st.watched, n);
		} else if (st.kind === 'sameSecond') {
			const frozen = ctx.sb.store.clock.frozen;
			await setClock(ctx.sb, { freeze: true });
			for (const k of st.picks) {
				const id = pick(k);
				if (id !== undefined) await change(s.kind, id, k % 2 === 0, n + k);
			}
			await setClock(ctx.sb, { freeze: frozen, advanceMs: frozen ? 0 : 1 });
		} else if (st.kind === 'freeze') {
			await setClock(ctx.sb, { freeze: st.frozen, advanceMs: st.frozen ? 0 : 1 });
		} else if (st.kind === 'delete' && s.kind === 'deal') {
			const id = pick(st.pick);
			if (id !== undefined) {
				await call(ctx.sb, 'DELETE', `${PATHS.deal}/${id}`);
				deleted.add(id);
			}
		} else if (st.kind === 'bulk' && !bulked && s.kind !== 'activity') {
			// A bulk import between two polls: one record a millisecond, past what a call's arguments hold.
			bulked = true;
			const at = ctx.sb.store.clock.now() + 1;
			await call(ctx.sb, 'POST', '/__admin/seed', {
				body: { kind: `${s.kind}s`, count: st.count, at, every: 1 },
			});
			await setClock(ctx.sb, { at: new Date(at + st.count + 1000).toISOString() });
		} else if (st.kind === 'poll') take(await poller.poll());
		else if (st.kind === 'overlap') (await poller.pollOverlapping(st.together)).forEach(take);
		else if (st.kind === 'takeover') await whileHeld(() => clock.advance(budget + 1));
		else if (st.kind === 'republish') await whileHeld(() => poller.republish());
		else if (st.kind === 'restart') poller.restart();
		else if (st.kind === 'abandon' && s.scheduler !== 'default')
			take(await poller.poll('trigger', true));
		else if (st.kind === 'served') ctx.sb.config.maxPageSize = st.size;
	}
	// Drain: full pages again, time past the holds of deliveries n8n threw away (P3).
	await setClock(ctx.sb, { freeze: false, advanceMs: 1000 });
	ctx.sb.config.maxPageSize = PAGE;
	for (let d = 0; d < 60; d++) {
		clock.advance(Math.max(60_000, 2 * budget + 1));
		const out = await poller.poll();
		take(out);
		if (out === null && d > 2) break;
	}
	check(s, items, start, deleted);
	return items;
}

/** One record's items against the model (the file's comment): what is wrong, or undefined. */
function wrong(
	s: Setting,
	r: IDataObject,
	before: IDataObject | undefined,
	got: IDataObject[],
): string | undefined {
	if (!s.watch) {
		// Its last state delivered when it changed since the first poll; created first when new.
		const changedSince = !before || before.updated_at !== r.updated_at;
		if (
			changedSince &&
			(got.at(-1)?.record as IDataObject | undefined)?.updated_at !== r.updated_at
		)
			return 'its last state was not delivered';
		if (!before && got.length && got[0].change !== 'created') return 'new, but not created first';
		return undefined;
	}
	// Watching: the chain of values, from the value at the first poll to the last one.
	const field = WATCHED[s.kind];
	let value = before ? watchedOf(s.kind, before) : undefined;
	let known = !!before;
	for (const i of got) {
		const now = watchedOf(s.kind, i.record as IDataObject);
		if (i.change === 'created' && known) return 'created, but known before';
		// Only a record forgotten past the bound (a burst) comes without previous, and its item says so.
		if (
			i.change !== 'created' &&
			i.previous === null &&
			!(s.mayForget && /forgot/.test(String(i.notice)))
		)
			return `no previous (${String(i.notice)})`;
		if (i.change !== 'created' && i.previous !== null) {
			const prev = i.previous as IDataObject;
			if ((field in prev ? prev[field] : undefined) !== value)
				return `previous ${JSON.stringify(prev)} is not the value delivered before (${JSON.stringify(value)})`;
			if (now === value) return 'an item without a change of the watched field';
		}
		value = now;
		known = true;
	}
	const last = watchedOf(s.kind, r);
	const changed =
		last !== (before ? watchedOf(s.kind, before) : undefined) || (!before && got.length);
	return changed && value !== last
		? `its last value ${JSON.stringify(last)} was not delivered`
		: undefined;
}

/** The model's rules over what was delivered (the file's comment). */
function check(
	s: Setting,
	items: IDataObject[],
	start: Map<number, IDataObject>,
	deleted: Set<number>,
): void {
	const byId = new Map<number, IDataObject[]>();
	for (const i of items) {
		const id = Number(i.id);
		const list = byId.get(id) ?? [];
		list.push(i);
		byId.set(id, list);
	}
	// No item twice: the same record in the same state.
	const states = items.map((i) => JSON.stringify([i.change, i.id, i.record]));
	expect(states.length).toBe(new Set(states).size);
	// In the order of their times (deletions, which have none, last of their poll).
	const times = items
		.filter((i) => i.change !== 'deleted')
		.map((i) => Date.parse(String((i.record as IDataObject).updated_at)));
	expect(times.every((t, k) => k === 0 || t >= times[k - 1])).toBe(true);
	const problems: string[] = [];
	for (const r of collection(s.kind).values()) {
		const id = Number(r.id);
		const problem = wrong(s, r as IDataObject, start.get(id), byId.get(id) ?? []);
		if (problem) problems.push(`${id}: ${problem}`);
	}
	// Deletions: once, last, for a deal that was listed (at the first poll or delivered since).
	for (const id of deleted) {
		const got = byId.get(id) ?? [];
		const gone = got.filter((i) => i.change === 'deleted').length;
		const listed = start.has(id) || got.length > 0;
		if (gone !== (listed ? 1 : 0)) problems.push(`${id}: ${gone} deletions`);
		if (gone && got.at(-1)?.change !== 'deleted')
			problems.push(`${id}: an item after its deletion`);
	}
	expect(problems.slice(0, 5)).toEqual([]);
}

describe("the Sales Trigger's polling events deliver each change once, with what changed, past every bound", () => {
	it('a burst of 1.2·10^5 contacts between two polls, watching a custom field, under the durable scheduler: each once, in order, past the bound of what is remembered (the next change of a forgotten contact says so)', async () => {
		const setting: Setting = {
			kind: 'contact',
			watch: true,
			scheduler: n8nAtLeast('2.41.0') ? 'durable' : 'default',
			n8n: n8nAtLeast('2.41.0') ? 'newest' : 'oldest',
			budgetMs: n8nAtLeast('2.41.0') ? 36_000 : undefined,
			skewMs: 600_000,
			// Pages of 10 ms: the 200 pages fit in one poll's budget (a backlog over several polls is polling-machine.property's).
			pageMs: 10,
			mayForget: true,
		};
		const before = new Set(
			tenant()
				.contacts.values()
				.map((c) => c.id),
		);
		try {
			// 1.2·10^5 contacts hold more than MAX_MEMORY_CHARS (about 21 characters each watching one field).
			const items = await run(setting, [
				{ kind: 'bulk', count: 120_000 },
				{ kind: 'poll' },
				{ kind: 'edit', pick: 1, watched: true },
				{ kind: 'edit', pick: 119_999, watched: true },
				{ kind: 'poll' },
			]);
			// The bound was crossed: the oldest contact's change comes without previous, saying it was forgotten.
			expect(items.filter((i) => /forgot/.test(String(i.notice))).length).toBeGreaterThan(0);
		} finally {
			// The other runs start from the sandbox's few contacts again.
			for (const c of tenant().contacts.values())
				if (!before.has(c.id)) tenant().contacts.delete(c.id as number);
		}
	}, 600_000);

	it('10^5 deals under durable cursors with a budget of 3 s: the first poll remembers what fits (its memory says partial); a whole reading that cannot fit fails each later poll with an error naming the list’s size (docs/polling-triggers.md: the deal list must fit in one poll)', async () => {
		if (!n8nAtLeast('2.41.0')) return;
		const before = new Set(
			tenant()
				.deals.values()
				.map((d) => d.id),
		);
		ctx.sb.config.maxPageSize = PAGE;
		const clock = new PageClock(listPages);
		clock.advance(ctx.sb.store.clock.now());
		clock.pageMs = 100;
		tuning.poll.now = clock.now;
		try {
			const at = ctx.sb.store.clock.now() + 1;
			await call(ctx.sb, 'POST', '/__admin/seed', {
				body: { kind: 'deals', count: 100_000, at, every: 1 },
			});
			await setClock(ctx.sb, { at: new Date(at + 100_000 + 1000).toISOString() });
			const poller = new Poller(
				harness(),
				'businessPlatformSalesTrigger',
				{ events: ['POLL_CRM_DEALS'], watchFields: ['stage_id'] },
				{ scheduler: 'durableCursors', budgetMs: 3000, now: clock.now, typeVersion: 4 },
			);
			expect(await poller.poll()).toBeNull();
			expect(poller.nodeData.memory).toMatchObject({ partial: true });
			clock.advance(60_000);
			await expect(poller.poll()).rejects.toThrow(
				/\(\d+ records\) cannot be read whole within the poll budget of 3 s/,
			);
			clock.advance(60_000);
			await expect(poller.poll()).rejects.toThrow(/cannot be read whole/);
		} finally {
			for (const d of tenant().deals.values())
				if (!before.has(d.id)) tenant().deals.delete(d.id as number);
		}
	}, 300_000);

	it('contacts, deals, activities; watching a field or not; each scheduler, both n8n ends, a platform clock ±10 minutes: creates, edits, edits in one second, deletions, overlaps, takeovers, publishing again while a poll runs, restarts, abandoned polls, smaller pages', async () => {
		await checkProperty(
			60,
			fc.asyncProperty(
				settings,
				fc.array(step, { minLength: 1, maxLength: 14 }),
				async (s, steps) => {
					await run(s, steps);
				},
			),
		);
	}, 900_000);
});
