/**
 * Property: paging under change (issue 23, finding 5). Return All walks a list while records
 * are created and deleted between its page reads: a front server passes each request to the
 * sandbox and, after a page of the list is answered, makes the generated changes before
 * handing the page over. Whatever the changes: Return All never outputs an ID twice. With
 * creates only, every record that existed for the whole run appears exactly once (the list
 * pages oldest first when no order is chosen, so a new record lands on the last page). A
 * delete during the walk can still hide a record of a later page: offset paging cannot see
 * it, and docs/faults-and-security.md says so.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { request } from 'undici';

import { createHarness } from '../../testbed/harness/run';
import { readBody, serveLoopback } from '../helpers/loopback';
import { checkProperty } from '../helpers/property';
import { call, useSandbox } from '../helpers/sandbox';

const ctx = useSandbox({ rows: 230 });

type Change = { kind: 'create' } | { kind: 'delete'; pick: number };

/** A front that passes every request to the sandbox and runs `afterPage` once a list page is answered. */
async function front(afterPage: (path: string) => Promise<void>) {
	return await serveLoopback(async (req, res) => {
		const body = await readBody(req);
		const headers = Object.fromEntries(
			Object.entries(req.headers).filter(
				([k]) => !['host', 'connection', 'content-length'].includes(k),
			),
		) as Record<string, string>;
		const answer = await request(ctx.sb.baseUrl + (req.url ?? '/'), {
			method: req.method as 'GET',
			headers,
			body: body || undefined,
		});
		const text = await answer.body.text();
		await afterPage(`${req.method} ${req.url ?? ''}`);
		res.writeHead(answer.statusCode, {
			'content-type': String(answer.headers['content-type'] ?? 'application/json'),
		});
		res.end(text);
	});
}

const liveIds = () =>
	new Set(
		ctx.sb.store
			.tenant(1)
			.contacts.values()
			.map((c) => c.id as number),
	);

async function apply(changes: Change[], round: number): Promise<void> {
	for (const change of changes) {
		if (change.kind === 'create') {
			await call(ctx.sb, 'POST', '/v1/crm/contacts', {
				body: { name: `Paging ${round} ${Math.random()}`, type: 'person' },
			});
		} else {
			const ids = [...liveIds()];
			await call(ctx.sb, 'DELETE', `/v1/crm/contacts/${ids[change.pick % ids.length]}`);
		}
	}
}

/** Page sizes the platform may serve: its default (500) and caps below, at and above the pack's own 100 (issue 32). */
const served = fc.constantFrom(500, 101, 100, 99, 30);

async function walk(changesPerPage: Change[][], maxPageSize = 500) {
	let page = 0;
	ctx.sb.config.maxPageSize = maxPageSize;
	const round = Date.now();
	const server = await front(async (what) => {
		if (!what.startsWith('GET /v1/crm/contacts?')) return;
		await apply(changesPerPage[page++] ?? [], round);
	});
	try {
		const before = liveIds();
		const h = createHarness(ctx.sb, ctx.sb.demo.tokenResponse, { baseUrl: server.url });
		const run = await h.run('businessPlatformSales', {
			resource: 'contact',
			operation: 'getAll',
			returnAll: true,
			simplify: false,
		});
		expect(run.error).toBeUndefined();
		const ids = run.json.map((c: IDataObject) => c.id as number);
		expect(page).toBeGreaterThanOrEqual(3); // the walk spans pages
		return { before, after: liveIds(), ids };
	} finally {
		ctx.sb.config.maxPageSize = 500;
		await server.close();
	}
}

const change = (withDeletes: boolean): fc.Arbitrary<Change> =>
	withDeletes
		? fc.oneof(
				fc.constant<Change>({ kind: 'create' }),
				fc.nat().map((pick): Change => ({ kind: 'delete', pick })),
			)
		: fc.constant<Change>({ kind: 'create' });

it('property: records created between page reads, at any page size the platform serves: no ID twice, every record that existed throughout exactly once', async () => {
	await checkProperty(
		40,
		fc.asyncProperty(
			fc.array(fc.array(change(false), { maxLength: 3 }), { minLength: 1, maxLength: 4 }),
			served,
			async (changes, size) => {
				const { before, after, ids } = await walk(changes, size);
				expect(new Set(ids).size).toBe(ids.length);
				const throughout = [...before].filter((id) => after.has(id));
				const counts = new Map<number, number>();
				for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
				for (const id of throughout)
					expect({ id, times: counts.get(id) ?? 0 }).toEqual({ id, times: 1 });
			},
		),
	);
}, 180_000);

it('property: records created and deleted between page reads, at any page size the platform serves: no ID twice', async () => {
	await checkProperty(
		40,
		fc.asyncProperty(
			fc.array(fc.array(change(true), { maxLength: 3 }), { minLength: 1, maxLength: 4 }),
			served,
			async (changes, size) => {
				const { ids } = await walk(changes, size);
				expect(new Set(ids).size).toBe(ids.length);
			},
		),
	);
}, 180_000);
