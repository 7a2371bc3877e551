/**
 * Declared checks (an operation's `check`), through n8n-core against the sandbox: when the node
 * stops on errors, every item's input is checked before the first request of the run. For a
 * sample of the operations whose checks moved out of their own `execute` (some of them made in
 * helpers: the user's save, the component group's, the email template's HTML file, the record's
 * JSON cells), two items run with item 0 good and item 1 bad: the node fails naming item 1, and
 * item 0 was not written (no write reached the platform, its data is as before). Item 0 alone
 * then writes, so the first run had something to hold back.
 */
import fc from 'fast-check';
import type { IBinaryKeyData, IDataObject } from 'n8n-workflow';

import type { PlatformTable } from '../../nodes/BusinessPlatformSales/common/tables';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { checkProperty } from '../helpers/property';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox({ rows: 5 });
const tenant = () => ctx.sb.store.tenant(1);
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb);
});

const SALES = 'businessPlatformSales';
const CAMPAIGNS = 'businessPlatformCampaigns';
const PEOPLE = 'businessPlatformPeople';

const rl = (value: unknown) => ({ __rl: true, mode: 'id', value });
const ids = (list: Array<Record<string, unknown>>, key = 'id') =>
	list.map((d) => String(d[key])).sort();
const firstId = (list: Array<Record<string, unknown>>) => list[0].id as number;
const contactsTable = () =>
	(tenant().tables.values() as unknown as PlatformTable[]).find((t) => t.objectType === 'CONTACT')!;
const htmlFile: IBinaryKeyData = {
	data: {
		data: Buffer.from('<p>Checked first</p>').toString('base64'),
		mimeType: 'text/html',
		fileName: 'page.html',
	},
};

interface Case {
	/** Node → resource → operation. */
	op: string;
	node: string;
	params: () => IDataObject;
	/** The item's values for the parameters' expressions: item 0 good, item 1 bad. */
	items: () => [good: IDataObject, bad: IDataObject];
	binary?: [good: IBinaryKeyData | undefined, bad: IBinaryKeyData | undefined];
	/** What the error of item 1 says. */
	message: RegExp;
	/** What a write by the good item changes in the sandbox. */
	state: () => unknown;
}

const CASES: Case[] = [
	{
		op: 'Sales → Activity → Create',
		node: SALES,
		params: () => ({
			resource: 'activity',
			operation: 'create',
			name: 'Declared check call',
			activityType: 'call',
			start: '2026-04-01T10:00:00Z',
			end: '={{ $json.end }}',
		}),
		items: () => [{ end: '2026-04-01T11:00:00Z' }, { end: '2026-04-01T09:00:00Z' }],
		message: /End \(.*\) is before Start/,
		state: () => ids(tenant().activities.values()),
	},
	{
		op: 'Sales → Activity → Bulk Delete',
		node: SALES,
		params: () => ({
			resource: 'activity',
			operation: 'bulkDelete',
			activityIds: '={{ $json.ids }}',
		}),
		items: () => [{ ids: String(firstId(tenant().activities.values())) }, { ids: 'first, second' }],
		message: /Activity IDs/,
		state: () => ids(tenant().activities.values()),
	},
	{
		op: 'Sales → Contact → Create',
		node: SALES,
		params: () => ({
			resource: 'contact',
			operation: 'create',
			name: '={{ $json.name }}',
			type: 'person',
			additionalFields: {},
		}),
		items: () => [{ name: 'Declared Check Person' }, { name: '   ' }],
		message: /Name is empty/,
		state: () => ids(tenant().contacts.values()),
	},
	{
		op: 'Sales → Contact → Create or Update',
		node: SALES,
		params: () => ({
			resource: 'contact',
			operation: 'upsert',
			email: '={{ $json.email }}',
			name: 'Declared Check Upsert',
			type: 'person',
			additionalFields: {},
		}),
		items: () => [{ email: 'declared-check-upsert@example.com' }, { email: 'no address' }],
		message: /is not an email address/,
		state: () => ids(tenant().contacts.values()),
	},
	{
		op: 'Sales → Deal → Update',
		node: SALES,
		params: () => ({
			resource: 'deal',
			operation: 'update',
			dealId: rl(firstId(tenant().deals.values())),
			updateFields: { name: '={{ $json.name }}' },
		}),
		items: () => [{ name: 'Declared Check Deal' }, { name: ' ' }],
		message: /Name is empty/,
		state: () =>
			tenant()
				.deals.values()
				.map((d) => d.name),
	},
	{
		op: 'Sales → Pipeline → Create',
		node: SALES,
		params: () => ({
			resource: 'pipeline',
			operation: 'create',
			name: '={{ $json.name }}',
			stages: { stage: [{ name: 'Qualify', dealProbability: 10, rottingDays: 0, helpText: '' }] },
		}),
		items: () => [{ name: 'Declared Check Pipeline' }, { name: '' }],
		message: /Name is empty/,
		state: () => ids(tenant().pipelines.values()),
	},
	{
		op: 'Sales → Record → Create (Cells From JSON)',
		node: SALES,
		params: () => ({
			resource: 'record',
			operation: 'create',
			tableId: rl(contactsTable()._id),
			cellsInput: 'json',
			cellsJson: '={{ $json.cells }}',
		}),
		items: () => [{ cells: '{"Name": "Declared Check Record"}' }, { cells: '{"Name": ' }],
		message: /Cells \(JSON\) is not valid JSON/,
		state: () => ids([...(tenant().records.get(contactsTable()._id)?.values() ?? [])], '_id'),
	},
	{
		op: 'Campaigns → Category → Create',
		node: CAMPAIGNS,
		params: () => ({ resource: 'category', operation: 'create', name: '={{ $json.name }}' }),
		items: () => [{ name: 'Declared Check Category' }, { name: '' }],
		message: /Name is empty/,
		state: () => ids(tenant().categories.values()),
	},
	{
		op: 'Campaigns → Email Template → Create (HTML from a file)',
		node: CAMPAIGNS,
		params: () => ({
			resource: 'emailTemplate',
			operation: 'create',
			name: 'Declared Check Template',
			categoryId: firstId(tenant().categories.values()),
			templateJson: '{}',
			htmlSource: 'binary',
			binaryPropertyName: 'data',
		}),
		items: () => [{}, {}],
		binary: [htmlFile, undefined],
		message: /The input item has no binary field "data"/,
		state: () => ids(tenant().emailTemplates.values()),
	},
	{
		op: 'People → User → Create',
		node: PEOPLE,
		params: () => ({
			resource: 'user',
			operation: 'create',
			firstName: 'Declared',
			lastName: 'Check',
			emailId: '={{ $json.email }}',
		}),
		items: () => [{ email: 'declared.check@example.com' }, { email: 'declared' }],
		message: /Email "declared" is not an email address/,
		state: () => ids(tenant().peopleUsers.values(), 'userId'),
	},
	{
		op: 'People → Component Group → Create',
		node: PEOPLE,
		params: () => ({ resource: 'componentGroup', operation: 'create', name: '={{ $json.name }}' }),
		items: () => [{ name: 'Declared Check Group' }, { name: '  ' }],
		message: /Name is empty/,
		state: () => ids(tenant().componentGroups.values()),
	},
	{
		op: 'People → Payrun → Create',
		node: PEOPLE,
		params: () => ({
			resource: 'payrun',
			operation: 'create',
			workPeriodFrom: '2031-01-01',
			workPeriodTo: '={{ $json.to }}',
			isForAllUsers: true,
		}),
		items: () => [{ to: '2031-01-31' }, { to: '2030-12-31' }],
		message: /Work Period End is before Work Period Start/,
		state: () => ids(tenant().payruns.values(), '_id'),
	},
];

