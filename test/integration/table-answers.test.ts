/**
 * A table's metadata answered with a 200 that is not a table (JSON `null`, a list, a text):
 * Record → Search and the Table Trigger's conditions on a column read the table's columns first,
 * and such an answer is their error, saying what came back, before any record is searched or
 * listed: nothing is read from it, nothing is sent with it (it used to be a TypeError). And one
 * that is an object without a name or columns (`{}`): the error names the column, the table by its
 * ID (it said "undefined") and that the platform listed no columns.
 */
import type { IDataObject } from 'n8n-workflow';

import type { PlatformTable } from '../../nodes/BusinessPlatformSales/common/tables';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { allowOffContract } from '../helpers/contract';
import { Poller } from '../helpers/poll-harness';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox({ regional: true });
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb, ctx.sb.demo.tokenResponse, {
		regionalBaseUrl: ctx.sb.regionalBaseUrl!,
	});
});
afterEach(() => ctx.sb.faults.clear());

const deals = () =>
	(ctx.sb.store.tenant(1).tables.values() as unknown as PlatformTable[]).find(
		(t) => t.objectType === 'DEAL',
	)!;
const tablePath = () => `/v1/crm/core/table/${deals()._id}`;
const status = () => deals().columnsMetaData!.find((c) => c.name === 'Status')!;
const rl = (value: string) => ({ __rl: true, mode: 'id', value });
/** The searches and listings of records sent since `from` (requests of the sandbox's log). */
const recordRequests = (from: number) =>
	ctx.sb
		.requests()
		.slice(from)
		.filter((r) => r.path.startsWith(`${tablePath()}/`));

/** The table's GET answered with `body` (a 200), for every request until the test ends. */
function tableAnswers(body: string) {
	allowOffContract(
		ctx.sb,
		/GET \/v1\/crm\/core\/table\/\{tableId\} answered 200/,
		'a 200 that is not a table, on purpose',
	);
	ctx.sb.faults.add({ kind: 'body', status: 200, body, method: 'GET', path: tablePath() });
}

/** Record → Search with a condition on Status, two items, Continue On Fail: the run (no node error) and its two items. */
async function searchTwoItems() {
	const run = await h.run(
		'businessPlatformSales',
		{
			resource: 'record',
			operation: 'search',
			tableId: rl(deals()._id),
			returnAll: true,
			filters: { conditions: [{ column: 'Status', operator: 'eq', value: 'Won' }] },
		},
		[{ json: { n: 0 } }, { json: { n: 1 } }],
		{ continueOnFail: true },
	);
	expect(run.error).toBeUndefined();
	const out = run.json as IDataObject[];
	expect(out).toHaveLength(2);
	return { run, out };
}

const ANSWERS: Array<[string, RegExp]> = [
	['null', /with null, not a table/],
	['[]', /with \[\], not a table/],
	['"a table"', /with "?a table"?, not a table/],
];

describe('Record → Search: the table answered with something other than a table', () => {
	it.each(ANSWERS)(
		'%s: each item fails saying so (Continue On Fail: its own index), no record is searched',
		async (body, said) => {
			tableAnswers(body);
			const from = ctx.sb.requests().length;
			const { run, out } = await searchTwoItems();
			for (const item of out) {
				expect(String(item.error)).toMatch(said);
				expect(String(item.error)).not.toMatch(/TypeError|Cannot read/);
			}
			expect(run.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			expect(recordRequests(from)).toEqual([]);
		},
	);
});

describe('the Table Trigger: the table answered with something other than a table', () => {
	it.each(ANSWERS)(
		'%s: a condition on a column fails the poll saying so; nothing is listed, nothing delivered',
		async (body, said) => {
			const p = new Poller(h, 'businessPlatformTableTrigger', {
				event: 'recordCreated',
				tableId: rl(deals()._id),
				conditions: { condition: [{ column: status().id, operator: 'eq', value: 'Won' }] },
				options: {},
			});
			expect(await p.poll()).toBeNull(); // the first poll, with the real table: from now
			tableAnswers(body);
			const from = ctx.sb.requests().length;
			await expect(p.poll()).rejects.toThrow(said);
			expect(recordRequests(from)).toEqual([]);
			// The platform answers as documented again: the trigger goes on from where it was.
			ctx.sb.faults.clear();
			expect(await p.poll()).toBeNull();
		},
	);
});

describe('a table without columns (`{}`: an object, but no column metadata)', () => {
	it('Record → Search: each item fails naming the column it cannot find, no record is searched', async () => {
		tableAnswers('{}');
		const from = ctx.sb.requests().length;
		const { out } = await searchTwoItems();
		for (const item of out) {
			expect(String(item.error)).toMatch(`column "Status" is not in table "${deals()._id}"`);
			expect(String(item.error)).not.toMatch(/TypeError|Cannot read|undefined/);
			expect(JSON.stringify(item)).toMatch(/listed no columns/);
		}
		expect(recordRequests(from)).toEqual([]);
	});

	it('the Table Trigger: a condition on a column fails the poll naming it; nothing is listed', async () => {
		const p = new Poller(h, 'businessPlatformTableTrigger', {
			event: 'recordCreated',
			tableId: rl(deals()._id),
			conditions: { condition: [{ column: status().id, operator: 'eq', value: 'Won' }] },
			options: {},
		});
		expect(await p.poll()).toBeNull();
		tableAnswers('{}');
		const from = ctx.sb.requests().length;
		const failure = await p.poll().then(
			() => undefined,
			(e: unknown) => e,
		);
		expect(String(failure)).toMatch(`column "${status().id}" is not in table "${deals()._id}"`);
		expect(String(failure)).not.toMatch(/TypeError|Cannot read|undefined/);
		expect(recordRequests(from)).toEqual([]);
	});
	it('a table whose name is 10^6 characters: the error repeats only its start', async () => {
		tableAnswers(
			JSON.stringify({ _id: deals()._id, name: 'N'.repeat(1_000_000), columnsMetaData: [] }),
		);
		const { out } = await searchTwoItems();
		for (const item of out) {
			expect(String(item.error)).toMatch(/column "Status" is not in table "N+/);
			expect(String(item.error).length).toBeLessThan(400);
		}
	});
});
