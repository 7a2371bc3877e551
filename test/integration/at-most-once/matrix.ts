/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * At most one write per item, and no silent write (issue 23): every write operation of the three
 * nodes (44, from creates to journal entries) and a Custom API Call POST, each item with a record
 * of its own made first where the operation needs one, against every fault of the sandbox (5xx
 * before and after the platform carried the request out, 429, a connection dropped before and
 * after, latency, every token expired), at Parallel Requests 1, 5 and 20, with Continue On Fail
 * off and on. Four items a cell (one for Sync Beneficiaries, whose requests all look alike). In
 * every cell:
 *
 * - at most once: no item's record exists twice, no POST or PATCH of an item is carried out twice
 *   (a PUT or DELETE is sent again after an unknown outcome by design, with the same result);
 * - no silent write: each record that exists is in an output item, or named by ID in the
 *   node's error, or its item's error says the platform may have carried it out;
 * - nothing claimed is missing: each ID an output item names exists (is gone, for a delete).
 *
 * The cells run side by side on four lanes, each with a sandbox and a harness of its own
 * (test/helpers/lanes.ts): a cell's fault rules and expired tokens never reach another cell. The
 * transport's waits between attempts are virtual (test/helpers/retry-clock.ts); the latency fault is real.
 *
 * The writes are split in two test files that jest's two workers run at once
 * (test/integration/at-most-once-sales.test.ts: creates and writes to one record; -others: bulk, people,
 * payroll, tables, templates, stages, forms); this module is what they share.
 *
 * `npm run report:faults` writes the table of both to bench/results/faults-writes.md.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { runId } from '../../../testbed/processes';
import type { FaultRule } from '../../../sandbox/src/faults';
import type { LoggedRequest } from '../../../sandbox/src/server';
import { createHarness, type Harness, type NodeRun } from '../../../testbed/harness/run';
import { useLanes, type Lanes } from '../../helpers/lanes';
import { useVirtualRetryClock } from '../../helpers/retry-clock';
import { startTestSandbox, type Sandbox } from '../../helpers/sandbox';

/** Cells at once: each lane runs one cell at a time on its own sandbox. */
const LANES = 4;
/** The test file's lanes (set by `atMostOnce`). */
let lanes: Lanes<{ sb: Sandbox; h: Harness }> | undefined;
/** The running cell's sandbox and harness. */
const lane = () => {
	if (!lanes) throw new Error('atMostOnce() was not called');
	return lanes.current();
};
const sandbox = () => lane().sb;
const h = () => lane().h;
const tenant = () => sandbox().store.tenant(1);
let cell = 0;

interface Write {
	id: string;
	node: string;
	/** The route every item writes to (for the fault rules). */
	method: 'POST' | 'DELETE' | 'PATCH' | 'PUT';
	path: string;
	parameters: (marker: string) => IDataObject;
	/** Input of item i (its marker in `marker`). */
	input?: (marker: string) => Promise<IDataObject> | IDataObject;
	/** The records carrying a marker, as the sandbox holds them. */
	records: (marker: string) => Array<Record<string, unknown>>;
	/** A delete: the record must be gone. */
	deletes?: boolean;
	/** An update: which request the sandbox carried out belongs to an item (its path or body names the item's records). */
	mine?: (entry: LoggedRequest, item: IDataObject) => boolean;
	/** Items a cell (default 4): one for a write that names no record of its own, whose requests all look alike. */
	items?: number;
	/** Idempotent (PUT, DELETE): sent again after an unknown outcome by design, so repeats are not counted. */
	repeatable?: boolean;
}

/** A request the sandbox carried out: answered 2xx, or failed by a fault injected after processing. */
const carriedOut = (e: LoggedRequest) =>
	(e.status >= 200 && e.status < 300 && !e.fault) || /after processing/.test(e.fault ?? '');

/** A contact made for an item to update or delete. */
async function contactFor(marker: string): Promise<IDataObject> {
	const made = await h().run('businessPlatformSales', {
		resource: 'contact',
		operation: 'create',
		name: marker,
		type: 'person',
	});
	return { marker, id: made.json[0].id };
}

const named = (list: () => Array<Record<string, unknown>>) => (marker: string) =>
	list().filter((r) => r.name === marker && r.is_deleted !== true);

const byId = { __rl: true, mode: 'id', value: '={{ $json.id }}' };

/** An item's record made first, with the node's own Create: `{ marker, id }`. */
const madeBy =
	(node: string, resource: string, create: (marker: string) => IDataObject) =>
	async (marker: string): Promise<IDataObject> => {
		const made = await h().run(node, { resource, operation: 'create', ...create(marker) });
		expect(made.error).toBeUndefined();
		return { marker, id: recordId(made.json[0]) };
	};

