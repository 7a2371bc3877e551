/**
 * The Trigger's heal (nodes/BusinessPlatformSalesTrigger/heal.ts) when the platform or n8n does
 * something less usual (issue 55), through n8n-core's contexts against the sandbox: a list that is
 * not a list, a repeated row, an unpublish while a poll's request is slow, a poll slower than any
 * budget beside the next one, a platform that echoes the registration's URL in its error, an
 * outage of an hour, and what the poll sees under n8n's durable cursors. Each case failed on
 * 6f0390d; every assertion reads the sandbox, what the node logged, returned or threw.
 */
import type { IDataObject } from 'n8n-workflow';

import { allowOffContract } from '../helpers/contract';
import { eventually } from '../helpers/eventually';
import {
	activate,
	asSaved,
	drop,
	emitAndDeliver,
	hook,
	liveEvents,
	logged,
	nodeData,
	poll,
	publish,
	settle,
	triggerOf,
	unpublish,
} from '../helpers/heal';
import { useReceiver } from '../helpers/receiver';
import { lastSeq, live, registerCalls } from '../helpers/registrations';
import { useSandbox, type Sandbox } from '../helpers/sandbox';
import { fileTuning } from '../helpers/tuning';

const tuning = fileTuning();
/** The polls' clock (the heal's turns, the activation's wait, an outage's length): moved forward by tests. */
let moved = 0;
tuning.poll.now = () => Date.now() + moved;

const ctx = useSandbox();
const receiver = useReceiver();
const at = () => receiver.rx.url;

afterEach(() => {
	ctx.sb.faults.clear();
	logged.length = 0;
});

/** The platform answers the list off the contract on purpose in this test. */
const allowJunk = (sb: Sandbox) =>
	allowOffContract(
		sb,
		/webhook|\/v1\/webhooks|not of type|must be array/i,
		'junk answers on purpose',
	);

/** Lines the node logged at warn or error level. */
const warnings = () => logged.filter((l) => l.level === 'warn' || l.level === 'error');

const JUNK = [
	{ body: '', contentType: 'application/json', what: 'an empty body' },
	{
		body: '<html><body><h1>Down for maintenance</h1></body></html>',
		contentType: 'text/html',
		what: 'an HTML maintenance page',
	},
	{ body: '{}', contentType: 'application/json', what: '{}' },
];

describe('a list the heal can trust, or no action', () => {
	it('GET /v1/webhooks answering 200 with no list (an empty body, an HTML page, {}): three polls register nothing, report nothing, say so once in the log; the next event starts one execution', async () => {
		const sb = ctx.sb;
		allowJunk(sb);
		const p = await publish(sb, at(), ['CREATE_CRM_DEAL']);
		const seq = lastSeq(sb);
		for (const junk of JUNK) {
			sb.faults.add({ kind: 'body', method: 'GET', path: '/v1/webhooks', count: 1, ...junk });
			expect(await poll(p)).toEqual([]);
		}
		expect(registerCalls(sb, seq)).toHaveLength(0);
		expect(sb.requests().filter((r) => r.seq > seq && r.method === 'DELETE')).toHaveLength(0);
		expect(warnings()).toHaveLength(1);
		expect(warnings()[0].message).toMatch(/not a list of (webhook )?registrations/i);
		expect(liveEvents(sb, p.base)).toEqual(['CREATE_CRM_DEAL']);
		expect(await emitAndDeliver(sb, p, receiver.rx.calls, 'CREATE_CRM_DEAL')).toHaveLength(1);
		await hook(p, 'delete');
	});

	it('a list that repeats a row (the same hookId twice): the heal removes nothing (the event keeps its only registration) and says so once', async () => {
		const sb = ctx.sb;
		const p = await publish(sb, at(), ['CREATE_INVOICE', 'UPDATE_INVOICE']);
		const rows = sb.store
			.tenant(1)
			.webhooks.values()
			.filter((w) => !w.deleted)
			.map((w) => ({
				hookId: w.hookId,
				eventType: w.eventType,
				webhookUrl: w.webhookUrl,
				deleted: false,
			}));
		const mine = rows.find((r) => String(r.webhookUrl).startsWith(p.base))!;
		const repeated = JSON.stringify([...rows, mine]);
		const seq = lastSeq(sb);
		for (let i = 0; i < 2; i++) {
			sb.faults.add({
				kind: 'body',
				method: 'GET',
				path: '/v1/webhooks',
				count: 1,
				body: repeated,
			});
			expect(await poll(p)).toEqual([]);
		}
		expect(sb.requests().filter((r) => r.seq > seq && r.method !== 'GET')).toHaveLength(0);
		expect(liveEvents(sb, p.base)).toEqual(['CREATE_INVOICE', 'UPDATE_INVOICE']);
		expect(warnings()).toHaveLength(1);
		expect(warnings()[0].message).toMatch(/twice/);
		await hook(p, 'delete');
	});

	it("the activation's reconcile follows the same rule: a list that is not one, or repeats a row, stops the activation before anything is registered or removed", async () => {
		const sb = ctx.sb;
		allowJunk(sb);
		const first = await publish(sb, at(), ['CREATE_BILL']);
		const again = triggerOf(sb, at(), ['CREATE_BILL', 'DELETE_BILL'], asSaved(first));
		const row = live(sb, first.base)[0];
		const answers = [
			JUNK[1],
			{
				body: JSON.stringify([
					{ hookId: row.hookId, eventType: 'CREATE_BILL', webhookUrl: row.webhookUrl },
					{ hookId: row.hookId, eventType: 'CREATE_BILL', webhookUrl: row.webhookUrl },
				]),
			},
		];
		for (const answer of answers) {
			sb.faults.add({ kind: 'body', method: 'GET', path: '/v1/webhooks', count: 1, ...answer });
			const seq = lastSeq(sb);
			await expect(activate(again)).rejects.toThrow(
				/not a list of (webhook )?registrations|twice/i,
			);
			expect(sb.requests().filter((r) => r.seq > seq && r.method !== 'GET')).toHaveLength(0);
			expect(liveEvents(sb, first.base)).toEqual(['CREATE_BILL']);
		}
		await hook(first, 'delete');
	});
});

