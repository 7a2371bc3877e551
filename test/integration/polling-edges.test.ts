/**
 * The polling triggers at the edges (issue 32): past the numbers the pack keeps (keys of one
 * timestamp, remembered postings), against a platform that serves smaller pages than asked, with
 * a filter whose expression gives another value at every poll, and after a switch of credential;
 * and the Table Trigger's conditions on a column of the table, read as Record → Search reads them
 * (issue 55: "Status is Won" on a select column). Each through n8n-core's PollContext against the
 * sandbox: each change exactly once, nothing old announced as new.
 */
import type { IDataObject } from 'n8n-workflow';

import { MAX_RECENT } from '../../nodes/shared/polling/cursor';
import { CREDENTIAL_TYPE, sandboxCredential } from '../../testbed/harness/credentials';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { Poller } from '../helpers/poll-harness';
import { makeChanges, POLL_DRIVERS, setClock, type PollDriver } from '../helpers/poll-drivers';
import { call, useSandbox } from '../helpers/sandbox';
import { fileTuning } from '../helpers/tuning';

/** This file's tunables and clocks (test/helpers/tuning.ts): the harness's nodes run with them. */
const tuning = fileTuning();

const ctx = useSandbox({ rows: 4 });
let h: Harness;
const defaults = { ...tuning.poll };
let servedDefault: number;
beforeAll(() => {
	h = createHarness(ctx.sb);
	servedDefault = ctx.sb.config.maxPageSize;
});
afterEach(async () => {
	Object.assign(tuning.poll, defaults);
	ctx.sb.config.maxPageSize = servedDefault;
	await setClock(ctx.sb, { freeze: false, advanceMs: 1000 });
});

const tenantToken = (username: string) => ctx.sb.platformToken(ctx.sb.issueTokens(username));
const contactsTable = () =>
	ctx.sb.store
		.tenant(1)
		.tables.values()
		.find((t) => t.objectType === 'CONTACT')!;
const recordsPath = () => `/v1/crm/core/table/${String(contactsTable()._id)}/record`;
const tableParams = (event: string, extra: IDataObject = {}) => ({
	event,
	tableId: { __rl: true, mode: 'id', value: String(contactsTable()._id) },
	options: {},
	...extra,
});
const ids = (items: IDataObject[] | null, key = '_id') => (items ?? []).map((j) => String(j[key]));

/** `n` records of the contacts table, made over HTTP ten at a time; their IDs. */
async function createRecords(n: number): Promise<string[]> {
	const cells = structuredClone(
		ctx.sb.store.tenant(1).records.get(String(contactsTable()._id))!.values()[0].cells,
	);
	const token = tenantToken('demo');
	const made: string[] = [];
	for (let i = 0; i < n; i += 10) {
		const batch = await Promise.all(
			Array.from(
				{ length: Math.min(10, n - i) },
				async () => await call(ctx.sb, 'POST', recordsPath(), { body: { cells }, token }),
			),
		);
		made.push(...batch.map((r) => String(r.body.id)));
	}
	return made;
}

/** Polls until one finds nothing (at most `max` polls); every ID delivered, in order. */
async function drain(
	p: Poller,
	idOf: (json: IDataObject) => string = (j) => String(j._id),
	max = 20,
): Promise<string[]> {
	const out: string[] = [];
	for (let i = 0; i < max; i++) {
		const got = await p.poll();
		if (got === null) return out;
		out.push(...got.map(idOf));
	}
	throw new Error(`still delivering after ${max} polls (${out.length} so far)`);
}

