/**
 * For each event of the polling triggers: the node and its parameters, and how to make one
 * change of that event happen in the sandbox, over HTTP (the documented endpoints where there
 * is one; the sandbox's admin endpoints for what the platform does on its own: a payrun
 * processed or paid, an email template edited). Each change gives the ID its output item has.
 */
import type { IDataObject } from 'n8n-workflow';

import { call, type Sandbox } from './sandbox';

export interface PollDriver {
	/** "People → Payrun Created" */
	title: string;
	type: string;
	event: string;
	/** The node's parameters (Event and the event's fields); Options are added by the tests. */
	params: (sb: Sandbox) => IDataObject;
	/** What one change needs first (a payrun to process, a record to update); its ID. */
	prepare?: (sb: Sandbox) => Promise<string>;
	/** Makes one change (of what `prepare` gave); gives the output item's ID of that change. */
	change: (sb: Sandbox, subject: string) => Promise<string>;
	/** The ID of an output item. */
	idOf: (json: IDataObject) => string;
}

let serial = 0;

/** A request of the test as the demo user, with a token of its own (other tests may expire the demo token). */
async function ok(sb: Sandbox, method: string, path: string, body?: unknown): Promise<IDataObject> {
	const res = await call<IDataObject>(sb, method, path, {
		body,
		token: sb.platformToken(sb.issueTokens('demo')),
	});
	if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
	return res.body;
}

const admin = async (sb: Sandbox, method: string, path: string, body?: unknown) =>
	await ok(sb, method, path, body);

/** The first employee of tenant 1 (every paystub change pays this employee). */
const employee = (sb: Sandbox) =>
	sb.store
		.tenant(1)
		.peopleUsers.values()
		.find((u) => u.type === 'EMPLOYEE' && u.status === 'active')!.userId as string;

async function newPayrun(sb: Sandbox): Promise<string> {
	const p = await ok(sb, 'POST', '/v1/people-pay-run/payruns', {
		workPeriod: { from: '07/01/2024', to: '07/31/2024' },
		isForAllUsers: false,
		employees: [employee(sb)],
	});
	return p._id as string;
}
const step = async (sb: Sandbox, id: string, what: 'process' | 'pay') =>
	await admin(sb, 'POST', `/__admin/payruns/1/${id}/${what}`);
const postJe = async (sb: Sandbox, id: string) =>
	await ok(sb, 'POST', '/v1/people-pay-run/payruns/sync-je', {
		payrun: [{ payrunId: id, jeDate: '2024-08-01' }],
	});
const jeIdOf = (sb: Sandbox, id: string) => Number(sb.store.tenant(1).payruns.get(id)!.jeId);

/** The table every record change happens in: the CONTACT table of tenant 1. */
const contactsTable = (sb: Sandbox) =>
	sb.store
		.tenant(1)
		.tables.values()
		.find((t) => t.objectType === 'CONTACT')!;
const someCells = (sb: Sandbox) =>
	structuredClone(
		sb.store
			.tenant(1)
			.records.get(contactsTable(sb)._id as string)!
			.values()[0].cells,
	) as IDataObject;

async function newRecord(sb: Sandbox): Promise<string> {
	const res = await ok(sb, 'POST', `/v1/crm/core/table/${String(contactsTable(sb)._id)}/record`, {
		cells: someCells(sb),
	});
	return res.id as string;
}

const category = (sb: Sandbox) => sb.store.tenant(1).categories.values()[0].id as number;
async function newTemplate(sb: Sandbox): Promise<number> {
	serial++;
	await ok(sb, 'POST', '/v1/crm/campaign/email-templates', {
		name: `Polled template ${serial}`,
		category_id: category(sb),
		image: '',
		template_html: '<p>Hi</p>',
		template_json: encodeURIComponent('{}'),
	});
	return Math.max(
		...sb.store
			.tenant(1)
			.emailTemplates.values()
			.map((t) => t.id as number),
	);
}

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const tableParams = (sb: Sandbox) => ({ tableId: byId(String(contactsTable(sb)._id)) });
const id = (key: string) => (json: IDataObject) => String(json[key]);

const people = (
	title: string,
	event: string,
	driver: Omit<PollDriver, 'title' | 'type' | 'event' | 'params' | 'idOf'>,
): PollDriver => ({
	title: `People → ${title}`,
	type: 'businessPlatformPeopleTrigger',
	event,
	params: () => ({}),
	idOf: id('_id'),
	...driver,
});

