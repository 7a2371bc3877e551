/**
 * A polling trigger in a real n8n under each of n8n's schedulers (issue 34), an n8n each:
 * - the default scheduler (a cron job per Poll Time, static data in memory);
 * - the durable scheduler (N8N_SCHEDULER_ENABLED, N8N_USE_WORKFLOW_PUBLICATION_SERVICE,
 *   N8N_SCHEDULER_POLL_TRIGGERS_ENABLED);
 * - the same with durable cursors (N8N_POLLER_DURABLE_CURSORS_ENABLED), where n8n commits no
 *   cursor for the poll at publishing.
 * The durable ones with a poll timeout of 20 s (a poll budget of 15 s). On each, the polling lane
 * (test/helpers/polling.ts, also the queue suite's: payruns made right after publishing, two in one
 * second, one after a restart: each in exactly one execution, no empty execution); on both
 * durable ones also a backlog longer than the poll budget (the polling lane restarts that n8n
 * while it is read): 500 records on pages of 20 that take 1 s each (25 s to read them all),
 * delivered over several polls, each exactly once, in order, and no poll abandoned. The lanes run at once, so they wait for n8n's
 * minute ticks together: the run waits for them once. (The durable schedulers exist from n8n
 * 2.41; on the oldest tested n8n, 1.123, only the default lane runs.) The n8ns run other
 * expression engines than the shared one: legacy (default lane), quickjs (durable lane).
 */
import type { IDataObject } from 'n8n-workflow';

import { n8nAtLeast } from '../../testbed/runtime/versions';
import { startTestSandbox, type Sandbox } from '../helpers/sandbox';
import {
	connectCredential,
	createWorkflow,
	credential,
	startE2e,
	type E2e,
	eventually,
} from '../../testbed/n8n/env';
import { HEADLESS_N8N } from '../../testbed/n8n/start';
import {
	expectSameOutcomes,
	SHORTCUT_PATH,
	shortcutOutcomes,
	shortcutWorkflow,
} from '../helpers/expression-shortcut';
import { pollingExactlyOnce, SCHEDULERS, type PollingHost } from '../helpers/polling';
import { BACKLOG_ENV, backlogExactlyOnce } from '../helpers/polling-backlog';
import { crmPollingExactlyOnce, type CrmHost } from '../helpers/polling-crm';
import { sharedRestart, type RestartParty, type SharedRestart } from '../helpers/shared-restart';

jest.setTimeout(900_000);

interface Lane {
	sb: Sandbox;
	e2e: E2e;
	/** One restart of this n8n for the scenarios that run on it (payruns, CRM). */
	restart: SharedRestart;
}
let standard: Lane | undefined;
let durable: Lane | undefined;
let cursors: Lane | undefined;
let backlog: Sandbox | undefined;
let durableBacklog: Sandbox | undefined;

/** An n8n with `env`, its own sandbox, and the expression-shortcut workflow (expression-shortcut.ts) published. */
async function lane(env: Record<string, string>): Promise<Lane> {
	const sb = await startTestSandbox({ rows: 10 });
	const e2e = await startE2e(
		[credential(sb, sb.demo.tokenResponse)],
		[],
		{},
		{
			...HEADLESS_N8N,
			...env,
		},
	);
	await e2e.activate(
		await createWorkflow(e2e.api, shortcutWorkflow(), e2e.credentialId()),
		SHORTCUT_PATH,
	);
	return { sb, e2e, restart: sharedRestart((whileStopped) => e2e.restart(whileStopped), 2) };
}

const host = (l: Lane, party?: RestartParty): PollingHost => ({
	async publish(wf) {
		const id = await createWorkflow(l.e2e.api, wf, l.e2e.credentialId());
		await l.e2e.activate(id);
		return id;
	},
	executions: async (id) =>
		(
			(await l.e2e.api.pub('GET', `/executions?workflowId=${id}&includeData=true&limit=250`)) as {
				data: never[];
			}
		).data,
	...(party ? { restart: async () => await party.join() } : {}),
});

/** The CRM scenario's host: the same n8n, its restart shared with the payrun lane, and the test button. */
const crmHost = (l: Lane, party: RestartParty): CrmHost => ({
	...host(l),
	restart: async (whileStopped) => await party.join(whileStopped),
	async runByHand(id, trigger) {
		// n8n 1.x runs the workflow the editor sends (workflowData); 2.x reads it from the database.
		const workflowData = (
			await l.e2e.api.rest<{ data: Record<string, unknown> }>('GET', `/workflows/${id}`)
		).data;
		const started = await l.e2e.api.rest<{
			data: { executionId?: string; waitingForWebhook?: boolean };
		}>('POST', `/workflows/${id}/run`, { workflowData, triggerToStartFrom: { name: trigger } });
		if (started.data.waitingForWebhook) return 'waiting';
		const done = await eventually(async () => {
			const ex = (await l.e2e.api.pub(
				'GET',
				`/executions/${started.data.executionId}?includeData=true`,
			)) as {
				status: string;
				data?: {
					resultData: {
						runData: Record<
							string,
							Array<{ data?: { main: Array<Array<{ json: IDataObject }>> } }>
						>;
					};
				};
			};
			expect(['success', 'error', 'crashed']).toContain(ex.status);
			return ex;
		}, 60_000);
		expect(done.status).toBe('success');
		return (done.data?.resultData.runData[trigger]?.[0]?.data?.main[0] ?? []).map((i) => i.json);
	},
});

