/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The transport's clock for tests (the tuning's `retryClock`, nodes/shared/tuning.ts): its waits between attempts
 * (backoff, Retry-After) take no time. Each wait is recorded and moves the transport's clock on by as much,
 * so its budgets (retry.maxTotalWaitMs, retry.maxTotalMs) count the waits as if they had been spent. What
 * a test then checks is what the transport asked to wait, not how long the machine took.
 *
 * One real-time check of each wait stays real (test/integration/transport.test.ts: Retry-After;
 * test/integration/fault-matrix.test.ts, its restart cells: the backoff outlasting an outage).
 */
import { fileTuning, type FileTuning } from './tuning';

export interface VirtualRetryClock {
	/** Every wait the transport asked for, in order, in milliseconds. */
	readonly waits: number[];
	/** The waits since `from` (an index into `waits`). */
	since(from: number): number[];
	/** Makes the transport's waits virtual (until `uninstall`); `onWait` hears of each. */
	install(onWait?: (ms: number) => void): void;
	/** Gives the transport its real clock back. */
	uninstall(): void;
}

/** A virtual clock for the retries of `tuning` (a file's own, test/helpers/tuning.ts). */
export function virtualRetryClock(tuning: FileTuning): VirtualRetryClock {
	const retryClock = tuning.retryClock;
	const real = { ...retryClock };
	let movedOn = 0;
	const waits: number[] = [];
	return {
		waits,
		since: (from) => waits.slice(from),
		install(onWait) {
			retryClock.now = () => real.now() + movedOn;
			retryClock.sleep = async (ms: number) => {
				movedOn += ms;
				waits.push(ms);
				onWait?.(ms);
				// Lets the other requests in flight (and the sandbox) run, as a real wait would.
				await new Promise((resolve) => setImmediate(resolve));
			};
		},
		uninstall() {
			Object.assign(retryClock, real);
		},
	};
}

/** A virtual transport clock for the whole test file (installed before its first test, removed after its last). */
export function useVirtualRetryClock(tuning: FileTuning = fileTuning()): VirtualRetryClock {
	const clock = virtualRetryClock(tuning);
	beforeAll(() => clock.install());
	afterAll(() => clock.uninstall());
	return clock;
}
