/**
 * One run scope per call of a node: an execution (execute), a picker (loadOptions,
 * listSearch, resourceMapping), a webhook call or an activation hook. It is created
 * at the start of the call, passed along (to the transport, the pickers and each
 * item's operation context) and dropped at its end, so nothing outlives the call and
 * nothing is shared between calls or workflows.
 *
 * It holds what the items of one call share: values read once (the credential's
 * base URLs and token field, a table's columns) and the files (binary data) output
 * items carry.
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

export class RunScope<C extends RequestContext = RequestContext> {
	private readonly values = new Map<string, Promise<unknown>>();

	private readonly files = new Map<IDataObject, IBinaryKeyData>();

	private readonly lines = new Map<string, Promise<void>>();

	private nodeCopy?: INode;

	/** How long one request may wait for its answer (the node's Request Options → Timeout); the transport's default when unset. */
	requestTimeoutMs?: number;

	/** Parameter values that hold no expression: the same for every item, so read once per call (see engine/params.ts). */
	readonly fixedParameters = new Map<string, unknown>();

	/** Saved values each item reads without n8n ("={{ $json.key }}" and collections of such; n8n-internals, 5). */
	readonly quickParameters = new Map<string, unknown>();

	/** The tunables and clocks of this call (nodes/shared/tuning.ts): n8n's defaults unless the node was built with others. */
	constructor(
		readonly ctx: C,
		readonly tuning: Tuning = DEFAULT_TUNING,
	) {}

	/** The node (its type version, its parameters as saved): n8n copies it on every getNode(), so it is read once per call. */
	get node(): INode {
		this.nodeCopy ??= this.ctx.getNode();
		return this.nodeCopy;
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

	binaryOf(json: IDataObject): IBinaryKeyData | undefined {
		return this.files.get(json);
	}
}
