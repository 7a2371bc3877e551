/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The fault matrix: every fault the sandbox can inject, against four workloads run
 * through n8n-core's real execution path (the harness) with the real OAuth2 code:
 *
 *   create       100 contacts from 100 items (Contact → Create, 5 items at a time)
 *   Return All   every contact (1,000+) over pages of 100 (Contact → Get Many)
 *   bulk update  200 deals in 10 items of 20 ids (Deal → Bulk Update)
 *   trigger      activation (register 5 events), one delivery per event (the deal event
 *                with Fetch Full Record), deactivation
 *
 * Each cell counts, from the sandbox's state and the node's output: items lost (an item
 * neither in the platform exactly once nor reported failed on its own item), duplicates
 * created, whether the execution failed, and whether its message names the fault. A
 * create or bulk update that failed by design (a POST/PATCH answered 5xx or dropped is
 * never repeated) is run again with continue-on-fail, so every item is accounted for.
 * The table is written to bench/results/faults.md.
 *
 * The cells run side by side on four lanes, each with a sandbox, a harness and watchers of its own
 * (test/helpers/lanes.ts): a cell's fault rules, expired tokens and restarts never reach another cell.
 * The transport's waits between attempts are virtual (test/helpers/retry-clock.ts), except in the
 * restart cells, which run last, one at a time, on the real clock: the one real-time check that the
 * backoff outlasts an outage. Latency is real.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';

import type {
	IDataObject,
	INodeExecutionData,
	IWebhookData,
	IWebhookResponseData,
	Workflow,
} from 'n8n-workflow';

import { platformRefreshTokenKey } from '../../nodes/shared/transport';
import type { FaultRule } from '../../sandbox/src/faults';
import { Query, type Ctx } from '../../sandbox/src/http';
import { additionalData } from '../../testbed/harness/additional-data';
import { createHarness, type Harness, type NodeRun } from '../../testbed/harness/run';
import {
	activateWebhook,
	deliverWebhook,
	triggerWorkflow,
	webhookData,
	webhookMethod,
} from '../../testbed/harness/triggers';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { useLanes, type Lanes } from '../helpers/lanes';
import { virtualRetryClock } from '../helpers/retry-clock';
import { call, startTestSandbox, type Sandbox } from '../helpers/sandbox';
import { fileTuning } from '../helpers/tuning';

/** This file's tunables and clocks (test/helpers/tuning.ts): the harness's nodes run with them. */
const tuning = fileTuning();

const SALES = 'businessPlatformSales';
const CREATE_ITEMS = 100;
const BULK_ITEMS = 20;
const BULK_IDS_PER_ITEM = 10;
const TRIGGER_EVENTS = [
	'CREATE_CRM_DEAL',
	'CREATE_INVOICE',
	'STOCK_IN',
	'UPDATE_BILL',
	'DELETE_CRM_CONTACT',
];

type WorkloadId = 'create' | 'returnAll' | 'bulkUpdate' | 'trigger';
const WORKLOADS: Array<{ id: WorkloadId; label: string }> = [
	{ id: 'create', label: 'create (100 contacts)' },
	{ id: 'returnAll', label: 'Return All (1,000+ contacts)' },
	{ id: 'bulkUpdate', label: 'bulk update (200 deals in 20 items)' },
	{ id: 'trigger', label: 'trigger (5 events)' },
];

interface Row {
	fault: string;
	workload: string;
	lost: number | 'n.a.';
	duplicates: number | 'n.a.';
	executionsFailed: number | 'n.a.';
	itemsFailed: number | 'n.a.';
	namesFault: 'yes' | 'no' | 'n.a.';
	notes: string[];
	seconds?: number;
}
const rows: Row[] = [];

// ------------------------------------------------------------ harness state --

let rx: Receiver;
let defaultBaseDelay = 0;

/** Code run when the Nth request of a kind reaches the sandbox (before it is authenticated or processed). */
interface Watcher {
	method: string;
	path: RegExp;
	at: number[];
	seen: number;
	fire: (n: number) => void;
}

/** What a cell works with, its own while it runs. */
interface Lane {
	sb: Sandbox;
	h: Harness;
	/** The deals the bulk update workload updates (seeded). */
	bulkDeals: number[];
	watchers: Watcher[];
	/** A failure inside a watcher (the simulation itself), reported by the cell. */
	watcherErrors: string[];
	restarting?: Promise<void>;
	/** The transport's waits (virtual) during the cell. */
	waits: number[];
}

const CONTACTS = /^\/v1\/crm\/contacts$/;
const DEALS = /^\/v1\/crm\/deals$/;
const REGISTER = /^\/v1\/webhooks\/register$/;
/** A fault rule's path that matches exactly (the sandbox reads /…/ as a regular expression). */
const exactPath = (re: RegExp) => `/${re.source}/`;

const clock = virtualRetryClock(tuning);
beforeAll(async () => {
	// Only the restart cells wait in real time: 50 ms doubling outlasts their 150 ms outage as 300 ms doubling
	// (production) outlasts a ~4 s one. For the others the waits are virtual, whatever their length.
	defaultBaseDelay = tuning.retry.baseDelayMs;
	tuning.retry.baseDelayMs = 50;
	clock.install((ms) => lane().waits.push(ms));
	rx = await startReceiver();
});
afterAll(async () => {
	clock.uninstall();
	tuning.retry.baseDelayMs = defaultBaseDelay;
	await rx?.close();
	writeTable();
});

