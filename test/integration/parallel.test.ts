/**
 * Parallel Requests through n8n-core against the sandbox: items read their parameters
 * ahead of their turn, but the platform never gets more requests at once than the
 * setting says, gets them in input order at 1, and gets nothing after a failed item
 * when the node stops on errors.
 */
import type { IDataObject } from 'n8n-workflow';

import { createHarness, type Harness } from '../../testbed/harness/run';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox({ rows: 5 });
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb);
});
afterEach(() => ctx.sb.faults.clear());

const LATENCY = { kind: 'latency' as const, ms: 25, method: 'POST', path: '/v1/crm/contacts' };
const create = (
	concurrency: number,
	input: IDataObject[],
	options: { continueOnFail?: boolean } = {},
) =>
	h.run(
		'businessPlatformSales',
		{
			resource: 'contact',
			operation: 'create',
			name: '={{ $json.name }}',
			type: 'person',
			additionalFields: { email: '={{ $json.email }}' },
			requestOptions: { concurrency },
		},
		input.map((json) => ({ json })),
		options,
	);
const people = (prefix: string, n: number) =>
	Array.from({ length: n }, (_, i) => ({
		name: `${prefix} ${i}`,
		email: `${prefix.toLowerCase().replace(/\W+/g, '-')}-${i}@example.com`,
	}));
/** Names of the contacts the platform received from this test, in the order it received them. */
const received = (since: number, prefix: string) =>
	ctx.sb
		.requests()
		.filter((r) => r.seq > since && r.method === 'POST' && r.path === '/v1/crm/contacts')
		.map((r) => String((JSON.parse(r.body ?? '{}') as IDataObject).name))
		.filter((name) => name.startsWith(prefix));
const lastSeq = () => ctx.sb.requests().at(-1)?.seq ?? 0;
const stored = (prefix: string) =>
	ctx.sb.store
		.tenant(1)
		.contacts.values()
		.filter((c) => String(c.name).startsWith(prefix));

describe('Parallel Requests', () => {
	it.each([1, 3, 5])(
		'at %i, the platform never has more requests at once, and every item is created once, in order',
		async (concurrency) => {
			ctx.sb.faults.add(LATENCY);
			const prefix = `Parallel ${concurrency}`;
			const since = lastSeq();
			ctx.sb.resetStats();
			const run = await create(concurrency, people(prefix, 12));
			expect(run.error).toBeUndefined();
			expect(run.json.map((j) => j.name)).toEqual(people(prefix, 12).map((p) => p.name));
			expect(run.items.map((i) => i.pairedItem)).toEqual(
				people(prefix, 12).map((_, item) => ({ item })),
			);
			expect(ctx.sb.stats().maxRequestsAtOnce).toBeLessThanOrEqual(concurrency);
			expect(stored(prefix)).toHaveLength(12);
			// The gate lets items reach the platform in input order (at 1, strictly one after another).
			if (concurrency === 1)
				expect(received(since, prefix)).toEqual(people(prefix, 12).map((p) => p.name));
		},
	);

	it("an item whose expression fails stops the node before anything is sent: every item's input is checked before the first write", async () => {
		ctx.sb.faults.add(LATENCY);
		const prefix = 'Stops at 2';
		const input: IDataObject[] = people(prefix, 6);
		input[2] = { email: 'broken@example.com' }; // no name: {{ $json.name.toUpperCase() }} fails for this item only
		const since = lastSeq();
		const run = await h.run(
			'businessPlatformSales',
			{
				resource: 'contact',
				operation: 'create',
				name: '={{ $json.name.toUpperCase() }}',
				type: 'person',
				additionalFields: {},
				requestOptions: { concurrency: 1 },
			},
			input.map((json) => ({ json })),
		);
		expect(run.error?.message).toMatch(/Name/);
		expect(run.error?.context?.itemIndex).toBe(2);
		expect(received(since, prefix.toUpperCase())).toEqual([]);
		expect(stored(prefix.toUpperCase())).toHaveLength(0);
	});

	it('a request the platform refuses stops the node: no later item is sent', async () => {
		ctx.sb.faults.add(LATENCY);
		ctx.sb.faults.add({
			kind: 'status',
			status: 422,
			count: 1,
			method: 'POST',
			path: '/v1/crm/contacts',
		});
		const prefix = 'Refused first';
		const since = lastSeq();
		const run = await create(2, people(prefix, 8));
		expect(run.error?.context?.itemIndex).toBe(0);
		// Item 0 was refused; item 1 may have been in flight beside it (2 at once); nothing after.
		expect(received(since, prefix).length).toBeLessThanOrEqual(2);
		expect(received(since, prefix)).not.toContain(`${prefix} 2`);
		// What was written anyway is named in the error, by item and ID.
		for (const c of stored(prefix))
			expect(run.error?.description).toContain(`(ID ${String(c.id)})`);
	});

	it('a refused item at 5 in parallel: the error names every record the run wrote, and those are all that exist', async () => {
		ctx.sb.faults.add(LATENCY);
		ctx.sb.faults.add({
			kind: 'status',
			status: 422,
			count: 1,
			method: 'POST',
			path: '/v1/crm/contacts',
		});
		const prefix = 'Refused at five';
		const run = await create(5, people(prefix, 10));
		expect(run.error?.context?.itemIndex).toBe(0);
		const written = stored(prefix);
		expect(written.length).toBeGreaterThan(0);
		for (const c of written) expect(run.error?.description).toContain(`(ID ${String(c.id)})`);
		expect((run.error?.description?.match(/\(ID /g) ?? []).length).toBe(written.length);
	});

	it('with continue on fail, every item is tried and the failed one says its index', async () => {
		ctx.sb.faults.add({
			kind: 'status',
			status: 422,
			count: 1,
			method: 'POST',
			path: '/v1/crm/contacts',
		});
		const prefix = 'Continue';
		const run = await create(1, people(prefix, 4), { continueOnFail: true });
		expect(run.json[0]).toMatchObject({ itemIndex: 0 });
		expect(run.json.slice(1).map((j) => j.name)).toEqual([
			`${prefix} 1`,
			`${prefix} 2`,
			`${prefix} 3`,
		]);
		expect(stored(prefix)).toHaveLength(3);
	});
});
