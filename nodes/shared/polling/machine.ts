/**
 * The state machine of one poll of a polling trigger: which poll delivers what, and what it
 * commits. docs/polling-triggers.md, "Exactly once: the state machine", is this file as a table; each row
 * (P1 … P15) is named below where it happens, and a poll logs the rows it went through (n8n's
 * log, debug level). How the list is read: read.ts and backlog.ts; which changes are new:
 * cursor.ts.
 *
 * A poll's start is the trigger's owner (the event, the saved values of the fields its list
 * reads, the account) and the cursor of that owner it loaded from the node's static data, if
 * any. What it writes (its cursor and owner, to that static data) n8n saves, or with durable
 * cursors commits, with the execution of the items the poll returns.
 */
import type { IDataObject, INode, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { commitOwnCursor, pollBudgetMs } from '../n8n-internals';
import type { RunScope } from '../run-scope';
import { credentialAccount } from '../run-scope';
import { readCursor, startCursor, type Cursor } from './cursor';
import type { ParamReader, PollEvent, PollList } from './model';
import { budgetFrom, readChanges, readStart, testItem, type Found } from './read';

export interface PollOptions {
	/** First poll: deliver the items that already exist instead of starting from now. */
	emitExisting: boolean;
}

type Row = `P${number}`;

/** One poll's rows (the state table's), logged once at its end: no value of a record, no secret. */
class Path {
	readonly rows: Row[] = [];

	done = false;

	constructor(private readonly ctx: IPollFunctions) {}

	end<T>(row: Row, result: T, items = 0): T {
		this.rows.push(row);
		this.done = true;
		const line = `Poll of "${this.ctx.getNode().name}": ${this.rows.join(' → ')} (${items} items)`;
		this.ctx.logger?.debug?.(line);
		return result;
	}
}

// ── n8n-internals 6 and 10: the node's polls in this process ───────────────────
// Relies on (6): n8n runs the polls of an activation on the one Workflow object it built when it
// activated the workflow, so every poll of one activation gets the same static data object
// (n8n-core PollContext → Workflow.getStaticData), and a workflow published again gets a new one,
// loaded from what n8n saved; n8n's default scheduler starts a poll at every Poll Time without
// waiting for the one before (2.x poll-trigger-executor.ts, 1.x active-workflows.ts: no lock).
// Under the durable scheduler (2.41, opt-in) each poll loads the workflow and gets its own copy.
// Relies on (10): n8n loads a community package once per process, so this module's memory is
// shared by every poll the process runs (in queue mode every poll runs on main), and a poll's
// context names its workflow and node (getWorkflow().id, getNode().id). Under the durable
// scheduler two tasks of one node can run at once (its claim query has no lock per node: a task
// run again after a restart runs beside the next Poll Time's), and a delivery is committed after
// its poll returns, so a poll may load the cursor from before the last delivery.
// Buys: rows P2, P3 and P11: one writer per start, a later activation (or task) before an
// earlier one, no poll from a cursor a delivery may not have moved yet.
// When it does not hold: polls of one node in two processes (several mains under the durable
// scheduler) share no memory, and nothing here keeps them apart. A restart forgets all: the next
// poll loads what n8n saved or committed.

/** Nodes whose polls are followed at most (the least recently polled are forgotten first). */
export const MAX_FOLLOWED_NODES = 10_000;

/** A poll under way: its node, its start, its static data object, when it began (ms). */
export interface Turn {
	readonly key: string;
	readonly from: string;
	readonly data: object;
	readonly at: number;
	/** A poll of another activation (another static data object) began after it: P11. */
	superseded: boolean;
}

interface Followed {
	running: Set<Turn>;
	/** The last delivery: the start it was read from, and when it was handed to n8n. */
	delivered?: { from: string; at: number };
	/** When an activation of the node began registering its webhooks (the Trigger's heal waits: beginActivation). */
	activating?: number;
}

const followed = new Map<string, Followed>();

/** How many nodes are followed (for tests of the bound). */
export const followedNodes = (): number => followed.size;

/** How long a delivery's cursor may take to land (P3): twice the poll budget, a minute at least. */
export const pendingDeliveryMs = (budget: number) => Math.max(60_000, 2 * budget);

export function nodeKey(ctx: Pick<IPollFunctions, 'getNode' | 'getWorkflow'>): string {
	const workflow = typeof ctx.getWorkflow === 'function' ? ctx.getWorkflow()?.id : undefined;
	const node = ctx.getNode();
	return JSON.stringify([
		workflow ?? '',
		typeof node.id === 'string' && node.id ? node.id : node.name,
	]);
}

/** The poll's turn (P4, P5 follow), or the row that ends it before it reads (P2, P3). Exported for its property test. */
export function beginTurn(
	ctx: Pick<IPollFunctions, 'getNode' | 'getWorkflow'>,
	data: object,
	from: string,
	now: number,
	budget: number,
): Turn | Row {
	const key = nodeKey(ctx);
	const node = followed.get(key) ?? { running: new Set<Turn>() };
	for (const t of node.running)
		if (t.data === data && t.from === from && Math.abs(now - t.at) < budget) return 'P2';
	// Also after P15: a delivery n8n threw away holds the polls from its start as long, then they read again.
	const last = node.delivered;
	if (last?.from === from && Math.abs(now - last.at) < pendingDeliveryMs(budget)) return 'P3';
	delete node.delivered; // a poll from another start: the last delivery has landed (or expired)
	for (const t of node.running) if (t.data !== data) t.superseded = true;
	const turn: Turn = { key, from, data, at: now, superseded: false };
	node.running.add(turn);
	followed.delete(key);
	followed.set(key, node); // the most recently polled last
	for (const oldest of followed.keys()) {
		if (followed.size <= MAX_FOLLOWED_NODES) break;
		followed.delete(oldest);
	}
	return turn;
}

/** Ends the turn on every path; `delivered`: the poll returned changes (handed to n8n at `now`). */
export function endTurn(turn: Turn, delivered: boolean, now: number): void {
	const node = followed.get(turn.key);
	if (!node) return;
	node.running.delete(turn);
	if (delivered) node.delivered = { from: turn.from, at: now };
	if (node.running.size === 0 && !node.delivered && node.activating === undefined)
		followed.delete(turn.key);
}

// ── An activation and the Trigger's heal, one at a time ─────────────────────────
// A webhook trigger that also polls (n8n-internals 11) is activated (checkExists, create) while
// n8n runs its first poll: both would register a missing event, with two secrets. So in this
// process they take turns: an activation waits until the node's running polls end, and a poll
// that begins while an activation runs (for at most ACTIVATION_MS) does nothing.

/** How long an activation keeps the node's polls out at most (a create that never came). */
export const ACTIVATION_MS = 120_000;

/** Whether an activation of the node runs (the poll then does nothing). */
export function activationRuns(turn: Turn, now: number): boolean {
	const at = followed.get(turn.key)?.activating;
	return at !== undefined && Math.abs(now - at) < ACTIVATION_MS;
}

/**
 * An activation begins: later polls do nothing until it ends. Returns whether to wait for the
 * node's running polls: not when it continues an activation that already began (n8n's create
 * after a checkExists that said false), which waited once and keeps its start.
 */
export function beginActivation(key: string, now: number): boolean {
	const node = followed.get(key) ?? { running: new Set<Turn>() };
	const continuing =
		node.activating !== undefined && Math.abs(now - node.activating) < ACTIVATION_MS;
	if (!continuing) node.activating = now;
	followed.set(key, node);
	return !continuing && node.running.size > 0;
}

/** Whether polls of the node still run (an activation waits for them). */
export const pollsRun = (key: string): boolean => (followed.get(key)?.running.size ?? 0) > 0;

/** The activation ended (every path). */
export function endActivation(key: string): void {
	const node = followed.get(key);
	if (!node) return;
	delete node.activating;
	if (node.running.size === 0 && !node.delivered) followed.delete(key);
}

// ── The owner: which trigger a cursor belongs to ────────────────────────────────

/** A saved parameter value as the owner compares it: a picker's value without what the picker shows (its cached name, its mode). */
function savedValue(value: unknown): unknown {
	if (value === null || typeof value !== 'object') return value;
	if (Array.isArray(value)) return value.map(savedValue);
	const object = value as IDataObject;
	if (object.__rl === true) return { __rl: savedValue(object.value) };
	return Object.fromEntries(
		Object.keys(object)
			.sort()
			.map((k) => [k, savedValue(object[k])]),
	);
}

/**
 * The owner of a cursor: the event, the saved values of the parameters its list read (an
 * expression as written, not what it gives: `$now` in a filter gives another value at every poll)
 * and the account (credential, tenant, the address the list is read from).
 */
function ownerOf(node: INode, event: PollEvent, read: Iterable<string>, account: string): string {
	const saved = [...new Set(read)]
		.sort()
		.map((name) => [
			name,
			savedValue(
				Object.prototype.hasOwnProperty.call(node.parameters, name) ? node.parameters[name] : null,
			),
		]);
	return JSON.stringify(['v3', event.value, saved, account]);
}

/** The event's list, and the owner of its cursor: the event reads its fields through a reader that notes their names. */
async function listAndOwner(
	scope: RunScope<IPollFunctions>,
	event: PollEvent,
	param: ParamReader,
): Promise<{ list: PollList; owner: string }> {
	const read = new Set<string>(['event']);
	const recording = (name: string, fallback?: unknown) => {
		read.add(name);
		return param(name, fallback);
	};
	const list = event.list(Object.assign(recording, { dateTime: param.dateTime }));
	const account = await credentialAccount(scope, list.request.regional === true);
	return { list, owner: ownerOf(scope.node, event, read, account) };
}

// ── The machine ─────────────────────────────────────────────────────────────────

interface Stored {
	cursor?: unknown;
	/** The owner the cursor belongs to. */
	of?: unknown;
}

/** P4 … P10: what the poll finds from its cursor (none: a first poll), within the budget. */
async function find(
	scope: RunScope<IPollFunctions>,
	event: PollEvent,
	list: PollList,
	param: ParamReader,
	cursor: Cursor | undefined,
	options: PollOptions & { budget: number },
	path: Path,
): Promise<Found> {
	path.rows.push(cursor ? 'P5' : 'P4');
	if (!cursor && !options.emitExisting) {
		path.rows.push('P6');
		return { fresh: [], cursor: await readStart(scope, event, list, param), backlog: false };
	}
	if (!cursor) path.rows.push('P7');
	const from = cursor ?? startCursor([], -1);
	const found = await readChanges(
		scope,
		event,
		list,
		param,
		from,
		budgetFrom(options.budget, scope.tuning.poll.now),
	);
	path.rows.push(found.backlog ? 'P9' : 'P8');
	return found;
}

/** One poll (`poll` of the node): the items to start an execution with, or null. */
export async function pollOnce(
	scope: RunScope<IPollFunctions>,
	event: PollEvent,
	param: ParamReader,
	options: PollOptions,
): Promise<INodeExecutionData[][] | null> {
	const ctx = scope.ctx;
	const path = new Path(ctx);
	if (ctx.getMode() === 'manual')
		return path.end('P1', await testItem(scope, event, event.list(param), param), 1);
	const stored = ctx.getWorkflowStaticData('node') as Stored;
	const { list, owner } = await listAndOwner(scope, event, param);
	const loaded = JSON.stringify([stored.cursor, stored.of]);
	const cursor = stored.of === owner ? readCursor(stored.cursor) : undefined;
	const budget = pollBudgetMs(ctx);
	const turn = beginTurn(
		ctx,
		stored,
		JSON.stringify([owner, cursor ?? null]),
		scope.tuning.poll.now(),
		budget,
	);
	if (typeof turn === 'string') return path.end(turn, null);
	let delivered = false;
	try {
		const found = await find(scope, event, list, param, cursor, { ...options, budget }, path);
		// Another poll of this activation wrote the static data, or a later activation (or task) began.
		if (turn.superseded || JSON.stringify([stored.cursor, stored.of]) !== loaded)
			return path.end('P11', null);
		stored.cursor = found.cursor;
		stored.of = owner;
		if (found.fresh.length > 0) {
			delivered = true;
			return path.end('P12', [found.fresh.map((c) => ({ json: c.item }))], found.fresh.length);
		}
		if (JSON.stringify([stored.cursor, stored.of]) === loaded) return path.end('P14', null);
		// With durable cursors n8n commits nothing for the poll at publishing (n8n-internals, 7).
		await commitOwnCursor(ctx);
		return path.end('P13', null);
	} finally {
		// A request failed: the error goes to n8n, nothing is delivered or written.
		if (!path.done) path.end('P10', null);
		endTurn(turn, delivered, scope.tuning.poll.now());
	}
}