/** A sandbox with 1,000 more contacts and the bulk workload's deals, its harness, and watchers on its requests. */
const openLane =
	(pool: () => Lanes<Lane>, name: string) =>
	async (index: number): Promise<Lane> => {
		const sb = await startTestSandbox({ rows: 30 });
		// A credential id per lane: n8n-core shares a refresh between concurrent callers of one id (createHarness).
		const own: Lane = {
			sb,
			h: createHarness(sb, sb.issueTokens(), {}, `cred-${name}-${index}`),
			bulkDeals: [],
			watchers: [],
			watcherErrors: [],
			waits: [],
		};
		const tenant = sb.store.tenant(1);
		await call(sb, 'POST', '/__admin/seed', {
			token: null,
			body: { kind: 'contacts', count: 1000 },
		});
		const before = new Set(tenant.deals.values().map((d) => d.id as number));
		await call(sb, 'POST', '/__admin/seed', {
			token: null,
			body: { kind: 'deals', count: BULK_ITEMS * BULK_IDS_PER_ITEM },
		});
		own.bulkDeals = tenant.deals
			.values()
			.map((d) => d.id as number)
			.filter((id) => !before.has(id))
			.sort((a, b) => a - b);
		expect(own.bulkDeals).toHaveLength(BULK_ITEMS * BULK_IDS_PER_ITEM);

		const pick = sb.faults.pick.bind(sb.faults);
		jest.spyOn(sb.faults, 'pick').mockImplementation((method, path) => {
			for (const w of own.watchers) {
				if (w.method !== method || !w.path.test(path)) continue;
				w.seen++;
				if (!w.at.includes(w.seen)) continue;
				try {
					// The sandbox answers outside the cell: its watchers run as the cell's code.
					pool().within(own, () => w.fire(w.seen));
				} catch (e) {
					own.watcherErrors.push(e instanceof Error ? e.message : String(e));
				}
			}
			return pick(method, path);
		});
		return own;
	};
const closeLane = async (lane: Lane) => await lane.sb.stop();

const LANES = 4;
const parallel: Lanes<Lane> = useLanes(
	LANES,
	openLane(() => parallel, 'lane'),
	closeLane,
);
/** The real-time cells' lane (set in their describe, which jest collects last). */
let serial: Lanes<Lane> | undefined;
/** The lane of the running cell: one of the four, or the real-time cells' own. */
const lane = (): Lane => parallel.find() ?? serial?.find() ?? parallel.current();
const sb = () => lane().sb;
const h = () => lane().h;
const tenant = () => sb().store.tenant(1);
const when = (method: string, path: RegExp, at: number[], fire: (n: number) => void) =>
	lane().watchers.push({ method, path, at, seen: 0, fire });

// ------------------------------------------------------------------ faults --

interface Arm {
	/** Extra step of the trigger workload between activation and deliveries; may return the re-activated trigger. */
	between?: (t: Trigger, row: Row) => Promise<Trigger | undefined>;
	/** Checks after the workload (their findings go into the notes; failures fail the cell). */
	after?: (row: Row) => void;
}

interface FaultDef {
	id: string;
	label: string;
	/** What a failure caused by this fault must say (message and description). */
	names?: RegExp;
	/** A failure it causes is a create or update that was deliberately not sent again: the error must say so. */
	notRepeated?: boolean;
	/** Its cells wait on the real clock, one at a time, after all the others (see the top of the file). */
	realTime?: true;
	/** Not applicable to these workloads (with the reason). */
	skip?: Partial<Record<WorkloadId, string>>;
	arm(w: WorkloadId): Arm;
}

const add = (...rules: FaultRule[]) => rules.forEach((r) => sb().faults.add(r));

/** Another n8n worker refreshes the shared credential (and so rotates its refresh token): what it saves, this run reads. */
function refreshElsewhere(): void {
	const cred = h().credentials.store.get(h().credentials.defaultId)!;
	const tokens = cred.data.oauthTokenData as IDataObject;
	const reply = sb().auth.tokenEndpoint({
		query: new Query(new URLSearchParams()),
		body: {
			grant_type: 'refresh_token',
			refresh_token: String(tokens.refresh_token),
			client_id: sb().config.clientId,
			client_secret: sb().config.clientSecret,
		},
		headers: {},
	} as unknown as Ctx<unknown>);
	cred.data = { ...cred.data, oauthTokenData: { ...tokens, ...(reply.body as IDataObject) } };
}

const authStats = () => ({ ...sb().auth.stats });

/** Counts the refreshes during the workload and checks them. */
function refreshCheck(expected: number, label: string): Arm['after'] {
	const start = authStats();
	return (row) => {
		const now = authStats();
		const refreshes = now.refreshGrant - start.refreshGrant;
		const failed = now.failedRefresh - start.failedRefresh;
		row.notes.push(`${label}: ${refreshes} refresh grant(s), ${failed} refused`);
		expect(failed).toBe(0);
		expect(refreshes).toBe(expected);
	};
}

