/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * In a real n8n, the e2e file whose n8n restarts (the other files share one that does not,
 * test/helpers/shared-n8n.ts): the OAuth code flow through n8n's own callback, token expiry and
 * refresh across executions and n8n's restarts in each sandbox OAuth mode, the trigger's
 * webhook registrations across activation, delivery, restart and deactivation. The OAuth lanes
 * run before and after the trigger's three restarts, which serve both. (A polling trigger across
 * a restart: polling.e2e.test.ts, with n8n's other schedulers.)
 */
import { n8nAtLeast } from '../../testbed/runtime/versions';
import { call, startTestSandbox, type Sandbox } from '../helpers/sandbox';
import {
	connectCredential,
	createWorkflow,
	credential,
	eventually,
	pack,
	startE2e,
	webhookStart,
	workflow,
	type E2e,
} from '../../testbed/n8n/env';
import { HEADLESS_N8N } from '../../testbed/n8n/start';

jest.setTimeout(900_000);

let sb: Sandbox;
let e2e: E2e;
const TRIGGER_WF = 'e2eTriggerWf0001';

const triggerWorkflow = workflow(TRIGGER_WF, 'E2E trigger', [
	pack(
		'businessPlatformTrigger',
		'Trigger',
		{ events: ['CREATE_CRM_DEAL', 'CREATE_INVOICE'], options: {} },
		{ webhookId: 'a3c1e2f4-0000-4000-8000-00000000e2e1' },
	),
	{ name: 'Done', type: 'n8n-nodes-base.noOp', parameters: {} },
]);

const HEAL_WF = 'e2eTriggerHeal01';
const HEAL_HOOK = 'a3c1e2f4-0000-4000-8000-00000000e2e2';
const healWorkflow = workflow(HEAL_WF, 'E2E trigger healing', [
	pack(
		'businessPlatformSalesTrigger',
		'Trigger',
		{ events: ['CREATE_CRM_DEAL', 'CREATE_INVOICE'], options: {} },
		{ webhookId: HEAL_HOOK, typeVersion: 3 },
	),
	{ name: 'Done', type: 'n8n-nodes-base.noOp', parameters: {} },
]);

beforeAll(async () => {
	sb = await startTestSandbox({ rows: 10 });
	e2e = await startE2e(
		[credential(sb, sb.demo.tokenResponse)],
		[triggerWorkflow, healWorkflow],
		{},
		HEADLESS_N8N,
	);
});

afterAll(async () => {
	await e2e?.stop();
	await sb?.stop();
});

const live = () =>
	sb.store
		.tenant(1)
		.webhooks.values()
		.filter((h) => !h.deleted);

interface Execution {
	id: string;
	status: string;
}
const executions = async () =>
	(
		(await e2e.api.pub<{ data: Execution[] }>(
			'GET',
			`/executions?workflowId=${TRIGGER_WF}&limit=100`,
		)) as { data: Execution[] }
	).data;

/** Runs n8n's own OAuth2 flow for a new credential: auth URL → sandbox approval → n8n callback. Returns its id. */
async function connect(name: string, on: Sandbox = sb): Promise<string> {
	const before = on.auth.stats.authorizationCode;
	const id = await connectCredential(e2e.api, e2e.n8n.url, on, name);
	expect(on.auth.stats.authorizationCode).toBe(before + 1);
	return id;
}

async function workflowWith(credentialId: string, path: string): Promise<string> {
	const wf = workflow(
		`e2eMode${path.replace(/[^a-z0-9]/gi, '')}`.slice(0, 16).padEnd(16, '0'),
		`E2E ${path}`,
		[
			webhookStart(path),
			pack('businessPlatformSales', 'List', {
				resource: 'contact',
				operation: 'getAll',
				returnAll: false,
				limit: 2,
			}),
		],
	);
	const id = await createWorkflow(e2e.api, wf, credentialId);
	await e2e.activate(id, path);
	return id;
}

