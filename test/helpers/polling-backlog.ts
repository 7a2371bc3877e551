/**
 * A backlog longer than n8n's poll budget, in a real n8n (single process or queue mode) under the
 * durable scheduler with `N8N_SCHEDULER_POLL_TIMEOUT=20` (a budget of 15 s): a published workflow
 * with the Table Trigger on Record Created, polled every minute. After the poll at publishing,
 * the sandbox serves pages of 20 that take 1 s each and 500 records are created: 25 s of reading,
 * past the budget. They must arrive over several polls, each record in exactly one execution,
 * oldest first, no execution empty, and no poll abandoned (the caller checks n8n's log).
 */
import type { Sandbox } from './sandbox';
import { pack, workflow } from '../../testbed/n8n/env';
import { eventually } from '../../testbed/eventually';
import { LOG_EVERY_MS, LOOK_EVERY_MS, type PollingHost } from './polling';

/** The environment the backlog needs besides the durable scheduler's settings. */
export const BACKLOG_ENV = { N8N_SCHEDULER_POLL_TIMEOUT: '20' };

const RECORDS = 500;

/** Creates RECORDS records of the contacts table, 25 at a time; gives their IDs. */
async function createRecords(sb: Sandbox, tableId: string): Promise<string[]> {
	const cells = structuredClone(sb.store.tenant(1).records.get(tableId)!.values()[0].cells);
	const made: string[] = [];
	for (let i = 0; i < RECORDS; i += 25) {
		const batch = await Promise.all(
			Array.from({ length: 25 }, async () => {
				const res = await fetch(`${sb.baseUrl}/v1/crm/core/table/${tableId}/record`, {
					method: 'POST',
					headers: { 'content-type': 'application/json', 'x-access-token': sb.demo.accessToken },
					body: JSON.stringify({ cells }),
				});
				return String(((await res.json()) as { id: string }).id);
			}),
		);
		made.push(...batch);
	}
	return made;
}

/**
 * Runs the backlog on `sb` (a sandbox of its own: its page size and latency change); `host`
 * publishes with a credential of that sandbox. Asserts what the file's comment says.
 */
export async function backlogExactlyOnce(
	sb: Sandbox,
	host: Pick<PollingHost, 'publish' | 'executions'>,
	tag: string,
): Promise<void> {
	const table = sb.store
		.tenant(1)
		.tables.values()
		.find((t) => t.objectType === 'CONTACT')!;
	const tableId = String(table._id);
	const wf = workflow(`e2eBacklog${tag}`.padEnd(16, '0').slice(0, 16), `Backlog ${tag}`, [
		pack('businessPlatformTableTrigger', 'Records', {
			event: 'recordCreated',
			tableId: { __rl: true, mode: 'id', value: tableId },
			pollTimes: { item: [{ mode: 'everyMinute' }] },
			options: {},
		}),
	]);
	const pages = () => sb.requests().filter((r) => r.path.endsWith('/paged-record')).length;
	const id = await host.publish(wf);
	await eventually(() => expect(pages()).toBeGreaterThan(0), 60_000, LOG_EVERY_MS); // publishing polls once: from now
	sb.config.maxPageSize = 20;
	sb.faults.add({
		kind: 'latency',
		method: 'POST',
		path: `/v1/crm/core/table/${tableId}/paged-record`,
		ms: 1000,
	});
	const made = await createRecords(sb, tableId);
	const runs = async () =>
		(await host.executions(id)).map((e) =>
			(e.data?.resultData.runData['Records']?.[0]?.data?.main[0] ?? []).map((i) => i.json),
		);
	// What the last look found, for the failure's message.
	let seen = 'nothing yet';
	const got = await eventually(
		async () => {
			const all = await runs();
			seen = `${all.length} executions, ${new Set(all.flat().map((j) => String(j._id))).size} of ${made.length} records`;
			expect(all.flat().length).toBeGreaterThanOrEqual(made.length);
			return all;
		},
		600_000,
		LOOK_EVERY_MS,
	).catch((e: unknown) => {
		throw new Error(
			`the backlog was not delivered within 600 s (last look: ${seen}): ${String(e)}`,
		);
	});
	// Executions come newest first: oldest first, each execution's items in order.
	const ordered = [...got].reverse();
	const delivered = ordered.flat().map((j) => String(j._id));
	const times = ordered.flat().map((j) => Date.parse(String(j.createdAt)));
	expect(delivered).toEqual([...new Set(delivered)]);
	expect([...delivered].sort()).toEqual([...made].sort());
	expect(ordered.length).toBeGreaterThan(1);
	expect(ordered.every((items) => items.length > 0)).toBe(true);
	expect(times).toEqual([...times].sort((x, y) => x - y));
}