/** A write to records made first (`input`), counted from the requests the sandbox carried out for each item (`mine`). */
const onMade = (
	w: Pick<Write, 'id' | 'node' | 'method' | 'path' | 'input' | 'mine'> & {
		resource: string;
		parameters: IDataObject | (() => IDataObject);
	},
): Write => ({
	id: w.id,
	node: w.node,
	method: w.method,
	path: w.path,
	parameters: () => ({
		resource: w.resource,
		...(typeof w.parameters === 'function' ? w.parameters() : w.parameters),
	}),
	input: w.input,
	records: () => [],
	mine: w.mine,
	repeatable: w.method === 'PUT' || w.method === 'DELETE',
});

/**
 * A write to one record per item: the record is made first (`create`), then the operation runs on it. PUT and DELETE
 * are idempotent (sent again after an unknown outcome, with the same result), so only a POST or PATCH counts twice.
 */
function onRecord(
	id: string,
	node: string,
	resource: string,
	method: Write['method'],
	base: string,
	parameters: IDataObject,
	create: (marker: string) => IDataObject,
): Write {
	const path = `/^${base.replace(/\//g, '\\/')}\\/\\d+$/`;
	return onMade({
		id,
		node,
		resource,
		method,
		path,
		parameters,
		input: madeBy(node, resource, create),
		mine: (e, item) => e.path === `${base}/${String(item.id)}`,
	});
}

const PIPELINE = (marker: string) => ({
	name: marker,
	stages: { stage: [{ name: 'First', dealProbability: 10, rottingDays: 0, helpText: '' }] },
});
const ACTIVITY = (marker: string) => ({
	name: marker,
	activityType: 'call',
	start: '2027-01-10T09:00:00Z',
	end: '2027-01-10T09:30:00Z',
});

/** Every number in a request body (bulk bodies carry IDs as `ids`, or as a bare array). */
const numbersIn = (body: string | undefined): number[] =>
	(body ?? '').match(/\d+/g)?.map(Number) ?? [];

/** A bulk write: two records made per item, their IDs in the item's `ids`; a request is the item's when its body carries them. */
function bulk(
	id: string,
	resource: string,
	method: Write['method'],
	path: string,
	parameters: IDataObject,
	create: (marker: string) => IDataObject,
): Write {
	const input = async (marker: string) => {
		const made = await Promise.all(
			[1, 2].map(
				async (n) => await madeBy('businessPlatformSales', resource, create)(`${marker} ${n}`),
			),
		);
		return { marker, ids: made.map((m) => String(m.id)).join(',') };
	};
	const mine = (e: LoggedRequest, item: IDataObject) =>
		String(item.ids)
			.split(',')
			.every((x) => numbersIn(e.body).includes(Number(x)));
	return onMade({
		id,
		node: 'businessPlatformSales',
		resource,
		method,
		path,
		parameters,
		input,
		mine,
	});
}

/** A People write whose body names the item's record (a user, a component group) made first. */
function people(
	id: string,
	resource: string,
	method: Write['method'],
	path: string,
	parameters: IDataObject,
	create: (marker: string) => IDataObject,
): Write {
	const mine = (e: LoggedRequest, item: IDataObject) => (e.body ?? '').includes(String(item.id));
	return onMade({
		id,
		node: 'businessPlatformPeople',
		resource,
		method,
		path,
		parameters,
		input: madeBy('businessPlatformPeople', resource, create),
		mine,
	});
}

const USER = (marker: string) => ({
	firstName: marker,
	lastName: 'Once',
	emailId: `${marker.replace(/ /g, '.')}.x@acme.example`,
});
const GROUP = (marker: string) => ({ name: marker });

const PEOPLE_WRITES: Write[] = [
	people(
		'people user update',
		'user',
		'PUT',
		'/^\\/v1\\/people\\/users$/',
		{ operation: 'update', userId: byId, firstName: 'Replaced', lastName: 'Once' },
		USER,
	),
	people(
		'people user update fields',
		'user',
		'PATCH',
		'/^\\/v1\\/people\\/users$/',
		{ operation: 'updateFields', userId: byId, identity: { department: 'Audit' } },
		USER,
	),
	people(
		'people user delete',
		'user',
		'POST',
		'/^\\/v1\\/people\\/users\\/delete\\/bulk$/',
		{ operation: 'delete', userIds: '={{ $json.id }}', forcedDelete: true },
		USER,
	),
	people(
		'people beneficiary status',
		'user',
		'PUT',
		'/^\\/v1\\/people\\/users\\/beneficiary-status$/',
		{
			operation: 'updateBeneficiaryStatus',
			beneficiaryStatus: 'REJECTED',
			beneficiaries: { user: [{ userId: '={{ $json.id }}', reason: 'Name mismatch' }] },
		},
		USER,
	),
	people(
		'component group update',
		'componentGroup',
		'PUT',
		'/^\\/v1\\/people\\/tenants\\/component-group$/',
		{
			operation: 'update',
			componentGroupId: '={{ $json.id }}',
			name: '={{ $json.marker + " renamed" }}',
			applyToAll: false,
		},
		GROUP,
	),
	people(
		'component group delete',
		'componentGroup',
		'POST',
		'/^\\/v1\\/people\\/tenants\\/component-group\\/delete$/',
		{ operation: 'delete', componentGroupIds: '={{ $json.id }}' },
		GROUP,
	),
];

