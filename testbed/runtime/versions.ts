/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The n8n versions the pack is tested on, pinned in one place: both ends of the
 * compatibility range the README states. `N8N_TEST_VERSION` picks one (default: the
 * newest, which CI runs); each names the Node major it needs (n8n's `engines`) and
 * the overrides that make it install from the registry mirror used here, which lacks
 * some of the exact versions n8n asks for (docs/development.md, "What `npm test` does on a fresh machine").
 *
 * - 1.123.81: the last 1.x on npm, what many self-hosted instances still run. Node 22
 *   (n8n 1.123: `>=20.19 <= 24.x`). Override: xlsx, which n8n
 *   1.x takes from cdn.sheetjs.com (a URL, unreachable here) -> 0.18.5, the last
 *   version on npm (only the Spreadsheet File node uses it).
 * - 2.41.1: the newest 2.x that installs here. Node 24 (n8n 2.41: `>=24.0.0`).
 *   Overrides: linkedom, @langchain/langgraph(-sdk), versions missing from the mirror.
 * - 2.41.3, the newest 2.x on npm, cannot be installed here: the mirror has n8n@2.41.3
 *   but not the internal packages released with it (n8n-core@2.41.2,
 *   n8n-editor-ui@2.41.1, @n8n/task-runner@2.41.2, @n8n/n8n-nodes-langchain@2.41.2,
 *   @n8n/backend-common@1.41.2, @n8n/config@2.39.1, @n8n/api-types@1.41.1 and 14 more
 *   @n8n/* patch releases). Overriding them all to 2.41.1's would test 2.41.1's engine
 *   under another label, so it is not in the table; with the full npm registry it
 *   should install as `{ n8n: '2.41.3', node: '24', overrides: {} }`.
 */
export interface N8nRuntimeSpec {
	n8n: string;
	node: string;
	overrides: Record<string, string>;
}

export const N8N_RUNTIMES: Record<string, N8nRuntimeSpec> = {
	'1.123.81': { n8n: '1.123.81', node: '22', overrides: { xlsx: '0.18.5' } },
	'2.41.1': {
		n8n: '2.41.1',
		node: '24',
		overrides: {
			linkedom: '0.18.14',
			'@langchain/langgraph': '1.4.18',
			'@langchain/langgraph-sdk': '1.12.4',
		},
	},
};

/** The newest version in the table: what `npm test` and CI run. */
export const DEFAULT_N8N_VERSION = '2.41.1';

/** The oldest version in the table (the other end of the range). */
export const OLDEST_N8N_VERSION = '1.123.81';

/**
 * The runtime this process uses: `N8N_TEST_VERSION` (a version of the table, or `oldest` /
 * `newest` for the two ends of the range), else the default.
 */
export function selectedRuntime(): N8nRuntimeSpec {
	const asked = process.env.N8N_TEST_VERSION || DEFAULT_N8N_VERSION;
	const wanted =
		asked === 'oldest' ? OLDEST_N8N_VERSION : asked === 'newest' ? DEFAULT_N8N_VERSION : asked;
	const spec = N8N_RUNTIMES[wanted];
	if (!spec)
		throw new Error(
			`N8N_TEST_VERSION=${asked} is not one of the pinned versions (${Object.keys(N8N_RUNTIMES).join(', ')}, or oldest / newest): add it to testbed/runtime/versions.ts`,
		);
	return spec;
}

/** Whether `version` is `least` or newer (numeric comparison of major.minor.patch). */
export function versionAtLeast(version: string, least: string): boolean {
	const parts = (v: string) => v.split('.').map(Number);
	const [a, b] = [parts(version), parts(least)];
	for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
	return true;
}

/** Whether the selected n8n is `version` or newer. */
export function n8nAtLeast(version: string, spec: N8nRuntimeSpec = selectedRuntime()): boolean {
	return versionAtLeast(spec.n8n, version);
}
