/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Runs before each test file: n8n-core writes an encryption key into its user folder
 * and logs node errors; keep both out of the developer's home and the test output.
 */
import { runScratch } from '../scripts/processes';

// In the run's scratch folder: removed when the run ends (scripts/processes.ts).
process.env.N8N_USER_FOLDER ??= runScratch('n8n-bp-test-');
process.env.N8N_LOG_LEVEL ??= 'silent';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
