/**
 * Sales node → Activity, through n8n-core against the sandbox: every operation's
 * effect in the sandbox state, notes as plain text in and out (base64 on the wire),
 * the Get Many filter language on the wire, and bad input stopped before any request.
 */
import type { IDataObject } from 'n8n-workflow';

import { searchActivities } from '../../nodes/BusinessPlatformSales/methods/activities';
import { pickerContext } from '../../testbed/harness/pickers';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { expectDeleted } from '../helpers/outcomes';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox();
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb);
});

const tenant = () => ctx.sb.store.tenant(1);
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const fromB64 = (s: unknown) => Buffer.from(String(s), 'base64').toString('utf8');
const byId = (id: unknown) => ({ __rl: true, mode: 'id', value: String(id) });
const run = (parameters: IDataObject, input?: IDataObject[], continueOnFail = false) =>
	h.run(
		'businessPlatformSales',
		{ resource: 'activity', ...parameters },
		input?.map((json) => ({ json })),
		{ continueOnFail },
	);
const requestCount = () => ctx.sb.stats().requests as number;
const person = () =>
	tenant()
		.contacts.values()
		.find((c) => c.type === 'person')!;
const someDeal = () => tenant().deals.values()[0];
const liveActivities = () =>
	tenant()
		.activities.values()
		.filter((a) => !a.is_deleted);

/** An activity made straight in the sandbox (through its API), for the operations that need one. */
async function seedActivity(name: string, extra: IDataObject = {}): Promise<number> {
	const r = await run({
		operation: 'create',
		name,
		activityType: 'call',
		start: '2027-01-10T09:00:00Z',
		end: '2027-01-10T09:30:00Z',
		additionalFields: extra,
	});
	expect(r.error).toBeUndefined();
	return r.json[0].id as number;
}

