/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * `npm run lint:headers [-- --check]`: the first-line exemption of the development code
 * from n8n's node rules. `n8n-node lint` (strict mode) lints every file of the repository
 * with n8n's template config (eslint.config.mjs), whose rules are for the published node
 * code; tests, sandbox, benchmarks and scripts are never published and are linted by
 * eslint.dev.config.mjs. Each of their files that n8n's config flags gets one first line
 * naming exactly the rules it breaks:
 *   /* eslint-disable <rules> -- development code, not published: linted by eslint.dev.config.mjs *\/
 * The rules are found by linting each file without its current line, so the line is
 * added, updated or removed as the file changes. Files in nodes/ and credentials/ are never
 * touched (n8n's scanner ignores such comments: fix the code). `--check` changes nothing
 * and exits 1 when a line is missing or stale.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { ESLint } from 'eslint';

import { ROOT } from '../testbed/root';

const DEV_DIRS = ['test', 'sandbox', 'bench', 'scripts', 'testbed', 'demo'];
const REASON = 'development code, not published: linted by eslint.dev.config.mjs';
const HEADER = /^\/\* eslint-disable ([^*]*?) -- development code, not published[^*]*\*\/\r?\n/;

export const headerLine = (rules: string[]): string =>
	`/* eslint-disable ${rules.join(', ')} -- ${REASON} */\n`;

/** The file's text without its exemption line. */
export const withoutHeader = (text: string): string => text.replace(HEADER, '');

/** The files of the development folders ESLint lints (not ignored). */
async function developmentFiles(eslint: ESLint): Promise<string[]> {
	const all = DEV_DIRS.flatMap((dir) =>
		readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
			.filter(
				(e) =>
					e.isFile() &&
					/\.(ts|js|mjs|cjs)$/.test(e.name) &&
					!join(e.parentPath, e.name).includes('/node_modules/'),
			)
			.map((e) => join(e.parentPath, e.name)),
	);
	const ignored = await Promise.all(all.map((f) => eslint.isPathIgnored(f)));
	return all.filter((_, i) => !ignored[i]).sort();
}

async function main(): Promise<void> {
	const check = process.argv.includes('--check');
	const eslint = new ESLint({ cwd: ROOT });
	const files = await developmentFiles(eslint);
	const changed: string[] = [];
	for (const file of files) {
		const text = readFileSync(file, 'utf8');
		const body = withoutHeader(text);
		const [result] = await eslint.lintText(body, { filePath: file });
		const fatal = result.messages.find((m) => m.fatal);
		if (fatal)
			throw new Error(`${relative(ROOT, file)}:${fatal.line}: ${fatal.message} (fix it first)`);
		const rules = [
			...new Set(result.messages.map((m) => m.ruleId).filter((r): r is string => !!r)),
		].sort();
		const wanted = (rules.length ? headerLine(rules) : '') + body;
		if (wanted === text) continue;
		changed.push(
			`${relative(ROOT, file)}: ${rules.length ? rules.join(', ') : 'no exemption needed'}`,
		);
		if (!check) writeFileSync(file, wanted);
	}
	for (const line of changed) process.stdout.write(`${check ? 'stale' : 'wrote'}: ${line}\n`);
	process.stdout.write(
		`${files.length} development files, ${changed.length} ${check ? 'to update (npm run lint:headers)' : 'updated'}\n`,
	);
	if (check && changed.length) process.exit(1);
}

if (require.main === module) {
	main().catch((e: unknown) => {
		process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
		process.exit(1);
	});
}