export const POLL_DRIVERS: PollDriver[] = [
	people('Payrun Created', 'payrunCreated', { change: async (sb) => await newPayrun(sb) }),
	people('Payrun Updated', 'payrunUpdated', {
		prepare: newPayrun,
		change: async (sb, p) => (await postJe(sb, p), p),
	}),
	people('Payrun Processed', 'payrunProcessed', {
		prepare: newPayrun,
		change: async (sb, p) => (await step(sb, p, 'process'), p),
	}),
	people('Payrun Payment Done', 'payrunPaid', {
		prepare: async (sb) => {
			const p = await newPayrun(sb);
			await step(sb, p, 'process');
			return p;
		},
		change: async (sb, p) => (await step(sb, p, 'pay'), p),
	}),
	people('Journal Entry Posted', 'journalEntryPosted', {
		prepare: newPayrun,
		change: async (sb, p) => (await postJe(sb, p), p),
	}),
	people('Journal Entry Reverted', 'journalEntryReverted', {
		prepare: async (sb) => {
			const p = await newPayrun(sb);
			await postJe(sb, p);
			return p;
		},
		change: async (sb, p) => {
			await ok(sb, 'POST', '/v1/people-pay-run/payruns/revert-je', {
				revertPayrun: [{ payrunId: p, jeId: jeIdOf(sb, p), jeRevertDate: '2024-08-02' }],
			});
			return p;
		},
	}),
	{
		...people('Paystub Created', 'paystubCreated', {
			prepare: newPayrun,
			change: async (sb, p) => {
				await step(sb, p, 'process');
				return sb.store
					.tenant(1)
					.paystubs.values()
					.find((x) => x.payrunId === p)!._id as string;
			},
		}),
		params: (sb) => ({ employeeId: byId(employee(sb)) }),
	},
	{
		...people('User Created', 'userCreated', {
			change: async (sb) => {
				serial++;
				const res = await ok(sb, 'POST', '/v1/people/users', {
					firstName: 'Polled',
					lastName: `User ${serial}`,
					emailId: `polled.${serial}.${Date.now()}@example.com`,
				});
				return String((res.user as IDataObject | undefined)?.userId ?? res.userId);
			},
		}),
		idOf: id('userId'),
	},
	{
		title: 'Table → Record Created',
		type: 'businessPlatformTableTrigger',
		event: 'recordCreated',
		params: tableParams,
		change: async (sb) => await newRecord(sb),
		idOf: id('_id'),
	},
	{
		title: 'Table → Record Updated',
		type: 'businessPlatformTableTrigger',
		event: 'recordUpdated',
		params: tableParams,
		prepare: newRecord,
		change: async (sb, r) => {
			await ok(sb, 'PUT', `/v1/crm/core/table/${String(contactsTable(sb)._id)}/record/${r}`, {
				cells: someCells(sb),
			});
			return r;
		},
		idOf: id('_id'),
	},
	{
		title: 'Campaigns → Email Template Created',
		type: 'businessPlatformCampaignsTrigger',
		event: 'emailTemplateCreated',
		params: () => ({}),
		change: async (sb) => String(await newTemplate(sb)),
		idOf: id('id'),
	},
	{
		title: 'Campaigns → Email Template Updated',
		type: 'businessPlatformCampaignsTrigger',
		event: 'emailTemplateUpdated',
		params: () => ({}),
		prepare: async (sb) => String(await newTemplate(sb)),
		change: async (sb, t) => {
			await admin(sb, 'PATCH', `/__admin/state/1/emailTemplates/${t}`, { stamp: ['updated_at'] });
			return t;
		},
		idOf: id('id'),
	},
];

/** Moves the sandbox's time: frozen at one moment, or running (and moved on by `advanceMs`). */
export async function setClock(
	sb: Sandbox,
	change: { at?: string; freeze?: boolean; advanceMs?: number },
): Promise<void> {
	await admin(sb, 'POST', '/__admin/clock', change);
}

/**
 * Makes `n` changes of the driver's event and gives their IDs. What they need is made first;
 * then the clock moves on a second (so an update is never at its record's creation time) and,
 * with `sameTime`, stands still for all `n` changes.
 */
export async function makeChanges(
	sb: Sandbox,
	d: PollDriver,
	n: number,
	options: { sameTime?: boolean } = {},
): Promise<string[]> {
	const subjects: string[] = [];
	for (let i = 0; i < n; i++) subjects.push(d.prepare ? await d.prepare(sb) : '');
	await setClock(sb, { advanceMs: 1000, ...(options.sameTime ? { freeze: true } : {}) });
	const ids: string[] = [];
	try {
		for (const s of subjects) ids.push(await d.change(sb, s));
	} finally {
		if (options.sameTime) await setClock(sb, { freeze: false, advanceMs: 1000 });
	}
	return ids;
}
