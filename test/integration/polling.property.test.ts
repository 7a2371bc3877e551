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
 * Pages are 3 records asked, so backlogs span pages; the generators go past the pack's own
 * numbers and the platform's possible limits (issue 32): bursts of one frozen timestamp around
 * and past the page size and the readings a poll makes (tuning.poll.maxReadings), a platform that serves
 * fewer records a page than asked (1, 2, 3 or its default), clock jumps past 2^31 ms, a filter
 * whose expression gives another value at every poll (`$now`), and edits of the saved filter and
 * switches of credential, after which the next poll starts from now (what it sees is old).
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { CREDENTIAL_TYPE, sandboxCredential } from '../../testbed/harness/credentials';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { Poller } from '../helpers/poll-harness';
import { setClock } from '../helpers/poll-drivers';
import { checkProperty } from '../helpers/property';
import { call, useSandbox } from '../helpers/sandbox';
import { fileTuning } from '../helpers/tuning';

/** This file's tunables and clocks (test/helpers/tuning.ts): the harness's nodes run with them. */
const tuning = fileTuning();

const ctx = useSandbox({ rows: 4 });
let h: Harness;
let served: number;
beforeAll(() => {
	h = createHarness(ctx.sb);
	// A second credential of the same account (another ID in n8n): switching to it starts from now.
	h.credentials.add({
		id: 'cred-b',
		name: 'Same account, another credential',
		type: CREDENTIAL_TYPE,
		data: sandboxCredential(ctx.sb, ctx.sb.demo.tokenResponse),
	});
	tuning.poll.pageSize = 3;
	served = ctx.sb.config.maxPageSize;
});
afterAll(() => {
	tuning.poll.pageSize = 100;
	ctx.sb.config.maxPageSize = served;
});

/** Conditions every record meets, whose value an expression gives anew at every poll; two saved forms (an edit switches). */
const FILTERS = [
	{},
	{
		match: 'and',
		conditions: {
			condition: [
				{ column: 'createdAt', operator: 'gt', value: '={{ $now.minus({ years: 100 }).toISO() }}' },
			],
		},
	},
	{
		match: 'or',
		conditions: {
			condition: [
				{ column: 'createdAt', operator: 'gt', value: '={{ $now.minus({ years: 200 }).toISO() }}' },
			],
		},
	},
];

type Step =
	| { kind: 'create' }
	| { kind: 'update'; pick: number }
	| { kind: 'delete'; pick: number }
	| { kind: 'clock'; freeze: boolean; advanceMs: number }
	| { kind: 'poll' }
	| { kind: 'overlap' }
	| { kind: 'restart' }
	| { kind: 'burst'; count: number }
	| { kind: 'served'; size: number }
	| { kind: 'edit'; filter: number }
	| { kind: 'credential' };

const step: fc.Arbitrary<Step> = fc.oneof(
	{ weight: 4, arbitrary: fc.constant({ kind: 'create' as const }) },
	{ weight: 3, arbitrary: fc.nat(1000).map((pick) => ({ kind: 'update' as const, pick })) },
	{ weight: 1, arbitrary: fc.nat(1000).map((pick) => ({ kind: 'delete' as const, pick })) },
	{
		weight: 2,
		arbitrary: fc.record({
			kind: fc.constant('clock' as const),
			freeze: fc.boolean(),
			advanceMs: fc.constantFrom(0, 1, 999, 1000, 2 ** 31 + 1),
		}),
	},
	{ weight: 3, arbitrary: fc.constant({ kind: 'poll' as const }) },
	{ weight: 1, arbitrary: fc.constant({ kind: 'overlap' as const }) },
	{ weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
	// Around and past a page (3) and the readings of a poll (3 pages each): records of one frozen timestamp.
	{
		weight: 1,
		arbitrary: fc.constantFrom(2, 3, 4, 7, 10).map((count) => ({ kind: 'burst' as const, count })),
	},
	{
		weight: 1,
		arbitrary: fc.constantFrom(1, 2, 3, 500).map((size) => ({ kind: 'served' as const, size })),
	},
	{
		weight: 1,
		arbitrary: fc.nat(FILTERS.length - 1).map((filter) => ({ kind: 'edit' as const, filter })),
	},
	{ weight: 1, arbitrary: fc.constant({ kind: 'credential' as const }) },
);

const table = () =>
	ctx.sb.store
		.tenant(1)
		.tables.values()
		.find((t) => t.objectType === 'CONTACT')!;
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
	event: 'recordCreated' | 'recordUpdated';
	poller: Poller;
	key: (json: IDataObject) => string;
	time: (json: IDataObject) => number;
	delivered: string[];
	times: number[];
	/** Each key as the first poll that could see it found it: due (to deliver) or old (seen by a poll that starts from now). */
	seen: Map<string, 'due' | 'old'>;
	/** The saved filter and credential of the last poll: a poll with others starts from now (so does the first). */
	polledAs?: string;
	/** The next poll activates the workflow (the first, and the first after it was saved again). */
	activating: boolean;
	credential: 'cred-1' | 'cred-b';
	/** The parameters as saved now. */
	saved: IDataObject;
}

