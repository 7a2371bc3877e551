/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Waits for a state instead of reading it once: `check` runs until it passes (returns without
 * throwing) or `timeoutMs` has passed, then its last failure is thrown. For effects that finish
 * after the call that caused them returned (a webhook delivery, a request the sandbox still holds,
 * a process's output): on a busy machine they come later, never earlier, and a single read right
 * away would fail for no fault of the code. It looks every `everyMs`: a check that asks n8n for
 * executions with their data, or waits for a minute tick, looks less often; one that reads a
 * value in this process may look more often.
 */
export async function eventually<T>(
	check: () => Promise<T> | T,
	timeoutMs = 15_000,
	everyMs = 200,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		try {
			return await check();
		} catch (e) {
			if (Date.now() > deadline) throw e;
		}
		await new Promise((resolve) => setTimeout(resolve, everyMs));
	}
}
