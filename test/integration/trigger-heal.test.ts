/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The Trigger's poll (nodes/BusinessPlatformSalesTrigger/heal.ts) through n8n-core's contexts against
 * the sandbox: a registration the platform dropped comes back at the next poll, once, with the
 * secret deliveries are checked against; a second one (two polls healed at once) goes; a drop is
 * reported once, by the poll or after the activation that restored it, with since when events
 * may have been missed. Every assertion reads the sandbox's registrations, its request log, or
 * what the node gives for a delivery the sandbox really made to a local receiver.
 */
import fc from 'fast-check';
import { PollContext } from 'n8n-core';
import type { IDataObject, INode, IPollFunctions, IWebhookData, Workflow } from 'n8n-workflow';

import { SEEN_REFRESH_MS } from '../../nodes/BusinessPlatformSalesTrigger/heal';
import { WAIT_FOR_POLL_MS } from '../../nodes/BusinessPlatformSalesTrigger/registrations';
import { beginTurn, endTurn, type Turn } from '../../nodes/shared/polling/turns';
import { additionalData } from '../../testbed/harness/additional-data';
import { createHarness, type Harness } from '../../testbed/harness/run';
import {
	activateWebhook,
	deliverWebhook,
	triggerWorkflow,
	webhookData,
	webhookMethod,
} from '../../testbed/harness/triggers';
import { propertyParameters } from '../helpers/property';
import { useReceiver } from '../helpers/receiver';
import { lastSeq, live, registerCalls } from '../helpers/registrations';
import { call, useSandbox, type Sandbox } from '../helpers/sandbox';
import { fileTuning } from '../helpers/tuning';

/** This file's tunables and clocks (test/helpers/tuning.ts): one test moves the polls' clock. */
const tuning = fileTuning();

const ctx = useSandbox();
const receiver = useReceiver();

let counter = 0;

/** A published Trigger: its node, its workflow as n8n keeps it in memory, its webhook. */
interface Published {
	h: Harness;
	node: INode;
	wf: Workflow;
	wd: IWebhookData;
	base: string;
}

async function publish(
	sb: Sandbox,
	events: string[],
	opts: {
		typeVersion?: number;
		options?: IDataObject;
		h?: Harness;
		webhookId?: string;
		saved?: IDataObject;
	} = {},
): Promise<Published> {
	const h = opts.h ?? createHarness(sb);
	const node = h.node(
		'businessPlatformSalesTrigger',
		{ events, options: opts.options ?? {} },
		'Platform Trigger',
		opts.typeVersion ?? 3,
	);
	node.webhookId = opts.webhookId ?? `heal-${++counter}-${Date.now()}`;
	const wf = triggerWorkflow(node, opts.saved ?? {}, `wf-heal-${node.webhookId}`);
	const [wd] = webhookData(wf, node, additionalData(h.credentials, undefined, receiver.rx.url));
	await activateWebhook(wf, wd);
	return { h, node, wf, wd, base: `${receiver.rx.url}/webhook/${node.webhookId}/webhook` };
}

/** n8n restarts (or publishes again): a new Workflow from what was saved, activated (checkExists, create when false). */
async function restart(sb: Sandbox, p: Published, events: string[]): Promise<Published> {
	const saved = JSON.parse(JSON.stringify(p.wf.staticData)) as IDataObject;
	return await publish(sb, events, {
		h: p.h,
		webhookId: p.node.webhookId,
		typeVersion: p.node.typeVersion,
		options: p.node.parameters.options as IDataObject,
		saved,
	});
}

/** One poll of the Trigger as n8n runs it (the items it returns start an execution). */
async function poll(p: Published): Promise<IDataObject[]> {
	const nodeType = p.wf.nodeTypes.getByNameAndVersion(p.node.type, p.node.typeVersion);
	const context = new PollContext(
		p.wf,
		p.node,
		additionalData(p.h.credentials, undefined, receiver.rx.url),
		'trigger',
		'activate',
	) as unknown as IPollFunctions;
	const out = await nodeType.poll!.call(context);
	return (out?.[0] ?? []).map((i) => i.json);
}

const liveEvents = (sb: Sandbox, base: string) =>
	live(sb, base)
		.map((w) => String(w.eventType))
		.sort();

/** The platform drops one registration of the node (as it may with an endpoint that kept failing). */
async function drop(sb: Sandbox, p: Published, eventType: string): Promise<void> {
	const hook = live(sb, p.base).find((w) => w.eventType === eventType);
	expect(hook).toBeDefined();
	expect((await call(sb, 'DELETE', `/v1/webhooks/delete/${String(hook!.hookId)}`)).status).toBe(
		200,
	);
}

