/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-unused-vars, no-console -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * n8n's verification scanner (@n8n/scan-community-package, what n8n runs before it
 * lists a package as verified) on this repository and on the `npm pack` tarball, with
 * no registry: scripts/scan-package.mjs runs its two legs through its exported API
 * (`analyzePackage` with the patterns n8n uses; inline eslint-disable comments are not
 * honoured). Both must pass with no error and no warning.
 */
import { join } from 'node:path';

import { ROOT } from '../../testbed/root';
import { tarballPath } from '../../testbed/pack/tarball';
import { spawnGroup } from '../../testbed/processes';

jest.setTimeout(240_000);

interface Leg {
	leg: string;
	passed: boolean;
	files: number;
	errors: number;
	warnings: number;
	problems: string[];
}

let legs: Leg[];

beforeAll(async () => {
	// The scanner is an ES module that jest's CommonJS runtime cannot load: it runs in its own
	// Node, without jest's NODE_ENV=test (eslint-plugin-n8n-nodes-base reads file names
	// differently in its own test runs).
	const { NODE_ENV: _test, ...env } = process.env;
	const scan = spawnGroup(
		'n8n scanner',
		process.execPath,
		[join(ROOT, 'scripts', 'scan-package.mjs'), '--json', tarballPath()],
		{ cwd: ROOT, env },
	);
	// Its output read to the end (the result is its last line), not only its exit.
	await scan.ended;
	const line = scan
		.output()
		.split('\n')
		.find((l) => l.startsWith('{"tarball"'));
	if (!line) throw new Error(`the scanner printed no result:\n${scan.output().slice(-3000)}`);
	legs = (JSON.parse(line) as { legs: Leg[] }).legs;
	console.log(
		legs
			.map(
				(l) =>
					`n8n scanner, ${l.leg}: ${l.passed ? 'PASS' : 'FAIL'}, ${l.files} files, ${l.errors} errors, ${l.warnings} warnings${l.problems.map((p) => `\n  ${p}`).join('')}`,
			)
			.join('\n'),
	);
});

describe("n8n's verification scanner", () => {
	it.each(['source', 'tarball'])('%s: passes with 0 errors and 0 warnings', (name) => {
		const leg = legs.find((l) => l.leg === name)!;
		expect(leg.files).toBeGreaterThan(0);
		expect(leg.problems).toEqual([]);
		expect(leg).toMatchObject({ passed: true, errors: 0, warnings: 0 });
	});
});
