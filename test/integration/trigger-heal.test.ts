/**
 * The Trigger's poll (nodes/BusinessPlatformSalesTrigger/heal.ts) through n8n-core's contexts against
 * the sandbox: a registration the platform dropped comes back at the next poll, once, with the
 * secret deliveries are checked against; a second one (a registration made twice) goes; a drop is
 * reported once, by the poll or after the activation that restored it, with since when events
 * may have been missed. Every assertion reads the sandbox's registrations, its request log, or
 * what the node gives for a delivery the sandbox really made to a local receiver. What the heal
 * does when the platform or n8n behaves less usually: trigger-heal-adversity.test.ts; a property
 * over both: trigger-heal.property.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { SEEN_REFRESH_MS } from '../../nodes/BusinessPlatformSalesTrigger/heal';
import { ACTIVATION_WAIT_MS } from '../../nodes/shared/n8n-internals';
import { eventually } from '../../testbed/eventually';
import * as heal from '../helpers/heal';
import {
	activate,
	asSaved,
	drop,
	liveEvents,
	nodeData,
	registerBody,
	settle,
	triggerOf,
} from '../helpers/heal';
import { useReceiver } from '../helpers/receiver';
import { lastSeq, live, registerCalls } from '../helpers/registrations';
import { call, useSandbox, type Sandbox } from '../helpers/sandbox';
import { fileTuning } from '../helpers/tuning';

/** This file's tunables and clocks (test/helpers/tuning.ts): one test moves the polls' clock. */
const tuning = fileTuning();

const ctx = useSandbox();
const receiver = useReceiver();

afterEach(() => ctx.sb.faults.clear());

const publish = async (sb: Sandbox, events: string[], opts: heal.PublishOptions = {}) =>
	await heal.publish(sb, receiver.rx.url, events, opts);
const restart = heal.restart;
const poll = async (p: heal.Published) => await heal.poll(p);
const emitAndDeliver = async (sb: Sandbox, p: heal.Published, eventType: string) =>
	await heal.emitAndDeliver(sb, p, receiver.rx.calls, eventType);
const webhookMethod = async (method: 'delete', p: heal.Published) => await heal.hook(p, method);

