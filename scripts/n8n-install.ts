/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/** `npm run n8n:install`: installs the pinned n8n runtime now (testbed/runtime/install.ts), as the tests do on first use. */
import { ensureRuntime } from '../testbed/runtime/install';

ensureRuntime().catch((e: unknown) => {
	process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
	process.exit(1);
});
