/**
 * A polling trigger in a real n8n (single process or queue mode): a published workflow with the
 * People Trigger on Payrun Created, polled every minute (n8n's shortest interval). n8n polls
 * once when it publishes the workflow (the trigger starts from now), then every minute. Two
 * payruns created in the same second and one a second later are delivered exactly once, in
 * executions n8n stored. Then (after a restart, where the suite can restart n8n) one payrun is
 * created, and one poll later n8n holds exactly one execution more, with exactly that payrun:
 * one execution per poll that found changes, every change in one execution. A poll after that
 * delivers nothing more.
 */
import { makeChanges, POLL_DRIVERS } from './poll-drivers';
import type { Sandbox } from './sandbox';
import { pack, workflow } from '../../testbed/n8n/env';
import { eventually } from '../../testbed/eventually';

/** The settings of n8n 2.41's durable scheduler, without and with durable cursors (docs/polling-triggers.md). */
export const SCHEDULERS = {
	durable: {
		N8N_SCHEDULER_ENABLED: 'true',
		N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
		N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	},
	durableCursors: {
		N8N_SCHEDULER_ENABLED: 'true',
		N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
		N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
		N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	},
};

export interface PollingHost {
	/** Creates the workflow on the suite's credential and publishes it; its id. */
	publish(wf: Record<string, unknown>): Promise<string>;
	/** The executions n8n stored for the workflow, with their data. */
	executions(workflowId: string): Promise<
		Array<{
			status: string;
			data?: {
				resultData: {
					runData: Record<
						string,
						Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> } }>
					>;
				};
			};
		}>
	>;
	restart?: () => Promise<void>;
}

const PAYRUNS = '/v1/people-pay-run/payruns';
const polls = (sb: Sandbox) =>
	sb.requests().filter((r) => r.method === 'GET' && r.path === PAYRUNS && r.status === 200).length;
const driver = POLL_DRIVERS.find((d) => d.event === 'payrunCreated')!;

/**
 * How long a poll may take to come after a restart: a minute tick, and under n8n's durable
 * scheduler also the lease the stopped process held (N8N_SCHEDULER_LEASE_DURATION, 60 s), on a
 * machine that may be busy.
 */
const AFTER_RESTART = 300_000;

/**
 * How often a lane looks again at n8n's executions. What it waits for comes with n8n's minute
 * ticks, and a look asks n8n for all of the workflow's executions with their data (n8n's main,
 * its database and this process then work for each look): every 5 s, not every 200 ms. No outcome
 * changes, only when a wait that has already passed notices it (at most 5 s later).
 */
export const LOOK_EVERY_MS = 5_000;

/** How often a lane looks again at the sandbox's own request log (a poll came): cheap, every second. */
export const LOG_EVERY_MS = 1_000;

/** Waits for the next poll of the payrun list (n8n polls every minute). */
async function nextPoll(sb: Sandbox): Promise<void> {
	const before = polls(sb);
	await eventually(() => expect(polls(sb)).toBeGreaterThan(before), AFTER_RESTART, LOG_EVERY_MS);
}

/** The payrun IDs each of the workflow's executions delivered. */
async function deliveries(host: PollingHost, id: string): Promise<string[][]> {
	const runs = await host.executions(id);
	return runs.map((e) =>
		(e.data?.resultData.runData['Payruns']?.[0]?.data?.main[0] ?? []).map((i) =>
			String(i.json._id),
		),
	);
}

/** The payrun IDs the workflow's executions delivered. */
const delivered = async (host: PollingHost, id: string) => (await deliveries(host, id)).flat();

/** Runs the scenario; gives the workflow's id. */
export async function pollingExactlyOnce(
	sb: Sandbox,
	host: PollingHost,
	tag: string,
): Promise<string> {
	const before = polls(sb);
	const wf = workflow(`e2ePoll${tag}`.padEnd(16, '0').slice(0, 16), `Polling ${tag}`, [
		pack('businessPlatformPeopleTrigger', 'Payruns', {
			event: 'payrunCreated',
			pollTimes: { item: [{ mode: 'everyMinute' }] },
			options: {},
		}),
	]);
	const id = await host.publish(wf);
	// Publishing polls once: the trigger starts from now.
	await eventually(() => expect(polls(sb)).toBeGreaterThan(before), 60_000, LOG_EVERY_MS);
	const made = [
		...(await makeChanges(sb, driver, 2, { sameTime: true })),
		...(await makeChanges(sb, driver, 1)),
	];
	const got = await eventually(
		async () => {
			const ids = await delivered(host, id);
			expect(ids.length).toBeGreaterThanOrEqual(made.length);
			return ids;
		},
		150_000,
		LOOK_EVERY_MS,
	);
	expect([...got].sort()).toEqual([...made].sort());
	expect((await host.executions(id)).every((e) => e.status === 'success')).toBe(true);
	if (host.restart) await host.restart();
	// One change, one poll: exactly one execution more, holding exactly that change.
	const held = (await deliveries(host, id)).length;
	const [single] = await makeChanges(sb, driver, 1);
	await eventually(
		async () => expect((await deliveries(host, id)).length).toBeGreaterThan(held),
		AFTER_RESTART,
		LOOK_EVERY_MS,
	);
	await nextPoll(sb);
	const after = await deliveries(host, id);
	expect(after.length).toBe(held + 1);
	expect(after.filter((items) => items.includes(single))).toEqual([[single]]);
	expect(after.every((items) => items.length > 0)).toBe(true);
	expect(after.flat().sort()).toEqual([...made, single].sort());
	expect((await host.executions(id)).every((e) => e.status === 'success')).toBe(true);
	return id;
}
