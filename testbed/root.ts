/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/** The repository's folder, which every path of the testbed and the npm scripts starts from. */
import { resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..');