const employees = () =>
	tenant()
		.peopleUsers.values()
		.filter((u) => u.type === 'EMPLOYEE')
		.slice(0, 2)
		.map((u) => u.userId as string);
const PAYRUN = (marker: string) => ({
	workPeriodFrom: '2024-07-01T00:00:00',
	workPeriodTo: '2024-07-31',
	isForAllUsers: false,
	employees: employees(),
	additionalFields: { payPeriod: 'monthly', payDate: '2024-07-31', payScheduleName: marker },
});
const postJournal = async (item: IDataObject) => {
	const posted = await h().run('businessPlatformPeople', {
		resource: 'payrun',
		operation: 'postJournalEntry',
		payrunId: { __rl: true, mode: 'id', value: String(item.id) },
		jeDate: '2024-08-02T00:00:00',
	});
	expect(posted.error).toBeUndefined();
	return item;
};
const contactsTable = () =>
	tenant()
		.tables.values()
		.find((t) => t.objectType === 'CONTACT' || t.object_type === 'CONTACT')!;
const tableRecords = () =>
	[...(tenant().records.get(String(contactsTable()._id))?.values() ?? [])] as Array<
		Record<string, unknown>
	>;
const withCell = (marker: string) =>
	tableRecords().filter((r) => Object.values((r.cells ?? {}) as IDataObject).includes(marker));
const tableLocator = () => ({ __rl: true, mode: 'id', value: String(contactsTable()._id) });

/** A write to one table record per item, the record made first (Record → Create, the Name column). */
function recordWrite(id: string, method: Write['method'], parameters: IDataObject): Write {
	const input = madeBy('businessPlatformSales', 'record', (marker) => ({
		tableId: tableLocator(),
		columns: { mappingMode: 'defineBelow', value: { Name: marker }, schema: [] },
	}));
	const path = '/^\\/v1\\/crm\\/core\\/table\\/[^/]+\\/record\\/[^/]+$/';
	return onMade({
		id,
		node: 'businessPlatformSales',
		resource: 'record',
		method,
		path,
		parameters: () => ({ tableId: tableLocator(), recordId: byId, ...parameters }),
		input,
		mine: (e, item) => e.path.endsWith(`/record/${String(item.id)}`),
	});
}