/**
 * What older n8n versions do differently with this credential (README, Compatibility);
 * the tests below assert it on the versions of testbed/runtime/versions.ts that have it.
 * - Before 2.14, n8n refreshes an expired token on a 401 and saves the new one but retries
 *   with the old token in a custom token header (`keyToIncludeInAccessTokenHeader`, here
 *   x-access-token; n8n-core 2.11.1 still does, 2.14.1 no longer): the first execution after
 *   an expiry fails, the next one, with the saved token, succeeds.
 * - Before 2.20, n8n runs no credential `preAuthentication` for OAuth2 credentials
 *   (`runPreAuthentication`: not in n8n-core 2.17.3, in 2.20.0): the legacy V1 platform
 *   token is never renewed after an expiry; executions fail until the user reconnects.
 */
const REFRESH_RETRY_FIXED = '2.14.0';
const PRE_AUTHENTICATION_WITH_OAUTH2 = '2.20.0';

/** One execution that fails on the platform's 401 after n8n's refresh. */
async function expectRefusedAfterRefresh(path: string): Promise<void> {
	const res = await e2e.call(path);
	expect(res.status).toBe(500);
	type List = { data: Array<{ data?: { resultData: { error?: { description?: string } } } }> };
	const last = (await e2e.api.pub<List>('GET', `/executions?limit=1&includeData=true`)) as List;
	expect(last.data[0].data?.resultData.error?.description).toMatch(
		/refused the token even after a refresh/,
	);
}

/**
 * Each mode on a sandbox of its own (its tokens and its counts are its credential's alone), and the
 * trigger's restarts of n8n for the three (three: n8n's default, then its former path): each mode's
 * executions before them, each mode's after them. One n8n start fewer than a restart of their own.
 */
const MODES = ['v1', 'v1-legacy', 'v2'] as const;
type Mode = (typeof MODES)[number];
const lanes = new Map<
	Mode,
	{ sb: Sandbox; path: string; expire: () => void; run: () => Promise<void>; done?: boolean }
>();
/** The n8n process the lanes ran on before the restarts: the lanes after them must run on another. */
let pidBefore: number | undefined;
const runAfterExpiry = async (mode: Mode) => {
	const lane = lanes.get(mode)!;
	if (!n8nAtLeast(REFRESH_RETRY_FIXED)) await expectRefusedAfterRefresh(lane.path);
	await lane.run();
};

describe('OAuth through n8n and token refresh across executions, before n8n restarts', () => {
	it('the code flow through n8n’s callback stores a credential that works', async () => {
		const before = sb.auth.stats.authorizationCode;
		const id = await connect('Connected through n8n');
		expect(sb.auth.stats.authorizationCode).toBe(before + 1);
		await workflowWith(id, 'oauth-flow');
		const res = await e2e.call('oauth-flow');
		expect(res.status).toBe(200);
		expect(res.body).toHaveLength(2);
	});

	it.each(MODES)(
		'mode %s, before the restarts: an execution, a token expiry, and the next execution succeeds as far as this n8n version allows (every one from n8n 2.20; README, Compatibility)',
		async (mode) => {
			const own = await startTestSandbox({ rows: 10 });
			own.config.mode = mode;
			const id = await connect(`Mode ${mode}`, own);
			const path = `mode-${mode}`;
			await workflowWith(id, path);
			own.auth.resetStats();
			// The tokens expire when the test says, not after a lifetime: with a 2 s one, a run later than
			// that on a loaded machine found its token expired and refreshed once more than the three
			// expiries (4 refreshes, seen at 1.4 cores).
			const run = async () => {
				const res = await e2e.call(path);
				expect([res.status, Array.isArray(res.body) ? res.body.length : res.body]).toEqual([
					200, 2,
				]);
			};
			const lane = { sb: own, path, expire: () => void own.auth.expireAll(), run };
			lanes.set(mode, lane);
			await run();
			lane.expire();
			if (mode === 'v1-legacy' && !n8nAtLeast(PRE_AUTHENTICATION_WITH_OAUTH2)) {
				await expectRefusedAfterRefresh(path);
				await expectRefusedAfterRefresh(path);
				expect(own.auth.stats.getRefreshToken).toBe(0);
				lanes.set(mode, { ...lane, done: true });
				return;
			}
			await runAfterExpiry(mode);
		},
	);

	it('n8n is about to restart (the trigger tests below restart it three times)', () => {
		pidBefore = e2e.n8n.process.pid;
		expect(pidBefore).toBeGreaterThan(0);
	});
});

