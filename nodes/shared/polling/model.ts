/**
 * A polling trigger's event, as data: which list it reads, how that list is sorted, and what
 * in an item of the list is the change (its time and its key). One file per event in
 * nodes/<Node>Trigger/events/; the node (node.ts) and the poll (machine.ts, read.ts) are shared.
 */
import type { IDataObject, INodeProperties, INodeType } from 'n8n-workflow';

import type { Dated } from '../field-values';
import type { PageStyle } from '../pagination';
import type { ApiRequest } from '../transport';

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
