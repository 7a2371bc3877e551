/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The bench's package section (bench/package.ts: the package loaded as n8n loads it, on n8n's Node
 * and on this one, and the packed tarball's size) through the same runSections as `npm run bench`,
 * on the dist/ the package tests' global setup built: a section that throws or gives no row fails
 * here. Its figure is not looked at and nothing is written.
 */
// Read when bench/common.ts and the sections load (imported below, in the test).
process.env.BENCH_SMOKE = '1';
process.env.BENCH_ROUNDS = '1';

it('the package section runs and gives its row and figure', async () => {
	const { runSections } = await import('../../bench/sections');
	const lines: string[] = [];
	const run = await runSections(['package'], undefined, (l) => lines.push(l));
	expect(lines).toEqual([]);
	expect(run.failed).toEqual([]);
	const [pkg] = run.sections;
	expect(pkg.rows.map((r) => r.id)).toEqual(['package-load']);
	expect(pkg.info?.map((i) => i.id)).toEqual(['package-tarball']);
}, 120_000);
