/**
 * The Trigger's heal (nodes/BusinessPlatformSalesTrigger/heal.ts) when the platform or n8n does
 * something less usual (issue 55), through n8n-core's contexts against the sandbox: a list that is
 * not a list, a repeated row, an unpublish while a poll's request is slow, a poll slower than any
 * budget beside the next one, a platform that echoes the registration's URL in its error, an
 * outage of an hour, and what the poll sees under n8n's durable cursors. Each case failed on
 * 6f0390d; every assertion reads the sandbox, what the node logged, returned or threw.
 */
import type { IDataObject } from 'n8n-workflow';

import { FIRST_SIGNAL_MS, SIGNAL_EVERY_MS } from '../../nodes/BusinessPlatformSalesTrigger/heal';
import { ACTIVATION_WAIT_MS, PUBLICATION_DEADLINE_MS } from '../../nodes/shared/n8n-internals';
import { ACTIVATION_MS } from '../../nodes/shared/polling/turns';
import { allowOffContract } from '../helpers/contract';
import { eventually } from '../../testbed/eventually';
import {
	activate,
	asSaved,
	drop,
	emitAndDeliver,
	heldPoll,
	hook,
	liveEvents,
	logged,
	nodeData,
	poll,
	publish,
	settle,
	triggerOf,
	unpublish,
	useHealFile,
	warnings,
} from '../helpers/heal';
import { lastSeq, live, registerCalls } from '../helpers/registrations';
import type { Sandbox } from '../helpers/sandbox';

const { tuning, clock, ctx, receiver, at } = useHealFile();

/** The platform answers the list off the contract on purpose in this test. */
const allowJunk = (sb: Sandbox) =>
	allowOffContract(
		sb,
		/webhook|\/v1\/webhooks|not of type|must be array/i,
		'junk answers on purpose',
	);

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

describe('the heal stands down for an unpublish or an activation at every step, however long it runs', () => {
	it(`a workflow unpublished while a heal poll's list request is slow: the unpublish waits for it at most ${ACTIVATION_WAIT_MS / 1000} s (n8n 2.41 gives up on a publication after ${PUBLICATION_DEADLINE_MS / 1000} s), then removes the registrations; the poll, answered later, registers and reports nothing`, async () => {
		const sb = ctx.sb;
		const p = await publish(sb, at(), ['UPDATE_DEBITNOTE', 'DELETE_DEBITNOTE']);
		await drop(sb, p, 'DELETE_DEBITNOTE');
		const { polled } = await heldPoll(sb, p, 'list');
		let done = false;
		const unpublished = unpublish(sb, p).then(() => (done = true));
		await settle();
		expect(done).toBe(false); // it waits for the heal
		// Past the wait and past ACTIVATION_MS: the heal must not take the unpublish for over.
		clock.moved += ACTIVATION_MS + 1;
		await eventually(() => expect(done).toBe(true), 5_000);
		expect(live(sb, p.base)).toHaveLength(0);
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
		const { polled } = await heldPoll(sb, p, 'register');
		const unpublished = unpublish(sb, p);
		await settle();
		clock.moved += 60 * 60_000; // an hour: past whatever an unpublish waits for
		await unpublished;
		expect(live(sb, p.base)).toHaveLength(0);
		sb.faults.release();
		await polled;
		await eventually(() => expect(live(sb, p.base)).toHaveLength(0));
	});

	it(`an activation whose own register is slower than ACTIVATION_MS (${ACTIVATION_MS / 1000} s): a heal poll meanwhile registers nothing, and each event ends with one registration`, async () => {
		const sb = ctx.sb;
		const events = ['CREATE_INVOICE', 'STOCK_IN'];
		const p = await publish(sb, at(), events);
		await drop(sb, p, 'STOCK_IN');
		sb.faults.add({ kind: 'hold', method: 'POST', path: '/v1/webhooks/register', count: 1 });
		const again = triggerOf(sb, at(), events, asSaved(p));
		const activation = activate(again);
		await eventually(() => expect(sb.faults.held).toBe(1));
		clock.moved += ACTIVATION_MS + 1;
		const seq = lastSeq(sb);
		expect(await poll(p)).toEqual([]);
		expect(registerCalls(sb, seq)).toHaveLength(0);
		sb.faults.release();
		await activation;
		expect(liveEvents(sb, p.base)).toEqual(events);
		expect(await emitAndDeliver(sb, again, receiver.rx.calls, 'STOCK_IN')).toHaveLength(1);
		await hook(again, 'delete');
	});
});

describe('one heal at a time on every n8n', () => {
	it("n8n 1.x: a heal poll slower than the pack's 45 s budget and the next minute's poll register a dropped event once", async () => {
		const sb = ctx.sb;
		const p = await publish(sb, at(), ['CREATE_PRODUCTS']);
		await drop(sb, p, 'CREATE_PRODUCTS');
		const { polled: first } = await heldPoll(sb, p, 'register', { n8n: 'oldest' });
		clock.moved += 60_000; // the next Poll Time
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
	it('a platform unreachable for an hour: one warning when it begins, one failed execution (at 15 minutes), one line when it ends; 3 failed executions in 3 hours; a clock that goes back starts the count again', async () => {
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
				clock.moved += 60_000;
			}
			expect(failedAt).toEqual([15, 75, 135]);
			expect(failedAt.filter((m) => m < 60)).toHaveLength(1);
			expect(warnings().filter((l) => l.level === 'warn')).toHaveLength(1);
			// The clock goes back to before the outage began, which goes on: it counts from there, one warning, one failure 15 minutes on.
			clock.moved -= 4 * SIGNAL_EVERY_MS;
			logged.length = 0;
			const afterBack: number[] = [];
			for (let minute = 0; minute < 20; minute++) {
				await poll(p).catch(() => afterBack.push(minute));
				clock.moved += 60_000;
			}
			expect(afterBack).toEqual([FIRST_SIGNAL_MS / 60_000]);
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
