// `npm run scan [-- <tarball>]`: n8n's verification scanner (@n8n/scan-community-package)
// on this repository, with no registry: its two ESLint legs through its exported API,
// exactly as `analyzePackageByName` runs them on a published package (inline
// eslint-disable comments are not honoured):
//   source:  analyzePackage(<repository>, SOURCE_FILE_PATTERNS)      (package.json, nodes/, credentials/)
//   tarball: analyzePackage(<unpacked tarball>, ['**/*.js', 'package.json'])
// The tarball is the argument, or the current one in .pack/ (npm test's setup makes it).
// Prints one line per leg with n8n's verdict and the counts; `--json` prints one JSON
// line instead. Exit code 1 when a leg fails or has warnings.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ESLint } from 'eslint';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const scannerPath = require.resolve('@n8n/scan-community-package/scanner/scanner.mjs');
// The scanner makes a temporary folder when loaded (for registry downloads, unused here):
// have its tmp library remove it at exit.
createRequire(scannerPath)('tmp').setGracefulCleanup();
const { analyzePackage, buildScanConfig, SOURCE_FILE_PATTERNS } = await import(scannerPath);
const glob = createRequire(scannerPath)('fast-glob');

const TARBALL_PATTERNS = ['**/*.js', 'package.json'];

/** n8n's verdict, plus the counts (the same files linted with the scanner's own config and options). */
async function leg(name, dir, patterns) {
	const verdict = await analyzePackage(dir, patterns);
	const files = glob.sync(patterns, {
		cwd: dir,
		absolute: true,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await buildScanConfig(),
	});
	const results = await eslint.lintFiles(files);
	const count = (key) => results.reduce((n, r) => n + r[key], 0);
	const problems = results.flatMap((r) =>
		r.messages.map(
			(m) =>
				`${r.filePath.slice(dir.length + 1)}:${m.line} ${m.severity === 2 ? 'error' : 'warning'} ${m.ruleId}: ${m.message}`,
		),
	);
	return {
		leg: name,
		passed: verdict.passed,
		message: verdict.message ?? null,
		files: files.length,
		errors: count('errorCount'),
		warnings: count('warningCount'),
		problems,
	};
}

function currentTarball() {
	const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
	return join(ROOT, '.pack', `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
}

const args = process.argv.slice(2);
const json = args.includes('--json');
const tarball = resolve(args.find((a) => !a.startsWith('--')) ?? currentTarball());
const unpacked = mkdtempSync(join(tmpdir(), 'bp-scan-'));
let legs;
try {
	execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
	legs = [
		await leg('source', ROOT, SOURCE_FILE_PATTERNS),
		await leg('tarball', unpacked, TARBALL_PATTERNS),
	];
} finally {
	rmSync(unpacked, { recursive: true, force: true });
}
if (json) {
	process.stdout.write(`${JSON.stringify({ tarball, legs })}\n`);
} else {
	for (const l of legs) {
		process.stdout.write(
			`n8n scanner, ${l.leg}: ${l.passed ? 'PASS' : 'FAIL'}, ${l.files} files, ${l.errors} errors, ${l.warnings} warnings${l.message ? ` (${l.message})` : ''}\n`,
		);
		for (const p of l.problems) process.stdout.write(`  ${p}\n`);
	}
}
process.exit(legs.every((l) => l.passed && l.warnings === 0) ? 0 : 1);