/** Writes whose fixtures are their own: payroll, table records, email templates, stages and forms. */
const OTHER_WRITES: Write[] = [
	{
		id: 'payrun create',
		node: 'businessPlatformPeople',
		method: 'POST',
		path: '/^\\/v1\\/people-pay-run\\/payruns$/',
		parameters: () => ({
			resource: 'payrun',
			operation: 'create',
			...PAYRUN('={{ $json.marker }}'),
		}),
		records: (marker) =>
			tenant()
				.payruns.values()
				.filter((p) => (p.paySchedule as IDataObject | undefined)?.name === marker),
	},
	{
		...people(
			'payrun delete',
			'payrun',
			'DELETE',
			'/^\\/v1\\/people-pay-run\\/payruns$/',
			{ operation: 'delete', payrunIds: '={{ $json.id }}' },
			PAYRUN,
		),
	},
	{
		...people(
			'payrun post journal entry',
			'payrun',
			'POST',
			'/^\\/v1\\/people-pay-run\\/payruns\\/sync-je$/',
			{ operation: 'postJournalEntry', payrunId: byId, jeDate: '2024-08-02T00:00:00' },
			PAYRUN,
		),
	},
	(() => {
		const w = people(
			'payrun revert journal entry',
			'payrun',
			'POST',
			'/^\\/v1\\/people-pay-run\\/payruns\\/revert-je$/',
			{ operation: 'revertJournalEntry', payrunId: byId, jeRevertDate: '2025-01-10' },
			PAYRUN,
		);
		const made = w.input!;
		return {
			...w,
			input: async (marker: string) => await postJournal((await made(marker)) as IDataObject),
		};
	})(),
	{
		id: 'email template create',
		node: 'businessPlatformCampaigns',
		method: 'POST',
		path: '/^\\/v1\\/crm\\/campaign\\/email-templates$/',
		parameters: () => ({
			resource: 'emailTemplate',
			operation: 'create',
			name: '={{ $json.marker }}',
			categoryId: tenant().categories.values()[0].id as number,
			templateJson: '{}',
			htmlSource: 'text',
			templateHtml: '<p>Once</p>',
		}),
		records: named(() => tenant().emailTemplates.values()),
	},
	{
		id: 'record create',
		node: 'businessPlatformSales',
		method: 'POST',
		path: '/^\\/v1\\/crm\\/core\\/table\\/[^/]+\\/record$/',
		parameters: () => ({
			resource: 'record',
			operation: 'create',
			tableId: tableLocator(),
			columns: { mappingMode: 'defineBelow', value: { Name: '={{ $json.marker }}' }, schema: [] },
		}),
		records: withCell,
	},
	recordWrite('record update', 'PUT', {
		operation: 'update',
		columns: {
			mappingMode: 'defineBelow',
			value: { Name: '={{ $json.marker + " updated" }}' },
			schema: [],
		},
	}),
	recordWrite('record delete', 'DELETE', { operation: 'delete' }),
	{
		id: 'stage delete',
		node: 'businessPlatformSales',
		method: 'DELETE',
		path: '/^\\/v1\\/crm\\/deals\\/pipelines\\/stages\\/\\d+$/',
		parameters: () => ({ resource: 'stage', operation: 'delete', stageId: '={{ $json.id }}' }),
		input: async (marker) => {
			const made = await h().run('businessPlatformSales', {
				resource: 'pipeline',
				operation: 'create',
				...PIPELINE(marker),
			});
			expect(made.error).toBeUndefined();
			const stages = tenant().pipelines.get(made.json[0].id as number)!.stages as IDataObject[];
			return { marker, id: stages[0].id };
		},
		records: () => [],
		mine: (e, item) => e.path === `/v1/crm/deals/pipelines/stages/${String(item.id)}`,
		repeatable: true,
	},
	{
		id: 'sync beneficiaries',
		node: 'businessPlatformPeople',
		method: 'POST',
		path: '/^\\/v1\\/people\\/users\\/sync-beneficiaries$/',
		parameters: () => ({ resource: 'user', operation: 'syncBeneficiaries' }),
		records: () => [],
		mine: () => true,
		items: 1,
	},
	{
		id: 'form delete',
		node: 'businessPlatformCampaigns',
		method: 'DELETE',
		path: '/^\\/v1\\/crm\\/campaign\\/assets\\/forms\\/\\d+$/',
		parameters: () => ({ resource: 'form', operation: 'delete', formId: byId }),
		// The API makes no forms: each item's form is a copy of a seeded one, put in the sandbox's store.
		input: (marker) => {
			const forms = tenant().forms;
			const id = Math.max(...forms.values().map((f) => f.id as number)) + 1;
			forms.set(id, { ...forms.values()[0], id, name: marker });
			return { marker, id };
		},
		records: () => [],
		mine: (e, item) => e.path === `/v1/crm/campaign/assets/forms/${String(item.id)}`,
		repeatable: true,
	},
];

const BULK_WRITES: Write[] = [
	bulk(
		'deal bulk update',
		'deal',
		'PATCH',
		'/^\\/v1\\/crm\\/deals$/',
		{ operation: 'bulkUpdate', dealIds: '={{ $json.ids }}', updateFields: { status: 1 } },
		(marker) => ({ name: marker }),
	),
	bulk(
		'deal bulk delete',
		'deal',
		'DELETE',
		'/^\\/v1\\/crm\\/deals$/',
		{ operation: 'bulkDelete', dealIds: '={{ $json.ids }}' },
		(marker) => ({ name: marker }),
	),
	bulk(
		'contact bulk update',
		'contact',
		'PATCH',
		'/^\\/v1\\/crm\\/contacts$/',
		{
			operation: 'bulkUpdate',
			contactIds: '={{ $json.ids }}',
			updateFields: { visibilityType: 'team' },
		},
		(marker) => ({ name: marker, type: 'person' }),
	),
	bulk(
		'activity bulk update',
		'activity',
		'PATCH',
		'/^\\/v1\\/crm\\/activities\\/bulkUpdate$/',
		{
			operation: 'bulkUpdate',
			activityIds: '={{ $json.ids }}',
			updateFields: { visibilityType: 'private' },
		},
		(marker) => ACTIVITY(marker),
	),
	bulk(
		'activity bulk delete',
		'activity',
		'POST',
		'/^\\/v1\\/crm\\/activities\\/bulkDelete$/',
		{ operation: 'bulkDelete', activityIds: '={{ $json.ids }}' },
		(marker) => ACTIVITY(marker),
	),
];

