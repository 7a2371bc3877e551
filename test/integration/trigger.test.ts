/**
 * The Business Platform Trigger through n8n-core's webhook lifecycle (HookContext for
 * checkExists/create/delete, WebhookContext for deliveries) against the sandbox. Every
 * assertion reads the sandbox's registrations, its request log, or the deliveries it
 * really made to a local receiver.
 */
import type {
	IDataObject,
	INode,
	IWebhookData,
	IWebhookResponseData,
	Workflow,
} from 'n8n-workflow';
import { request } from 'undici';

import {
	ALL_ACCOUNTING,
	ALL_SALES,
	EVENTS,
	eventOptions,
	expandEvents,
} from '../../nodes/BusinessPlatformSalesTrigger/events';
import { recordId } from '../../nodes/BusinessPlatformSalesTrigger/webhook-trigger';
import { additionalData } from '../../testbed/harness/additional-data';
import { createHarness, type Harness } from '../../testbed/harness/run';
import {
	activateWebhook,
	deliverWebhook,
	triggerWorkflow,
	webhookData,
	webhookMethod,
} from '../../testbed/harness/triggers';
import { contractEvents } from '../helpers/contract';
import { readBody, serveLoopback, type Loopback } from '../helpers/loopback';
import { fakeResponse, useReceiver } from '../helpers/receiver';
import { lastSeq, live, registerCalls } from '../helpers/registrations';
import { call, useSandbox, type Sandbox } from '../helpers/sandbox';

const ctx = useSandbox();
const receiver = useReceiver();

const FIVE = [
	'CREATE_CRM_DEAL',
	'UPDATE_CRM_DEAL',
	'CREATE_INVOICE',
	'STOCK_IN',
	'DELETE_CRM_CONTACT',
];

let counter = 0;

interface Trigger {
	h: Harness;
	node: INode;
	wf: Workflow;
	wd: IWebhookData;
	/** The node's webhook URL without query: what its registrations point at. */
	base: string;
}

/** A trigger node (own webhookId, so tests do not see each other's registrations) in a workflow n8n would build. */
function trigger(
	sb: Sandbox,
	parameters: IDataObject,
	opts: { staticData?: IDataObject; isTest?: boolean; webhookId?: string; h?: Harness } = {},
): Trigger {
	const h = opts.h ?? createHarness(sb);
	const node = h.node('businessPlatformSalesTrigger', parameters, 'Platform Trigger');
	node.webhookId = opts.webhookId ?? `hook-${++counter}-${Date.now()}`;
	const wf = triggerWorkflow(node, opts.staticData ?? {});
	const [wd] = webhookData(
		wf,
		node,
		additionalData(h.credentials, undefined, receiver.rx.url),
		opts.isTest,
	);
	const base = `${receiver.rx.url}/${opts.isTest ? 'webhook-test' : 'webhook'}/${node.webhookId}/webhook`;
	return { h, node, wf, wd, base };
}

/** A trigger node in a workflow that n8n has activated (checkExists, then create). */
async function activeTrigger(...args: Parameters<typeof trigger>): Promise<Trigger> {
	const t = trigger(...args);
	await activateWebhook(t.wf, t.wd);
	return t;
}

/** Deactivates the workflow as n8n does (delete); no registration is left at the node's URL. */
async function deactivate(sb: Sandbox, t: Trigger): Promise<void> {
	await webhookMethod('delete', t.wf, t.wd);
	expect(live(sb, t.base)).toHaveLength(0);
}

/** The same node after a restart: a new Workflow with the saved static data (or none, as after a re-import). */
const again = (
	sb: Sandbox,
	t: Trigger,
	parameters: IDataObject,
	staticData: IDataObject = JSON.parse(JSON.stringify(t.wf.staticData)),
) => trigger(sb, parameters, { staticData, webhookId: t.node.webhookId, h: t.h });

const nodeState = (wf: Workflow) =>
	(wf.staticData['node:Platform Trigger'] ?? {}) as {
		hookIds?: Record<string, number>;
		secrets?: Record<string, string>;
	};

/** What the receiver got for this node: the path split into its query, as n8n's router would give it. */
function received(
	base: string,
): Array<{ query: IDataObject; body: unknown; headers: IDataObject }> {
	const path = new URL(base).pathname;
	return receiver.rx.calls
		.filter((c) => c.path.split('?')[0] === path)
		.map((c) => {
			const u = new URL(c.path, receiver.rx.url);
			return {
				query: Object.fromEntries(u.searchParams) as IDataObject,
				body: c.body,
				headers: c.headers as IDataObject,
			};
		});
}