const FAULTS: FaultDef[] = [
	{
		id: '429',
		label: '429 with Retry-After: 1',
		names: /answered 429/,
		arm(w) {
			const from = lane().waits.length;
			const rule = { kind: 'status', status: 429, retryAfter: 1 } as const;
			if (w === 'create') add({ ...rule, count: 10, method: 'POST', path: exactPath(CONTACTS) });
			if (w === 'returnAll') add({ ...rule, count: 2, method: 'GET', path: exactPath(CONTACTS) });
			if (w === 'bulkUpdate') add({ ...rule, count: 2, method: 'PATCH', path: exactPath(DEALS) });
			if (w === 'trigger') add({ ...rule, count: 2, method: 'POST', path: exactPath(REGISTER) });
			return {
				after: (row) => {
					const fired = sb()
						.requests()
						.filter((r) => r.status === 429).length;
					row.notes.push(`${fired} requests answered 429, each sent again after the 1 s asked for`);
					// Retry-After is honoured: the transport waited the one second asked for after each 429 (on its
					// virtual clock; test/integration/transport.test.ts waits for one in real time).
					expect(fired).toBeGreaterThan(0);
					expect(
						lane()
							.waits.slice(from)
							.filter((ms) => ms === 1000),
					).toHaveLength(fired);
				},
			};
		},
	},
	{
		id: '503',
		label: '503 bursts',
		names: /answered 503/,
		notRepeated: true,
		arm(w) {
			const rule = { kind: 'status', status: 503 } as const;
			if (w === 'create')
				add({ ...rule, count: 3, phase: 'after', method: 'POST', path: exactPath(CONTACTS) });
			if (w === 'returnAll') add({ ...rule, count: 3, method: 'GET', path: exactPath(CONTACTS) });
			if (w === 'bulkUpdate')
				add({ ...rule, count: 2, phase: 'after', method: 'PATCH', path: exactPath(DEALS) });
			if (w === 'trigger')
				add(
					{ ...rule, count: 3, method: 'GET', path: '/^\\/v1\\/webhooks$/' },
					{ ...rule, count: 1, phase: 'after', method: 'POST', path: exactPath(REGISTER) },
				);
			return {};
		},
	},
	{
		id: 'drop',
		label: 'dropped connections',
		names: /Could not reach the Business Platform API \(the connection was closed/,
		notRepeated: true,
		arm(w) {
			if (w === 'create')
				add({ kind: 'drop', count: 3, method: 'POST', path: exactPath(CONTACTS) });
			if (w === 'returnAll')
				add({ kind: 'drop', count: 3, method: 'GET', path: exactPath(CONTACTS) });
			if (w === 'bulkUpdate')
				add({ kind: 'drop', count: 2, phase: 'after', method: 'PATCH', path: exactPath(DEALS) });
			if (w === 'trigger') {
				add(
					{ kind: 'drop', count: 2, method: 'GET', path: '/^\\/v1\\/webhooks$/' },
					{ kind: 'drop', count: 1, phase: 'after', method: 'POST', path: exactPath(REGISTER) },
					{ kind: 'drop', count: 1, method: 'GET', path: '/^\\/v1\\/crm\\/deals\\/\\d+$/' },
				);
			}
			return {};
		},
	},
	{
		id: 'latency',
		label: '2 s latency',
		arm(w) {
			const rule = { kind: 'latency', ms: 2000 } as const;
			if (w === 'create') add({ ...rule, count: 10, method: 'POST', path: exactPath(CONTACTS) });
			if (w === 'returnAll') add({ ...rule, count: 2, method: 'GET', path: exactPath(CONTACTS) });
			if (w === 'bulkUpdate') add({ ...rule, count: 3, method: 'PATCH', path: exactPath(DEALS) });
			if (w === 'trigger')
				add(
					{ ...rule, count: 2, method: 'POST', path: exactPath(REGISTER) },
					{ ...rule, count: 1, method: 'GET', path: '/^\\/v1\\/crm\\/deals\\/\\d+$/' },
				);
			const seq = lastSeq();
			const delayed = { create: 10, returnAll: 2, bulkUpdate: 3, trigger: 3 }[w];
			return {
				after: (row) => {
					// Slow is not failed: nothing timed out, nothing was sent twice.
					const sent = sb()
						.requests()
						.filter(
							(r) =>
								r.seq > seq &&
								r.method ===
									{ create: 'POST', returnAll: 'GET', bulkUpdate: 'PATCH', trigger: 'POST' }[w] &&
								{ create: CONTACTS, returnAll: CONTACTS, bulkUpdate: DEALS, trigger: REGISTER }[
									w
								].test(r.path),
						).length;
					row.notes.push(`${delayed} requests delayed 2 s each, none timed out or sent twice`);
					if (w === 'create') expect(sent).toBe(CREATE_ITEMS);
					if (w === 'bulkUpdate') expect(sent).toBe(BULK_ITEMS);
					if (w === 'trigger') expect(sent).toBe(TRIGGER_EVENTS.length);
				},
			};
		},
	},
	{
		id: 'expiry',
		label: 'token expiry mid-run',
		names: /reconnect/i,
		arm(w) {
			const expire = () => void sb().auth.expireAll();
			if (w === 'create') when('POST', CONTACTS, [50], expire);
			if (w === 'returnAll') when('GET', CONTACTS, [5], expire);
			if (w === 'bulkUpdate') when('PATCH', DEALS, [4], expire);
			if (w === 'trigger') when('POST', REGISTER, [2], expire);
			const where = {
				create: 'at the 50th create',
				returnAll: 'at page 5',
				bulkUpdate: 'at the 4th bulk request',
				trigger: 'at the 2nd register call',
			}[w];
			return { after: refreshCheck(1, `every token expired ${where}`) };
		},
	},
	{
		id: 'rotation',
		label: 'rotated refresh token',
		names: /reconnect/i,
		arm(w) {
			// At the first point another worker refreshes the shared credential (rotating its refresh
			// token) after the tokens expired; at the second the tokens expire again and this run must
			// refresh with the rotated refresh token it finds in the credential store.
			const elsewhere = () => {
				sb().auth.expireAll();
				refreshElsewhere();
			};
			const expire = () => void sb().auth.expireAll();
			if (w === 'create')
				when('POST', CONTACTS, [30, 70], (n) => (n === 30 ? elsewhere() : expire()));
			if (w === 'returnAll')
				when('GET', CONTACTS, [3, 7], (n) => (n === 3 ? elsewhere() : expire()));
			// The second point comes after every request that was in flight at the first (at most 5)
			// got its 401 and was sent again: an expiry between a refresh and its retry is not a real case.
			if (w === 'bulkUpdate')
				when('PATCH', DEALS, [3, 18], (n) => (n === 3 ? elsewhere() : expire()));
			if (w === 'trigger') {
				when('POST', REGISTER, [2], elsewhere);
				when('GET', /^\/v1\/crm\/deals\/\d+$/, [1], expire);
			}
			return {
				after: refreshCheck(
					2,
					'one refresh by another worker, then one by this run with the rotated refresh token',
				),
			};
		},
	},
	{
		id: 'hookDeleted',
		label: 'webhook deleted remotely',
		skip: {
			create: 'no webhook in this workload',
			returnAll: 'no webhook in this workload',
			bulkUpdate: 'no webhook in this workload',
		},
		arm() {
			return {
				between: async (t, row) => {
					const hookId = nodeState(t.wf).hookIds!.STOCK_IN;
					const token = sb().platformToken(sb().issueTokens());
					expect(
						(await call(sb(), 'DELETE', `/v1/webhooks/delete/${String(hookId)}`, { token })).status,
					).toBe(200);
					// While it is gone the platform has nobody to call: nothing arrives, nothing can be done by n8n.
					const meanwhile = await call(sb(), 'POST', '/__admin/events', {
						token: null,
						body: { eventType: 'STOCK_IN', data: { id: 1 } },
					});
					const sentMeanwhile = (meanwhile.body.deliveries as IDataObject[]).filter((d) =>
						String(d.url).startsWith(t.base),
					).length;
					expect(sentMeanwhile).toBe(0);
					// The next activation (an n8n restart or re-activation) notices and registers it again.
					const again = trigger(
						t.node.webhookId!,
						JSON.parse(JSON.stringify(t.wf.staticData)) as IDataObject,
					);
					const seq = lastSeq();
					expect(await webhookMethod('checkExists', again.wf, again.wd)).toBe(false);
					await webhookMethod('create', again.wf, again.wd);
					const registered = sb()
						.requests()
						.filter((r) => r.seq > seq && r.method === 'POST' && REGISTER.test(r.path)).length;
					expect(registered).toBe(1);
					expect(nodeState(again.wf).hookIds!.STOCK_IN).not.toBe(hookId);
					row.notes.push(
						`STOCK_IN registration deleted on the platform; an event emitted meanwhile reached nobody (${sentMeanwhile} calls: the platform had no registration; undetectable by n8n until the next activation); the next activation registered only that event again`,
					);
					return again;
				},
			};
		},
	},
	{
		id: 'restart',
		label: 'sandbox restarted mid-run (down 150 ms)',
		names: /Could not reach the Business Platform API/,
		notRepeated: true,
		realTime: true,
		arm(w) {
			const restart = () => {
				lane().restarting = sb().restart(150);
			};
			if (w === 'create') when('POST', CONTACTS, [40], restart);
			if (w === 'returnAll') when('GET', CONTACTS, [4], restart);
			if (w === 'bulkUpdate') when('PATCH', DEALS, [4], restart);
			if (w === 'trigger') when('POST', REGISTER, [3], restart);
			return {
				after: (row) => {
					row.notes.push(
						`restarted at ${{ create: 'the 40th create', returnAll: 'page 4', bulkUpdate: 'the 4th bulk request', trigger: 'the 3rd register call' }[w]}; requests sent while it was down (connection refused) were sent again`,
					);
				},
			};
		},
	},
];

// ---------------------------------------------------------------- helpers --

const lastSeq = () => sb().requests().at(-1)?.seq ?? 0;

function pairedIndex(item: INodeExecutionData): number | undefined {
	const p = item.pairedItem;
	if (typeof p === 'number') return p;
	if (Array.isArray(p)) return p[0]?.item;
	return p?.item;
}

const isErrorItem = (json: IDataObject) =>
	typeof json.error === 'string' && json.itemIndex !== undefined;

/** The credential's current tokens and the client secret: none may appear in an error. */
function secrets(): string[] {
	const data = h().credentials.data();
	const tokens = data.oauthTokenData as IDataObject;
	return [
		...Object.entries(tokens)
			.filter(([k]) => /token/i.test(k) && k !== 'token_type')
			.map(([, v]) => String(v)),
		String(data.clientSecret),
	];
}

function expectNoSecrets(error: unknown): void {
	const text = `${JSON.stringify(error)} ${inspect(error, { depth: 10 })}`;
	for (const s of secrets()) expect(text).not.toContain(s);
}

/** An error's text, or a continue-on-fail error item's. */
const describeError = (e: unknown) => {
	const err = e as { message?: string; description?: string; error?: string };
	return `${err.message ?? err.error ?? String(e)} ${err.description ?? ''}`;
};

function namesFault(f: FaultDef, errors: unknown[]): 'yes' | 'no' | 'n.a.' {
	if (errors.length === 0) return 'n.a.';
	if (!f.names) return 'no';
	return errors.every(
		(e) =>
			f.names!.test(describeError(e)) &&
			(!f.notRepeated || /not repeated automatically/.test(describeError(e))),
	)
		? 'yes'
		: 'no';
}

const excerpt = (e: unknown) => {
	const text =
		(e as { message?: string; error?: string }).message ??
		(e as { error?: string }).error ??
		String(e);
	return text.length > 110 ? `${text.slice(0, 107)}…` : text;
};

// -------------------------------------------------------------- workloads --

interface ItemAccount {
	lost: number;
	duplicates: number;
	failed: number;
	failedButDone: number;
	errors: unknown[];
}

/**
 * Per item: it exists in the platform exactly once and was output once, or it was reported
 * failed on its own item (then it exists at most once). Anything else is a loss.
 */
function accountItems(
	run: NodeRun,
	n: number,
	stored: (i: number) => number,
	ok: (json: IDataObject, i: number) => boolean,
	extraOk?: (i: number) => number,
): ItemAccount {
	const acc: ItemAccount = { lost: 0, duplicates: 0, failed: 0, failedButDone: 0, errors: [] };
	for (let i = 0; i < n; i++) {
		const outs = run.items.filter((it) => pairedIndex(it) === i);
		const errors = outs.filter((o) => isErrorItem(o.json));
		const good = outs.filter((o) => !isErrorItem(o.json));
		const count = stored(i);
		acc.duplicates +=
			Math.max(0, count - 1) + (extraOk ? extraOk(i) : Math.max(0, good.length - 1));
		if (errors.length) {
			acc.failed++;
			acc.errors.push(errors[0].json);
			if (errors[0].json.itemIndex !== i) acc.lost++;
			if (count >= 1) acc.failedButDone++;
		} else if (!(good.length >= 1 && count >= 1 && good.every((o) => ok(o.json, i)))) {
			acc.lost++;
		}
	}
	return acc;
}

type RunOnce = (continueOnFail: boolean) => Promise<{ run: NodeRun; acc: ItemAccount }>;

/**
 * Runs a workload without continue-on-fail; one that failed by design (the message must name
 * the fault) is run again with continue-on-fail, so every item is accounted for.
 */
async function runWithContinueOnFail(
	f: FaultDef,
	row: Row,
	runOnce: RunOnce,
	notes: { allDone: string; withContinueOnFail: (acc: ItemAccount) => string },
): Promise<void> {
	const first = await runOnce(false);
	row.executionsFailed = first.run.error ? 1 : 0;
	if (!first.run.error) {
		Object.assign(row, {
			lost: first.acc.lost,
			duplicates: first.acc.duplicates,
			itemsFailed: first.acc.failed,
			namesFault: 'n.a.',
		});
		row.notes.unshift(notes.allDone);
		return;
	}
	expectNoSecrets(first.run.error);
	row.namesFault = namesFault(f, [first.run.error]);
	const failedAt = first.run.error.context?.itemIndex;
	const second = await runOnce(true);
	row.lost = second.acc.lost;
	row.duplicates = first.acc.duplicates + second.acc.duplicates;
	row.itemsFailed = second.acc.failed;
	if (namesFault(f, second.acc.errors) === 'no') row.namesFault = 'no';
	row.notes.unshift(
		`without continue-on-fail the execution stopped at item ${String(failedAt)}: "${excerpt(first.run.error)}"`,
		notes.withContinueOnFail(second.acc),
	);
}

async function createWorkload(f: FaultDef, row: Row): Promise<void> {
	const runOnce = async (continueOnFail: boolean) => {
		const tag = `FM ${f.id} ${continueOnFail ? 'cof' : 'run'}`;
		const names = Array.from(
			{ length: CREATE_ITEMS },
			(_, i) => `${tag} ${String(i).padStart(3, '0')}`,
		);
		const arm = f.arm('create');
		const run = await h().run(
			SALES,
			{ resource: 'contact', operation: 'create', name: '={{ $json.name }}', type: 'person' },
			names.map((name) => ({ json: { name } })),
			{ continueOnFail },
		);
		await lane().restarting;
		arm.after?.(row);
		sb().faults.clear();
		lane().watchers = [];
		const counts = new Map(names.map((n) => [n, 0]));
		for (const c of tenant().contacts.values())
			if (counts.has(c.name as string))
				counts.set(c.name as string, counts.get(c.name as string)! + 1);
		const acc = accountItems(
			run,
			CREATE_ITEMS,
			(i) => counts.get(names[i])!,
			(json, i) =>
				json.name === names[i] && tenant().contacts.get(json.id as number)?.name === names[i],
		);
		return { run, acc };
	};

	await runWithContinueOnFail(f, row, runOnce, {
		allDone: `all ${CREATE_ITEMS} created once`,
		withContinueOnFail: (acc) =>
			`with continue-on-fail: ${CREATE_ITEMS - acc.failed} created once, ${acc.failed} reported failed on their own item (${acc.failedButDone} of them exist once: processed before the failure, not repeated)`,
	});
}

async function returnAllWorkload(f: FaultDef, row: Row): Promise<void> {
	const expected = new Set(
		tenant()
			.contacts.values()
			.map((c) => c.id as number),
	);
	const seq = lastSeq();
	const arm = f.arm('returnAll');
	const run = await h().run(SALES, {
		resource: 'contact',
		operation: 'getAll',
		returnAll: true,
		simplify: true,
	});
	await lane().restarting;
	arm.after?.(row);
	const ids = run.json.map((c) => c.id as number);
	const unique = new Set(ids);
	const pages = sb()
		.requests()
		.filter(
			(r) => r.seq > seq && r.method === 'GET' && CONTACTS.test(r.path) && r.status === 200,
		).length;
	row.executionsFailed = run.error ? 1 : 0;
	row.lost = [...expected].filter((id) => !unique.has(id)).length;
	row.duplicates = ids.length - unique.size + [...unique].filter((id) => !expected.has(id)).length;
	row.itemsFailed = 'n.a.';
	row.namesFault = run.error ? namesFault(f, [run.error]) : 'n.a.';
	if (run.error) expectNoSecrets(run.error);
	row.notes.unshift(`${expected.size} contacts over ${pages} pages of 100: ${unique.size} output`);
}

async function bulkWorkload(f: FaultDef, row: Row): Promise<void> {
	const groups = Array.from({ length: BULK_ITEMS }, (_, i) =>
		lane().bulkDeals.slice(i * BULK_IDS_PER_ITEM, (i + 1) * BULK_IDS_PER_ITEM),
	);
	const dealCount = tenant().deals.size;
	const runOnce = async (continueOnFail: boolean) => {
		const marker = `FM ${f.id} ${continueOnFail ? 'cof' : 'run'}`;
		const arm = f.arm('bulkUpdate');
		const run = await h().run(
			SALES,
			{
				resource: 'deal',
				operation: 'bulkUpdate',
				dealIds: '={{ $json.ids }}',
				updateFields: { reason: marker },
			},
			groups.map((g) => ({ json: { ids: g.join(',') } })),
			{ continueOnFail },
		);
		await lane().restarting;
		arm.after?.(row);
		sb().faults.clear();
		lane().watchers = [];
		const updated = (id: number) => tenant().deals.get(id)?.reason === marker;
		// Counted per deal id: an item's ids were all updated and each output once, or the item failed.
		const acc: ItemAccount = { lost: 0, duplicates: 0, failed: 0, failedButDone: 0, errors: [] };
		groups.forEach((group, i) => {
			const outs = run.items.filter((it) => pairedIndex(it) === i);
			const errors = outs.filter((o) => isErrorItem(o.json));
			const outIds = outs.filter((o) => !isErrorItem(o.json)).map((o) => o.json.id as number);
			acc.duplicates += outIds.length - new Set(outIds).size;
			if (errors.length) {
				acc.failed++;
				acc.errors.push(errors[0].json);
				if (errors[0].json.itemIndex !== i) acc.lost += group.length;
				if (group.every(updated)) acc.failedButDone++;
				return;
			}
			acc.lost += group.filter((id) => !outIds.includes(id) || !updated(id)).length;
		});
		acc.duplicates += tenant().deals.size - dealCount;
		return { run, acc };
	};

	await runWithContinueOnFail(f, row, runOnce, {
		allDone: `all ${lane().bulkDeals.length} deals updated, one output item each`,
		withContinueOnFail: (acc) =>
			`with continue-on-fail: ${BULK_ITEMS - acc.failed} items (${(BULK_ITEMS - acc.failed) * BULK_IDS_PER_ITEM} deals) updated and output once per id, ${acc.failed} reported failed on their own item (${acc.failedButDone} of them applied: processed before the failure, not repeated)`,
	});
}

// ----------------------------------------------------------------- trigger --

interface Trigger {
	node: ReturnType<Harness['node']>;
	wf: Workflow;
	wd: IWebhookData;
	base: string;
}

function trigger(webhookId: string, staticData: IDataObject = {}): Trigger {
	const node = h().node(
		'businessPlatformSalesTrigger',
		{ events: TRIGGER_EVENTS, options: { fetchFullRecord: true } },
		'Platform Trigger',
	);
	node.webhookId = webhookId;
	const wf = triggerWorkflow(node, staticData);
	const [wd] = webhookData(wf, node, additionalData(h().credentials, undefined, rx.url));
	return { node, wf, wd, base: `${rx.url}/webhook/${webhookId}/webhook` };
}

const nodeState = (wf: Workflow) =>
	(wf.staticData['node:Platform Trigger'] ?? {}) as {
		hookIds?: Record<string, number>;
		secrets?: Record<string, string>;
	};

const live = (base: string) =>
	tenant()
		.webhooks.values()
		.filter((w) => !w.deleted && String(w.webhookUrl).split('?')[0] === base);

const outputOf = (r: IWebhookResponseData) => (r.workflowData?.[0] ?? []).map((i) => i.json);

let triggerCounter = 0;

async function triggerWorkload(f: FaultDef, row: Row): Promise<void> {
	const webhookId = `fault-matrix-${f.id}-${++triggerCounter}`;
	let t = trigger(webhookId);
	const seq = lastSeq();
	const arm = f.arm('trigger');

	// Activation as n8n does it (checkExists, then create); a failed activation is tried again, as
	// n8n does for workflows whose activation failed (and as a user would).
	const activationErrors: unknown[] = [];
	for (let attempt = 1; attempt <= 2; attempt++) {
		try {
			await activateWebhook(t.wf, t.wd);
			break;
		} catch (e) {
			activationErrors.push(e);
			await lane().restarting;
			t = trigger(webhookId, JSON.parse(JSON.stringify(t.wf.staticData)) as IDataObject);
		}
	}
	await lane().restarting;
	expect(activationErrors.length).toBeLessThan(2);
	for (const e of activationErrors) expectNoSecrets(e);

	const countsAfterActivation = TRIGGER_EVENTS.map(
		(e) => live(t.base).filter((w) => w.eventType === e).length,
	);
	let lost = countsAfterActivation.filter((n) => n === 0).length;
	let duplicates = countsAfterActivation.reduce((s, n) => s + Math.max(0, n - 1), 0);
	// A failed activation leaves nothing behind: its registrations (even one the platform stored although it answered an error) were removed.
	const registered = tenant()
		.webhooks.values()
		.filter((w) => String(w.webhookUrl).startsWith(`${t.base}?`));

	// The register body carries the platform tokens; after a refresh during activation, do the kept
	// registrations carry the credential's current ones? (Reported, not asserted: the spec does not
	// say what the platform does with them.)
	const tokensNow = h().credentials.data().oauthTokenData as IDataObject;
	const currentRefresh = tokensNow[platformRefreshTokenKey(tokensNow) ?? 'refresh_token'];
	const keptIds = new Set(live(t.base).map((w) => Number(w.hookId)));
	const keptBodies = sb()
		.requests()
		.filter(
			(r) =>
				r.seq > seq && r.method === 'POST' && REGISTER.test(r.path) && r.status === 200 && r.body,
		)
		.map((r) => JSON.parse(r.body!) as IDataObject)
		.filter((b) =>
			live(t.base).some((w) => keptIds.has(Number(w.hookId)) && w.webhookUrl === b.webhookUrl),
		);
	const staleBodies = keptBodies.filter((b) => b.refreshToken !== currentRefresh).length;

	t = (await arm.between?.(t, row)) ?? t;

	// One event per registered type, delivered by the sandbox to the receiver, then handed to the node.
	const dealId = lane().bulkDeals[0];
	const from = rx.calls.length;
	for (const eventType of TRIGGER_EVENTS) {
		await call(sb(), 'POST', '/__admin/events', {
			token: null,
			body: { eventType, data: eventType === 'CREATE_CRM_DEAL' ? { id: dealId } : { id: 7 } },
		});
	}
	await sb().hooks.idle();
	const path = new URL(t.base).pathname;
	const got = rx.calls.slice(from).filter((c) => c.path.split('?')[0] === path);
	let withRecord = 0;
	const recordErrors: string[] = [];
	for (const eventType of TRIGGER_EVENTS) {
		const calls = got.filter(
			(c) => new URL(c.path, rx.url).searchParams.get('event') === eventType,
		);
		if (calls.length === 0) lost++;
		duplicates += Math.max(0, calls.length - 1);
		for (const c of calls) {
			const u = new URL(c.path, rx.url);
			const out = outputOf(
				await deliverWebhook(t.wf, t.wd, {
					body: c.body,
					headers: c.headers as IDataObject,
					query: Object.fromEntries(u.searchParams),
				}),
			);
			if (out.length !== 1 || out[0].eventType !== eventType) lost++;
			if (eventType === 'CREATE_CRM_DEAL') {
				if ((out[0]?.record as IDataObject | undefined)?.id === dealId) withRecord++;
				else if (out[0]?.recordError) recordErrors.push(String(out[0].recordError));
				else lost++;
			}
		}
	}

	// Deactivation: nothing may stay registered at this node's URL. A failed one is tried again (the next activation would clean up too).
	const deactivationErrors: unknown[] = [];
	for (let attempt = 1; attempt <= 2; attempt++) {
		try {
			await webhookMethod('delete', t.wf, t.wd);
			break;
		} catch (e) {
			deactivationErrors.push(e);
		}
	}
	await lane().restarting;
	arm.after?.(row);
	const leftover = live(t.base).length;

	row.executionsFailed = activationErrors.length;
	row.lost = lost;
	row.duplicates = duplicates + leftover;
	row.itemsFailed = 'n.a.';
	row.namesFault = namesFault(f, activationErrors);
	const registerCalls = sb()
		.requests()
		.filter((r) => r.seq > seq && r.method === 'POST' && REGISTER.test(r.path));
	row.notes.unshift(
		...(activationErrors.length
			? [
					`first activation refused: "${excerpt(activationErrors[0])}"; ${registered.length - countsAfterActivation.reduce((a, b) => a + b, 0)} registration(s) it had made were removed again; the second activation succeeded`,
				]
			: []),
		`${registerCalls.length} register calls for 5 events; after activation ${countsAfterActivation.reduce((a, b) => a + b, 0)} live registrations (one per event)${staleBodies ? `, ${staleBodies} of them registered with the refresh token the credential held before the refresh` : ''}`,
		`${got.length} deliveries → ${got.length} workflow items; the deal event ${withRecord ? 'with its record' : `without it (recordError: ${recordErrors[0] ?? '?'})`}`,
		`deactivation${deactivationErrors.length ? ` needed ${deactivationErrors.length + 1} tries` : ''}: ${leftover} left registered`,
	);
	expect(leftover).toBe(0);
}

// ------------------------------------------------------------------- cells --

const run: Record<WorkloadId, (f: FaultDef, row: Row) => Promise<void>> = {
	create: createWorkload,
	returnAll: returnAllWorkload,
	bulkUpdate: bulkWorkload,
	trigger: triggerWorkload,
};

/** A workload under a fault, on the lane `pool` gives it: its row, for its test to check. */
function cellOf(
	pool: Lanes<Lane>,
	f: FaultDef,
	w: (typeof WORKLOADS)[number],
): () => Promise<{ row: Row; watcherErrors: string[] }> {
	const row: Row = {
		fault: f.label,
		workload: w.label,
		lost: 'n.a.',
		duplicates: 'n.a.',
		executionsFailed: 'n.a.',
		itemsFailed: 'n.a.',
		namesFault: 'n.a.',
		notes: [],
	};
	rows.push(row);
	return pool.cell(async (own) => {
		const skip = f.skip?.[w.id];
		if (skip) {
			row.notes.push(`not applicable: ${skip}`);
			return { row, watcherErrors: [] };
		}
		Object.assign(own, { watchers: [], watcherErrors: [], waits: [], restarting: undefined });
		// Every cell starts from a freshly connected credential (an earlier cell may have left expired tokens).
		const cred = own.h.credentials.store.get(own.h.credentials.defaultId)!;
		cred.data = { ...cred.data, oauthTokenData: own.sb.issueTokens() as IDataObject };
		const started = Date.now();
		own.sb.resetStats();
		try {
			await run[w.id](f, row);
		} finally {
			await own.restarting;
			own.sb.faults.clear();
			own.watchers = [];
		}
		row.seconds = (Date.now() - started) / 1000;
		return { row, watcherErrors: own.watcherErrors };
	});
}

async function check(cell: () => Promise<{ row: Row; watcherErrors: string[] }>): Promise<void> {
	const { row, watcherErrors } = await cell();
	if (row.notes[0]?.startsWith('not applicable')) return;
	expect(watcherErrors).toEqual([]);
	expect(row.lost).toBe(0);
	expect(row.duplicates).toBe(0);
	expect(row.executionsFailed === 0 || row.executionsFailed === 1).toBe(true);
	if (row.executionsFailed === 1) expect(row.namesFault).toBe('yes');
}

describe.each(FAULTS.filter((f) => !f.realTime))('$label', (f) => {
	const cells = new Map(WORKLOADS.map((w) => [w.id, cellOf(parallel, f, w)]));
	it.each(WORKLOADS)(
		'$label: nothing lost, nothing duplicated',
		async (w) => await check(cells.get(w.id)!),
	);
});

// Last, one at a time, on the real clock: by then every other cell has ended (each test above awaited its own).
describe.each(FAULTS.filter((f) => f.realTime))('$label', (f) => {
	beforeAll(() => clock.uninstall());
	afterAll(() => clock.install((ms) => lane().waits.push(ms)));
	const pool: Lanes<Lane> = useLanes(
		1,
		openLane(() => pool, 'real-time'),
		closeLane,
	);
	serial = pool;
	const cells = new Map(WORKLOADS.map((w) => [w.id, cellOf(pool, f, w)]));
	it.each(WORKLOADS)(
		'$label: nothing lost, nothing duplicated',
		async (w) => await check(cells.get(w.id)!),
	);
});

// ------------------------------------------------------------------- table --

function machine(): string {
	const list = cpus();
	const model = list[0]?.model?.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
	return `${list.length} × ${model}, Node ${process.version}, ${process.platform} ${process.arch}`;
}

function writeTable(): void {
	// `npm run report:faults` writes the table (npm test leaves tracked files alone), and only
	// from a full run (a run filtered with -t would leave it incomplete).
	if (process.env.BP_WRITE_REPORTS !== '1' || rows.length !== FAULTS.length * WORKLOADS.length)
		return;
	const cell = (v: unknown) => String(v).replace(/\|/g, '\\|');
	const lines = [
		'# Fault matrix',
		'',
		`Generated by \`test/integration/fault-matrix.test.ts\` on ${new Date().toISOString().slice(0, 10)}.`,
		`Machine: ${machine()}.`,
		'',
		'Every workload runs through n8n-core (the test harness) against the sandbox with one fault injected. **Lost**: items',
		'that are neither in the sandbox exactly once (and output once) nor reported failed on their own item — for Return All,',
		'contacts missing from the output; for the trigger, events without a registration or without a workflow item.',
		'**Duplicates**: extra records, extra output items, extra registrations or deliveries, registrations left after',
		'deactivation. **Executions failed**: the run without continue-on-fail (for the trigger: failed activations; the',
		'activation is then tried again). **Items failed**: the same run again with continue-on-fail, when the first failed.',
		'Timings are informational (a shared 2-core machine).',
		'',
		'| Fault | Workload | Lost | Duplicates | Executions failed | Items failed (continue-on-fail) | Error names the fault | Seconds | Notes |',
		'|---|---|---|---|---|---|---|---|---|',
		...rows.map(
			(r) =>
				`| ${[r.fault, r.workload, r.lost, r.duplicates, r.executionsFailed, r.itemsFailed, r.namesFault, r.seconds === undefined ? '' : r.seconds.toFixed(2), [...new Set(r.notes)].join('; ')].map(cell).join(' | ')} |`,
		),
		'',
	];
	const dir = join(__dirname, '..', '..', 'bench', 'results');
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, 'faults.md'), lines.join('\n'));
}