const RECORD_WRITES: Write[] = [
	onRecord(
		'deal update',
		'businessPlatformSales',
		'deal',
		'PUT',
		'/v1/crm/deals',
		{ operation: 'update', dealId: byId, updateFields: { name: 'After' } },
		(marker) => ({ name: marker }),
	),
	onRecord(
		'pipeline delete',
		'businessPlatformSales',
		'pipeline',
		'DELETE',
		'/v1/crm/deals/pipelines',
		{ operation: 'delete', pipelineId: '={{ $json.id }}' },
		PIPELINE,
	),
	onRecord(
		'activity update',
		'businessPlatformSales',
		'activity',
		'PUT',
		'/v1/crm/activities',
		{ operation: 'update', activityId: byId, updateFields: { name: 'After' } },
		ACTIVITY,
	),
	onRecord(
		'activity delete',
		'businessPlatformSales',
		'activity',
		'DELETE',
		'/v1/crm/activities',
		{ operation: 'delete', activityId: byId },
		ACTIVITY,
	),
	onRecord(
		'contact replace',
		'businessPlatformSales',
		'contact',
		'PUT',
		'/v1/crm/contacts',
		{ operation: 'replace', contactId: byId, name: 'Replaced', type: 'person' },
		(marker) => ({ name: marker, type: 'person' }),
	),
	onRecord(
		'contact label update',
		'businessPlatformSales',
		'contactLabel',
		'PUT',
		'/v1/crm/contacts/labels',
		{ operation: 'update', labelId: '={{ $json.id }}', updateFields: { color: '#000000' } },
		(marker) => ({ name: marker, color: '#ff8800' }),
	),
	onRecord(
		'contact label delete',
		'businessPlatformSales',
		'contactLabel',
		'DELETE',
		'/v1/crm/contacts/labels',
		{ operation: 'delete', labelId: '={{ $json.id }}' },
		(marker) => ({ name: marker, color: '#ff8800' }),
	),
	onRecord(
		'deal delete',
		'businessPlatformSales',
		'deal',
		'DELETE',
		'/v1/crm/deals',
		{ operation: 'delete', dealId: byId },
		(marker) => ({ name: marker }),
	),
	onRecord(
		'pipeline update',
		'businessPlatformSales',
		'pipeline',
		'PUT',
		'/v1/crm/deals/pipelines',
		{ operation: 'update', pipelineId: '={{ $json.id }}', updateFields: { name: 'Renamed' } },
		PIPELINE,
	),
	onRecord(
		'category update',
		'businessPlatformCampaigns',
		'category',
		'PATCH',
		'/v1/crm/campaign/category',
		{ operation: 'update', categoryId: byId, updateFields: { name: 'Renamed category' } },
		(marker) => ({ name: marker }),
	),
	onRecord(
		'category delete',
		'businessPlatformCampaigns',
		'category',
		'DELETE',
		'/v1/crm/campaign/category',
		{ operation: 'delete', categoryId: byId },
		(marker) => ({ name: marker }),
	),
];

