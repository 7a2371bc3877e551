/**
 * One run scope per call of a node: an execution (execute), a picker (loadOptions,
 * listSearch, resourceMapping), a webhook call or an activation hook. It is created
 * at the start of the call, passed along (to the transport, the pickers and each
 * item's operation context) and dropped at its end, so nothing outlives the call and
 * nothing is shared between calls or workflows.
 *
 * It holds what the items of one call share: values read once (a table's columns, the
 * parameters without an expression, the credential: `credential`, which transport.ts reads), lines
 * of places in call order, and the files (binary data) output items carry. And how a call works
 * through its items a few at a time (`mapConcurrent`: the executor's items, the webhook Trigger's
 * registrations, the harness's and the bench's helper nodes).
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

import { DEFAULT_TUNING, type Tuning } from './tuning';

/** The n8n functions a call gets (`this` of execute, a picker, a webhook, a hook or a poll). */
export type RequestContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| IPollFunctions;

/** The credential as a run scope holds it (transport.ts credentialInfo reads it). */
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

	/** The credential, read once per call by transport.ts credentialInfo (a failed read is dropped: the next request reads again). */
	credential?: Promise<CredentialInfo>;

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

// ── A list worked through a few items at a time ─────────────────────────────────────────────

/** How one call of the function ended: its value, or what it threw. */
export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * Calls `fn` for every item, at most `concurrency` at a time, each item started in order; the
 * results in the items' order. A call that throws is kept as its error, not thrown; with
 * `stopOnError` no item starts after one failed (those left are undefined).
 */
export async function mapConcurrent<T, R>(
	items: readonly T[],
	concurrency: number,
	fn: (item: T, index: number) => Promise<R>,
	stopOnError = false,
): Promise<Array<Settled<R> | undefined>> {
	const results: Array<Settled<R> | undefined> = new Array(items.length);
	let next = 0;
	let failed = false;
	const worker = async () => {
		while (next < items.length && !(stopOnError && failed)) {
			const i = next++;
			try {
				results[i] = { ok: true, value: await fn(items[i], i) };
			} catch (error) {
				results[i] = { ok: false, error };
				failed = true;
			}
		}
	};
	const n = Math.max(1, Math.min(Math.floor(concurrency) || 1, items.length));
	await Promise.all(Array.from({ length: n }, worker));
	return results;
}