describe('more changes with one timestamp than the cursor once kept (finding 1)', () => {
	const burst = 1050; // past the 1,000 keys of one timestamp the cursor kept before

	it(`${burst} records created in one frozen second after activation: each delivered once, then nothing, also after a restart`, async () => {
		const p = new Poller(h, 'businessPlatformTableTrigger', tableParams('recordCreated'));
		expect(await p.poll()).toBeNull();
		await setClock(ctx.sb, { advanceMs: 1000, freeze: true });
		const made = await createRecords(burst);
		const delivered = await drain(p);
		expect(delivered.sort()).toEqual([...made].sort());
		expect(await p.poll()).toBeNull();
		expect(await p.poll()).toBeNull();
		p.restart();
		expect(await p.poll()).toBeNull();
	}, 60_000);

	it(`${burst} records already at the newest timestamp at activation: the polls after the first deliver none of them`, async () => {
		await setClock(ctx.sb, { advanceMs: 1000, freeze: true });
		await createRecords(burst);
		const p = new Poller(h, 'businessPlatformTableTrigger', tableParams('recordCreated'));
		expect(await p.poll()).toBeNull();
		expect(await p.poll()).toBeNull();
		p.restart();
		expect(await p.poll()).toBeNull();
		// A new record of that same second is still delivered, once.
		const [late] = await createRecords(1);
		expect(ids(await p.poll())).toEqual([late]);
		expect(await p.poll()).toBeNull();
	}, 60_000);
});

describe('a platform that serves smaller pages than asked (finding 2)', () => {
	it('at most 30 records a page, 100 records created after activation: all 100 delivered once', async () => {
		const p = new Poller(h, 'businessPlatformTableTrigger', tableParams('recordCreated'));
		await p.poll();
		ctx.sb.config.maxPageSize = 30;
		const made = await createRecords(100);
		expect((await drain(p)).sort()).toEqual([...made].sort());
	}, 30_000);

	const yearDriver: PollDriver = {
		...POLL_DRIVERS[0],
		title: 'People → Payrun Created, Year 2024 (payruns of a year: no totals)',
		params: () => ({ year: 2024 }),
	};
	describe.each([...POLL_DRIVERS, yearDriver].map((d) => [d.title, d] as const))(
		'%s',
		(_title, d) => {
			it('pages of 2 where 5 are asked: a backlog of 7 changes comes whole, each once', async () => {
				tuning.poll.pageSize = 5;
				const p = new Poller(h, d.type, { event: d.event, ...d.params(ctx.sb), options: {} });
				await p.poll();
				ctx.sb.config.maxPageSize = 2;
				const made = await makeChanges(ctx.sb, d, 7);
				const delivered = await drain(p, d.idOf);
				expect(delivered.sort()).toEqual([...made].sort());
			}, 30_000);
		},
	);
});

describe('a filter whose expression gives another value at every poll (finding 3)', () => {
	// Created At later than a day ago: the expression is saved once, its value moves with the clock.
	const sinceYesterday = {
		condition: [
			{ column: 'createdAt', operator: 'gt', value: '={{ $now.minus({ days: 1 }).toISO() }}' },
		],
	};

	it('the trigger fires: the saved parameters, not their values, say whether the user changed it', async () => {
		const p = new Poller(
			h,
			'businessPlatformTableTrigger',
			tableParams('recordCreated', { conditions: sinceYesterday }),
		);
		expect(await p.poll()).toBeNull();
		const [made] = await createRecords(1);
		expect(ids(await p.poll())).toEqual([made]);
		expect(await p.poll()).toBeNull();
	});

	it('with Emit Existing Items, what matched is delivered on the first poll only', async () => {
		const p = new Poller(
			h,
			'businessPlatformTableTrigger',
			tableParams('recordCreated', { conditions: sinceYesterday, options: { emitExisting: true } }),
		);
		expect((await p.poll())?.length).toBeGreaterThan(0);
		expect(await p.poll()).toBeNull();
		expect(await p.poll()).toBeNull();
	});

	it('a change of the saved filter still starts from now, and so does a cursor under an owner an earlier build wrote (the evaluated request): no carry-over', async () => {
		const p = new Poller(h, 'businessPlatformTableTrigger', tableParams('recordCreated'));
		await p.poll();
		await createRecords(1);
		p.edit(tableParams('recordCreated', { match: 'or' }));
		expect(await p.poll()).toBeNull();
		// The owner as the pack wrote it before: the event and the request it sent.
		const request = [
			'POST',
			`/v1/crm/core/table/${String(contactsTable()._id)}/paged-record`,
			{ sortCol: 'createdAt', sortDir: -1 },
			{ logicalOperator: 'or', conditions: [] },
		];
		p.nodeData.of = JSON.stringify(['recordCreated', ...request]);
		await createRecords(1);
		expect(await p.poll()).toBeNull();
		expect(p.lastPath).toBe('P4 → P6 → P13');
		const [made] = await createRecords(1);
		expect(ids(await p.poll())).toEqual([made]);
		expect(String(p.nodeData.of)).toContain('"v3"');
	});
});

