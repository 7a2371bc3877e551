/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Creating 1,000 contacts inside a real n8n (the runtime the e2e tests use): the pack's
 * node against n8n's HTTP Request node, 1, 5 and 20 in parallel, in one n8n and one run.
 *
 * The HTTP Request node is measured two ways:
 * - through n8n's OAuth2 path, with n8n's generic OAuth2 credential holding the same tokens as
 *   the pack's: the pack's own credential is `restrictToSupportedNodes` (users get the pack's
 *   Custom API Call instead), so n8n 2.x refuses it in the HTTP Request node. n8n signs OAuth2
 *   requests with `Authorization: Bearer <access_token>` only, never `x-access-token`, so the
 *   sandbox runs with its bench-only `--accept-bearer` switch, in OAuth mode v2, where
 *   access_token is the platform token: both nodes send the same token. The generic
 *   credential has no expression fields, so n8n reads it more cheaply than the pack's would be
 *   read: a baseline that favours the HTTP Request node;
 * - with n8n's Header Auth credential holding that token as a static `x-access-token`.
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
import { fmt, row, worstOf, type BenchRow, type Section } from './rows';

const N = sized(1000, 10);
const LEVELS = [1, 5, 20] as const;

type Variant = 'pack' | 'httpOAuth' | 'httpStatic';

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
		if (variant === 'pack') {
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
	for (const c of LEVELS) for (const v of ['pack', 'httpOAuth', 'httpStatic'] as const) add(v, c);
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
	httpOAuth:
		"HTTP Request node, n8n's OAuth2 path (generic OAuth2 credential, same tokens, Bearer)",
	httpStatic: 'HTTP Request node, Header Auth x-access-token',
};

function rowsOf(results: Map<string, Run>): BenchRow[] {
	const get = (v: Variant, c: number) => results.get(`${v}/${c}`)!;
	const wire = (r: Run) =>
		`${fmt(r.wire.connections)} connections, at most ${r.wire.maxOpenConnections} open, at most ${r.wire.maxRequestsAtOnce} being answered at once`;
	const rows: BenchRow[] = [];
	const perLevel = (id: string, v: Variant, target: number, levels: readonly number[]) =>
		levels.map((c) => {
			const p = get('pack', c);
			const b = get(v, c);
			return row({
				id: `${id}-c${c}`,
				scenario: `Create ${fmt(N)} contacts in n8n, ${c} in parallel (HTTP Request node: batch ${c}, interval 0)`,
				pack: p.perSecond,
				baseline: b.perSecond,
				unit: '/s',
				better: 'higher',
				target,
				baselineLabel: LABEL[v],
				note: `pack: ${wire(p)}; HTTP Request node: ${wire(b)}`,
			});
		});
	// The goal: twice the HTTP Request node at every level, with either credential.
	const oauth = perLevel('create-in-n8n-vs-http-oauth', 'httpOAuth', 2.0, LEVELS);
	const stat = perLevel('create-in-n8n-vs-http-static', 'httpStatic', 2.0, LEVELS);
	const bearer =
		"same OAuth2 tokens through n8n's OAuth2 path: the pack's credential is restricted to the pack's nodes (n8n refuses it in the HTTP Request node), so the HTTP Request node uses n8n's generic OAuth2 credential (no expression fields: cheaper for n8n to read than the pack's); the sandbox runs in mode v2 with --accept-bearer (n8n sends an OAuth2 token only as Authorization: Bearer)";
	rows.push(
		worstOf(
			'create-in-n8n-vs-http-oauth',
			`Create ${fmt(N)} contacts in n8n vs the HTTP Request node with the pack's OAuth2 credential (1, 5, 20 in parallel)`,
			oauth,
			bearer,
		),
		worstOf(
			'create-in-n8n-vs-http-static',
			`Create ${fmt(N)} contacts in n8n vs the HTTP Request node with a static x-access-token (1, 5, 20 in parallel)`,
			stat,
			'Header Auth credential',
		),
		...oauth,
		...stat,
	);
	return rows;
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
export async function inN8nSection(rounds = 2, start?: StartN8n): Promise<Section | undefined> {
	const { runtimeReady } = await import('../testbed/runtime/install');
	if (!runtimeReady()) {
		say('n8n runtime not installed: the rows inside n8n are skipped (npm run n8n:install).');
		return undefined;
	}
	say('Inside n8n: create 1,000 contacts, pack vs HTTP Request node…');
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
		const own: StartN8n = async (c, w, a) =>
			await startE2e(c as CredentialFile[], w, a, {}, { via: 'cli' });
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
				(['pack', 'httpOAuth', 'httpStatic'] as Variant[]).map((v) => [v, c] as [Variant, number]),
			);
			for (const [v, c] of plan)
				await e2e.call(path(v, c), { items: [{ name: 'Warm up', email: 'warm@bench.example' }] });
			// Rounds interleave the variants, so a disturbance of the machine hits all alike; each keeps its best.
			const results = new Map<string, Run>();
			for (let round = 1; round <= rounds; round++) {
				for (const [v, c] of plan) {
					say(`  round ${round}: ${LABEL[v]}, ${c} in parallel…`);
					const r = await time(v, c);
					const best = results.get(`${v}/${c}`);
					if (!best || r.perSecond > best.perSecond) results.set(`${v}/${c}`, r);
				}
			}
			return {
				title: `Inside n8n (real n8n, sandbox in mode v2 with --accept-bearer; best of ${rounds})`,
				rows: rowsOf(results),
				raw: Object.fromEntries(results),
			};
		} finally {
			await e2e.stop();
		}
	} finally {
		await stop();
	}
}
