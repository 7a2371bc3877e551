/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Creating 1,000 contacts inside a real n8n (the runtime the e2e tests use): the pack's node
 * against n8n's floor and against n8n's HTTP Request node, 1, 5 and 20 in parallel, in one n8n
 * and one run, rounds interleaving the variants.
 *
 * The row that judges the pack is **n8n's floor** (bench/floor-create.ts): a minimal node that
 * reads its credential once per execution and, per item, the same two expressions and one
 * `helpers.httpRequest`, at most as many at once as the pack. The pack must be at least as fast
 * at 1 in parallel and ahead at 5 and 20. Best of the rounds, as the harness's floor rows.
 *
 * The HTTP Request node is kept as information (median of the rounds' ratios: its speed moves
 * between runs more than the pack's, so a best round decides a ratio by itself), two ways:
 * - through n8n's OAuth2 path, with n8n's generic OAuth2 credential holding the same tokens as
 *   the pack's: the pack's own credential is `restrictToSupportedNodes` (users get the pack's
 *   Custom API Call instead), so n8n 2.x refuses it in the HTTP Request node. n8n signs OAuth2
 *   requests with `Authorization: Bearer <access_token>` only, never `x-access-token`, so the
 *   sandbox runs with its bench-only `--accept-bearer` switch, in OAuth mode v2, where
 *   access_token is the platform token: both nodes send the same token. The generic
 *   credential has no expression fields, so n8n reads it more cheaply than the pack's would be
 *   read: a baseline that favours the HTTP Request node;
 * - with n8n's Header Auth credential holding that token as a static `x-access-token` (the
 *   credential the floor node reads too).
 * Its Batching option gets the same items per batch and interval 0. In n8n 2.41 that does not
 * bound the requests in flight (HttpRequestV3: it pauses between batches only when the interval
 * is above 0, and never waits for answers), so each row also shows the sandbox's count of
 * requests at once and of TCP connections.
 */
import type { CredentialFile } from '../testbed/n8n/env';
import type { SandboxReady } from '../testbed/sandbox-process';
import { buildPack } from '../testbed/pack/build';
import { startSandboxProcess } from '../testbed/sandbox-process';
import { admin, say, sized, wireStats, type WireStats } from './common';
import { floorCreateFolder, floorCreateNode } from './floor-create';
import { fmt, row, worstOf, type BenchRow, type InfoRow, type Section } from './rows';

const N = sized(1000, 10);
const LEVELS = [1, 5, 20] as const;
/** The pack against n8n's floor: at least even at 1 in parallel, ahead (by more than a run's noise) at 5 and 20. */
export const FLOOR_TARGET: Record<(typeof LEVELS)[number], number> = { 1: 1.0, 5: 1.1, 20: 1.1 };

type Variant = 'pack' | 'floor' | 'httpOAuth' | 'httpStatic';
const VARIANTS: Variant[] = ['pack', 'floor', 'httpOAuth', 'httpStatic'];

interface Run {
	perSecond: number;
	ms: number;
	wire: WireStats;
}

const HTTP_CRED = { id: 'benchHeaderAuth01', name: 'Bench static token' };
const GENERIC_CRED = { id: 'benchGenericOA2', name: 'Bench generic OAuth2' };

/** The HTTP Request node (v4.2) posting one contact per item, and the credential it uses (also used by bench/profile.ts). */
export function httpNode(ready: SandboxReady, variant: Exclude<Variant, 'pack'>, batch: number) {
	const node = {
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: `${ready.baseUrl}/v1/crm/contacts`,
			authentication: 'genericCredentialType',
			genericAuthType: variant === 'httpStatic' ? 'httpHeaderAuth' : 'oAuth2Api',
			sendBody: true,
			// The same fields with the same two expressions as the pack's node (name, email): equal expression work per item.
			specifyBody: 'keypair',
			bodyParameters: {
				parameters: [
					{ name: 'name', value: '={{ $json.name }}' },
					{ name: 'type', value: 'person' },
					{ name: 'email', value: '={{ $json.email }}' },
				],
			},
			options: { batching: { batch: { batchSize: batch, batchInterval: 0 } } },
		},
	};
	return {
		node,
		credentials:
			variant === 'httpStatic' ? { httpHeaderAuth: HTTP_CRED } : { oAuth2Api: GENERIC_CRED },
	};
}