const outputOf = (r: IWebhookResponseData) => (r.workflowData?.[0] ?? []).map((i) => i.json);

describe('events field', () => {
	it(`offers all ${contractEvents().length} event types of the contract in plain words, plus the two shortcuts`, () => {
		const options = eventOptions();
		expect(options).toHaveLength(contractEvents().length + 2);
		expect(options.map((o) => o.name)).toEqual(
			expect.arrayContaining([
				'All Sales Events',
				'All Accounting Events',
				'Deal Updated (Sales)',
				'Invoice Created (Accounting)',
				'Stock Reduced (Accounting)',
			]),
		);
		expect(new Set(options.map((o) => o.value)).size).toBe(contractEvents().length + 2);
		expect(expandEvents([ALL_SALES]).events).toEqual([
			'CREATE_CRM_CONTACT',
			'UPDATE_CRM_CONTACT',
			'DELETE_CRM_CONTACT',
			'CREATE_CRM_DEAL',
			'UPDATE_CRM_DEAL',
			'DELETE_CRM_DEAL',
		]);
		expect(expandEvents([ALL_ACCOUNTING, 'CREATE_BILL']).events).toHaveLength(
			contractEvents().filter((e) => !e.includes('_CRM_')).length,
		);
		expect(expandEvents([ALL_ACCOUNTING, ALL_SALES]).events).toEqual(EVENTS.map((e) => e.value));
		expect(expandEvents(['CREATE_BILL', 'NOPE']).unknown).toEqual(['NOPE']);
	});

	it('finds the record id of a contact or deal payload', () => {
		expect(recordId({ data: { id: 5, contact_id: 9 } }, 'deals')).toBe(5);
		expect(recordId({ id: '12' }, 'contacts')).toBe(12);
		expect(recordId({ data: { contact_id: 9 } }, 'deals')).toBeUndefined();
		expect(recordId({ deal_id: 4 }, 'deals')).toBe(4);
		expect(recordId({ data: { contact_id: '7' } }, 'contacts')).toBe(7);
		expect(recordId([1, 2], 'contacts')).toBeUndefined();
	});
});