describe('the Trigger heals its registrations', () => {
	it('a registration the platform dropped comes back at the next poll, once, with its secret: the next event gives one item; the drop is reported once', async () => {
		const sb = ctx.sb;
		const events = ['CREATE_CRM_DEAL', 'CREATE_INVOICE', 'UPDATE_CRM_DEAL'];
		const p = await publish(sb, events);
		const urlBefore = live(sb, p.base).find((w) => w.eventType === 'CREATE_INVOICE')!.webhookUrl;
		expect(await poll(p)).toEqual([]); // all live: nothing to say
		await drop(sb, p, 'CREATE_INVOICE');
		expect(await emitAndDeliver(sb, p, 'CREATE_INVOICE')).toEqual([]); // delivered nowhere

		const seq = lastSeq(sb);
		const report = await poll(p);
		expect(registerCalls(sb, seq).map((r) => JSON.parse(r.body!).eventType)).toEqual([
			'CREATE_INVOICE',
		]);
		expect(liveEvents(sb, p.base)).toEqual([...events].sort());
		const restored = live(sb, p.base).find((w) => w.eventType === 'CREATE_INVOICE')!;
		expect(restored.webhookUrl).toBe(urlBefore); // same URL, same secret
		expect(report).toEqual([
			expect.objectContaining({
				eventType: 'CREATE_INVOICE',
				registrationRestored: true,
				hookId: restored.hookId,
				missedSince: expect.any(String),
				restoredAt: expect.any(String),
			}),
		]);
		expect(Date.parse(report[0].missedSince as string)).toBeLessThanOrEqual(
			Date.parse(report[0].restoredAt as string),
		);

		const out = await emitAndDeliver(sb, p, 'CREATE_INVOICE');
		expect(out).toEqual([
			expect.objectContaining({ eventType: 'CREATE_INVOICE', hookId: restored.hookId }),
		]);
		// The next polls: nothing more registered, nothing more reported.
		const seq2 = lastSeq(sb);
		expect(await poll(p)).toEqual([]);
		expect(await poll(p)).toEqual([]);
		expect(registerCalls(sb, seq2)).toHaveLength(0);
		await webhookMethod('delete', p);
		expect(live(sb, p.base)).toHaveLength(0);
	});

	it('a poll with everything live sends one request (the list) and saves nothing; a mark of when each was seen is written at most every 10 minutes', async () => {
		const sb = ctx.sb;
		const p = await publish(sb, ['CREATE_CRM_DEAL', 'STOCK_IN']);
		await poll(p); // the first mark
		const state = () => JSON.stringify(p.wf.staticData);
		const saved = state();
		const seq = lastSeq(sb);
		expect(await poll(p)).toEqual([]);
		const sent = sb.requests().filter((r) => r.seq > seq);
		expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/webhooks']);
		expect(state()).toBe(saved);
		expect(SEEN_REFRESH_MS).toBe(600_000);
		await webhookMethod('delete', p);
	});

	it('after n8n restarted, the activation that restored a dropped registration (the former path; the publication service at start) is reported once by the next poll', async () => {
		const sb = ctx.sb;
		const events = ['CREATE_CRM_DEAL', 'CREATE_INVOICE'];
		const p = await publish(sb, events);
		await poll(p);
		await drop(sb, p, 'CREATE_CRM_DEAL');
		const again = await restart(sb, p, events);
		expect(liveEvents(sb, p.base)).toEqual([...events].sort());
		const report = await poll(again);
		expect(report).toEqual([
			expect.objectContaining({
				eventType: 'CREATE_CRM_DEAL',
				registrationRestored: true,
				missedSince: expect.any(String),
			}),
		]);
		expect(await poll(again)).toEqual([]);
		// Unpublish, publish: a fresh start, nothing to report.
		await webhookMethod('delete', again);
		const fresh = await publish(sb, events, { h: p.h, webhookId: p.node.webhookId });
		expect(await poll(fresh)).toEqual([]);
		await webhookMethod('delete', fresh);
	});

	it("n8n's start runs the activation and the first poll at once: the dropped event is registered once, with the secret the static data keeps, and its next event is accepted", async () => {
		const sb = ctx.sb;
		const events = ['CREATE_INVOICE', 'UPDATE_INVOICE', 'CREATE_CRM_DEAL'];
		for (let round = 0; round < 5; round++) {
			const p = await publish(sb, events);
			await poll(p);
			await drop(sb, p, 'CREATE_INVOICE');
			await drop(sb, p, 'CREATE_CRM_DEAL');
			const again = triggerOf(sb, receiver.rx.url, events, asSaved(p));
			// As n8n's publication service does: both phases at once, the poll a moment later or earlier.
			await Promise.all([
				activate(again),
				(async () => {
					for (let i = 0; i < round; i++) await Promise.resolve();
					return await poll(again);
				})(),
			]);
			await poll(again);
			expect(liveEvents(sb, p.base)).toEqual([...events].sort());
			const secrets = nodeData(again).secrets!;
			for (const w of live(sb, p.base))
				expect(String(w.webhookUrl)).toContain(`secret=${secrets[String(w.eventType)]}`);
			expect(await emitAndDeliver(sb, again, 'CREATE_INVOICE')).toHaveLength(1);
			await webhookMethod('delete', again);
			expect(live(sb, p.base)).toHaveLength(0);
		}
	});

	it(`a heal poll whose request never ends holds an activation back at most ACTIVATION_WAIT_MS (${ACTIVATION_WAIT_MS / 1000} s on the polls' clock, well under n8n 2.41's 84 s for a publication): past it the activation registers every event, and the poll, answered at last, registers nothing`, async () => {
		const sb = ctx.sb;
		const p = await publish(sb, ['CREATE_INVOICE']);
		await drop(sb, p, 'CREATE_INVOICE');
		sb.faults.add({ kind: 'hold', method: 'GET', path: '/v1/webhooks', count: 1 });
		const stuck = poll(p);
		await eventually(() => expect(sb.faults.held).toBe(1));
		// n8n publishes the workflow again meanwhile.
		const again = triggerOf(sb, receiver.rx.url, ['CREATE_INVOICE'], asSaved(p));
		let moved = 0;
		const realNow = tuning.poll.now;
		tuning.poll.now = () => realNow() + moved;
		try {
			let done = false;
			const activation = activate(again).then(() => (done = true));
			// It waits while the clock stays below the bound (turns of the event loop, no sleep).
			await settle(50);
			expect(done).toBe(false);
			expect(live(sb, p.base)).toHaveLength(0);
			moved = ACTIVATION_WAIT_MS + 1;
			await activation;
			expect(liveEvents(sb, p.base)).toEqual(['CREATE_INVOICE']);
			sb.faults.release();
			expect(await stuck).toEqual([]);
			expect(liveEvents(sb, p.base)).toEqual(['CREATE_INVOICE']);
			await webhookMethod('delete', again);
			expect(live(sb, p.base)).toHaveLength(0);
		} finally {
			tuning.poll.now = realNow;
		}
	});

	it('versions 1 and 2 heal too, and report only when Report Restored Registrations is on', async () => {
		const sb = ctx.sb;
		for (const [typeVersion, options, reported] of [
			[2, {}, 0],
			[1, { reportRestored: true }, 1],
			[3, { reportRestored: false }, 0],
		] as const) {
			const p = await publish(sb, ['UPDATE_BILL'], { typeVersion, options });
			await drop(sb, p, 'UPDATE_BILL');
			expect(await poll(p)).toHaveLength(reported);
			expect(liveEvents(sb, p.base)).toEqual(['UPDATE_BILL']);
			await webhookMethod('delete', p);
		}
	});

	it("a second registration of an event at the node (two polls healed at once) is removed, the oldest kept, and so is one at the node's URL with a secret the Trigger does not keep (its deliveries are refused); registrations at other URLs are left alone", async () => {
		const sb = ctx.sb;
		const p = await publish(sb, ['CREATE_CRM_CONTACT']);
		const [first] = live(sb, p.base);
		const twin = await call(sb, 'POST', '/v1/webhooks/register', {
			body: { ...registerBody(sb), eventType: 'CREATE_CRM_CONTACT', webhookUrl: first.webhookUrl },
		});
		const stranger = await call(sb, 'POST', '/v1/webhooks/register', {
			body: {
				...registerBody(sb),
				eventType: 'CREATE_CRM_CONTACT',
				webhookUrl: `${p.base}?event=CREATE_CRM_CONTACT&secret=not-ours`,
			},
		});
		const elsewhere = await call(sb, 'POST', '/v1/webhooks/register', {
			body: {
				...registerBody(sb),
				eventType: 'CREATE_CRM_CONTACT',
				webhookUrl: `${receiver.rx.url}/elsewhere`,
			},
		});
		expect(await poll(p)).toEqual([]);
		const ids = live(sb, p.base).map((w) => w.hookId);
		expect(ids).toEqual([first.hookId]);
		expect([twin.body.hookId, stranger.body.hookId]).not.toContain(first.hookId);
		expect(
			sb.store
				.tenant(1)
				.webhooks.values()
				.some((w) => !w.deleted && w.hookId === elsewhere.body.hookId),
		).toBe(true);
		await call(sb, 'DELETE', `/v1/webhooks/delete/${String(elsewhere.body.hookId)}`);
		await webhookMethod('delete', p);
	});

	it('a poll of a Trigger whose activation did not run in this process (another main, a restart that did not activate it) sends nothing; one whose static data lost its URL and secrets (a copy) heals with what its activation registered', async () => {
		const sb = ctx.sb;
		const p = await publish(sb, ['CREATE_BILL', 'DELETE_BILL']);
		const urlBefore = live(sb, p.base).find((w) => w.eventType === 'DELETE_BILL')!.webhookUrl;
		const data = nodeData(p);
		delete data.url;
		delete data.secrets;
		await drop(sb, p, 'DELETE_BILL');
		await poll(p);
		expect(liveEvents(sb, p.base)).toEqual(['CREATE_BILL', 'DELETE_BILL']);
		expect(live(sb, p.base).find((w) => w.eventType === 'DELETE_BILL')!.webhookUrl).toBe(urlBefore);
		const elsewhere = triggerOf(sb, receiver.rx.url, ['CREATE_BILL'], {
			h: p.h,
			webhookId: p.node.webhookId,
			workflowId: `${p.wf.id}-not-activated-here`,
			saved: JSON.parse(JSON.stringify(p.wf.staticData)) as IDataObject,
		});
		await drop(sb, p, 'CREATE_BILL');
		const seq = lastSeq(sb);
		expect(await poll(elsewhere)).toEqual([]);
		expect(sb.requests().filter((r) => r.seq > seq)).toHaveLength(0);
		await webhookMethod('delete', p);
	});
});