/** Publishes on `l`'s n8n with a credential of the backlog's own sandbox. */
async function backlogHost(l: Lane, sb: Sandbox) {
	const credentialId = await connectCredential(l.e2e.api, l.e2e.n8n.url, sb, 'Backlog account');
	return {
		...host(l),
		async publish(wf: Record<string, unknown>) {
			const id = await createWorkflow(l.e2e.api, wf, credentialId);
			await l.e2e.activate(id);
			return id;
		},
	};
}

const DURABLE_N8N = n8nAtLeast('2.41.0');

beforeAll(async () => {
	// Each n8n also runs another expression engine (n8n-internals 5; the shared n8n runs the default, vm).
	if (!DURABLE_N8N) standard = await lane({ N8N_EXPRESSION_ENGINE: 'legacy' });
	else
		[standard, durable, cursors, backlog, durableBacklog] = await Promise.all([
			lane({ N8N_EXPRESSION_ENGINE: 'legacy' }),
			lane({
				...SCHEDULERS.durable,
				N8N_SCHEDULER_POLL_TIMEOUT: '20',
				N8N_EXPRESSION_ENGINE: 'quickjs',
			}),
			lane({ ...SCHEDULERS.durableCursors, ...BACKLOG_ENV }),
			startTestSandbox({ rows: 4 }),
			startTestSandbox({ rows: 4 }),
		]);
}, 900_000);

afterAll(async () => {
	await Promise.all([standard?.e2e.stop(), durable?.e2e.stop(), cursors?.e2e.stop()]);
	await Promise.all(
		[standard?.sb, durable?.sb, cursors?.sb, backlog, durableBacklog].map((sb) => sb?.stop()),
	);
});

/** A scenario on a lane's n8n, a party of its restart: when it ends (or fails) it no longer holds the restart back. */
async function scenario(l: Lane, run: (party: RestartParty) => Promise<unknown>): Promise<unknown> {
	const party = l.restart.party();
	try {
		return await run(party);
	} finally {
		party.leave();
	}
}

/** The lanes' results once all have ended; the first failure, if any. */
function settled(results: PromiseSettledResult<unknown>[]): unknown[] {
	const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
	if (failed) throw failed.reason;
	return results.map((r) => (r as PromiseFulfilledResult<unknown>).value);
}

describe("n8n's schedulers", () => {
	it("default, durable, durable cursors: payruns made right after publishing, in one second and after a restart, each in exactly one execution; with the durable scheduler, with and without durable cursors, a backlog of 25 s of pages delivered over several polls within the 15 s budget, each record exactly once, in order; beside them on each n8n the Sales Trigger's polling events (version 4): a contact, a deal and an activity created and updated, one item each, a deal's stage change with the stage before, 50 contacts made while n8n was stopped, 50 items after its start, none twice; a polling event needs no public address (no webhook asked for, the test button fetches at once)", async () => {
		if (!DURABLE_N8N) {
			const l = standard!;
			await Promise.allSettled([
				scenario(l, (party) => pollingExactlyOnce(l.sb, host(l, party), 'Single')),
				scenario(l, (party) => crmPollingExactlyOnce(l.sb, crmHost(l, party), 'Single')),
			]).then(settled);
			return;
		}
		// Every lane to its end, then the first failure: no lane still running when the n8ns stop.
		await Promise.allSettled([
			...(
				[
					[standard!, 'Single'],
					[durable!, 'Durable'],
					[cursors!, 'Cursors'],
				] as Array<[Lane, string]>
			).flatMap(([l, tag]) => [
				scenario(l, (party) => pollingExactlyOnce(l.sb, host(l, party), tag)),
				scenario(l, (party) => crmPollingExactlyOnce(l.sb, crmHost(l, party), tag)),
			]),
			backlogExactlyOnce(backlog!, await backlogHost(cursors!, backlog!), 'Cursors'),
			backlogExactlyOnce(durableBacklog!, await backlogHost(durable!, durableBacklog!), 'Durable'),
		]).then(settled);
		// No poll ran past n8n's timeout.
		for (const l of [cursors!, durable!])
			expect(l.e2e.n8n.log()).not.toMatch(/Poll exceeded its timeout/);
	});
});

describe('reading "={{ $json.key }}" without n8n (n8n-internals 5) under the other expression engines', () => {
	it('legacy (and, from n8n 2.41, quickjs): two items with the same values give the same contact, whether n8n evaluated the field or the pack read it from the item', async () => {
		expectSameOutcomes(await shortcutOutcomes(standard!.e2e.call, standard!.sb, 'legacy'));
		if (durable)
			expectSameOutcomes(await shortcutOutcomes(durable.e2e.call, durable.sb, 'quickjs'));
	});
});