describe('registration lifecycle', () => {
	it('activate, restart, re-import, change the selection, deactivate: always exactly one registration per event', async () => {
		const sb = ctx.sb;
		const t = trigger(sb, { events: FIVE });
		const before = lastSeq(sb);

		// Activate: checkExists finds nothing, create registers the five.
		await activateWebhook(t.wf, t.wd);
		const hooks = live(sb, t.base);
		expect(hooks.map((w) => w.eventType).sort()).toEqual([...FIVE].sort());
		const state = nodeState(t.wf);
		expect(Object.keys(state.hookIds!).sort()).toEqual([...FIVE].sort());
		for (const w of hooks) {
			expect(state.hookIds![w.eventType as string]).toBe(w.hookId);
			const u = new URL(String(w.webhookUrl));
			expect(u.searchParams.get('event')).toBe(w.eventType);
			expect(u.searchParams.get('secret')).toBe(state.secrets![w.eventType as string]);
			expect(u.searchParams.get('secret')).toMatch(/^[A-Za-z0-9]{32}$/);
		}
		expect(new Set(Object.values(state.secrets!)).size).toBe(5);
		expect(t.wf.staticData.__dataChanged).toBe(true);

		// The register bodies on the wire: the app's client id and secret and the platform tokens.
		const bodies = registerCalls(sb, before).map((r) => JSON.parse(r.body!));
		expect(bodies).toHaveLength(5);
		for (const b of bodies) {
			expect(b).toEqual({
				clientId: sb.config.clientId,
				clientSecret: sb.config.clientSecret,
				accessToken: sb.demo.tokenResponse['platform-token'],
				refreshToken: sb.demo.tokenResponse['platform-refresh-token'],
				eventType: expect.any(String),
				webhookUrl: expect.stringContaining(`${t.base}?event=${b.eventType}&secret=`),
			});
		}

		// Restart: the saved static data, checkExists again → nothing registered, still 5.
		const restarted = again(sb, t, { events: FIVE });
		const seq1 = lastSeq(sb);
		expect(await webhookMethod('checkExists', restarted.wf, restarted.wd)).toBe(true);
		await activateWebhook(restarted.wf, restarted.wd);
		expect(registerCalls(sb, seq1)).toHaveLength(0);
		expect(
			live(sb, t.base)
				.map((w) => w.hookId)
				.sort(),
		).toEqual(hooks.map((w) => w.hookId).sort());
		expect(nodeState(restarted.wf)).toEqual(state);

		// Re-import with EMPTY static data: checkExists adopts the five (same ids, same secrets).
		const reimported = again(sb, t, { events: FIVE }, {});
		const seq2 = lastSeq(sb);
		expect(await webhookMethod('checkExists', reimported.wf, reimported.wd)).toBe(true);
		expect(registerCalls(sb, seq2)).toHaveLength(0);
		expect(live(sb, t.base)).toHaveLength(5);
		expect(nodeState(reimported.wf)).toEqual(state);

		// The adopted secrets work: a delivery to the adopted registration starts the workflow.
		const adoptedOut = await deliverWebhook(reimported.wf, reimported.wd, {
			body: { any: 'json' },
			query: { event: 'STOCK_IN', secret: state.secrets!.STOCK_IN },
		});
		expect(outputOf(adoptedOut)).toEqual([
			{
				eventType: 'STOCK_IN',
				receivedAt: expect.any(String),
				hookId: state.hookIds!.STOCK_IN,
				payload: { any: 'json' },
			},
		]);

		// Change the selection: two events dropped, two added.
		const changed = [
			'CREATE_CRM_DEAL',
			'UPDATE_CRM_DEAL',
			'CREATE_INVOICE',
			'UPDATE_BILL',
			'STOCK_OUT',
		];
		const edited = again(sb, reimported, { events: changed });
		await activateWebhook(edited.wf, edited.wd);
		const after = live(sb, t.base);
		expect(after.map((w) => w.eventType).sort()).toEqual([...changed].sort());
		const kept = after.filter((w) => FIVE.includes(w.eventType as string));
		for (const w of kept) expect(w.hookId).toBe(state.hookIds![w.eventType as string]); // kept, not re-registered
		for (const gone of ['STOCK_IN', 'DELETE_CRM_CONTACT'])
			expect(sb.store.tenant(1).webhooks.get(state.hookIds![gone])!.deleted).toBe(true);
		expect(Object.keys(nodeState(edited.wf).hookIds!).sort()).toEqual([...changed].sort());
		// A dropped event's old secret no longer opens the door.
		const res = fakeResponse();
		const dropped = await deliverWebhook(
			edited.wf,
			edited.wd,
			{ body: {}, query: { event: 'STOCK_IN', secret: state.secrets!.STOCK_IN } },
			res,
		);
		expect(dropped).toEqual({ noWebhookResponse: true });
		expect(res.status).toBe(401);

		// Deactivate: nothing left on the platform, static data cleared.
		expect(await webhookMethod('delete', edited.wf, edited.wd, 'internal', 'update')).toBe(true);
		expect(live(sb, t.base)).toHaveLength(0);
		expect(nodeState(edited.wf)).toEqual({});
	});

	it('removes duplicates at its own URL and leaves other URLs alone', async () => {
		const sb = ctx.sb;
		const t = await activeTrigger(sb, { events: ['CREATE_BILL'] });
		const [original] = live(sb, t.base);
		// A duplicate (e.g. a crash after register, before static data was saved) and a hook of someone else.
		const register = (eventType: string, webhookUrl: string) =>
			call(sb, 'POST', '/v1/webhooks/register', {
				body: {
					clientId: sb.config.clientId,
					clientSecret: sb.config.clientSecret,
					accessToken: sb.demo.accessToken,
					refreshToken: sb.demo.refreshToken,
					eventType,
					webhookUrl,
				},
			});
		const dup = await register(
			'CREATE_BILL',
			`${t.base}?event=CREATE_BILL&secret=othersecretothersecretothersecret`,
		);
		const noSecret = await register('UPDATE_BILL', t.base);
		const foreign = await register('CREATE_BILL', `${receiver.rx.url}/somewhere-else`);
		expect([dup.status, noSecret.status, foreign.status]).toEqual([200, 200, 200]);

		const restarted = again(sb, t, { events: ['CREATE_BILL'] });
		expect(await webhookMethod('checkExists', restarted.wf, restarted.wd)).toBe(true);
		expect(live(sb, t.base).map((w) => w.hookId)).toEqual([original.hookId]);
		expect(sb.store.tenant(1).webhooks.get(foreign.body.hookId)!.deleted).toBe(false);

		await deactivate(sb, restarted);
		expect(sb.store.tenant(1).webhooks.get(foreign.body.hookId)!.deleted).toBe(false);
		await call(sb, 'DELETE', `/v1/webhooks/delete/${foreign.body.hookId}`);
	});

	it('delete succeeds when a hook was already deleted on the platform', async () => {
		const sb = ctx.sb;
		const t = await activeTrigger(sb, { events: ['CREATE_BILL', 'DELETE_BILL', 'UPDATE_INVOICE'] });
		const ids = nodeState(t.wf).hookIds!;
		expect((await call(sb, 'DELETE', `/v1/webhooks/delete/${ids.DELETE_BILL}`)).status).toBe(200);
		const seq = lastSeq(sb);

		expect(await webhookMethod('delete', t.wf, t.wd)).toBe(true);
		const deletes = sb.requests().filter((r) => r.seq > seq && r.method === 'DELETE');
		expect(deletes.map((r) => [r.path, r.status]).sort()).toEqual(
			[
				[`/v1/webhooks/delete/${ids.CREATE_BILL}`, 200],
				[`/v1/webhooks/delete/${ids.DELETE_BILL}`, 404],
				[`/v1/webhooks/delete/${ids.UPDATE_INVOICE}`, 200],
			].sort(),
		);
		expect(live(sb, t.base)).toHaveLength(0);
		expect(nodeState(t.wf)).toEqual({});
	});

	it('delete tries every id and then reports the ones that failed', async () => {
		const sb = ctx.sb;
		const t = await activeTrigger(sb, { events: ['CREATE_BILL', 'DELETE_BILL', 'UPDATE_INVOICE'] });
		const ids = nodeState(t.wf).hookIds!;
		sb.faults.add({
			kind: 'status',
			status: 400,
			method: 'DELETE',
			path: `/^\\/v1\\/webhooks\\/delete\\/${ids.DELETE_BILL}$/`,
			count: 1,
		});

		const error = await webhookMethod('delete', t.wf, t.wd).catch(
			(e: Error & { description?: string }) => e,
		);
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toBe(
			'Could not deregister 1 webhook registration(s) on the platform',
		);
		expect((error as { description?: string }).description).toMatch(
			new RegExp(`^${ids.DELETE_BILL}: The Business Platform API answered 400`),
		);
		// The others were still deregistered; static data is cleared (a later activation adopts or removes the survivor by its URL).
		expect(sb.store.tenant(1).webhooks.get(ids.CREATE_BILL)!.deleted).toBe(true);
		expect(sb.store.tenant(1).webhooks.get(ids.UPDATE_INVOICE)!.deleted).toBe(true);
		expect(live(sb, t.base).map((w) => w.hookId)).toEqual([ids.DELETE_BILL]);
		expect(nodeState(t.wf)).toEqual({});
		const reactivated = again(sb, t, { events: ['CREATE_BILL'] });
		await activateWebhook(reactivated.wf, reactivated.wd);
		expect(live(sb, t.base).map((w) => w.eventType)).toEqual(['CREATE_BILL']);
		await deactivate(sb, reactivated);
	});

	it('a failure part-way through create leaves nothing registered', async () => {
		const sb = ctx.sb;
		const t = trigger(sb, { events: FIVE });
		// The 3rd register call of this activation is refused.
		const pick = sb.faults.pick.bind(sb.faults);
		let n = 0;
		const spy = jest.spyOn(sb.faults, 'pick').mockImplementation((method, path) => {
			if (method === 'POST' && path === '/v1/webhooks/register' && ++n === 3)
				sb.faults.add({
					kind: 'status',
					status: 400,
					method: 'POST',
					path: '/v1/webhooks/register',
					count: 1,
				});
			return pick(method, path);
		});
		const seq = lastSeq(sb);
		try {
			await expect(activateWebhook(t.wf, t.wd)).rejects.toThrow(
				/^Could not register the webhook for ".+ \((Sales|Accounting)\)" \([A-Z_]+\): The Business Platform API answered 400/,
			);
		} finally {
			spy.mockRestore();
		}
		const registers = registerCalls(sb, seq);
		expect(registers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 400]);
		// Every registration that succeeded was deregistered again.
		expect(live(sb, t.base)).toHaveLength(0);
		const created = sb.store
			.tenant(1)
			.webhooks.values()
			.filter((w) => String(w.webhookUrl).startsWith(t.base));
		expect(created).toHaveLength(4);
		expect(created.every((w) => w.deleted)).toBe(true);
		expect(nodeState(t.wf)).toEqual({});
	});

	it('a register that failed after the platform stored it is swept up too', async () => {
		const sb = ctx.sb;
		const t = trigger(sb, { events: ['CREATE_BILL'] });
		sb.faults.add({
			kind: 'status',
			status: 502,
			method: 'POST',
			path: '/v1/webhooks/register',
			count: 1,
			phase: 'after',
		});
		const error = await activateWebhook(t.wf, t.wd).catch(
			(e: Error & { description?: string }) => e,
		);
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toMatch(/Bill Created \(Accounting\).*answered 502/);
		expect((error as { description?: string }).description).toMatch(
			/nothing is left half-registered/,
		);
		expect(
			sb.store
				.tenant(1)
				.webhooks.values()
				.filter((w) => String(w.webhookUrl).startsWith(t.base)),
		).toHaveLength(1);
		expect(live(sb, t.base)).toHaveLength(0);
	});

	it('a registration deleted on the platform side is noticed at the next activation (restart or re-publish): checkExists says so and create registers that event again, the others kept', async () => {
		const sb = ctx.sb;
		const t = await activeTrigger(sb, { events: ['CREATE_INVOICE', 'UPDATE_INVOICE'] });
		const state = nodeState(t.wf);
		expect(
			(await call(sb, 'DELETE', `/v1/webhooks/delete/${state.hookIds!.UPDATE_INVOICE}`)).status,
		).toBe(200);
		const restarted = again(sb, t, { events: ['CREATE_INVOICE', 'UPDATE_INVOICE'] });
		expect(await webhookMethod('checkExists', restarted.wf, restarted.wd)).toBe(false);
		const seq = lastSeq(sb);
		await webhookMethod('create', restarted.wf, restarted.wd);
		expect(registerCalls(sb, seq).map((r) => JSON.parse(r.body!).eventType)).toEqual([
			'UPDATE_INVOICE',
		]);
		expect(
			live(sb, t.base)
				.map((w) => w.eventType)
				.sort(),
		).toEqual(['CREATE_INVOICE', 'UPDATE_INVOICE']);
		expect(nodeState(restarted.wf).hookIds!.CREATE_INVOICE).toBe(state.hookIds!.CREATE_INVOICE);
		await deactivate(sb, restarted);
	});

	it('refuses an empty selection before sending anything', async () => {
		const sb = ctx.sb;
		const t = trigger(sb, { events: [] });
		const seq = lastSeq(sb);
		await expect(activateWebhook(t.wf, t.wd)).rejects.toThrow('No event chosen in "Events"');
		const bad = trigger(sb, { events: ['CREATE_BILL', 'CREATE_THING'] });
		await expect(activateWebhook(bad.wf, bad.wd)).rejects.toThrow(
			'Unknown event type in "Events": CREATE_THING',
		);
		expect(lastSeq(sb)).toBe(seq);
	});

	it('"All Sales Events" registers the six sales events', async () => {
		const sb = ctx.sb;
		const t = await activeTrigger(sb, { events: [ALL_SALES] });
		expect(
			live(sb, t.base)
				.map((w) => w.eventType)
				.sort(),
		).toEqual([
			'CREATE_CRM_CONTACT',
			'CREATE_CRM_DEAL',
			'DELETE_CRM_CONTACT',
			'DELETE_CRM_DEAL',
			'UPDATE_CRM_CONTACT',
			'UPDATE_CRM_DEAL',
		]);
		await deactivate(sb, t);
	});
});