const WRITES: Write[] = [
	{
		id: 'contact create',
		node: 'businessPlatformSales',
		method: 'POST',
		path: '/^\\/v1\\/crm\\/contacts$/',
		parameters: () => ({
			resource: 'contact',
			operation: 'create',
			name: '={{ $json.marker }}',
			type: 'person',
		}),
		records: named(() => tenant().contacts.values()),
	},
	{
		id: 'contact create or update',
		node: 'businessPlatformSales',
		method: 'POST',
		path: '/^\\/v1\\/crm\\/contacts$/',
		parameters: () => ({
			resource: 'contact',
			operation: 'upsert',
			email: '={{ $json.marker.replace(/ /g, "-") + "@example.com" }}',
			name: '={{ $json.marker }}',
			type: 'person',
		}),
		records: named(() => tenant().contacts.values()),
	},
	{
		id: 'deal create',
		node: 'businessPlatformSales',
		method: 'POST',
		path: '/^\\/v1\\/crm\\/deals$/',
		parameters: () => ({ resource: 'deal', operation: 'create', name: '={{ $json.marker }}' }),
		records: named(() => tenant().deals.values()),
	},
	{
		id: 'activity create',
		node: 'businessPlatformSales',
		method: 'POST',
		path: '/^\\/v1\\/crm\\/activities$/',
		parameters: () => ({
			resource: 'activity',
			operation: 'create',
			name: '={{ $json.marker }}',
			activityType: 'call',
			start: '2027-01-10T09:00:00Z',
			end: '2027-01-10T09:30:00Z',
		}),
		records: named(() => tenant().activities.values()),
	},
	{
		id: 'contact label create',
		node: 'businessPlatformSales',
		method: 'POST',
		path: '/^\\/v1\\/crm\\/contacts\\/labels$/',
		parameters: () => ({
			resource: 'contactLabel',
			operation: 'create',
			name: '={{ $json.marker }}',
			color: '#ff8800',
		}),
		records: named(() => tenant().labels.values()),
	},
	{
		id: 'pipeline create',
		node: 'businessPlatformSales',
		method: 'POST',
		path: '/^\\/v1\\/crm\\/deals\\/pipelines$/',
		parameters: () => ({
			resource: 'pipeline',
			operation: 'create',
			name: '={{ $json.marker }}',
			stages: { stage: [{ name: 'First', dealProbability: 10, rottingDays: 0, helpText: '' }] },
		}),
		records: named(() => tenant().pipelines.values()),
	},
	{
		id: 'people user create',
		node: 'businessPlatformPeople',
		method: 'POST',
		path: '/^\\/v1\\/people\\/users$/',
		parameters: () => ({
			resource: 'user',
			operation: 'create',
			firstName: '={{ $json.marker }}',
			lastName: 'Once',
			emailId: '={{ $json.marker.replace(/ /g, ".") + "@acme.example" }}',
		}),
		records: (marker) =>
			tenant()
				.peopleUsers.values()
				.filter((u) => u.firstName === marker),
	},
	{
		id: 'component group create',
		node: 'businessPlatformPeople',
		method: 'POST',
		path: '/^\\/v1\\/people\\/tenants\\/component-group$/',
		parameters: () => ({
			resource: 'componentGroup',
			operation: 'create',
			name: '={{ $json.marker }}',
		}),
		records: named(() => tenant().componentGroups.values()),
	},
	{
		id: 'category create',
		node: 'businessPlatformCampaigns',
		method: 'POST',
		path: '/^\\/v1\\/.*categor/',
		parameters: () => ({ resource: 'category', operation: 'create', name: '={{ $json.marker }}' }),
		records: named(() => tenant().categories.values()),
	},
	{
		id: 'custom call POST',
		node: 'businessPlatformSales',
		method: 'POST',
		path: '/^\\/v1\\/crm\\/contacts$/',
		parameters: () => ({
			resource: 'customApiCall',
			operation: 'customApiCall',
			customMethod: 'POST',
			customPath: '/v1/crm/contacts',
			customBody: '={{ JSON.stringify({ name: $json.marker, type: "person" }) }}',
		}),
		records: named(() => tenant().contacts.values()),
	},
	{
		id: 'contact delete',
		node: 'businessPlatformSales',
		method: 'DELETE',
		path: '/^\\/v1\\/crm\\/contacts\\/\\d+$/',
		parameters: () => ({
			resource: 'contact',
			operation: 'delete',
			contactId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
		}),
		input: contactFor,
		records: named(() => tenant().contacts.values()),
		deletes: true,
	},
	{
		id: 'contact update',
		node: 'businessPlatformSales',
		method: 'PATCH',
		path: '/^\\/v1\\/crm\\/contacts\\/\\d+$/',
		parameters: () => ({
			resource: 'contact',
			operation: 'update',
			contactId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			updateFields: { phone: '5550100' },
		}),
		input: contactFor,
		records: () => [],
		mine: (e, item) => e.path === `/v1/crm/contacts/${String(item.id)}`,
	},
];

/** `goesThrough`: after this fault every write is still carried out (it is sent again), so a cell without one checked nothing. */
const FAULTS: Array<{
	id: string;
	rules: (w: Write) => FaultRule[];
	expire?: boolean;
	goesThrough?: boolean;
}> = [
	{
		id: '503 after processing',
		rules: (w) => [
			{ kind: 'status', status: 503, count: 1, phase: 'after', method: w.method, path: w.path },
		],
	},
	{
		id: '503 before processing',
		rules: (w) => [{ kind: 'status', status: 503, count: 1, method: w.method, path: w.path }],
	},
	{
		id: '429',
		rules: (w) => [
			{ kind: 'status', status: 429, retryAfter: 0, count: 2, method: w.method, path: w.path },
		],
		goesThrough: true,
	},
	{ id: 'drop before', rules: (w) => [{ kind: 'drop', count: 1, method: w.method, path: w.path }] },
	{
		id: 'drop after',
		rules: (w) => [{ kind: 'drop', count: 1, phase: 'after', method: w.method, path: w.path }],
	},
	{
		id: 'latency 150 ms',
		rules: (w) => [{ kind: 'latency', ms: 150, count: 2, method: w.method, path: w.path }],
		goesThrough: true,
	},
	{ id: 'token expired', rules: () => [], expire: true, goesThrough: true },
];

const CONCURRENCY = [1, 5, 20];
const ITEMS = 4;

interface Outcome {
	duplicates: number;
	silent: number;
	missing: number;
	failedItems: number;
	failedRun: boolean;
	/** Updates: requests the sandbox carried out in the cell. */
	carriedOut?: number;
}
const table: Array<
	{ write: string; fault: string; concurrency: number; continueOnFail: boolean } & Outcome