describe('the Table Trigger’s conditions on a column of the table, as Record → Search sends them (issue 55)', () => {
	const dealsTable = () =>
		ctx.sb.store
			.tenant(1)
			.tables.values()
			.find((t) => t.objectType === 'DEAL')!;
	const columnNamed = (name: string) =>
		(dealsTable().columnsMetaData as IDataObject[]).find((c) => c.name === name)!;
	const optionId = (name: string) =>
		(columnNamed('Status').options as IDataObject[]).find((o) => o.name === name)!.id as number;
	const deal = async (name: string, status: string): Promise<string> => {
		const cells = {
			[String(columnNamed('Name').id)]: name,
			[String(columnNamed('Status').id)]: [optionId(status)],
		};
		const path = `/v1/crm/core/table/${String(dealsTable()._id)}/record`;
		const res = await call(ctx.sb, 'POST', path, { body: { cells }, token: tenantToken('demo') });
		expect(res.status).toBe(201);
		return String(res.body.id);
	};

	it('"Status is Won" (the column as the picker gives it, the option by its name) delivers the Won deal and no other; the platform gets the option’s ID; one reading of the table a poll', async () => {
		const status = String(columnNamed('Status').id);
		const p = new Poller(h, 'businessPlatformTableTrigger', {
			event: 'recordCreated',
			tableId: { __rl: true, mode: 'id', value: String(dealsTable()._id) },
			conditions: { condition: [{ column: status, operator: 'eq', value: 'Won' }] },
			options: {},
		});
		const tablePath = `/v1/crm/core/table/${String(dealsTable()._id)}`;
		const since = ctx.sb.requests().length;
		expect(await p.poll()).toBeNull();
		await deal('Lost deal', 'Lost');
		const won = await deal('Won deal', 'Won');
		await deal('Open deal', 'Open');
		expect(ids(await p.poll())).toEqual([won]);
		expect(await p.poll()).toBeNull();
		const polls = ctx.sb
			.requests()
			.slice(since)
			.filter((r) => r.path.startsWith(tablePath));
		expect(polls.filter((r) => r.method === 'GET' && r.path === tablePath)).toHaveLength(3);
		const listed = polls.filter((r) => r.path === `${tablePath}/paged-record`);
		expect(listed.length).toBeGreaterThanOrEqual(3);
		for (const r of listed)
			expect(JSON.parse(r.body!)).toEqual({
				logicalOperator: 'and',
				conditions: [{ colId: status, opr: 'eq', value: String(optionId('Won')) }],
			});
		// Fetch Test Event reads the columns too: the newest Won deal.
		expect(ids(await p.poll('manual'))).toEqual([won]);
	});

	it('an option the column does not have fails the poll with Search’s words, before the list is read', async () => {
		const p = new Poller(h, 'businessPlatformTableTrigger', {
			event: 'recordCreated',
			tableId: { __rl: true, mode: 'id', value: String(dealsTable()._id) },
			conditions: { condition: [{ column: 'Status', operator: 'eq', value: 'Pending' }] },
			options: {},
		});
		await expect(p.poll()).rejects.toThrow('Condition 1: column "Status" has no option "Pending"');
		expect(p.lastPath).toBe('P4 → P10');
	});
});