describe('the webhook address the platform is given (webhook-address.ts)', () => {
	/** A trigger whose credential's API Base URL is `api`, with n8n's webhook address `n8nBase`. */
	function addressed(sb: Sandbox, api: string, n8nBase: string, options: IDataObject = {}) {
		const h = createHarness(sb, undefined, { baseUrl: api });
		const node = h.node(
			'businessPlatformSalesTrigger',
			{ events: ['UPDATE_CRM_DEAL'], options },
			'Platform Trigger',
		);
		node.webhookId = `hook-${++counter}-${Date.now()}`;
		const wf = triggerWorkflow(node, {});
		const [wd] = webhookData(wf, node, additionalData(h.credentials, undefined, n8nBase));
		return { wf, wd };
	}

	it('publishing fails when n8n gives a localhost address and the platform is elsewhere: the error names WEBHOOK_URL, nothing is sent', async () => {
		const sb = ctx.sb;
		const before = lastSeq(sb);
		const { wf, wd } = addressed(sb, 'https://api.example.com', receiver.rx.url);
		const error = await activateWebhook(wf, wd).then(
			() => undefined,
			(e: unknown) => e as { message: string; description?: string },
		);
		expect(error?.message).toMatch(
			/^n8n's webhook address http:\/\/127\.0\.0\.1:\d+ is on this machine only: the platform at api\.example\.com cannot call it/,
		);
		expect(error?.description).toMatch(
			/Set n8n's WEBHOOK_URL .*WEBHOOK_URL=https:\/\/n8n\.example\.com\//,
		);
		expect(sb.requests().filter((r) => r.seq > before)).toEqual([]);
		expect(nodeState(wf).hookIds).toBeUndefined();
	});

	it('with the sandbox on this machine too, a localhost webhook address is registered as before', async () => {
		const sb = ctx.sb;
		const t = await activeTrigger(sb, { events: ['UPDATE_CRM_DEAL'] });
		expect(new URL(t.base).hostname).toBe('127.0.0.1');
		expect(live(sb, t.base).map((w) => w.eventType)).toEqual(['UPDATE_CRM_DEAL']);
		await deactivate(sb, t);
	});

	it('a private address with a remote platform fails unless Options → Allow Private Webhook Address is on', async () => {
		const sb = ctx.sb;
		const lan = 'http://192.168.1.20:5678';
		const refused = addressed(sb, 'https://api.example.com', lan);
		await expect(activateWebhook(refused.wf, refused.wd)).rejects.toThrow(
			/^n8n's webhook address http:\/\/192\.168\.1\.20:5678 is a private network address/,
		);
		// Allowed: the check lets it through, and the activation goes on to the platform (here an address
		// that resolves nowhere, so it fails there, past the check).
		const allowed = addressed(sb, 'https://api.example.invalid', lan, {
			allowPrivateWebhookAddress: true,
		});
		const error = await activateWebhook(allowed.wf, allowed.wd).then(
			() => undefined,
			(e: unknown) => e as Error,
		);
		expect(error?.message).toBeDefined();
		expect(error?.message).not.toMatch(/webhook address/);
	});
});

