/**
 * What a test file of the Sales Trigger's polling events (node version 4) sets up: a sandbox of
 * its own, the n8n-core harness on it, the file's tuning reset after each test with the sandbox's
 * clock running again, a trigger of the polling events under a scheduler, a second of the
 * sandbox's clock per change, and a platform call that must succeed (and ticks after it).
 */
import type { IDataObject } from 'n8n-workflow';

import { createHarness, type Harness } from '../../testbed/harness/run';
import { Poller, type Scheduler } from './poll-harness';
import { setClock } from './poll-drivers';
import { call, useSandbox, type Sandbox } from './sandbox';
import { fileTuning } from './tuning';

export function useCrmPollFile(rows: number, reset: (sb: Sandbox) => void) {
	const tuning = fileTuning();
	const ctx = useSandbox({ rows });
	const defaults = { ...tuning.poll };
	let h: Harness | undefined;
	beforeAll(() => {
		h = createHarness(ctx.sb);
	});
	afterEach(async () => {
		Object.assign(tuning.poll, defaults);
		reset(ctx.sb);
		await setClock(ctx.sb, { freeze: false, advanceMs: 1000 });
	});
	const harness = () => h!;
	/** A second on the sandbox's clock, so that each change has a time of its own. */
	const tick = async () => await setClock(ctx.sb, { advanceMs: 1000 });
	return {
		ctx,
		tuning,
		harness,
		tick,
		trigger: (parameters: IDataObject, scheduler: Scheduler = 'default') =>
			new Poller(harness(), 'businessPlatformSalesTrigger', parameters, {
				scheduler,
				typeVersion: 4,
			}),
		api: async (method: string, path: string, body?: unknown) => {
			const res = await call(ctx.sb, method, path, body === undefined ? {} : { body });
			expect(res.status).toBeLessThan(300);
			await tick();
			return res.body as IDataObject;
		},
	};
}