const lastSeq = () => ctx.sb.requests().at(-1)?.seq ?? 0;
/** The requests since `since` that could have written (anything but a read or a token). */
const writesSince = (since: number) =>
	ctx.sb
		.requests()
		.filter((r) => r.seq > since && r.method !== 'GET' && !r.path.startsWith('/oauth/'))
		.map((r) => `${r.method} ${r.path}`);

const input = (c: Case, which: number[]) =>
	which.map((i) => ({
		json: c.items()[i],
		...(c.binary?.[i] ? { binary: c.binary[i] } : {}),
	}));

describe('declared checks: a bad item stops a run that stops on errors before anything is written', () => {
	it.each(CASES.map((c) => [c.op, c] as const))('%s', async (_op, c) => {
		const before = c.state();
		const since = lastSeq();
		const run = await h.run(c.node, c.params(), input(c, [0, 1]));
		expect(run.error?.message).toMatch(c.message);
		expect(run.error?.context?.itemIndex).toBe(1);
		expect(writesSince(since)).toEqual([]);
		expect(c.state()).toEqual(before);

		// The good item alone writes: the run above held a write back.
		const alone = await h.run(c.node, c.params(), input(c, [0]));
		expect(alone.error).toBeUndefined();
		expect(c.state()).not.toEqual(before);
	});
});

/**
 * The same as a property: any operation of the sample, any number of items past Parallel Requests'
 * largest value (20) with bad ones anywhere, at any Parallel Requests (past its range too): the
 * node fails naming the first bad item, and no write reaches the platform.
 */
it('property: bad items anywhere, at any Parallel Requests, stop the run at the first bad one before anything is written', async () => {
	await checkProperty(
		30,
		fc.asyncProperty(
			fc.nat({ max: CASES.length - 1 }),
			fc.array(fc.boolean(), { minLength: 1, maxLength: 45 }),
			fc.nat({ max: 44 }),
			fc.oneof(fc.integer({ min: 1, max: 20 }), fc.constantFrom(21, 2 ** 31, 2 ** 53 + 2)),
			async (which, bads, forced, concurrency) => {
				const c = CASES[which];
				// At least one bad item, at a generated place.
				const bad = bads.map((b, i) => b || i === forced % bads.length);
				const before = c.state();
				const since = lastSeq();
				const items = bad.map((b) => input(c, [b ? 1 : 0])[0]);
				const run = await h.run(c.node, { ...c.params(), requestOptions: { concurrency } }, items);
				expect(run.error?.message).toMatch(c.message);
				expect(run.error?.context?.itemIndex).toBe(bad.indexOf(true));
				expect(writesSince(since)).toEqual([]);
				expect(c.state()).toEqual(before);
			},
		),
	);
}, 300_000);
