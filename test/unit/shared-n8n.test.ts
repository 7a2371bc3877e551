/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The shared e2e n8n (test/helpers/shared-n8n.ts) boots in the global setup while the files run, and
 * a file waits as long as a start may take (minutes on a loaded machine). A start that fails must
 * not leave every file waiting that long and then failing with "not ready": the files that join
 * learn at once that it did not start, and why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { joinSharedN8n, reportStartFailure, SHARED_N8N_ENV } from '../helpers/shared-n8n';

describe('the shared e2e n8n', () => {
	const folder = mkdtempSync(join(tmpdir(), 'bp-shared-n8n-'));
	const previous = process.env[SHARED_N8N_ENV];
	afterAll(() => {
		rmSync(folder, { recursive: true, force: true });
		if (previous === undefined) delete process.env[SHARED_N8N_ENV];
		else process.env[SHARED_N8N_ENV] = previous;
	});

	it('a failed start reaches the files that join at once, with its reason', async () => {
		// Port 9 on loopback: nothing listens there, as when n8n was stopped.
		process.env[SHARED_N8N_ENV] = JSON.stringify({ url: 'http://127.0.0.1:9', userFolder: folder });
		reportStartFailure(folder, new Error('n8n start did not become ready in 600 s: (its log)'));
		// Were it not reported, the join would wait for the start's ten minutes, past this test's limit.
		await expect(joinSharedN8n([], [])).rejects.toThrow(
			'the shared n8n did not start: n8n start did not become ready in 600 s: (its log)',
		);
	});
});
