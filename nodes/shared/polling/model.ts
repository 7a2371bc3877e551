/**
 * A polling trigger's event, as data: which list it reads, how that list is sorted, and what
 * in an item of the list is the change (its time and its key). One file per event in
 * nodes/<Node>Trigger/events/; the node (node.ts) and the poll (machine.ts, read.ts) are shared.
 */
import type { IDataObject, INodeProperties, INodeType } from 'n8n-workflow';

import type { Dated } from '../field-values';
import type { PageStyle } from '../pagination';
import type { RunScope } from '../run-scope';
import type { ApiRequest } from '../transport';
import type { Change, Cursor } from './cursor';
import type { RecordMemory } from './memory';

/**
 * Reads a parameter of the node (the event's own fields), already without expressions; its
 * `dated` gives what a reader of a filter's value needs: the workflow's time zone (a date-time
 * without a zone is read in it) and the poll's error for a value it refuses.
 */
export type ParamReader = ((name: string, fallback?: unknown) => unknown) & {
	dated?: Dated;
};

export interface PollList {
	request: ApiRequest;
	style: PageStyle;
	/**
	 * True when the request asks for the newest change first (sorted by the event's time,
	 * descending): a poll then stops at the first item older than what it has seen. False when
	 * the list has no such order: every poll reads every page.
	 */
	newestFirst: boolean;
	/**
	 * Check that a list asked for newest first comes so (the spec does not show the sort values):
	 * a page out of order makes the poll read every page instead (read.ts).
	 */
	checkOrder?: boolean;
	/**
	 * What `request` still needs from the platform before the list can be asked for (the Table
	 * Trigger: its table's columns, to read its conditions as Record → Search does): the request
	 * complete. A poll calls it once, after it took its turn (machine.ts, read.ts readyList); a
	 * list with it pending is never read.
	 */
	prepare?: (scope: RunScope) => Promise<ApiRequest>;
}

export interface PollEvent {
	/** The Event dropdown's value: saved in workflows, never changed. */
	value: string;
	name: string;
	/** Shown under the event in the nodes panel and the Event dropdown. */
	description: string;
	/** What one output item is, for the Fetch Test Event message ("payrun", "paystub"). */
	noun: string;
	/** The event's own fields (filters): shown only for this event. */
	fields?: INodeProperties[];
	/** The list this event reads, from the node's parameters. */
	list: (param: ParamReader) => PollList;
	/** The time of the change an item stands for: the field the list is sorted by. */
	time: (item: IDataObject) => number | undefined;
	/** What tells two changes apart: the record ID, plus what changed when one record changes more than once. */
	key: (item: IDataObject) => string;
	/** Whether an item is this event's change at all (a state the event waits for, a client-side filter). */
	is?: (item: IDataObject, param: ParamReader) => boolean;
	/**
	 * Keep the keys of the last changes delivered (cursor.ts, MAX_RECENT), for an event whose time
	 * is not the time of the change itself (a payrun's updatedAt moves again after its posting).
	 */
	remember?: boolean;
	/**
	 * An event that remembers what each record holds (memory.ts) and makes its own items from the
	 * new changes, with what changed (the Sales Trigger's polling events): built per poll from the
	 * node's parameters, whose names belong to the cursor's owner as the list's do.
	 */
	records?: (param: ParamReader) => RecordsHook;
	/** The record ID of an item of the list (an event with `records`: the IDs of a whole reading). */
	recordId?: (item: IDataObject) => string | undefined;
}

/** The time a poll may still spend, as the poll measures it. */
export interface Budget {
	/** Milliseconds since the poll began. */
	elapsed(): number;
	/** The poll budget (n8n's getPollBudgetMs). */
	readonly limit: number;
	/** The longest a page took so far in this poll: what the next one may take. */
	slowest: number;
}

/** What the state machine asks of an event that remembers records (rows P16 and P17). */
export interface RecordsHook {
	/** The fields kept per record, in order: the memory belongs to them. */
	fields: string[];
	/** Whether a first poll reads every page once to remember what each record holds now. */
	seed: boolean;
	/** A first poll's memory, from the items it read (`complete`: every item of the list), within `limit` characters. */
	start: (items: IDataObject[], complete: boolean, limit: number) => RecordMemory | undefined;
	/**
	 * The items of a poll's new changes (oldest first), the memory moved past them. `listed`: the
	 * record IDs of a whole reading of the list, when the poll read it all (a remembered record
	 * missing there may be deleted: it may ask the platform, within the budget; `asked`: how many
	 * it asked for).
	 */
	deliver: (poll: {
		scope: RunScope;
		fresh: Array<Change<IDataObject>>;
		memory: RecordMemory | undefined;
		from: Cursor;
		listed?: ReadonlySet<string>;
		/** The records of that whole reading without a usable time: compared by content (deals). */
		timeless?: IDataObject[];
		budget: Budget;
	}) => Promise<{ items: IDataObject[]; asked: number }>;
}

/** The description of the node type that holds the events. */
export interface PollingNodeIdentity {
	displayName: string;
	name: string;
	description: string;
	/** The Event dropdown: first event is the default. */
	events: PollEvent[];
	/** Fields every event of the node uses (shown first, whatever the event). */
	fields?: INodeProperties[];
	/** The pickers the events' fields name. */
	methods?: INodeType['methods'];
}