describe('test mode ("Listen for test event")', () => {
	it('registers at the /webhook-test/ URL and removes only those registrations when the listener ends', async () => {
		const sb = ctx.sb;
		const prod = await activeTrigger(sb, { events: ['CREATE_INVOICE', 'UPDATE_INVOICE'] });
		expect(live(sb, prod.base)).toHaveLength(2);

		// n8n builds the test workflow from the saved one (static data copied, never saved back).
		const test = trigger(
			sb,
			{ events: ['CREATE_INVOICE', 'UPDATE_INVOICE'] },
			{
				isTest: true,
				webhookId: prod.node.webhookId,
				staticData: JSON.parse(JSON.stringify(prod.wf.staticData)),
				h: prod.h,
			},
		);
		expect(test.base).toContain('/webhook-test/');
		expect(await webhookMethod('checkExists', test.wf, test.wd, 'manual', 'manual')).toBe(false);
		await webhookMethod('create', test.wf, test.wd, 'manual', 'manual');
		expect(live(sb, test.base)).toHaveLength(2);
		expect(live(sb, prod.base)).toHaveLength(2);

		// A test event arrives and is output.
		const r = await call(sb, 'POST', '/__admin/events', {
			token: null,
			body: { eventType: 'UPDATE_INVOICE', data: { id: 31, total: 10 } },
		});
		expect(r.body.deliveries).toHaveLength(2); // production and test registrations
		const got = received(test.base);
		expect(got).toHaveLength(1);
		expect(outputOf(await deliverWebhook(test.wf, test.wd, got[0]))).toMatchObject([
			{ eventType: 'UPDATE_INVOICE', payload: { data: { id: 31, total: 10 } } },
		]);

		// The listener ends: n8n calls delete with the test workflow's static data.
		expect(await webhookMethod('delete', test.wf, test.wd, 'manual', 'manual')).toBe(true);
		expect(live(sb, test.base)).toHaveLength(0);
		expect(
			live(sb, prod.base)
				.map((w) => w.hookId)
				.sort(),
		).toEqual(Object.values(nodeState(prod.wf).hookIds!).sort());

		await deactivate(sb, prod);
	});
});