> = [];

/** What the run says about each item: output IDs, and the text of its error (its own, or the node's). */
function reported(run: NodeRun): {
	ids: Set<string>;
	text: string;
	itemErrors: Map<number, string>;
} {
	const ids = new Set(run.json.map(recordId).filter((id) => id !== undefined));
	const itemErrors = new Map<number, string>();
	// A failed item (Continue On Fail) carries its error as text; a record may have an `error: null` field of its own.
	for (const item of run.items)
		if (typeof item.json.error === 'string')
			itemErrors.set(
				Number(item.json.itemIndex),
				`${String(item.json.error)} ${String(item.json.description ?? '')}`,
			);
	return { ids, text: `${run.error?.message ?? ''} ${run.error?.description ?? ''}`, itemErrors };
}

/** A record's or output item's ID: id, _id or (people) userId. */
const recordId = (r: Record<string, unknown>) => {
	const id = r.id ?? r._id ?? r.userId;
	return id === undefined || id === null ? undefined : String(id);
};

/** The input index an output item is paired with. */
const pairedIndex = (paired: unknown) =>
	Array.isArray(paired)
		? (paired[0] as { item?: number })?.item
		: typeof paired === 'object' && paired
			? (paired as { item?: number }).item
			: undefined;

const UNKNOWN_OUTCOME = /not repeated automatically|may already have carried it out/;

async function runCell(
	w: Write,
	fault: (typeof FAULTS)[number],
	concurrency: number,
	continueOnFail: boolean,
): Promise<Outcome> {
	const markers = Array.from({ length: w.items ?? ITEMS }, (_, i) => `AMO ${++cell} ${i}`);
	const input = await Promise.all(
		markers.map(async (marker) => ({ json: w.input ? await w.input(marker) : { marker } })),
	);
	const sb = sandbox();
	for (const rule of fault.rules(w)) sb.faults.add(rule);
	if (fault.expire) sb.auth.expireAll();
	const since = sb.requests().at(-1)?.seq ?? 0;
	const run = await h().run(
		w.node,
		{ ...w.parameters(''), requestOptions: { concurrency } },
		input,
		{ continueOnFail },
	);
	sb.faults.clear();
	const { ids, text, itemErrors } = reported(run);
	const out: Outcome = {
		duplicates: 0,
		silent: 0,
		missing: 0,
		failedItems: itemErrors.size,
		failedRun: run.error !== undefined,
	};
	if (w.mine) {
		const route = new RegExp(w.path.slice(1, -1));
		const done = sb
			.requests()
			.filter((e) => e.seq > since && e.method === w.method && route.test(e.path) && carriedOut(e));
		out.carriedOut = done.length;
		input.forEach(({ json }, i) => {
			const times = done.filter((e) => w.mine!(e, json)).length;
			if (times > 1 && !w.repeatable) out.duplicates++;
			// Carried out: the item's output says so, or the node's error names the item, or its error says it may have happened.
			const succeeded = run.items.some(
				(it) => pairedIndex(it.pairedItem) === i && typeof it.json.error !== 'string',
			);
			const named = new RegExp(`These items were written[^]*\\bitem ${i}\\b`).test(text);
			const itemText = itemErrors.get(i) ?? (run.error?.context?.itemIndex === i ? text : '');
			if (times >= 1 && !succeeded && !named && !UNKNOWN_OUTCOME.test(itemText)) out.silent++;
			if (times === 0 && succeeded) out.missing++;
		});
		return out;
	}
	markers.forEach((marker, i) => {
		const records = w.records(marker);
		if (records.length > 1) out.duplicates++;
		if (w.deletes) {
			// A delete the output claims must be gone; one still there is reported failed.
			const claimed = run.json.some(
				(j) => j.deleted === true && String(j.id) === String(input[i].json.id),
			);
			if (claimed && records.length) out.missing++;
			return;
		}
		for (const r of records) {
			const itemText = itemErrors.get(i) ?? (run.error?.context?.itemIndex === i ? text : '');
			const known =
				ids.has(recordId(r)!) ||
				text.includes(`(ID ${recordId(r)})`) ||
				UNKNOWN_OUTCOME.test(itemText);
			if (!known) out.silent++;
		}
	});
	out.carriedOut = markers.filter((m) => w.records(m).length > 0).length + (w.deletes ? 1 : 0);
	// Every ID an output item names exists (a create or update that claims a record has one).
	const existing = new Set(markers.flatMap((m) => w.records(m)).map(recordId));
	if (!w.deletes) for (const id of ids) if (!existing.has(id)) out.missing++;
	return out;
}

type TableRow = (typeof table)[number];

