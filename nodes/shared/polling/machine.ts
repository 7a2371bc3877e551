/**
 * The state machine of one poll of a polling trigger: which poll delivers what, and what it
 * commits. docs/polling-triggers.md, "Exactly once: the state machine", is this file as a table;
 * each row (P1 … P17; P15 is what n8n does after P12) is named below where it happens, and a poll
 * logs the rows it went through (n8n's log, debug level). Whose turn it is (P2, P3, and who
 * supersedes whom for P11): turns.ts; how the list is read: read.ts and backlog.ts; which changes
 * are new: cursor.ts; what an event remembers of its records (P16, P17): memory.ts.
 *
 * A poll's start is the trigger's owner (the event, the saved values of the fields its list
 * reads, the account) and the cursor of that owner it loaded from the node's static data, if
 * any. What it writes (its cursor and owner, to that static data) n8n saves, or with durable
 * cursors commits, with the execution of the items the poll returns.
 */
import type { IDataObject, INode, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { commitOwnCursor, pollBudgetMs } from '../n8n-internals';
import type { RunScope } from '../run-scope';
import { credentialInfo } from '../transport';
import { budgetFrom, type Budget } from './backlog';
import { readCursor, startCursor, type Cursor } from './cursor';
import { RecordMemory } from './memory';
import type { ParamReader, PollEvent, PollList, RecordsHook } from './model';
import { readChanges, readStartItems, readyList, testItem, type Found } from './read';
import { withUsableTimes } from './times';
import { beginTurn, endTurn } from './turns';

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
async function credentialAccount(scope: RunScope, regional = false): Promise<string> {
	const info = await credentialInfo(scope);
	const base = regional && info.regionalBaseUrl ? info.regionalBaseUrl : info.baseUrl;
	return JSON.stringify([info.account, address(base)]);
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

/**
 * The event's list (and, for an event that remembers records, its hook), and the owner of its
 * cursor: the event reads its fields through a reader that notes their names.
 */
async function listAndOwner(
	scope: RunScope<IPollFunctions>,
	event: PollEvent,
	param: ParamReader,
): Promise<{ list: PollList; owner: string; hook?: RecordsHook }> {
	const read = new Set<string>(['event']);
	const recording = Object.assign(
		(name: string, fallback?: unknown) => {
			read.add(name);
			return param(name, fallback);
		},
		{ dated: param.dated },
	);
	const list = event.list(recording);
	const hook = event.records?.(recording);
	const account = await credentialAccount(scope, list.request.regional === true);
	return { list, owner: ownerOf(scope.node, event, read, account), hook };
}

// ── The machine ─────────────────────────────────────────────────────────────────

interface Stored {
	cursor?: unknown;
	/** The owner the cursor belongs to. */
	of?: unknown;
	/** What an event that remembers records keeps of each (memory.ts), written with the cursor. */
	memory?: unknown;
}

/** What a poll found, and (an event that remembers records) its memory; `start`: a first poll from now (P6). */
type Finding = Found & { memory?: RecordMemory; start?: boolean };

const memoryRev = (stored: Stored) => (stored.memory as { rev?: unknown } | undefined)?.rev ?? null;

/** What decides whether another poll wrote the node's static data meanwhile (P11): the memory by its revision. */
const writtenState = (stored: Stored) =>
	JSON.stringify([stored.cursor, stored.of, memoryRev(stored)]);

/**
 * P4 … P10: what the poll finds from its cursor (none: a first poll), within the budget; for an
 * event that remembers records, with its memory (a first poll's from what it read: P6).
 */
async function find(
	scope: RunScope<IPollFunctions>,
	event: PollEvent,
	list: PollList,
	param: ParamReader,
	cursor: Cursor | undefined,
	poll: PollOptions & { budget: Budget; hook?: RecordsHook; stored: Stored },
	path: Path,
): Promise<Finding> {
	const { hook } = poll;
	path.rows.push(cursor ? 'P5' : 'P4');
	// What the request still needs (the Table Trigger: the table's columns), within the turn and the budget.
	list = await readyList(scope, list);
	if (!cursor && !poll.emitExisting) {
		path.rows.push('P6');
		const seed = hook?.seed ? poll.budget : undefined;
		const start = await readStartItems(scope, event, list, param, seed);
		const memory = hook?.start(start.items, start.complete, scope.tuning.poll.memoryChars);
		return { fresh: [], cursor: start.cursor, backlog: false, memory, start: true };
	}
	if (!cursor) path.rows.push('P7');
	const from = cursor ?? startCursor([], -1);
	const found = await readChanges(scope, event, list, param, from, poll.budget);
	path.rows.push(found.backlog ? 'P9' : 'P8');
	// A memory of this owner's fields, or (none kept: an earlier build, a lost value) one that says it knows nothing.
	const limit = scope.tuning.poll.memoryChars;
	const memory = hook
		? (RecordMemory.read(poll.stored.memory, hook.fields, limit) ?? hook.start([], !cursor, limit))
		: undefined;
	return { ...found, memory };
}

/**
 * P16, P17: the items of the new changes; an event that remembers records compares each with what
 * it remembers (and, after a whole reading, asks for the remembered records it did not list).
 */
async function itemsOf(
	scope: RunScope<IPollFunctions>,
	found: Finding,
	hook: RecordsHook | undefined,
	cursor: Cursor | undefined,
	budget: Budget,
	path: Path,
): Promise<IDataObject[]> {
	if (!hook) return found.fresh.map((c) => c.item);
	if (found.start) return [];
	path.rows.push('P16');
	const { items, asked } = await hook.deliver({
		scope,
		fresh: found.fresh,
		memory: found.memory,
		from: cursor ?? startCursor([], -1),
		listed: found.listed,
		timeless: found.timeless,
		budget,
	});
	if (asked > 0) path.rows.push('P17');
	// What the memory could not keep since the items last said so (past its bound, a partial first poll): on these items.
	const unsaid = items.length > 0 ? found.memory?.unsaid() : undefined;
	if (unsaid) for (const item of items) item.memoryNotice = unsaid;
	// Progress without an item is saved by n8n's default scheduler (in memory) and with durable
	// cursors (P13), not by its durable scheduler without them: say so where an operator looks.
	if (found.backlog && found.fresh.length > 0 && items.length === 0)
		scope.ctx.logger?.warn?.(
			`Poll of "${scope.ctx.getNode().name}": ${found.fresh.length} changes of a backlog read, none of them watched; under n8n's durable scheduler without durable cursors this progress is not kept (docs/polling-triggers.md)`,
		);
	return items;
}

/** The memory into the static data with the cursor; records it forgot past its bound are said in n8n's log. */
function writeMemory(scope: RunScope<IPollFunctions>, stored: Stored, memory: RecordMemory): void {
	const before = (stored.memory as { forgotten?: unknown } | undefined)?.forgotten;
	const forgot = memory.forgotten - (typeof before === 'number' ? before : 0);
	if (forgot > 0)
		scope.ctx.logger?.warn?.(
			`Poll of "${scope.ctx.getNode().name}": forgot ${forgot} records changed longest ago to keep what it remembers within its bound; their next change comes without previous, and a forgotten deal's deletion is not seen (docs/polling-triggers.md)`,
		);
	stored.memory = memory.toStored();
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
	// An event that remembers records: a time more than a day past n8n's clock is no change time (times.ts).
	if (event.records) event = withUsableTimes(event, scope.tuning.poll.now());
	const { list, owner, hook } = await listAndOwner(scope, event, param);
	const loaded = writtenState(stored);
	const cursor = stored.of === owner ? readCursor(stored.cursor) : undefined;
	const budget = pollBudgetMs(ctx);
	const turn = beginTurn(
		ctx,
		stored,
		// The start: the cursor, and the memory by its revision (a deal without a time moves the memory, not the cursor).
		JSON.stringify([owner, cursor ?? null, memoryRev(stored)]),
		scope.tuning.poll.now(),
		budget,
	);
	// P2, P3: another poll holds the turn (turns.ts beginTurn).
	if (typeof turn === 'string') return path.end(turn, null);
	let delivered = false;
	try {
		const timer = budgetFrom(budget, scope.tuning.poll.now);
		const poll = { ...options, budget: timer, hook, stored };
		const found = await find(scope, event, list, param, cursor, poll, path);
		const items = await itemsOf(scope, found, hook, cursor, timer, path);
		// Another poll of this activation wrote the static data, or a later activation (or task) began.
		if (turn.superseded || writtenState(stored) !== loaded) return path.end('P11', null);
		stored.cursor = found.cursor;
		stored.of = owner;
		if (found.memory && (found.memory.changed || !cursor)) writeMemory(scope, stored, found.memory);
		if (items.length > 0) {
			delivered = true;
			return path.end('P12', [items.map((json) => ({ json }))], items.length);
		}
		if (writtenState(stored) === loaded) return path.end('P14', null);
		// With durable cursors n8n commits nothing for the poll at publishing (n8n-internals, 7).
		await commitOwnCursor(ctx);
		return path.end('P13', null);
	} finally {
		// A request failed, or a page held no list (backlog.ts timedPage): the error goes to n8n, nothing is delivered or written.
		if (!path.done) path.end('P10', null);
		endTurn(turn, delivered, scope.tuning.poll.now());
	}
}
