/**
 * What the model-based polling properties share (polling-machine.property.test.ts,
 * polling-crm.property.test.ts): a sandbox and the harness's nodes on the file's own tuning, with
 * pages of 1,000 (a burst of 2·10^5 records in 200 pages), put back after the file; and a poll the
 * platform holds back while something else happens (a takeover, the workflow published again).
 */
import { sleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { createHarness, type Harness } from '../../testbed/harness/run';
import type { Poller } from './poll-harness';
import { useSandbox, type Sandbox } from './sandbox';
import { fileTuning, type FileTuning } from './tuning';

/** Items asked for per page, and served at most, in the properties. */
export const PROPERTY_PAGE = 1000;

export interface PropertyPolls {
	tuning: FileTuning;
	ctx: { sb: Sandbox };
	/** The harness (after the file's beforeAll). */
	harness(): Harness;
}

/** The file's sandbox (`rows` seeded per collection) and tuning, pages of PROPERTY_PAGE for its tests. */
export function usePropertyPolls(rows: number): PropertyPolls {
	const tuning = fileTuning();
	const ctx = useSandbox({ rows });
	let h: Harness | undefined;
	let served = 0;
	const realNow = tuning.poll.now;
	beforeAll(() => {
		h = createHarness(ctx.sb);
		served = ctx.sb.config.maxPageSize;
		tuning.poll.pageSize = PROPERTY_PAGE;
	});
	afterAll(() => {
		tuning.poll.pageSize = 100;
		tuning.poll.now = realNow;
		ctx.sb.config.maxPageSize = served;
	});
	return { tuning, ctx, harness: () => h! };
}

/**
 * A poll held by the platform (its next page answered 50 ms late) while `meanwhile` happens, and
 * a second poll after it: both polls' items.
 */
export async function pollWhileHeld(
	sb: Sandbox,
	poller: Poller,
	meanwhile: () => void,
): Promise<Array<IDataObject[] | null>> {
	sb.faults.add({ kind: 'latency', ms: 50, count: 1 });
	let ended = false;
	const first = poller.poll().finally(() => (ended = true));
	// Until the platform holds its page back, or it ended without asking (P2, P3).
	while (!ended && sb.faults.list().length > 0) await sleep(2);
	sb.faults.clear();
	meanwhile();
	const second = await poller.poll();
	return [await first, second];
}
