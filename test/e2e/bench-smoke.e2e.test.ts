/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The bench's sections in a real n8n at tiny counts (BENCH_SMOKE=1, one round), through the same
 * runSections as `npm run bench`: a section that throws or gives no row fails here. The figures are
 * not looked at (tiny counts measure nothing) and nothing is written.
 * - inside n8n (bench/in-n8n.ts: the pack's Create against n8n's floor, a custom node the shared
 *   n8n loads (bench/floor-create.ts), and against n8n's HTTP Request node with n8n's generic OAuth2
 *   credential and with a static header, 1, 5 and 20 in parallel; 10 contacts per run) on the n8n
 *   the e2e files share;
 * - the Trigger (bench/trigger.ts: the pack's Trigger, n8n's floor for a credentialed trigger and
 *   its Webhook node; 20 events per leg) on an n8n of its own, which loads the floor trigger as a
 *   custom node.
 */
import { joinSharedN8n, type SharedE2e } from '../helpers/shared-n8n';

// Read when bench/common.ts and the section load (imported below, in the test).
process.env.BENCH_SMOKE = '1';
process.env.BENCH_ROUNDS = '1';

jest.setTimeout(900_000);

it('the section inside n8n runs on the shared n8n and gives its rows', async () => {
	const { runSections } = await import('../../bench/sections');
	const { inN8nSection } = await import('../../bench/in-n8n');
	let joined: SharedE2e | undefined;
	const lines: string[] = [];
	try {
		const run = await runSections(
			['n8n'],
			{
				n8n: () =>
					inN8nSection(1, async (credentials, workflows, activate) => {
						joined = await joinSharedN8n(credentials, workflows, activate);
						return joined;
					}),
			},
			(l) => lines.push(l),
		);
		expect(lines).toEqual([]);
		expect(run.failed).toEqual([]);
		expect(run.sections.flatMap((s) => s.rows.map((r) => r.id))).toEqual([
			'create-in-n8n-vs-n8n-floor',
			'create-in-n8n-vs-n8n-floor-c1',
			'create-in-n8n-vs-n8n-floor-c5',
			'create-in-n8n-vs-n8n-floor-c20',
		]);
		expect(run.sections.flatMap((s) => (s.info ?? []).map((i) => i.id))).toEqual([
			'create-in-n8n-vs-http-static',
			'create-in-n8n-vs-http-static-c1',
			'create-in-n8n-vs-http-static-c5',
			'create-in-n8n-vs-http-static-c20',
			'create-in-n8n-vs-http-oauth',
			'create-in-n8n-vs-http-oauth-c1',
			'create-in-n8n-vs-http-oauth-c5',
			'create-in-n8n-vs-http-oauth-c20',
		]);
	} finally {
		// inN8nSection stops what it joined; again in case it failed before.
		await joined?.stop();
	}
});

it('the Trigger section runs on an n8n of its own and gives its row', async () => {
	const { runSections } = await import('../../bench/sections');
	const lines: string[] = [];
	const run = await runSections(['trigger'], undefined, (l) => lines.push(l));
	expect(lines).toEqual([]);
	expect(run.failed).toEqual([]);
	const [trigger] = run.sections;
	expect(trigger.rows.map((r) => r.id)).toEqual(['trigger-vs-n8n-floor']);
	expect(trigger.info?.map((i) => i.id)).toEqual(['trigger-vs-webhook']);
}, 900_000);