const path = (variant: Variant, c: number) => `bench-${variant.toLowerCase()}-${c}`;

async function buildWorkflows(ready: SandboxReady) {
	const { workflow, webhookStart, pack } = await import('../testbed/n8n/env');
	const split = {
		name: 'Items',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		parameters: { fieldToSplitOut: 'body.items', options: {} },
	};
	const start = (p: string) => ({
		...webhookStart(p),
		parameters: {
			httpMethod: 'POST',
			path: p,
			responseMode: 'lastNode',
			responseData: 'firstEntryJson',
			options: {},
		},
	});
	const wfs: Array<Record<string, unknown>> = [];
	const activate: Record<string, string> = {};
	const add = (variant: Variant, c: number) => {
		const id = `bench${variant}${c}`.padEnd(16, '0').slice(0, 16);
		if (variant === 'floor') {
			const wf = workflow(id, `Bench ${variant} ${c}`, [
				start(path(variant, c)),
				split,
				floorCreateNode(`${ready.baseUrl}/v1/crm/contacts`, c),
			]);
			// workflow() would attach the pack's credential: the floor node reads Header Auth (bench/floor-create.ts).
			for (const n of wf.nodes as Array<Record<string, unknown>>)
				if (n.name === 'Floor') n.credentials = { httpHeaderAuth: HTTP_CRED };
			wfs.push(wf);
		} else if (variant === 'pack') {
			wfs.push(
				workflow(id, `Bench ${variant} ${c}`, [
					start(path(variant, c)),
					split,
					pack('businessPlatformSales', 'Create', {
						resource: 'contact',
						operation: 'create',
						name: '={{ $json.name }}',
						type: 'person',
						additionalFields: { email: '={{ $json.email }}' },
						requestOptions: { concurrency: c },
					}),
				]),
			);
		} else {
			const { node, credentials } = httpNode(ready, variant, c);
			const wf = workflow(id, `Bench ${variant} ${c}`, [start(path(variant, c)), split, node]);
			// workflow() attaches only the pack's credential: the HTTP Request node gets its own here.
			for (const n of wf.nodes as Array<Record<string, unknown>>)
				if (n.name === node.name) n.credentials = credentials;
			wfs.push(wf);
		}
		activate[id] = path(variant, c);
	};
	for (const c of LEVELS) for (const v of VARIANTS) add(v, c);
	return { wfs, activate };
}

/** The pack's credential and the HTTP Request node's two (Header Auth, generic OAuth2), with the same tokens (also used by bench/profile.ts). */
export async function credentials(ready: SandboxReady, tokens: Record<string, unknown>) {
	const { credential } = await import('../testbed/n8n/env');
	const sb = {
		baseUrl: ready.baseUrl,
		authUrl: ready.authUrl,
		config: { clientId: ready.clientId, clientSecret: ready.clientSecret },
	} as never;
	return [
		credential(sb, tokens),
		{
			...HTTP_CRED,
			type: 'httpHeaderAuth',
			data: { name: 'x-access-token', value: String(tokens.access_token) },
		},
		{
			...GENERIC_CRED,
			type: 'oAuth2Api',
			data: {
				grantType: 'authorizationCode',
				authUrl: ready.authUrl,
				accessTokenUrl: `${ready.baseUrl}/oauth/token`,
				clientId: ready.clientId,
				clientSecret: ready.clientSecret,
				scope: 'read write',
				authQueryParameters: '',
				authentication: 'header',
				oauthTokenData: tokens,
			},
		},
	];
}