const paramsOf = (event: Watch['event'], filter: number) => ({
	event,
	tableId: { __rl: true, mode: 'id', value: String(table()._id) },
	options: {},
	...FILTERS[filter],
});

function watch(event: Watch['event'], filter: number): Watch {
	return {
		event,
		poller: new Poller(h, 'businessPlatformTableTrigger', paramsOf(event, filter)),
		key:
			event === 'recordCreated'
				? (j) => String(j._id)
				: (j) => `${String(j._id)}@${String(j.updatedAt)}`,
		time: (j) => Date.parse(String(event === 'recordCreated' ? j.createdAt : j.updatedAt)),
		delivered: [],
		times: [],
		seen: new Map(),
		credential: 'cred-1',
		activating: true,
		saved: paramsOf(event, filter),
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

async function pollAll(watches: Watch[], overlap = false): Promise<void> {
	const now = visible();
	for (const w of watches) {
		const as = JSON.stringify([w.saved, w.credential]);
		const fresh = w.polledAs !== as;
		w.polledAs = as;
		for (const k of (w.event === 'recordCreated' ? now.created : now.updated).keys())
			if (!w.seen.has(k)) w.seen.set(k, fresh ? 'old' : 'due');
		// The poll that activates a workflow (the first, and the first after an edit) is never overlapped: n8n runs it before it schedules any.
		const out = overlap && !w.activating ? await overlapping(w) : ((await w.poller.poll()) ?? []);
		w.activating = false;
		// A poll that starts from now delivers nothing (no Emit Existing Items here).
		if (fresh) expect(out).toEqual([]);
		for (const j of out) {
			// A record made while the poll read (an overlapping poll's): that poll could see it.
			if (!w.seen.has(w.key(j))) w.seen.set(w.key(j), 'due');
			w.delivered.push(w.key(j));
			w.times.push(w.time(j));
		}
	}
}

async function run(filter: number, steps: Step[]): Promise<void> {
	await setClock(ctx.sb, { freeze: false });
	ctx.sb.config.maxPageSize = served;
	const watches = [watch('recordCreated', filter), watch('recordUpdated', filter)];
	await pollAll(watches);
	for (const s of steps) {
		const live = records();
		if (s.kind === 'create') await call(ctx.sb, 'POST', path(), { body: { cells: cells() } });
		else if (s.kind === 'burst') {
			await setClock(ctx.sb, { freeze: true });
			for (let i = 0; i < s.count; i++)
				await call(ctx.sb, 'POST', path(), { body: { cells: cells() } });
		} else if (s.kind === 'served') ctx.sb.config.maxPageSize = s.size;
		else if (s.kind === 'edit' || s.kind === 'credential') {
			// Another saved filter or credential than the last poll's: the next poll starts from now.
			for (const w of watches) {
				w.activating = true;
				if (s.kind === 'edit') w.poller.edit((w.saved = paramsOf(w.event, s.filter)));
				else
					w.poller.useCredential((w.credential = w.credential === 'cred-1' ? 'cred-b' : 'cred-1'));
			}
		} else if (s.kind === 'update')
			await call(ctx.sb, 'PUT', `${path()}/${String(live[s.pick % live.length]._id)}`, {
				body: { cells: cells() },
			});
		else if (s.kind === 'delete' && live.length > 1)
			await call(ctx.sb, 'DELETE', `${path()}/${String(live[s.pick % live.length]._id)}`);
		else if (s.kind === 'clock')
			await setClock(ctx.sb, { freeze: s.freeze, advanceMs: s.advanceMs });
		else if (s.kind === 'poll') await pollAll(watches);
		else if (s.kind === 'overlap') await pollAll(watches, true);
		else if (s.kind === 'restart') watches.forEach((w) => w.poller.restart());
	}
	await pollAll(watches);
	await setClock(ctx.sb, { freeze: false, advanceMs: 1000 });
	for (const w of watches) {
		expect(w.delivered).toEqual([...new Set(w.delivered)]);
		const due = [...w.seen].filter(([, state]) => state === 'due').map(([k]) => k);
		expect([...w.delivered].sort()).toEqual(due.sort());
		// In time order (a poll that starts from now after an edit starts at the newest time listed).
		expect(w.times).toEqual([...w.times].sort((a, b) => a - b));
	}
}

describe('polling triggers deliver each change exactly once', () => {
	it('any creates, bursts, updates, deletes, clock moves and jumps, smaller served pages, polls, overlapping polls, restarts, filter edits and credential switches', async () => {
		await checkProperty(
			100,
			fc.asyncProperty(
				fc.nat(FILTERS.length - 1),
				fc.array(step, { minLength: 1, maxLength: 40 }),
				run,
			),
		);
	}, 300_000);
});
