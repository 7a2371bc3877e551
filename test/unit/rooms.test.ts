/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Two rooms hold only what their names say (docs/ARCHITECTURE.md, The rooms around the nodes):
 * `scripts/` holds the npm scripts' entry points, each file named by a script of package.json or by
 * .ci/run, and `test/` holds its layers (jest's projects), `helpers/` (what several test files use),
 * `jest/` (what jest runs around them) and `descriptions/` (the snapshot), nothing else. Each rule
 * with a synthetic case that fails it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');

/** The files of `scripts/` that no command names as `scripts/<file>`. */
export function notEntryPoints(files: string[], commands: string[]): string[] {
	return files.filter((f) => !commands.some((c) => c.includes(`scripts/${f}`)));
}

/** The folders of `test/` that are neither a layer nor one of the shared rooms. */
export function strayFolders(folders: string[], layers: string[]): string[] {
	const shared = ['helpers', 'jest', 'descriptions'];
	return folders.filter((f) => !layers.includes(f) && !shared.includes(f));
}

describe('scripts/ holds entry points only', () => {
	const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
	const commands = [...Object.values(pkg.scripts), read('.ci/run')];

	it('every file of scripts/ is named by a script of package.json or by .ci/run', () => {
		const files = readdirSync(join(ROOT, 'scripts'), { withFileTypes: true });
		expect(files.filter((e) => e.isDirectory()).map((e) => e.name)).toEqual([]);
		expect(
			notEntryPoints(
				files.map((e) => e.name),
				commands,
			),
		).toEqual([]);
	});

	it('the check names a file no command runs', () => {
		expect(
			notEntryPoints(['test.ts', 'n8n-env.ts'], ['tsx scripts/test.ts', 'tsx scripts/start.ts']),
		).toEqual(['n8n-env.ts']);
	});
});

describe('test/ holds its layers and three shared rooms', () => {
	const layers = [...read('jest.config.js').matchAll(/project\('([a-z0-9]+)'/g)].map((m) => m[1]);

	it('every folder of test/ is a layer of jest.config.js, helpers/, jest/ or descriptions/', () => {
		expect(layers).toEqual(expect.arrayContaining(['unit', 'integration', 'e2e', 'queue']));
		const folders = readdirSync(join(ROOT, 'test'), { withFileTypes: true });
		expect(folders.filter((e) => e.isFile()).map((e) => e.name)).toEqual([]);
		expect(
			strayFolders(
				folders.map((e) => e.name),
				layers,
			),
		).toEqual([]);
	});

	it('the check names a folder that is neither', () => {
		expect(strayFolders(['unit', 'helpers', 'harness', 'global'], ['unit'])).toEqual([
			'harness',
			'global',
		]);
	});
});