/** Emits an event on the sandbox and gives what the node outputs for the deliveries it made to this node. */
async function emitAndDeliver(
	sb: Sandbox,
	p: Published,
	eventType: string,
): Promise<IDataObject[]> {
	const before = receiver.rx.calls.length;
	await call(sb, 'POST', '/__admin/events', { token: null, body: { eventType, data: { id: 7 } } });
	const path = new URL(p.base).pathname;
	const calls = receiver.rx.calls.slice(before).filter((c) => c.path.split('?')[0] === path);
	const out: IDataObject[] = [];
	for (const c of calls) {
		const u = new URL(c.path, receiver.rx.url);
		const r = await deliverWebhook(p.wf, p.wd, {
			query: Object.fromEntries(u.searchParams),
			body: c.body,
		});
		for (const item of r.workflowData?.[0] ?? []) out.push(item.json);
	}
	return out;
}

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
		await webhookMethod('delete', p.wf, p.wd);
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
		await webhookMethod('delete', p.wf, p.wd);
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
		await webhookMethod('delete', again.wf, again.wd);
		const fresh = await publish(sb, events, { h: p.h, webhookId: p.node.webhookId });
		expect(await poll(fresh)).toEqual([]);
		await webhookMethod('delete', fresh.wf, fresh.wd);
	});

	it("n8n's start runs the activation and the first poll at once: the dropped event is registered once, with the secret the static data keeps, and its next event is accepted", async () => {
		const sb = ctx.sb;
		const events = ['CREATE_INVOICE', 'UPDATE_INVOICE', 'CREATE_CRM_DEAL'];
		for (let round = 0; round < 5; round++) {
			const p = await publish(sb, events);
			await poll(p);
			await drop(sb, p, 'CREATE_INVOICE');
			await drop(sb, p, 'CREATE_CRM_DEAL');
			const saved = JSON.parse(JSON.stringify(p.wf.staticData)) as IDataObject;
			const node = p.h.node(
				'businessPlatformSalesTrigger',
				{ events, options: {} },
				'Platform Trigger',
				3,
			);
			node.webhookId = p.node.webhookId;
			const wf = triggerWorkflow(node, saved, p.wf.id);
			const [wd] = webhookData(
				wf,
				node,
				additionalData(p.h.credentials, undefined, receiver.rx.url),
			);
			const again: Published = { h: p.h, node, wf, wd, base: p.base };
			// As n8n's publication service does: both phases at once, the poll a moment later or earlier.
			await Promise.all([
				activateWebhook(wf, wd),
				(async () => {
					for (let i = 0; i < round; i++) await Promise.resolve();
					return await poll(again);
				})(),
			]);
			await poll(again);
			expect(liveEvents(sb, p.base)).toEqual([...events].sort());
			const secrets = (
				wf.staticData['node:Platform Trigger'] as { secrets: Record<string, string> }
			).secrets;
			for (const w of live(sb, p.base))
				expect(String(w.webhookUrl)).toContain(`secret=${secrets[String(w.eventType)]}`);
			expect(await emitAndDeliver(sb, again, 'CREATE_INVOICE')).toHaveLength(1);
			await webhookMethod('delete', wf, wd);
			expect(live(sb, p.base)).toHaveLength(0);
		}
	});

	it(`a poll of the node that never ends holds an activation back at most WAIT_FOR_POLL_MS (${WAIT_FOR_POLL_MS / 1000} s on the polls' clock): past it the activation registers every event`, async () => {
		const sb = ctx.sb;
		const h = createHarness(sb);
		const node = h.node(
			'businessPlatformSalesTrigger',
			{ events: ['CREATE_INVOICE'], options: {} },
			'Platform Trigger',
			3,
		);
		node.webhookId = `heal-stuck-${++counter}-${Date.now()}`;
		const wf = triggerWorkflow(node, {}, `wf-heal-${node.webhookId}`);
		const [wd] = webhookData(wf, node, additionalData(h.credentials, undefined, receiver.rx.url));
		const base = `${receiver.rx.url}/webhook/${node.webhookId}/webhook`;
		// The heal poll of this node, begun and never ended (a poll that hangs).
		const stuck = beginTurn(
			{ getNode: () => node, getWorkflow: () => wf },
			{},
			'heal',
			Date.now(),
			10 * WAIT_FOR_POLL_MS,
		) as Turn;
		let moved = 0;
		const realNow = tuning.poll.now;
		tuning.poll.now = () => realNow() + moved;
		try {
			let done = false;
			const activation = activateWebhook(wf, wd).then(() => (done = true));
			// It waits while the clock stays below the bound (turns of the event loop, no sleep).
			for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
			expect(done).toBe(false);
			expect(live(sb, base)).toHaveLength(0);
			moved = WAIT_FOR_POLL_MS + 1;
			await activation;
			expect(liveEvents(sb, base)).toEqual(['CREATE_INVOICE']);
			// create continued checkExists's turn: it did not wait a second time.
			endTurn(stuck, false, Date.now());
			await webhookMethod('delete', wf, wd);
			expect(live(sb, base)).toHaveLength(0);
		} finally {
			tuning.poll.now = realNow;
			endTurn(stuck, false, Date.now());
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
			await webhookMethod('delete', p.wf, p.wd);
		}
	});

	it('a second registration of an event at the node (two polls healed at once) is removed, the oldest kept; registrations at other URLs or with other secrets are left alone', async () => {
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
		expect(ids).toContain(first.hookId);
		expect(ids).not.toContain(twin.body.hookId);
		expect(ids).toContain(stranger.body.hookId);
		expect(
			sb.store
				.tenant(1)
				.webhooks.values()
				.some((w) => !w.deleted && w.hookId === elsewhere.body.hookId),
		).toBe(true);
		await call(sb, 'DELETE', `/v1/webhooks/delete/${String(elsewhere.body.hookId)}`);
		await webhookMethod('delete', p.wf, p.wd);
	});

	it('a Trigger published before it healed (no URL or secrets stored) lists nothing; one with secrets but no stored URL finds it from a live registration', async () => {
		const sb = ctx.sb;
		const p = await publish(sb, ['CREATE_BILL', 'DELETE_BILL']);
		const data = p.wf.staticData['node:Platform Trigger'] as IDataObject;
		delete data.url;
		await drop(sb, p, 'DELETE_BILL');
		await poll(p);
		expect(liveEvents(sb, p.base)).toEqual(['CREATE_BILL', 'DELETE_BILL']);
		const bare = await publish(sb, ['CREATE_BILL'], { h: p.h });
		for (const key of Object.keys(bare.wf.staticData)) delete bare.wf.staticData[key];
		const seq = lastSeq(sb);
		expect(await poll(bare)).toEqual([]);
		expect(sb.requests().filter((r) => r.seq > seq)).toHaveLength(0);
		await webhookMethod('delete', p.wf, p.wd);
		await webhookMethod('delete', bare.wf, bare.wd);
	});
});