describe('trigger in n8n', () => {
	it('activation registers exactly the selected events; a deal created through the API starts exactly one execution; restart makes no duplicates; deactivation leaves none', async () => {
		await e2e.activate(TRIGGER_WF);
		await eventually(() =>
			expect(
				live()
					.map((h) => h.eventType)
					.sort(),
			).toEqual(['CREATE_CRM_DEAL', 'CREATE_INVOICE']),
		);
		for (const h of live())
			expect(String(h.webhookUrl)).toMatch(new RegExp(`^${e2e.n8n.url}/webhook/`));

		await call(sb, 'POST', '/v1/crm/deals', { body: { name: 'Deal from the API', amount: 100 } });
		const first = await eventually(async () => {
			const list = await executions();
			expect(list).toHaveLength(1);
			return list[0];
		}, 60_000); // a loaded 2-core machine (npm test runs e2e and queue files side by side) needs more than the default
		const detail = (await e2e.api.pub<{
			data: {
				resultData: {
					runData: Record<
						string,
						Array<{ data: { main: Array<Array<{ json: Record<string, unknown> }>> } }>
					>;
				};
			};
		}>('GET', `/executions/${first.id}?includeData=true`)) as {
			data: {
				resultData: {
					runData: Record<
						string,
						Array<{ data: { main: Array<Array<{ json: Record<string, unknown> }>> } }>
					>;
				};
			};
		};
		const out = detail.data.resultData.runData.Trigger[0].data.main[0];
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({
			eventType: 'CREATE_CRM_DEAL',
			payload: { eventType: 'CREATE_CRM_DEAL', data: { name: 'Deal from the API' } },
		});
		// Nothing more arrives later (exactly once).
		await new Promise((r) => setTimeout(r, 1500));
		expect(await executions()).toHaveLength(1);

		await e2e.restart();
		// The trigger is re-activated on start (asynchronously): its checkExists adopts the live registrations.
		await new Promise((r) => setTimeout(r, 3000));
		expect(live()).toHaveLength(2);

		await call(sb, 'POST', '/__admin/events', {
			token: null,
			body: { eventType: 'CREATE_INVOICE', data: { invoiceId: 'INV-E2E' } },
		});
		await eventually(async () => expect(await executions()).toHaveLength(2), 60_000);

		await e2e.api.pub('POST', `/workflows/${TRIGGER_WF}/deactivate`);
		await eventually(() => expect(live()).toHaveLength(0));
	});

	it("heals without a person (issue 41): a registration the platform dropped while n8n was stopped is back once after the start, on n8n's default (publication service) and on its former path, and one dropped while n8n runs is back within a poll; each time the next event gives exactly one execution and the drop is reported once", async () => {
		await e2e.activate(HEAL_WF);
		const mine = () => live().filter((h) => String(h.webhookUrl).includes(HEAL_HOOK));
		const events = () =>
			mine()
				.map((h) => String(h.eventType))
				.sort();
		await eventually(() => expect(events()).toEqual(['CREATE_CRM_DEAL', 'CREATE_INVOICE']));
		const healExecutions = async () =>
			(
				(await e2e.api.pub<{ data: Execution[] }>(
					'GET',
					`/executions?workflowId=${HEAL_WF}&limit=100&includeData=true`,
				)) as {
					data: Array<
						Execution & {
							data?: {
								resultData: {
									runData: Record<
										string,
										Array<{ data: { main: Array<Array<{ json: Record<string, unknown> }>> } }>
									>;
								};
							};
						}
					>;
				}
			).data.map((e) => e.data?.resultData.runData.Trigger?.[0]?.data.main[0][0]?.json ?? {});
		const dropWhileStopped = (eventType: string) => async () => {
			const hook = mine().find((h) => h.eventType === eventType)!;
			expect((await call(sb, 'DELETE', `/v1/webhooks/delete/${String(hook.hookId)}`)).status).toBe(
				200,
			);
		};
		let runs = 0;
		const nextEventRunsOnce = async (eventType: string) => {
			// n8n serves the node's webhook again (its activation after a start may still run).
			await e2e.waitForWebhook(`${HEAL_HOOK}/webhook`);
			const sent = await call(sb, 'POST', '/__admin/events', {
				token: null,
				body: { eventType, data: { id: 4100 + runs } },
			});
			runs++;
			// What n8n answered the platform's delivery (a failure names it: 401 = a secret not kept).
			expect(
				(sent.body as { deliveries: Array<{ hookId: number; status: number | string }> }).deliveries
					.filter((d) => mine().some((h) => h.hookId === d.hookId))
					.map((d) => d.status),
			).toEqual([200]);
			await eventually(async () => {
				const out = await healExecutions();
				expect(out.filter((j) => j.payload !== undefined)).toHaveLength(runs);
			}, 120_000);
		};
		// The heal's report comes with a poll (a minute tick): the executions with their data, every 2 s.
		const reported = async (eventType: string, times: number) =>
			await eventually(
				async () => {
					const out = await healExecutions();
					expect(
						out.filter((j) => j.registrationRestored === true && j.eventType === eventType),
					).toHaveLength(times);
				},
				120_000,
				2000,
			);

		// n8n's default: the publication service activates the Trigger again at start (it polls).
		await e2e.restart(dropWhileStopped('CREATE_INVOICE'));
		await eventually(
			() => expect(events()).toEqual(['CREATE_CRM_DEAL', 'CREATE_INVOICE']),
			300_000,
		);
		await nextEventRunsOnce('CREATE_INVOICE');
		await reported('CREATE_INVOICE', 1);

		// The platform drops one while n8n runs: the next poll (every minute) registers it again.
		await dropWhileStopped('CREATE_CRM_DEAL')();
		await eventually(
			() => expect(events()).toEqual(['CREATE_CRM_DEAL', 'CREATE_INVOICE']),
			300_000,
		);
		await nextEventRunsOnce('CREATE_CRM_DEAL');
		await reported('CREATE_CRM_DEAL', 1);

		// n8n's former path (N8N_USE_WORKFLOW_PUBLICATION_SERVICE=false): the same.
		await e2e.restart(dropWhileStopped('CREATE_INVOICE'), {
			N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'false',
		});
		await eventually(
			() => expect(events()).toEqual(['CREATE_CRM_DEAL', 'CREATE_INVOICE']),
			300_000,
		);
		await nextEventRunsOnce('CREATE_INVOICE');
		await reported('CREATE_INVOICE', 2);
		expect(mine()).toHaveLength(2); // never two of one event
		const out = await healExecutions();
		expect(out.filter((j) => j.payload !== undefined)).toHaveLength(runs);

		await e2e.api.pub('POST', `/workflows/${HEAL_WF}/deactivate`);
		await eventually(() => expect(mine()).toHaveLength(0));
	});
});

