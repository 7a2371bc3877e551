/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Runs before each test file: n8n-core writes an encryption key into its user folder
 * and logs node errors; keep both out of the developer's home and the test output.
 */
import { Agent, fetch as undiciFetch, setGlobalDispatcher } from 'undici';

import { runScratch } from '../../testbed/processes';

// The tests' own HTTP (Node's fetch, undici's request) gives up a connection 10 ms after its last
// answer instead of keeping it for a next request. A server closes an idle one after its own time
// (n8n after 5 s, the sandbox after 30 s) and the client reuses it until a little before that; on a
// loaded machine a test's event loop can stall past that margin, and a request sent on a connection
// the server is closing fails ("other side closed" from n8n's /types in n8n.e2e, "read ECONNRESET"
// from the sandbox in polling-machine.property: each seen once). A new loopback connection costs
// far less than such a failure. The pack's own requests go through n8n's helpers, not this.
// A test file runs in a vm context of its own: the global `fetch` jest hands it is the outer realm's, which
// reads the outer realm's dispatcher and never this one, so the tests' `fetch` is undici's, which reads it
// (test/unit/test-http.test.ts).
setGlobalDispatcher(new Agent({ keepAliveTimeout: 10, keepAliveMaxTimeout: 10 }));
globalThis.fetch = undiciFetch as unknown as typeof fetch;

// In the run's scratch folder: removed when the run ends (testbed/processes.ts).
process.env.N8N_USER_FOLDER ??= runScratch('n8n-bp-test-');
process.env.N8N_LOG_LEVEL ??= 'silent';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
