/**
 * Property: exactly once. Any sequence of record creates, updates and deletes, moves of the
 * sandbox's clock (frozen, so that many changes share one timestamp, or running), polls and
 * restarts (static data reloaded as n8n saved it), and overlapping polls (n8n starts a poll at
 * every Poll Time without waiting for the last: two polls of one node at once, a record created
 * while they read), watched by a Table Trigger on Record Created and one on Record Updated.
 * After a last poll:
 * - no change is delivered twice;
 * - every change that a poll could see (after the first poll, which starts from now) is
 *   delivered: a record that existed at a poll, a record version (ID and update time) that was
 *   the current one at a poll;
 * - deliveries come in the order of their times.
 * Pages are 3 records, so backlogs span pages.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { POLL } from '../../nodes/shared/polling/poll';
import { createHarness, type Harness } from '../harness/n8n';
import { Poller } from '../harness/poll';
import { setClock } from '../helpers/poll-drivers';
import { checkProperty } from '../helpers/property';
import { call, useSandbox } from '../helpers/sandbox';

const ctx = useSandbox({ rows: 4 });
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb);
	POLL.pageSize = 3;
});
afterAll(() => {
	POLL.pageSize = 100;
});

type Step =
	| { kind: 'create' }
	| { kind: 'update'; pick: number }
	| { kind: 'delete'; pick: number }
	| { kind: 'clock'; freeze: boolean; advanceMs: number }
	| { kind: 'poll' }
	| { kind: 'overlap' }
	| { kind: 'restart' };

const step: fc.Arbitrary<Step> = fc.oneof(
	{ weight: 4, arbitrary: fc.constant({ kind: 'create' as const }) },
	{ weight: 3, arbitrary: fc.nat(1000).map((pick) => ({ kind: 'update' as const, pick })) },
	{ weight: 1, arbitrary: fc.nat(1000).map((pick) => ({ kind: 'delete' as const, pick })) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant('clock' as const), freeze: fc.boolean(), advanceMs: fc.constantFrom(0, 1, 999, 1000) }) },
	{ weight: 3, arbitrary: fc.constant({ kind: 'poll' as const }) },
	{ weight: 1, arbitrary: fc.constant({ kind: 'overlap' as const }) },
	{ weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
);

const table = () => ctx.sb.store.tenant(1).tables.values().find((t) => t.objectType === 'CONTACT')!;
const records = () => ctx.sb.store.tenant(1).records.get(String(table()._id))!.values();
const cells = () => structuredClone(records()[0].cells);
const path = () => `/v1/crm/core/table/${String(table()._id)}/record`;

/** What a poll could see now: the records' keys for Record Created, their current versions for Record Updated. */
function visible(): { created: Map<string, number>; updated: Map<string, number> } {
	const created = new Map<string, number>();
	const updated = new Map<string, number>();
	for (const r of records()) {
		const c = Date.parse(String(r.createdAt));
		const u = Date.parse(String(r.updatedAt));
		created.set(String(r._id), c);
		if (u > c) updated.set(`${String(r._id)}@${String(r.updatedAt)}`, u);
	}
	return { created, updated };
}

interface Watch {
	poller: Poller;
	key: (json: IDataObject) => string;
	time: (json: IDataObject) => number;
	delivered: string[];
	times: number[];
	/** Keys a poll could see after the first one, and those the first one saw (old). */
	due: Set<string>;
	old: Set<string>;
}

function watch(event: 'recordCreated' | 'recordUpdated'): Watch {
	const params = { event, tableId: { __rl: true, mode: 'id', value: String(table()._id) }, options: {} };
	return {
		poller: new Poller(h, 'businessPlatformTableTrigger', params),
		key: event === 'recordCreated' ? (j) => String(j._id) : (j) => `${String(j._id)}@${String(j.updatedAt)}`,
		time: (j) => Date.parse(String(event === 'recordCreated' ? j.createdAt : j.updatedAt)),
		delivered: [],
		times: [],
		due: new Set(),
		old: new Set(),
	};
}

/** Two polls of each watch at once, a record created after the first has started. */
async function overlapping(w: Watch): Promise<IDataObject[]> {
	const first = w.poller.poll();
	const created = call(ctx.sb, 'POST', path(), { body: { cells: cells() } });
	const second = w.poller.poll();
	const [a, b] = await Promise.all([first, second, created]);
	return [...(a ?? []), ...(b ?? [])];
}

async function pollAll(watches: Watch[], first: boolean, overlap = false): Promise<void> {
	const seen = visible();
	for (const [i, w] of watches.entries()) {
		const keys = [...(i === 0 ? seen.created : seen.updated).keys()];
		for (const k of keys) (first ? w.old : w.due).add(k);
		const out = overlap ? await overlapping(w) : ((await w.poller.poll()) ?? []);
		for (const j of out) {
			w.delivered.push(w.key(j));
			w.times.push(w.time(j));
		}
	}
}

async function run(steps: Step[]): Promise<void> {
	await setClock(ctx.sb, { freeze: false });
	const watches = [watch('recordCreated'), watch('recordUpdated')];
	await pollAll(watches, true);
	for (const s of steps) {
		const live = records();
		if (s.kind === 'create') await call(ctx.sb, 'POST', path(), { body: { cells: cells() } });
		else if (s.kind === 'update') await call(ctx.sb, 'PUT', `${path()}/${String(live[s.pick % live.length]._id)}`, { body: { cells: cells() } });
		else if (s.kind === 'delete' && live.length > 1) await call(ctx.sb, 'DELETE', `${path()}/${String(live[s.pick % live.length]._id)}`);
		else if (s.kind === 'clock') await setClock(ctx.sb, { freeze: s.freeze, advanceMs: s.advanceMs });
		else if (s.kind === 'poll') await pollAll(watches, false);
		else if (s.kind === 'overlap') await pollAll(watches, false, true);
		else if (s.kind === 'restart') watches.forEach((w) => w.poller.restart());
	}
	await pollAll(watches, false);
	await setClock(ctx.sb, { freeze: false, advanceMs: 1000 });
	for (const w of watches) {
		expect(w.delivered).toEqual([...new Set(w.delivered)]);
		const due = [...w.due].filter((k) => !w.old.has(k)).sort();
		expect([...w.delivered].sort()).toEqual(due);
		expect(w.times).toEqual([...w.times].sort((a, b) => a - b));
	}
}

describe('polling triggers deliver each change exactly once', () => {
	it('any creates, updates, deletes, clock moves, polls, overlapping polls and restarts', async () => {
		await checkProperty(100, fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), run));
	}, 300_000);
});