describe('deliveries', () => {
	it('a deal created through the Sales node reaches the trigger as exactly one CREATE_CRM_DEAL item', async () => {
		const sb = ctx.sb;
		const t = await activeTrigger(sb, { events: ['CREATE_CRM_DEAL', 'UPDATE_CRM_DEAL'] });

		const sales = await createHarness(sb).run('businessPlatformSales', {
			resource: 'deal',
			operation: 'create',
			name: 'Trigger deal',
			additionalFields: { amount: 420 },
		});
		expect(sales.error).toBeUndefined();
		const created = { body: { id: sales.json[0].id } };
		await sb.hooks.idle();
		const got = received(t.base);
		expect(got).toHaveLength(1);
		expect(got[0].query.event).toBe('CREATE_CRM_DEAL');

		const out = outputOf(await deliverWebhook(t.wf, t.wd, got[0]));
		expect(out).toEqual([
			{
				eventType: 'CREATE_CRM_DEAL',
				receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
				hookId: nodeState(t.wf).hookIds!.CREATE_CRM_DEAL,
				payload: got[0].body,
			},
		]);
		expect(out[0].payload).toMatchObject({
			eventType: 'CREATE_CRM_DEAL',
			data: { id: created.body.id, name: 'Trigger deal' },
		});
		await webhookMethod('delete', t.wf, t.wd);
	});

	it('Fetch Full Record adds the current deal, and leaves it out once the deal is deleted', async () => {
		const sb = ctx.sb;
		const t = await activeTrigger(sb, {
			events: ['CREATE_CRM_DEAL', 'DELETE_CRM_DEAL'],
			options: { fetchFullRecord: true },
		});
		const created = await call(sb, 'POST', '/v1/crm/deals', {
			body: { name: 'Full record', amount: 7 },
		});
		await sb.hooks.idle();
		// Renamed after the event: the record is read when the event is handled.
		await call(sb, 'PUT', `/v1/crm/deals/${created.body.id}`, {
			body: { name: 'Full record, renamed' },
		});
		const [createEvent] = received(t.base);

		const seq = lastSeq(sb);
		const [withRecord] = outputOf(await deliverWebhook(t.wf, t.wd, createEvent));
		expect(withRecord.record).toMatchObject({
			id: created.body.id,
			name: 'Full record, renamed',
			amount: 7,
		});
		expect(
			sb
				.requests()
				.filter((r) => r.seq > seq)
				.map((r) => `${r.method} ${r.path}`),
		).toEqual([`GET /v1/crm/deals/${created.body.id}`]);

		await call(sb, 'DELETE', `/v1/crm/deals/${created.body.id}`);
		await sb.hooks.idle();
		const seq2 = lastSeq(sb);
		const [afterDelete] = outputOf(await deliverWebhook(t.wf, t.wd, createEvent));
		expect(afterDelete).toEqual({
			eventType: 'CREATE_CRM_DEAL',
			receivedAt: expect.any(String),
			hookId: expect.any(Number),
			payload: createEvent.body,
		});
		expect(
			sb
				.requests()
				.filter((r) => r.seq > seq2)
				.map((r) => r.status),
		).toEqual([404]);

		// The delete event itself: no lookup at all.
		const deleteEvent = received(t.base).find((c) => c.query.event === 'DELETE_CRM_DEAL')!;
		const seq3 = lastSeq(sb);
		expect(outputOf(await deliverWebhook(t.wf, t.wd, deleteEvent))).toEqual([
			{
				eventType: 'DELETE_CRM_DEAL',
				receivedAt: expect.any(String),
				hookId: expect.any(Number),
				payload: deleteEvent.body,
			},
		]);
		expect(lastSeq(sb)).toBe(seq3);
		await webhookMethod('delete', t.wf, t.wd);
	});

	it('an admin-emitted CREATE_INVOICE arrives with its event type; any JSON body is accepted', async () => {
		const sb = ctx.sb;
		const t = await activeTrigger(sb, { events: [ALL_ACCOUNTING] });
		const r = await call(sb, 'POST', '/__admin/events', {
			token: null,
			body: { eventType: 'CREATE_INVOICE', data: { id: 991, number: 'INV-991' } },
		});
		expect(r.body.deliveries).toEqual([
			expect.objectContaining({ eventType: 'CREATE_INVOICE', status: 200 }),
		]);
		const got = received(t.base);
		expect(got).toHaveLength(1);
		const out = outputOf(await deliverWebhook(t.wf, t.wd, got[0]));
		expect(out).toEqual([
			{
				eventType: 'CREATE_INVOICE',
				receivedAt: expect.any(String),
				hookId: nodeState(t.wf).hookIds!.CREATE_INVOICE,
				payload: got[0].body,
			},
		]);
		expect(out[0].payload).toMatchObject({ data: { id: 991, number: 'INV-991' } });

		// The event type comes from the URL, not the body: a body that says otherwise (or is not an object) changes nothing.
		const odd = await deliverWebhook(t.wf, t.wd, {
			query: got[0].query,
			body: [{ eventType: 'DELETE_BILL' }, 'text', 3],
		});
		expect(outputOf(odd)).toEqual([
			{
				eventType: 'CREATE_INVOICE',
				receivedAt: expect.any(String),
				hookId: expect.any(Number),
				payload: [{ eventType: 'DELETE_BILL' }, 'text', 3],
			},
		]);
		await webhookMethod('delete', t.wf, t.wd);
	});

	it('a forged call gets 401 over HTTP and starts no workflow', async () => {
		const sb = ctx.sb;
		const t = await activeTrigger(sb, { events: ['CREATE_CRM_DEAL'] });
		const secret = nodeState(t.wf).secrets!.CREATE_CRM_DEAL;
		const front = await webhookFront(t.wf, t.wd);
		try {
			const post = async (query: string) => {
				const res = await request(`${front.url}/webhook/${t.node.webhookId}/webhook${query}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ data: { id: 1 } }),
				});
				return { status: res.statusCode, body: await res.body.text() };
			};
			const wrong = await post(`?event=CREATE_CRM_DEAL&secret=${'x'.repeat(secret.length)}`);
			expect(wrong.status).toBe(401);
			expect(JSON.parse(wrong.body)).toEqual({ message: expect.stringContaining('wrong secret') });
			expect((await post('?event=CREATE_CRM_DEAL')).status).toBe(401);
			expect((await post('')).status).toBe(401);
			expect((await post(`?event=UPDATE_CRM_DEAL&secret=${secret}`)).status).toBe(401); // a secret is only good for its event
			expect(front.results).toHaveLength(4);
			expect(
				front.results.every((r) => r.workflowData === undefined && r.noWebhookResponse === true),
			).toBe(true);

			// The genuine call through the same front starts the workflow.
			const ok = await post(`?event=CREATE_CRM_DEAL&secret=${secret}`);
			expect(ok.status).toBe(200);
			expect(outputOf(front.results[4])).toMatchObject([
				{ eventType: 'CREATE_CRM_DEAL', payload: { data: { id: 1 } } },
			]);
		} finally {
			await front.close();
			await webhookMethod('delete', t.wf, t.wd);
		}
	});
});

describe('token refresh during activation', () => {
	const fresh = useSandbox();

	it('copies the refreshed token into the register body when the token had expired', async () => {
		const sb = fresh.sb;
		const h = createHarness(sb, sb.issueTokens());
		const t = trigger(sb, { events: ['CREATE_BILL'] }, { h });
		sb.auth.expireAll();
		const seq = lastSeq(sb);
		await activateWebhook(t.wf, t.wd);
		const saved = h.credentials.data().oauthTokenData as IDataObject;
		const [body] = registerCalls(sb, seq).map((r) => JSON.parse(r.body!));
		expect(body.accessToken).toBe(saved['platform-token']);
		expect(body.refreshToken).toBe(saved['platform-refresh-token']);
		// The expired token is refused once on the plain path, once on n8n's OAuth2 path, which refreshes (nodes/shared/transport.ts).
		expect(sb.requests().filter((r) => r.seq > seq && r.status === 401)).toHaveLength(2);
		await webhookMethod('delete', t.wf, t.wd);
	});
});

describe('OAuth V2', () => {
	const v2 = useSandbox({ mode: 'v2' });

	it('registers with access_token and refresh_token', async () => {
		const sb = v2.sb;
		const t = trigger(sb, { events: ['STOCK_OUT'] });
		const seq = lastSeq(sb);
		await activateWebhook(t.wf, t.wd);
		const [body] = registerCalls(sb, seq).map((r) => JSON.parse(r.body!));
		expect(body).toMatchObject({
			accessToken: sb.demo.tokenResponse.access_token,
			refreshToken: sb.demo.tokenResponse.refresh_token,
			eventType: 'STOCK_OUT',
		});
		expect(live(sb, t.base)).toHaveLength(1);
		await deactivate(sb, t);
	});
});

// ----------------------------------------------------------------- helpers --

/**
 * What n8n's webhook route does in front of webhook(): parses the body and the query,
 * hands over the real response object, and answers 200 itself unless the node
 * answered (noWebhookResponse).
 */
async function webhookFront(
	wf: Workflow,
	wd: IWebhookData,
): Promise<Loopback & { results: IWebhookResponseData[] }> {
	const results: IWebhookResponseData[] = [];
	const front = await serveLoopback(async (req, res) => {
		const u = new URL(req.url ?? '/', 'http://front');
		const text = await readBody(req);
		const r = await deliverWebhook(
			wf,
			wd,
			{
				body: text ? JSON.parse(text) : {},
				headers: req.headers as IDataObject,
				query: Object.fromEntries(u.searchParams),
			},
			res,
		).catch(() => undefined);
		if (!r) {
			res.writeHead(500);
			res.end();
			return;
		}
		results.push(r);
		if (!r.noWebhookResponse) {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end('{"message":"Workflow was started"}');
		}
	});
	return { ...front, results };
}
