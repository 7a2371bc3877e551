/**
 * The state machine of one poll of a polling trigger: which poll delivers what, and what it
 * commits. docs/polling-triggers.md, "Exactly once: the state machine", is this file as a table; each row
 * (P1 … P15) is named below where it happens, and a poll logs the rows it went through (n8n's
 * log, debug level). Whose turn it is (P2, P3, and who supersedes whom for P11): turns.ts; how
 * the list is read: read.ts and backlog.ts; which changes are new: cursor.ts.
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
	const list = event.list(Object.assign(recording, { dated: param.dated }));
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
	// P2, P3: another poll holds the turn (turns.ts beginTurn).
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