describe('the heal stands down for an unpublish at every step', () => {
	it("a workflow unpublished while a heal poll's list request is slow: the poll registers nothing after the delete removed the registrations", async () => {
		const sb = ctx.sb;
		const p = await publish(sb, at(), ['CREATE_CRM_DEAL', 'CREATE_INVOICE']);
		await poll(p);
		sb.faults.add({ kind: 'hold', method: 'GET', path: '/v1/webhooks', count: 1 });
		const polled = poll(p);
		await eventually(() => expect(sb.faults.held).toBe(1));
		const unpublished = unpublish(sb, p);
		await settle();
		moved += 61_000; // past the minute an unpublish used to wait for a running poll
		// Where the unpublish no longer waits, it removes the registrations now.
		await eventually(() => expect(live(sb, p.base)).toHaveLength(0), 1_000).catch(() => undefined);
		const seq = lastSeq(sb);
		sb.faults.release();
		expect(await polled).toEqual([]);
		await unpublished;
		expect(registerCalls(sb, seq)).toHaveLength(0);
		expect(live(sb, p.base)).toHaveLength(0);
	});

	it('a register request slower than any bound, answered after the unpublish: the poll removes what it registered', async () => {
		const sb = ctx.sb;
		const p = await publish(sb, at(), ['CREATE_CRM_DEAL', 'UPDATE_CRM_DEAL']);
		await drop(sb, p, 'UPDATE_CRM_DEAL');
		sb.faults.add({ kind: 'hold', method: 'POST', path: '/v1/webhooks/register', count: 1 });
		const polled = poll(p);
		await eventually(() => expect(sb.faults.held).toBe(1));
		const unpublished = unpublish(sb, p);
		await settle();
		moved += 60 * 60_000; // an hour: past whatever an unpublish waits for
		await unpublished;
		expect(live(sb, p.base)).toHaveLength(0);
		sb.faults.release();
		await polled;
		await eventually(() => expect(live(sb, p.base)).toHaveLength(0));
	});
});

describe('one heal at a time on every n8n', () => {
	it("n8n 1.x: a heal poll slower than the pack's 45 s budget and the next minute's poll register a dropped event once", async () => {
		const sb = ctx.sb;
		const p = await publish(sb, at(), ['CREATE_PRODUCTS']);
		await drop(sb, p, 'CREATE_PRODUCTS');
		sb.faults.add({ kind: 'hold', method: 'POST', path: '/v1/webhooks/register', count: 1 });
		const first = poll(p, { n8n: 'oldest' });
		await eventually(() => expect(sb.faults.held).toBe(1));
		moved += 60_000; // the next Poll Time
		const second = await poll(p, { n8n: 'oldest' });
		sb.faults.release();
		const reports = [...(await first), ...second];
		expect(liveEvents(sb, p.base)).toEqual(['CREATE_PRODUCTS']);
		expect(reports).toHaveLength(1);
		expect(await emitAndDeliver(sb, p, receiver.rx.calls, 'CREATE_PRODUCTS')).toHaveLength(1);
		await hook(p, 'delete');
	});
});