describe('Activity operations', () => {
	it('Create: plain-text notes are stored base64, times in UTC, links kept; the output reads back with plain notes', async () => {
		const notes = 'Bring the contract — prix, délais ✓\nSecond line';
		const contact = person();
		const deal = someDeal();
		const assignee = tenant().crmUsers[1].id;
		const r = await run({
			operation: 'create',
			name: 'Kick-off',
			activityType: 'meeting',
			start: '2026-12-01T10:00:00+01:00',
			end: '2026-12-01T11:30:00Z',
			additionalFields: {
				notes,
				contactIds: String(contact.id),
				assigneeIds: [assignee],
				dealId: byId(deal.id),
				done: false,
				source: 'web',
				sourceId: 'form-7',
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.json).toHaveLength(1);
		const out = r.json[0];
		expect(out).toMatchObject({
			name: 'Kick-off',
			activity_type: 'meeting',
			notes,
			linked_to: deal.id,
			duration: '2h 30m',
		});

		const stored = tenant().activities.get(out.id as number)!;
		expect(stored.notes).toBe(b64(notes));
		expect(fromB64(stored.notes)).toBe(notes);
		expect(stored).toMatchObject({
			start: '2026-12-01T09:00:00.000Z',
			end: '2026-12-01T11:30:00.000Z',
			contact_ids: [contact.id],
			assignee_ids: [assignee],
			linked_to: deal.id,
			source: 'web',
			source_id: 'form-7',
			is_status: false,
		});
		// No time zone given: the workflow's goes along.
		expect(typeof stored.user_timezone).toBe('string');
		expect(stored.user_timezone).not.toBe('');

		const wire = ctx.sb
			.requests()
			.filter((q) => q.method === 'POST' && q.path === '/v1/crm/activities')
			.pop()!;
		expect(JSON.parse(wire.body!).notes).toBe(b64(notes));
	});

	it('Create: a date-time without a zone is read in the workflow’s time zone', async () => {
		const r = await run({
			operation: 'create',
			name: 'Zoned',
			start: '2026-12-01T10:00:00',
			end: '2026-12-01T10:30:00',
			additionalFields: { userTimezone: 'America/New_York' },
		});
		expect(r.error).toBeUndefined();
		const stored = tenant().activities.get(r.json[0].id as number)!;
		// The harness's workflow has no time zone setting: n8n's default, America/New_York (UTC-5 in December).
		expect(stored.start).toBe('2026-12-01T15:00:00.000Z');
		expect(stored.end).toBe('2026-12-01T15:30:00.000Z');
		expect(stored.user_timezone).toBe('America/New_York');
	});

	it('Get: returns the activity with plain-text notes; Simplify keeps a few fields, notes decoded', async () => {
		const id = await seedActivity('Get me', { notes: 'Ünïcødé notes ✓' });
		expect(tenant().activities.get(id)!.notes).toBe(b64('Ünïcødé notes ✓'));

		const raw = await run({ operation: 'get', activityId: byId(id), simplify: false });
		expect(raw.error).toBeUndefined();
		expect(raw.json[0]).toMatchObject({
			id,
			name: 'Get me',
			notes: 'Ünïcødé notes ✓',
			activity_type: 'call',
		});
		expect(raw.json[0]).toHaveProperty('tenant_id');

		const simple = await run({ operation: 'get', activityId: byId(id) });
		expect(simple.json[0]).toMatchObject({
			id,
			name: 'Get me',
			type: 'call',
			notes: 'Ünïcødé notes ✓',
			done: false,
		});
		expect(Object.keys(simple.json[0]).length).toBeLessThanOrEqual(11);
		expect(simple.json[0]).not.toHaveProperty('tenant_id');
	});

	it('Get Many: the friendly filters become the platform’s query string, and the rows match it', async () => {
		const all = liveActivities();
		const sample = all.find(
			(a) => a.linked_to && (a.contact_ids as number[]).length && a.activity_type === 'call',
		)!;
		const contactId = (sample.contact_ids as number[])[0];
		const after = '2026-11-01T00:00:00Z';
		ctx.sb.resetStats();
		const r = await run({
			operation: 'getAll',
			returnAll: true,
			simplify: false,
			filters: {
				contactId: byId(contactId),
				activityType: 'call',
				dateAfter: after,
				status: sample.is_status ? 'done' : 'open',
				source: String(sample.source),
			},
			options: { sortBy: 'start', sortDir: 'ASC' },
		});
		expect(r.error).toBeUndefined();
		const epoch = Date.parse(after) / 1000;
		const expected = all
			.filter(
				(a) =>
					(a.contact_ids as number[]).includes(contactId) &&
					a.activity_type === 'call' &&
					Date.parse(String(a.start)) > epoch * 1000 &&
					Boolean(a.is_status) === Boolean(sample.is_status) &&
					a.source === sample.source,
			)
			.map((a) => a.id)
			.sort();
		expect(expected.length).toBeGreaterThan(0);
		expect(r.json.map((a) => a.id).sort()).toEqual(expected);
		// Every note comes back as plain text.
		for (const a of r.json)
			expect(a.notes).toBe(fromB64(tenant().activities.get(a.id as number)!.notes));
		// Sorted by start, ascending.
		const starts = r.json.map((a) => String(a.start));
		expect(starts).toEqual([...starts].sort());

		const q = new URLSearchParams(
			ctx.sb.requests().find((x) => x.path === '/v1/crm/activities')!.query,
		);
		expect(q.get('query')).toBe(
			`contact_id=${contactId},date>${epoch},activityType=call,is_status=${sample.is_status ? 'true' : 'false'},source=${String(sample.source)}`,
		);
		expect(q.get('sortBy')).toBe('start');
		expect(q.get('sortDir')).toBe('ASC');
	});

	it('Get Many: name, deal, assignee and source ID filters; Limit asks for one page of that size', async () => {
		const sample = liveActivities().find((a) => a.linked_to)!;
		const assignee = (sample.assignee_ids as number[])[0];
		ctx.sb.resetStats();
		const r = await run({
			operation: 'getAll',
			limit: 2,
			filters: {
				name: 'with',
				dealId: byId(sample.linked_to),
				assigneeId: assignee,
				sourceId: String(sample.source_id),
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.json.map((a) => a.id)).toEqual([sample.id]);
		expect(r.json[0]).toMatchObject({ id: sample.id, notes: fromB64(sample.notes) });
		const log = ctx.sb.requests().filter((x) => x.path === '/v1/crm/activities');
		expect(log).toHaveLength(1);
		const q = new URLSearchParams(log[0].query);
		expect(q.get('query')).toBe(
			`name=with,deal_id=${String(sample.linked_to)},assignee_id=${assignee},source_id=${String(sample.source_id)}`,
		);
		expect(q.get('pageSize')).toBe('2');
	});

	it('Update (PUT): changes the given fields, others keep their values; the output is read back', async () => {
		const id = await seedActivity('Before', { notes: 'old notes', source: 'phone' });
		const r = await run({
			operation: 'update',
			activityId: byId(id),
			updateFields: {
				name: 'After',
				notes: 'new notes ✓',
				done: true,
				end: '2027-01-10T10:00:00Z',
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.json[0]).toMatchObject({
			id,
			name: 'After',
			notes: 'new notes ✓',
			is_status: true,
			duration: '1h 0m',
		});
		const stored = tenant().activities.get(id)!;
		expect(stored).toMatchObject({
			name: 'After',
			notes: b64('new notes ✓'),
			is_status: true,
			source: 'phone',
			activity_type: 'call',
			end: '2027-01-10T10:00:00.000Z',
		});
		const put = ctx.sb
			.requests()
			.filter((q) => q.method === 'PUT')
			.pop()!;
		expect(JSON.parse(put.body!)).toEqual({
			name: 'After',
			notes: b64('new notes ✓'),
			is_status: true,
			end: '2027-01-10T10:00:00.000Z',
		});
	});

	it('Delete: the activity is gone; the output says so', async () => {
		const id = await seedActivity('Delete me');
		expectDeleted(
			await run({ operation: 'delete', activityId: byId(id) }),
			id,
			tenant().activities,
		);
	});

	it('Bulk Update: every ID changes; one output item per ID', async () => {
		const ids = [
			await seedActivity('Bulk 1'),
			await seedActivity('Bulk 2'),
			await seedActivity('Bulk 3'),
		];
		const r = await run({
			operation: 'bulkUpdate',
			activityIds: ids.join(', '),
			updateFields: { visibilityType: 'private', status: 'done' },
		});
		expect(r.error).toBeUndefined();
		expect(r.json).toEqual(ids.map((id) => ({ id, updated: true })));
		for (const id of ids)
			expect(tenant().activities.get(id)).toMatchObject({
				visibility_type: 'private',
				is_status: true,
			});
		const patch = ctx.sb
			.requests()
			.filter((q) => q.method === 'PATCH')
			.pop()!;
		expect(JSON.parse(patch.body!)).toEqual({ ids, visibility_type: 'private', is_status: true });
	});

	it('Bulk Delete: the body is a bare JSON array of IDs; every activity is gone; one item per ID', async () => {
		const ids = [await seedActivity('Gone 1'), await seedActivity('Gone 2')];
		const r = await run({ operation: 'bulkDelete', activityIds: `${ids[0]},${ids[1]}` });
		expect(r.error).toBeUndefined();
		expect(r.json).toEqual(ids.map((id) => ({ deleted: true, id })));
		for (const id of ids) expect(tenant().activities.get(id)).toBeUndefined();
		const post = ctx.sb
			.requests()
			.filter((q) => q.path === '/v1/crm/activities/bulkDelete')
			.pop()!;
		expect(JSON.parse(post.body!)).toEqual(ids);
	});
});

describe('Activity: bad input and failures', () => {
	it('a non-numeric ID (from an expression) fails naming the field and the item, before any request', async () => {
		// Typed by hand, n8n's own check of the By ID mode refuses it before the node runs.
		const before = requestCount();
		const r = await run(
			{ operation: 'delete', activityId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
			[{ id: '12abc' }],
		);
		expect(r.error?.message).toBe('Activity must be a whole number, got "12abc"');
		expect(r.error?.context?.itemIndex).toBe(0);
		expect(requestCount()).toBe(before);
		const second = await run(
			{ operation: 'delete', activityId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
			[{ id: 'x' }, { id: 'y' }],
			true,
		);
		expect(second.json).toEqual([
			expect.objectContaining({ itemIndex: 0, error: 'Activity must be a whole number, got "x"' }),
			expect.objectContaining({ itemIndex: 1, error: 'Activity must be a whole number, got "y"' }),
		]);
		expect(requestCount()).toBe(before);
	});

	it('an empty update fails naming "Update Fields" and the item, before any request', async () => {
		const id = liveActivities()[0].id;
		const before = requestCount();
		const r = await run({ operation: 'update', activityId: byId(id), updateFields: {} }, [
			{ n: 0 },
			{ n: 1 },
		]);
		expect(r.error?.message).toBe('Nothing to update');
		expect(r.error?.description).toMatch(/Update Fields/);
		expect(r.error?.context?.itemIndex).toBe(0);
		expect(requestCount()).toBe(before);
	});

	it('an end before the start, a filter with a comma, and bad IDs in a bulk list are refused before any request', async () => {
		const before = requestCount();
		const times = await run({
			operation: 'create',
			name: 'Backwards',
			start: '2027-01-01T10:00:00Z',
			end: '2027-01-01T09:00:00Z',
		});
		expect(times.error?.message).toMatch(/End .* is before Start/);
		const month13 = await run({
			operation: 'create',
			name: 'Bad date',
			start: '={{ "2027-13-01T10:00:00" }}',
			end: '2027-01-01T09:00:00Z',
		});
		expect(month13.error?.message).toBe(
			'Start is not a date: "2027-13-01T10:00:00" (there is no month 13)',
		);
		const filter = await run({ operation: 'getAll', filters: { name: 'a,b' } });
		expect(filter.error?.message).toMatch(/Name "a,b" cannot contain a comma/);
		const bulk = await run({ operation: 'bulkDelete', activityIds: '1, x2' });
		expect(bulk.error?.message).toMatch(/Activity IDs must be a whole number, got "x2"/);
		expect(requestCount()).toBe(before);
	});

	it('continue on fail: one unknown ID among good items gives that item an error with its index; the others go on', async () => {
		const good = liveActivities()
			.slice(0, 2)
			.map((a) => a.id as number);
		const r = await run(
			{
				operation: 'get',
				activityId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				simplify: true,
			},
			[{ id: good[0] }, { id: 999999 }, { id: good[1] }],
			true,
		);
		expect(r.error).toBeUndefined();
		expect(r.json).toHaveLength(3);
		expect(r.json[0]).toMatchObject({ id: good[0] });
		expect(r.json[1]).toMatchObject({ itemIndex: 1 });
		expect(String(r.json[1].error)).toMatch(/404/);
		expect(r.json[2]).toMatchObject({ id: good[1] });
		expect(r.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});
});

describe('Activity picker', () => {
	it('lists activities newest first, pages on, and searches by name through the list’s name filter', async () => {
		const picker = pickerContext(
			h,
			'businessPlatformSales',
			{ resource: 'activity', operation: 'get' },
			'parameters.activityId',
		);
		const total = liveActivities().length;
		const first = await searchActivities.call(picker);
		expect(first.results).toHaveLength(Math.min(50, total));
		expect(first.paginationToken).toBe(total > 50 ? '2' : undefined);

		const target = liveActivities().find((a) => String(a.name).startsWith('Meeting'))!;
		ctx.sb.resetStats();
		const found = await searchActivities.call(picker, 'meeting, with');
		expect(found.results.length).toBeGreaterThan(0);
		for (const r of found.results) expect(r.name.toLowerCase()).toContain('meeting');
		expect(found.results.map((r) => r.value)).toContain(String(target.id));
		expect(new URLSearchParams(ctx.sb.requests()[0].query).get('query')).toBe('name=meeting with');
	});
});