describe('OAuth through n8n and token refresh across executions, after n8n restarted', () => {
	it("n8n serves the three modes' webhooks again after the trigger's restarts", async () => {
		// The trigger's tests restarted n8n (were they to fail first, the lanes below would cross no restart).
		expect(pidBefore).toBeDefined();
		expect(e2e.n8n.process.pid).not.toBe(pidBefore);
		for (const lane of lanes.values()) if (!lane.done) await e2e.waitForWebhook(lane.path);
	});

	it.each(MODES)(
		'mode %s, after the restarts: executions across two more token expiries succeed (the second with the rotated refresh token); the credential keeps the newest tokens: 3 refreshes in all, none failed',
		async (mode) => {
			const lane = lanes.get(mode);
			if (!lane) throw new Error(`mode ${mode} did not get as far as the restarts`);
			if (lane.done) return; // this n8n version cannot renew the legacy platform token (checked before the restarts)
			// For a moment after its start n8n answers the webhook with 404 "Published version not
			// found" though it serves its path (2.41.1, publication service): a run that fails so
			// executes nothing and refreshes nothing. Run once before the expiry, so that what is
			// counted is the refresh after it.
			await eventually(lane.run, 60_000);
			lane.expire();
			await runAfterExpiry(mode);
			// Only the newest refresh token still works: one more expiry proves n8n stored it.
			lane.expire();
			await runAfterExpiry(mode);
			const stats = lane.sb.auth.stats;
			expect(stats.refreshGrant).toBe(3);
			expect(stats.failedRefresh).toBe(0);
			expect(stats.getRefreshToken).toBe(mode === 'v1-legacy' ? 3 : 0);
		},
	);
});