/** The next register is refused with an error that repeats its webhookUrl (and so the secret it carries). */
const refuseNextRegisterEchoingUrl = (sb: Sandbox) =>
	sb.faults.add({
		kind: 'status',
		status: 400,
		echo: 'webhookUrl',
		method: 'POST',
		path: '/v1/webhooks/register',
		count: 1,
	});

describe('no secret in any log line, item or error', () => {
	it("the platform refuses a re-registration with an error that repeats the request (the webhookUrl with its secret): the heal's warning carries no secret", async () => {
		const sb = ctx.sb;
		const p = await publish(sb, at(), ['STOCK_IN']);
		const secret = nodeData(p).secrets!.STOCK_IN;
		await drop(sb, p, 'STOCK_IN');
		refuseNextRegisterEchoingUrl(sb);
		const items = await poll(p).catch((e: Error) => [
			{ error: `${e.message} ${String((e as { description?: string }).description)}` },
		]);
		expect(warnings().length).toBeGreaterThan(0);
		expect(JSON.stringify(logged)).toContain('STOCK_IN');
		expect(JSON.stringify(logged)).not.toContain(secret);
		expect(JSON.stringify(items)).not.toContain(secret);
		await poll(p); // registered at the next poll
		expect(liveEvents(sb, p.base)).toEqual(['STOCK_IN']);
		await hook(p, 'delete');
	});

	it("an activation's register refused with an error that repeats the request: the activation's error carries no secret", async () => {
		const sb = ctx.sb;
		refuseNextRegisterEchoingUrl(sb);
		const p = triggerOf(sb, at(), ['STOCK_OUT']);
		const seq = lastSeq(sb);
		const error = await activate(p).then(
			() => undefined,
			(e: Error & { description?: string }) => e,
		);
		const [sent] = registerCalls(sb, seq);
		const secret = new URL(JSON.parse(sent.body!).webhookUrl as string).searchParams.get('secret')!;
		expect(error?.message).toMatch(/STOCK_OUT/);
		expect(`${error?.message} ${error?.description}`).not.toContain(secret);
		expect(JSON.stringify(logged)).not.toContain(secret);
		expect(live(sb, p.base)).toHaveLength(0);
	});
});

describe('an outage costs the user one signal, not one a minute', () => {
	it('a platform unreachable for an hour: one warning when it begins, one failed execution (at 15 minutes), one line when it ends; 3 failed executions in 3 hours', async () => {
		const sb = ctx.sb;
		const attempts = tuning.retry.attempts;
		tuning.retry.attempts = 1; // one request per poll: the outage, not the retries, is under test
		try {
			const p = await publish(sb, at(), ['CREATE_CREDITNOTE']);
			await poll(p);
			sb.faults.add({ kind: 'status', status: 503, method: 'GET', path: '/v1/webhooks' });
			const failedAt: number[] = [];
			for (let minute = 0; minute < 180; minute++) {
				await poll(p).catch(() => failedAt.push(minute));
				moved += 60_000;
			}
			expect(failedAt).toEqual([15, 75, 135]);
			expect(failedAt.filter((m) => m < 60)).toHaveLength(1);
			expect(warnings().filter((l) => l.level === 'warn')).toHaveLength(1);
			sb.faults.clear();
			logged.length = 0;
			expect(await poll(p)).toEqual([]);
			expect(logged.filter((l) => l.level === 'info' && /again/.test(l.message))).toHaveLength(1);
			await hook(p, 'delete');
		} finally {
			tuning.retry.attempts = attempts;
		}
	});
});

describe("n8n's durable cursors", () => {
	it("a poll that sees a frozen copy of the static data (the cursor made at the node's first poll, before the workflow was published again) registers a dropped event with the live secret: its next event is accepted", async () => {
		const sb = ctx.sb;
		const first = await publish(sb, at(), ['CREATE_DEBITNOTE']);
		const frozen = JSON.parse(JSON.stringify(nodeData(first))) as IDataObject;
		await hook(first, 'delete');
		// Published again: new registrations, new secrets; the cursor keeps the first copy.
		const p = await publish(sb, at(), ['CREATE_DEBITNOTE'], {
			h: first.h,
			webhookId: first.node.webhookId,
			workflowId: first.wf.id,
		});
		await drop(sb, p, 'CREATE_DEBITNOTE');
		await poll(p, { staticData: frozen });
		expect(liveEvents(sb, p.base)).toEqual(['CREATE_DEBITNOTE']);
		expect(await emitAndDeliver(sb, p, receiver.rx.calls, 'CREATE_DEBITNOTE')).toHaveLength(1);
		await hook(p, 'delete');
	});
});
