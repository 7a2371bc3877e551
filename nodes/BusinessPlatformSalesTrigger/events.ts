/**
 * The platform's 22 webhook event types (spec: Events → eventType enum), with the
 * names and descriptions the trigger shows, and the "all sales" / "all accounting"
 * shortcuts of the Events field.
 */
import type { IHookFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { compareLabels } from '../shared/field-values';
import { clip } from '../shared/text-readers';

export type EventModule = 'Sales' | 'Accounting';

export interface EventInfo {
	value: string;
	name: string;
	description: string;
	module: EventModule;
	/** What the nodes panel lists ("On deal created"). */
	action: string;
	/** CRM contact and deal events: the record the Fetch Full Record option can read. */
	record?: 'contacts' | 'deals';
}

const accounting = (value: string, name: string, description: string): EventInfo => ({
	value,
	name: `${name} (Accounting)`,
	action: `On ${name.toLowerCase()} (accounting)`,
	description,
	module: 'Accounting',
});
const sales = (
	value: string,
	name: string,
	description: string,
	record: 'contacts' | 'deals',
): EventInfo => ({
	value,
	name: `${name} (Sales)`,
	action: `On ${record === 'contacts' ? 'sales ' : ''}${name.toLowerCase()}`,
	description,
	module: 'Sales',
	record,
});

export const EVENTS: EventInfo[] = [
	accounting('CREATE_PRODUCTS', 'Product Created', 'A product is added in the accounting module'),
	accounting(
		'CREATE_CONTACT',
		'Contact Created',
		'A contact is added in the accounting module (sales contacts have their own events)',
	),
	accounting('CREATE_BILL', 'Bill Created', 'A bill is created in the accounting module'),
	accounting('UPDATE_BILL', 'Bill Updated', 'A bill is updated in the accounting module'),
	accounting('DELETE_BILL', 'Bill Deleted', 'A bill is deleted in the accounting module'),
	accounting('CREATE_INVOICE', 'Invoice Created', 'An invoice is created in the accounting module'),
	accounting('UPDATE_INVOICE', 'Invoice Updated', 'An invoice is updated in the accounting module'),
	accounting('DELETE_INVOICE', 'Invoice Deleted', 'An invoice is deleted in the accounting module'),
	accounting(
		'CREATE_DEBITNOTE',
		'Debit Note Created',
		'A debit note is created in the accounting module',
	),
	accounting(
		'UPDATE_DEBITNOTE',
		'Debit Note Updated',
		'A debit note is updated in the accounting module',
	),
	accounting(
		'DELETE_DEBITNOTE',
		'Debit Note Deleted',
		'A debit note is deleted in the accounting module',
	),
	accounting(
		'CREATE_CREDITNOTE',
		'Credit Note Created',
		'A credit note is created in the accounting module',
	),
	accounting(
		'UPDATE_CREDITNOTE',
		'Credit Note Updated',
		'A credit note is updated in the accounting module',
	),
	accounting(
		'DELETE_CREDITNOTE',
		'Credit Note Deleted',
		'A credit note is deleted in the accounting module',
	),
	accounting(
		'STOCK_IN',
		'Stock Increased',
		'The stock of a product increases in the accounting module',
	),
	accounting(
		'STOCK_OUT',
		'Stock Reduced',
		'The stock of a product is reduced in the accounting module',
	),
	sales(
		'CREATE_CRM_CONTACT',
		'Contact Created',
		'A contact is created in the sales module',
		'contacts',
	),
	sales(
		'UPDATE_CRM_CONTACT',
		'Contact Updated',
		'A contact is updated in the sales module',
		'contacts',
	),
	sales(
		'DELETE_CRM_CONTACT',
		'Contact Deleted',
		'A contact is deleted in the sales module',
		'contacts',
	),
	sales('CREATE_CRM_DEAL', 'Deal Created', 'A deal is created in the sales module', 'deals'),
	sales('UPDATE_CRM_DEAL', 'Deal Updated', 'A deal is updated in the sales module', 'deals'),
	sales('DELETE_CRM_DEAL', 'Deal Deleted', 'A deal is deleted in the sales module', 'deals'),
];

export const EVENT_BY_VALUE: ReadonlyMap<string, EventInfo> = new Map(
	EVENTS.map((e) => [e.value, e]),
);

export const ALL_SALES = 'ALL_SALES_EVENTS';
export const ALL_ACCOUNTING = 'ALL_ACCOUNTING_EVENTS';

/** The Events field's options: the two shortcuts, then every event, sorted by name. */
export function eventOptions(): INodePropertyOptions[] {
	const shortcuts: INodePropertyOptions[] = [
		{
			name: 'All Accounting Events',
			value: ALL_ACCOUNTING,
			action: 'On any accounting event',
			description:
				'Every accounting event: products, accounting contacts, bills, invoices, debit and credit notes, stock',
		},
		{
			name: 'All Sales Events',
			value: ALL_SALES,
			action: 'On any sales event',
			description: 'Every sales event: sales contacts and deals created, updated or deleted',
		},
	];
	const events = EVENTS.map((e) => ({
		name: e.name,
		value: e.value,
		action: e.action,
		description: e.description,
	})).sort((a, b) => compareLabels(a.name, b.name));
	return [...shortcuts, ...events];
}

/**
 * The event types a selection stands for, shortcuts expanded, in the catalogue's
 * order, without duplicates. Returns the unknown values separately.
 */
export function expandEvents(selection: unknown): { events: string[]; unknown: string[] } {
	const picked = new Set<string>();
	const unknown: string[] = [];
	for (const raw of Array.isArray(selection) ? selection : [selection]) {
		if (raw === undefined || raw === null || raw === '') continue;
		const value = String(raw).trim();
		if (value === ALL_SALES || value === ALL_ACCOUNTING) {
			const module: EventModule = value === ALL_SALES ? 'Sales' : 'Accounting';
			for (const e of EVENTS) if (e.module === module) picked.add(e.value);
		} else if (EVENT_BY_VALUE.has(value)) {
			picked.add(value);
		} else {
			unknown.push(value);
		}
	}
	return { events: EVENTS.map((e) => e.value).filter((v) => picked.has(v)), unknown };
}

/**
 * For a sales contact or deal event, what a restored registration's item adds: the Trigger's
 * polling events close such a gap exactly once (docs/trigger.md, "Instant or polling").
 */
export const pollingAlternative = (value: string): string =>
	EVENT_BY_VALUE.get(value)?.record
		? " Contacts and deals can be polled instead: Contact Changed and Deal Changed (Polling), in Events from the Trigger's version 4, need no public address and deliver each change exactly once, also what changed while n8n was stopped."
		: '';

/** "Deal Created (Sales)" for CREATE_CRM_DEAL; the raw value for anything else. */
export const eventLabel = (value: string) => EVENT_BY_VALUE.get(value)?.name ?? value;

/** The events chosen in Events, expanded; an unknown one, or none, fails naming what to choose. */
export function selectedEvents(
	ctx: Pick<IHookFunctions, 'getNode' | 'getNodeParameter'>,
): string[] {
	const { events, unknown } = expandEvents(ctx.getNodeParameter('events', []));
	if (unknown.length) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Unknown event type in "Events": ${unknown
				.slice(0, 5)
				.map((u) => clip(u, 60))
				.join(', ')}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''}`,
			{
				description:
					'Choose events from the list (for example "Deal Created (Sales)"); an expression must give the platform\'s event names, like CREATE_CRM_DEAL.',
			},
		);
	}
	if (!events.length)
		throw new NodeOperationError(ctx.getNode(), 'No event chosen in "Events"', {
			description: 'Choose at least one event for the trigger to listen to.',
		});
	return events;
}

/**
 * The canvas subtitle: the chosen events' names ("Deal Created (Sales), All Accounting Events"),
 * from a flat lookup table (parentheses keep n8n's expression from reading the object as a block).
 */
export function eventsSubtitle(): string {
	const names = Object.fromEntries(eventOptions().map((o) => [o.value, o.name]));
	return `={{ ([].concat($parameter["events"] || [])).map(e => (${JSON.stringify(names)})[e] ?? e).join(", ") }}`;
}
