/**
 * One run scope per call of a node: an execution (execute), a picker (loadOptions,
 * listSearch, resourceMapping), a webhook call or an activation hook. It is created
 * at the start of the call, passed along (to the transport, the pickers and each
 * item's operation context) and dropped at its end, so nothing outlives the call and
 * nothing is shared between calls or workflows.
 *
 * It holds what the items of one call share: values read once (a table's columns, the
 * parameters without an expression) and the files (binary data) output items carry; and
 * the credential, read once per scope (credentialInfo: base URLs, token, secrets), with the
 * rule for its addresses (an https base URL). Which field of n8n's oauthTokenData is the platform
 * token, and the credential's secrets, are read by tokens.ts.
 */
import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	INode,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { storedTokens } from './tokens';
import { DEFAULT_TUNING, type Tuning } from './tuning';

/** The n8n functions a call gets (`this` of execute, a picker, a webhook, a hook or a poll). */
export type RequestContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| IPollFunctions;

export class RunScope<C extends RequestContext = RequestContext> {
	private readonly values = new Map<string, Promise<unknown>>();

	/** The files (binary data) of output items, by item (`withBinary`): the executor attaches them. */
	readonly files = new Map<IDataObject, IBinaryKeyData>();

	private readonly lines = new Map<string, Promise<void>>();

	/** How long one request may wait for its answer (the node's Request Options → Timeout); the transport's default when unset. */
	requestTimeoutMs?: number;

	/** Parameter values that hold no expression: the same for every item, so read once per call (see engine/params.ts). */
	readonly fixedParameters = new Map<string, unknown>();

	/** Saved values each item reads without n8n ("={{ $json.key }}" and collections of such; n8n-internals, 5). */
	readonly quickParameters = new Map<string, unknown>();

	/**
	 * Secrets the call holds beyond the credential's (a webhook registration's secret, which its URL
	 * carries): the transport scrubs them from every error as it scrubs the credential's.
	 */
	readonly secrets = new Set<string>();

	/** The node (its type version, its parameters as saved): n8n copies it on every getNode(), so it is read once per call. */
	readonly node: INode;

	/** The tunables and clocks of this call (nodes/shared/tuning.ts): n8n's defaults unless the node was built with others. */
	constructor(
		readonly ctx: C,
		readonly tuning: Tuning = DEFAULT_TUNING,
	) {
		this.node = ctx.getNode();
	}

	/**
	 * A value computed once in this call, whoever asks first (items run in parallel:
	 * they share the pending promise). A failure is not kept: the next caller tries again.
	 */
	async once<T>(key: string, compute: () => Promise<T>): Promise<T> {
		let pending = this.values.get(key) as Promise<T> | undefined;
		if (!pending) {
			pending = compute();
			this.values.set(key, pending);
			pending.catch(() => this.values.delete(key));
		}
		return await pending;
	}

	/**
	 * A place in the line of `key`: `turn` resolves when every earlier place of that key was
	 * released. Places are taken in the order of the calls (items take theirs in input order);
	 * `release` must be called on every path.
	 */
	queue(key: string): { turn: Promise<void>; release: () => void } {
		let release!: () => void;
		const done = new Promise<void>((resolve) => (release = resolve));
		const turn = this.lines.get(key) ?? Promise.resolve();
		this.lines.set(
			key,
			turn.then(async () => await done),
		);
		return { turn, release };
	}

	/** Marks an output item as carrying files (binary data); the executor attaches them to the item. */
	withBinary(json: IDataObject, binary: IBinaryKeyData): IDataObject {
		this.files.set(json, binary);
		return json;
	}
}

// ── The credential, read once per scope ───────────────────────────────────────────────────────

export const CREDENTIAL_TYPE = 'businessPlatformOAuth2Api';

export interface CredentialInfo {
	/** Which account the credential reaches, but for the address (its ID in n8n, its tenant): no secret. */
	account: string;
	/** The credential's secrets as the scope read them (tokens, client secret): scrubbed from any text an error passes on. */
	secrets: string[];
	baseUrl: string;
	regionalBaseUrl?: string;
	tokenKey?: string;
	/** The platform token as stored when the scope read it; undefined (not connected): every request through n8n's OAuth2 path. */
	token?: string;
	/** How many times the scope renewed the token (after a 401). */
	generation: number;
	/** The generation whose token the platform refused right after renewing it (a 401 with it fails at once). */
	refused?: number;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\]|::1)$/i;

/** Checks a base URL from the credential: https, or http only on loopback. Returns what is wrong, if anything. */
export function baseUrlProblem(raw: unknown, field: string): string | undefined {
	const text = normaliseBaseUrl(raw);
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return `The credential's ${field} "${text}" is not a URL: use the address of the API, like https://api.example.com`;
	}
	if (url.protocol === 'https:') return undefined;
	if (url.protocol === 'http:' && LOOPBACK.test(url.hostname)) return undefined;
	return `The credential's ${field} must start with https:// (plain http:// is only allowed for 127.0.0.1 or localhost, such as the local sandbox): "${text}"`;
}

export const normaliseBaseUrl = (raw: unknown) =>
	String(raw ?? '')
		.trim()
		.replace(/\/+$/, '');

/** The credential's base URLs and token field, read once per run scope (a failed read, e.g. a bad URL, is read again). */
export async function credentialInfo(scope: RunScope, itemIndex?: number): Promise<CredentialInfo> {
	return await scope.once('credential', async () => {
		const ctx = scope.ctx;
		const creds = await (ctx as IExecuteFunctions).getCredentials(CREDENTIAL_TYPE, itemIndex ?? 0);
		const regional = normaliseBaseUrl(creds.regionalBaseUrl);
		const problem =
			baseUrlProblem(creds.baseUrl, 'API Base URL') ??
			(regional ? baseUrlProblem(regional, 'Regional API Base URL') : undefined);
		if (problem)
			throw new NodeOperationError(scope.node, problem, {
				itemIndex,
				description: 'Open the Business Platform credential and fix the address.',
			});
		const tokens = storedTokens(creds);
		const baseUrl = normaliseBaseUrl(creds.baseUrl);
		const account = JSON.stringify([
			scope.node.credentials?.[CREDENTIAL_TYPE]?.id ?? null,
			tokens.tenant,
		]);
		return {
			account,
			secrets: tokens.secrets,
			baseUrl,
			regionalBaseUrl: regional || undefined,
			tokenKey: tokens.tokenKey,
			token: tokens.token,
			generation: 0,
		};
	});
}

/** A base URL as one address however it is written: lower-case scheme and host, no default port, no trailing "/". */
function address(base: string): string {
	try {
		const url = new URL(base);
		return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
	} catch {
		return base;
	}
}

/**
 * Which account a request of the scope's credential reaches (`regional`: as ApiRequest's): the
 * credential's ID in n8n, its tenant, and the address the request goes to (the regional base URL
 * where it is set and the request uses it, else the base URL), so two ways of writing one address
 * are one account. What a polling cursor belongs to. No secret.
 */
export async function credentialAccount(scope: RunScope, regional = false): Promise<string> {
	const info = await credentialInfo(scope);
	const base = regional && info.regionalBaseUrl ? info.regionalBaseUrl : info.baseUrl;
	return JSON.stringify([info.account, address(base)]);
}