/**
 * The report (`npm run report:faults`): each file leaves its rows in the run's folder (outside the repository);
 * the file that ends second, finding both, writes the table of all of them, in the order of PARTS.
 */
function writeReport(part: Part): void {
	if (process.env.BP_WRITE_REPORTS !== '1') return;
	const folder = join(tmpdir(), 'bp-faults-writes', runId());
	mkdirSync(folder, { recursive: true });
	writeFileSync(join(folder, `${part}.json`), JSON.stringify(table));
	if (!PARTS.every((p) => existsSync(join(folder, `${p}.json`)))) return;
	const rows = PARTS.flatMap(
		(p) => JSON.parse(readFileSync(join(folder, `${p}.json`), 'utf8')) as TableRow[],
	);
	const lines = [
		'# Every write operation under every fault',
		'',
		'`npm run report:faults` (test/integration/at-most-once-sales.test.ts and at-most-once-others.test.ts): four items a cell, each with its own marker. "duplicates": items whose record exists twice; "silent": records that exist but that neither an output item nor an error names (by ID, or as "may have been carried out"); "missing": records an output item claims that do not exist (or, for a delete, still exist).',
		'',
		'| write | fault | parallel | continue on fail | duplicates | silent | missing | items failed | run failed |',
		'|---|---|---|---|---|---|---|---|---|',
		...rows.map(
			(r) =>
				`| ${r.write} | ${r.fault} | ${r.concurrency} | ${r.continueOnFail ? 'on' : 'off'} | ${r.duplicates} | ${r.silent} | ${r.missing} | ${r.failedItems} | ${r.failedRun ? 'yes' : 'no'} |`,
		),
		'',
		`${rows.length} cells: ${rows.reduce((n, r) => n + r.duplicates, 0)} duplicates, ${rows.reduce((n, r) => n + r.silent, 0)} silent writes, ${rows.reduce((n, r) => n + r.missing, 0)} missing.`,
		'',
	];
	const dir = join(__dirname, '../../../bench/results');
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, 'faults-writes.md'), lines.join('\n'));
}

/** The six runs of a write under a fault (Parallel Requests × Continue On Fail), one after the other on one lane. */
const runs = (w: Write, fault: (typeof FAULTS)[number]) =>
	lanes!.cell(async () => {
		const outcomes: Array<{ concurrency: number; continueOnFail: boolean; outcome: Outcome }> = [];
		for (const concurrency of CONCURRENCY)
			for (const continueOnFail of [false, true])
				outcomes.push({
					concurrency,
					continueOnFail,
					outcome: await runCell(w, fault, concurrency, continueOnFail),
				});
		return outcomes;
	});

/** The two halves of the writes, one per test file. */
const WRITES_OF = {
	sales: [...WRITES, ...RECORD_WRITES],
	others: [...BULK_WRITES, ...PEOPLE_WRITES, ...OTHER_WRITES],
};
type Part = keyof typeof WRITES_OF;
const PARTS: Part[] = ['sales', 'others'];

/** The tests of one half of the writes, every fault, on lanes of their own (call it at the top of its test file). */
export function atMostOnce(part: Part): void {
	lanes = useLanes(
		LANES,
		async (index) => {
			const sb = await startTestSandbox({ rows: 20 });
			// A credential id per lane: n8n-core shares a refresh between concurrent callers of one id (createHarness).
			return { sb, h: createHarness(sb, sb.issueTokens(), {}, `cred-lane-${index}`) };
		},
		async (l) => await l.sb.stop(),
	);
	useVirtualRetryClock();
	afterAll(() => writeReport(part));
	describe.each(WRITES_OF[part])('$id', (w) => defineWrite(w));
}

function defineWrite(w: Write): void {
	const cells = new Map(FAULTS.map((f) => [f.id, runs(w, f)]));
	it.each(FAULTS.map((f) => [f.id, f] as const))(
		'under %s, at Parallel Requests 1/5/20, Continue On Fail off and on: at most once, nothing silent, nothing missing',
		async (_, fault) => {
			let carried = 0;
			for (const { concurrency, continueOnFail, outcome } of await cells.get(fault.id)!()) {
				table.push({ write: w.id, fault: fault.id, concurrency, continueOnFail, ...outcome });
				carried += outcome.carriedOut ?? 0;
				expect({
					write: w.id,
					fault: fault.id,
					concurrency,
					continueOnFail,
					duplicates: outcome.duplicates,
					silent: outcome.silent,
					missing: outcome.missing,
				}).toEqual({
					write: w.id,
					fault: fault.id,
					concurrency,
					continueOnFail,
					duplicates: 0,
					silent: 0,
					missing: 0,
				});
			}
			// After a fault every write gets through, the writes reached the platform: the checks above had something to check.
			if (fault.goesThrough) expect(carried).toBeGreaterThan(0);
		},
	);
}
