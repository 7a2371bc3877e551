/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * One measurement in a fresh process (so memory figures are not polluted by other scenarios):
 * `tsx bench/measure.ts <scenario> <json args>` prints one JSON line (bench/scenarios.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function main() {
	process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-bench-'));
	process.env.N8N_LOG_LEVEL ??= 'silent';
	const { scenarios } = await import('./scenarios');
	const [name, json] = process.argv.slice(2);
	const fn = Object.prototype.hasOwnProperty.call(scenarios, name) ? scenarios[name] : undefined;
	if (!fn) throw new Error(`unknown scenario ${name}`);
	const result = await fn(JSON.parse(json) as never);
	process.stdout.write(`${JSON.stringify(result)}\n`);
	process.exit(0);
}

main().catch((e) => {
	process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
	process.exit(1);
});