function registerBody(sb: Sandbox): IDataObject {
	return {
		clientId: sb.config.clientId,
		clientSecret: sb.config.clientSecret,
		accessToken: sb.demo.accessToken,
		refreshToken: sb.demo.refreshToken,
	};
}

describe('property: whatever the platform drops or doubles, and however polls and restarts interleave', () => {
	it('after the last poll each chosen event has exactly one registration at the node, with its secret; every drop is reported at most once per restoration, never without one', async () => {
		const sb = ctx.sb;
		const EVENTS = ['CREATE_CRM_DEAL', 'UPDATE_CRM_DEAL', 'CREATE_INVOICE', 'STOCK_OUT'];
		const step = fc.oneof(
			fc.record({ kind: fc.constant('drop' as const), event: fc.constantFrom(...EVENTS) }),
			fc.record({ kind: fc.constant('twin' as const), event: fc.constantFrom(...EVENTS) }),
			fc.record({ kind: fc.constant('poll' as const) }),
			fc.record({ kind: fc.constant('polls at once' as const) }),
			fc.record({ kind: fc.constant('restart' as const) }),
		);
		await fc.assert(
			fc.asyncProperty(
				fc.subarray(EVENTS, { minLength: 1 }),
				fc.array(step, { maxLength: 12 }),
				async (events, steps) => {
					let p = await publish(sb, events);
					const secrets = () =>
						(p.wf.staticData['node:Platform Trigger'] as { secrets: Record<string, string> })
							.secrets;
					let dropped = 0;
					let reported = 0;
					for (const s of steps) {
						if (
							s.kind === 'drop' &&
							events.includes(s.event) &&
							live(sb, p.base).some((w) => w.eventType === s.event)
						) {
							await drop(sb, p, s.event);
							dropped++;
						} else if (s.kind === 'twin' && events.includes(s.event)) {
							const one = live(sb, p.base).find((w) => w.eventType === s.event);
							if (one)
								await call(sb, 'POST', '/v1/webhooks/register', {
									body: { ...registerBody(sb), eventType: s.event, webhookUrl: one.webhookUrl },
								});
						} else if (s.kind === 'poll') reported += (await poll(p)).length;
						else if (s.kind === 'polls at once')
							for (const r of await Promise.all([poll(p), poll(p)])) reported += r.length;
						else if (s.kind === 'restart') p = await restart(sb, p, events);
					}
					reported += (await poll(p)).length;
					reported += (await poll(p)).length; // a twin made by the two polls at once goes here
					const hooks = live(sb, p.base);
					expect(hooks.map((w) => String(w.eventType)).sort()).toEqual([...events].sort());
					for (const w of hooks)
						expect(String(w.webhookUrl)).toContain(`secret=${secrets()[String(w.eventType)]}`);
					expect(reported).toBeLessThanOrEqual(dropped);
					if (dropped > 0) expect(reported).toBeGreaterThan(0);
					await webhookMethod('delete', p.wf, p.wd);
					expect(live(sb, p.base)).toHaveLength(0);
				},
			),
			propertyParameters(25),
		);
	});
});
