/**
 * A test file's own tunables and clocks (nodes/shared/tuning.ts): a copy of n8n's defaults that
 * the file may change between its tests (a shorter backoff, a smaller poll page, a clock of its
 * own), with the harness's nodes built on it. Nothing of the pack's modules is rewritten.
 */
import {
	DEFAULT_TUNING,
	type Clock,
	type PagingTuning,
	type PollTuning,
	type RetryTuning,
} from '../../nodes/shared/tuning';
import { useTuning } from '../../testbed/harness/nodes';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export interface FileTuning {
	retry: Mutable<RetryTuning>;
	paging: Mutable<PagingTuning>;
	poll: Mutable<PollTuning>;
	retryClock: Mutable<Clock>;
}

/** The defaults, as the file's own copy. */
const defaultTuning = (): FileTuning => ({
	retry: { ...DEFAULT_TUNING.retry },
	paging: { ...DEFAULT_TUNING.paging },
	poll: { ...DEFAULT_TUNING.poll },
	retryClock: { ...DEFAULT_TUNING.retryClock },
});

/** This file's tuning: the harness runs the pack's nodes with it from now on (jest loads the harness once per file). */
export function fileTuning(): FileTuning {
	const tuning = defaultTuning();
	useTuning(tuning);
	return tuning;
}