describe('a switch of credential starts from now (finding 4)', () => {
	/** A payrun of tenant 2 (the second demo account), made with its own token. */
	async function tenant2Payrun(): Promise<string> {
		const employee = ctx.sb.store
			.tenant(2)
			.peopleUsers.values()
			.find((u) => u.type === 'EMPLOYEE' && u.status === 'active')!.userId as string;
		const res = await call(ctx.sb, 'POST', '/v1/people-pay-run/payruns', {
			body: {
				workPeriod: { from: '07/01/2024', to: '07/31/2024' },
				isForAllUsers: false,
				employees: [employee],
			},
			token: tenantToken('demo2'),
		});
		expect(res.status).toBeLessThan(300);
		return String(res.body._id);
	}
	const payruns = POLL_DRIVERS.find((d) => d.event === 'payrunCreated')!;

	it('another credential (another account): its existing payruns are not delivered as new; its next payrun is', async () => {
		h.credentials.add({
			id: 'cred-2',
			name: 'Second account',
			type: CREDENTIAL_TYPE,
			data: sandboxCredential(ctx.sb, ctx.sb.issueTokens('demo2')),
		});
		const p = new Poller(h, payruns.type, { event: payruns.event, options: {} });
		await p.poll();
		await makeChanges(ctx.sb, payruns, 1);
		await p.poll();
		await setClock(ctx.sb, { advanceMs: 1000 });
		await tenant2Payrun(); // newer than the first account's cursor
		p.useCredential('cred-2');
		expect(await p.poll()).toBeNull();
		await setClock(ctx.sb, { advanceMs: 1000 });
		const next = await tenant2Payrun();
		expect(ids(await p.poll())).toEqual([next]);
	});

	it('the same credential reconnected to another tenant starts from now too', async () => {
		const p = new Poller(h, payruns.type, { event: payruns.event, options: {} });
		h.credentials.add({
			id: 'cred-3',
			name: 'Reconnected',
			type: CREDENTIAL_TYPE,
			data: sandboxCredential(ctx.sb, ctx.sb.issueTokens('demo')),
		});
		p.useCredential('cred-3');
		await p.poll();
		await setClock(ctx.sb, { advanceMs: 1000 });
		await tenant2Payrun();
		h.credentials.add({
			id: 'cred-3',
			name: 'Reconnected',
			type: CREDENTIAL_TYPE,
			data: sandboxCredential(ctx.sb, ctx.sb.issueTokens('demo2')),
		});
		expect(await p.poll()).toBeNull();
	});
});

describe('Journal Entry Posted with more postings at activation than it remembers (finding 5)', () => {
	it(`${MAX_RECENT + 50} postings before the first poll: a later change of the newest posted payruns is not announced again`, async () => {
		const token = tenantToken('demo');
		const employee = ctx.sb.store
			.tenant(1)
			.peopleUsers.values()
			.find((u) => u.type === 'EMPLOYEE' && u.status === 'active')!.userId as string;
		const made: string[] = [];
		for (let i = 0; i < MAX_RECENT + 50; i += 10) {
			const batch = await Promise.all(
				Array.from(
					{ length: 10 },
					async () =>
						await call(ctx.sb, 'POST', '/v1/people-pay-run/payruns', {
							body: {
								workPeriod: { from: '07/01/2024', to: '07/31/2024' },
								isForAllUsers: false,
								employees: [employee],
							},
							token,
						}),
				),
			);
			made.push(...batch.map((r) => String(r.body._id)));
		}
		await setClock(ctx.sb, { advanceMs: 1000 });
		// Posted one after another, the newest posting last.
		for (const id of made)
			expect(
				(
					await call(ctx.sb, 'POST', '/v1/people-pay-run/payruns/sync-je', {
						body: { payrun: [{ payrunId: id, jeDate: '2024-08-01' }] },
						token,
					})
				).status,
			).toBeLessThan(300);
		const p = new Poller(h, 'businessPlatformPeopleTrigger', {
			event: 'journalEntryPosted',
			options: {},
		});
		expect(await p.poll()).toBeNull();
		await setClock(ctx.sb, { advanceMs: 1000 });
		// The newest postings but the very newest (whose key the cursor keeps as one of its newest timestamp anyway).
		for (const id of made.slice(-10, -1))
			expect(
				(
					await call(ctx.sb, 'PATCH', `/__admin/state/1/payruns/${id}`, {
						body: { stamp: ['updatedAt'] },
						token,
					})
				).status,
			).toBeLessThan(300);
		expect(await p.poll()).toBeNull();
	}, 60_000);
});