const LABEL: Record<Variant, string> = {
	pack: 'pack',
	floor:
		"n8n's floor: a minimal node, the same two expressions and helpers.httpRequest per item, Header Auth credential (same token) read once per execution",
	httpOAuth:
		"HTTP Request node, n8n's OAuth2 path (generic OAuth2 credential, same tokens, Bearer)",
	httpStatic: 'HTTP Request node, Header Auth x-access-token',
};

const median = (xs: number[]) => {
	const sorted = [...xs].sort((x, y) => x - y);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const wire = (r: Run) =>
	`${fmt(r.wire.connections)} connections, at most ${r.wire.maxOpenConnections} open, at most ${r.wire.maxRequestsAtOnce} being answered at once`;

/** Each variant's runs at each level (`<variant>/<level>`), one per round, in the order of the rounds. */
type Runs = Map<string, Run[]>;

/** The judged rows: the pack against n8n's floor, each variant's best round. */
function floorRows(runs: Runs): BenchRow[] {
	const best = (v: Variant, c: number) =>
		runs.get(`${v}/${c}`)!.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
	const perLevel = LEVELS.map((c) => {
		const [p, f] = [best('pack', c), best('floor', c)];
		return row({
			id: `create-in-n8n-vs-n8n-floor-c${c}`,
			scenario: `Create ${fmt(N)} contacts in n8n, ${c} in parallel`,
			pack: p.perSecond,
			baseline: f.perSecond,
			unit: '/s',
			better: 'higher',
			target: FLOOR_TARGET[c],
			baselineLabel: LABEL.floor,
			note: `pack: ${wire(p)}; floor: ${wire(f)}`,
		});
	});
	return [
		worstOf(
			'create-in-n8n-vs-n8n-floor',
			`Create ${fmt(N)} contacts in n8n vs n8n's floor for any node (1, 5, 20 in parallel)`,
			perLevel,
			`at least even at 1 in parallel, ahead at 5 and 20 (${LEVELS.map((c) => `c${c} ≥ ${fmt(FLOOR_TARGET[c], 2)}×`).join(', ')})`,
		),
		...perLevel,
	];
}

/** The HTTP Request node as information: each round's ratio (the variants of a round ran side by side), their median. */
function httpInfo(runs: Runs): InfoRow[] {
	const info: InfoRow[] = [];
	for (const [v, id, what] of [
		['httpStatic', 'create-in-n8n-vs-http-static', 'a static x-access-token'],
		['httpOAuth', 'create-in-n8n-vs-http-oauth', "n8n's OAuth2 path, same tokens"],
	] as const) {
		const levels = LEVELS.map((c) => {
			const [p, h] = [runs.get(`pack/${c}`)!, runs.get(`${v}/${c}`)!];
			const ratios = p.map((r, i) => r.perSecond / h[i].perSecond);
			const m = median(ratios);
			return {
				id: `${id}-c${c}`,
				scenario: `Create ${fmt(N)} contacts in n8n, ${c} in parallel, vs the HTTP Request node (${what}; batch ${c}, interval 0)`,
				value: Math.round(m * 1000) / 1000,
				unit: '×',
				text: `${fmt(m, 2)}×, the median of ${ratios.length} rounds (${ratios.map((x) => `${fmt(x, 2)}×`).join(', ')}): pack ${fmt(median(p.map((r) => r.perSecond)))}/s vs ${fmt(median(h.map((r) => r.perSecond)))}/s (${LABEL[v]}); HTTP Request node's last round: ${wire(h[h.length - 1])}`,
			};
		});
		info.push(
			{
				id,
				scenario: `Create ${fmt(N)} contacts in n8n vs the HTTP Request node with ${what} (1, 5, 20 in parallel; median of the rounds)`,
				value: Math.min(...levels.map((l) => l.value)),
				unit: '×',
				text: `${levels.map((l) => `${fmt(l.value, 2)}×`).join(' / ')} at 1 / 5 / 20 in parallel: it follows the HTTP Request node's speed in the run more than the pack's`,
			},
			...levels,
		);
	}
	return info;
}

/** Where the workflows run: by default an n8n of their own (startE2e); the e2e smoke test passes the shared n8n's. */
export type StartN8n = (
	credentials: Array<{ id: string; name: string; type: string; data: unknown }>,
	workflows: Array<Record<string, unknown>>,
	activate: Record<string, string>,
) => Promise<{
	call(path: string, body?: unknown): Promise<{ status: number; body?: { id?: unknown } }>;
	stop(): Promise<void>;
}>;

/** The create matrix in a real n8n; undefined when the runtime is not installed. */
export async function inN8nSection(rounds = 3, start?: StartN8n): Promise<Section | undefined> {
	const { runtimeReady } = await import('../testbed/runtime/install');
	if (!runtimeReady()) {
		say('n8n runtime not installed: the rows inside n8n are skipped (npm run n8n:install).');
		return undefined;
	}
	say("Inside n8n: create 1,000 contacts, pack vs n8n's floor and the HTTP Request node…");
	await buildPack(); // n8n loads the pack from dist/
	const { ready, stop } = await startSandboxProcess([
		'--mode',
		'v2',
		'--accept-bearer',
		'--rows',
		'10',
	]);
	try {
		const tokens = await admin<Record<string, unknown>>(ready.baseUrl, 'POST', '/tokens/issue', {});
		const { startE2e } = await import('../testbed/n8n/env');
		const { wfs, activate } = await buildWorkflows(ready);
		// n8n's CLI keeps the tokens given: the pack and n8n's OAuth2 path send the same one.
		// n8n loads the floor node as a custom node (bench/floor-create.ts).
		const own: StartN8n = async (c, w, a) =>
			await startE2e(
				c as CredentialFile[],
				w,
				a,
				{ N8N_CUSTOM_EXTENSIONS: floorCreateFolder() },
				{ via: 'cli' },
			);
		const e2e = await (start ?? own)(await credentials(ready, tokens), wfs, activate);
		try {
			const time = async (variant: Variant, c: number): Promise<Run> => {
				const p = path(variant, c);
				const items = Array.from({ length: N }, (_, i) => ({
					name: `N8n ${p} ${i}`,
					email: `${p}-${i}@bench.example`,
				}));
				await admin(ready.baseUrl, 'POST', '/stats/reset');
				const t = process.hrtime.bigint();
				const res = await e2e.call(p, { items });
				const ms = Number(process.hrtime.bigint() - t) / 1e6;
				if (res.status !== 200 || !res.body?.id)
					throw new Error(`${p} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
				return { perSecond: (N / ms) * 1000, ms, wire: await wireStats(ready.baseUrl) };
			};
			const plan: Array<[Variant, number]> = LEVELS.flatMap((c) =>
				VARIANTS.map((v) => [v, c] as [Variant, number]),
			);
			for (const [v, c] of plan)
				await e2e.call(path(v, c), { items: [{ name: 'Warm up', email: 'warm@bench.example' }] });
			// Rounds interleave the variants, so a disturbance of the machine hits all alike.
			const runs: Runs = new Map();
			for (let round = 1; round <= rounds; round++) {
				for (const [v, c] of plan) {
					say(`  round ${round}: ${LABEL[v]}, ${c} in parallel…`);
					const r = await time(v, c);
					runs.set(`${v}/${c}`, [...(runs.get(`${v}/${c}`) ?? []), r]);
				}
			}
			return {
				title: `Inside n8n (real n8n, sandbox in mode v2 with --accept-bearer; ${rounds} rounds: the floor rows their best, the HTTP Request node their median)`,
				rows: floorRows(runs),
				info: httpInfo(runs),
				raw: Object.fromEntries(runs),
			};
		} finally {
			await e2e.stop();
		}
	} finally {
		await stop();
	}
}
