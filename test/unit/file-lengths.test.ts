/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Files readable in one sitting: every source file outside test/ (the pack, the sandbox, the testbed, the
 * demo, the npm scripts, the benchmarks, the repository's own config) has at most 450 lines; nodes/ and
 * credentials/ keep their own, tighter limit (layout.test.ts). Generated data and documents (the runtime's
 * lock files, bench/results/, contract/openapi.yaml, docs) are not source files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const MAX_LINES = 450;
const SKIP = /(^|\/)(node_modules|dist|\.n8n-runtime|\.git|\.pack|coverage)(\/|$)/;

/** Every source file (.ts, .js, .mjs, .cjs) of the repository outside test/, with its number of lines. */
function sourceFilesOutsideTest(): Array<{ file: string; lines: number }> {
	return readdirSync(ROOT, { recursive: true, withFileTypes: true })
		.filter((e) => e.isFile() && /\.(ts|js|mjs|cjs)$/.test(e.name))
		.map((e) => relative(ROOT, join(e.parentPath, e.name)))
		.filter((f) => !SKIP.test(f) && !f.startsWith('test/'))
		.map((file) => ({ file, lines: lineCount(readFileSync(join(ROOT, file), 'utf8')) }));
}

/** The lines of a text as an editor numbers them: a final newline ends the last line, it starts none. */
export function lineCount(text: string): number {
	if (text === '') return 0;
	return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** The files over `max` lines, as "file (N lines)". */
export function tooLong(files: Array<{ file: string; lines: number }>, max = MAX_LINES): string[] {
	return files.filter((f) => f.lines > max).map((f) => `${f.file} (${f.lines} lines)`);
}

describe(`every source file outside test/ has at most ${MAX_LINES} lines`, () => {
	const files = sourceFilesOutsideTest();

	it('reads the source files of every room outside test/', () => {
		for (const room of ['nodes', 'credentials', 'sandbox', 'testbed', 'demo', 'scripts', 'bench'])
			expect(files.some((f) => f.file.startsWith(`${room}/`))).toBe(true);
		expect(files.some((f) => f.file === 'jest.config.js')).toBe(true);
	});

	it(`no one is over ${MAX_LINES} lines`, () => {
		expect(tooLong(files)).toEqual([]);
	});

	it('counts a file of 450 lines ending with a newline as 450', () => {
		expect(lineCount(`${'x\n'.repeat(450)}`)).toBe(450);
		expect(lineCount(`${'x\n'.repeat(449)}x`)).toBe(450);
		expect(lineCount('')).toBe(0);
	});

	it('the check names a file over the limit and passes one at it', () => {
		expect(
			tooLong([
				{ file: 'testbed/harness/n8n.ts', lines: 645 },
				{ file: 'testbed/queue/servers.ts', lines: 450 },
				{ file: 'sandbox/src/auth.ts', lines: 451 },
			]),
		).toEqual(['testbed/harness/n8n.ts (645 lines)', 'sandbox/src/auth.ts (451 lines)']);
	});
});
