/** Contact and Contact Label operations of the Sales node, through n8n-core, against the sandbox's state. */
import type { IDataObject } from 'n8n-workflow';

import { createHarness, type Harness } from '../../testbed/harness/run';
import { expectDeleted } from '../helpers/outcomes';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox({ rows: 25 });
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb);
});
const t = () => ctx.sb.store.tenant(1);
const sales = (params: IDataObject, input?: IDataObject[], continueOnFail = false) =>
	h.run(
		'businessPlatformSales',
		params,
		input?.map((json) => ({ json })),
		{ continueOnFail },
	);
const byId = (id: unknown) => ({ __rl: true, mode: 'id', value: String(id) });
const requestsTo = (method: string, route: string) =>
	ctx.sb.requests().filter((r) => r.method === method && r.route === `${method} ${route}`);

describe('Contact', () => {
	it('Create: the contact exists with its label, owner and custom fields', async () => {
		const label = t().labels.values()[0];
		const owner = t().crmUsers[1];
		const r = await sales({
			resource: 'contact',
			operation: 'create',
			name: 'Renée Ødegaard',
			type: 'person',
			additionalFields: {
				email: 'renee@example.com',
				labelId: label.id,
				ownerId: owner.id,
				customFields: { field: [{ shortName: 'tier', value: 'gold' }] },
			},
		});
		expect(r.error).toBeUndefined();
		const stored = t().contacts.get(r.json[0].id as number)!;
		expect(stored).toMatchObject({
			name: 'Renée Ødegaard',
			email: 'renee@example.com',
			label_id: label.id,
			owner_id: owner.id,
		});
		expect(stored.custom_field).toEqual([
			{ code: 'tier', label: 'tier', module: 'contact', shortName: 'tier', value: 'gold' },
		]);
	});

	it('Create or Update: an existing email is updated (no duplicate); a new email is created', async () => {
		const existing = t()
			.contacts.values()
			.find((c) => c.email)!;
		const before = t().contacts.size;
		const up = await sales({
			resource: 'contact',
			operation: 'upsert',
			email: String(existing.email).toUpperCase(),
			name: 'Upserted Name',
			type: 'person',
			additionalFields: { phone: '5550001' },
		});
		expect(up.error).toBeUndefined();
		expect(up.json[0]).toMatchObject({
			id: existing.id,
			upsertAction: 'updated',
			upsertMatches: 1,
		});
		expect(t().contacts.size).toBe(before);
		expect(t().contacts.get(existing.id as number)).toMatchObject({
			name: 'Upserted Name',
			phone: '5550001',
		});
		expect(
			t()
				.contacts.values()
				.filter((c) => String(c.email).toLowerCase() === String(existing.email).toLowerCase()),
		).toHaveLength(1);

		const created = await sales({
			resource: 'contact',
			operation: 'upsert',
			email: 'brand.new@example.com',
			name: 'Brand New',
			type: 'person',
		});
		expect(created.json[0]).toMatchObject({ upsertAction: 'created', upsertMatches: 0 });
		expect(t().contacts.size).toBe(before + 1);
		const again = await sales({
			resource: 'contact',
			operation: 'upsert',
			email: 'brand.new@example.com',
			name: 'Brand New 2',
			type: 'person',
		});
		expect(again.json[0]).toMatchObject({ upsertAction: 'updated' });
		expect(t().contacts.size).toBe(before + 1);
	});

	it('Create or Update refuses an email that is not one, before any request', async () => {
		ctx.sb.resetStats();
		const r = await sales({
			resource: 'contact',
			operation: 'upsert',
			email: 'not-an-email',
			name: 'X',
			type: 'person',
		});
		expect(r.error?.message).toMatch(/not an email address/);
		expect(ctx.sb.stats().requests).toBe(0);
	});

	it('Get and Get Many: simplified by default, raw on demand; filters go on the wire', async () => {
		const c = t().contacts.values()[2];
		const simple = await sales({ resource: 'contact', operation: 'get', contactId: byId(c.id) });
		expect(Object.keys(simple.json[0]).length).toBeLessThanOrEqual(10);
		expect(simple.json[0]).toMatchObject({ id: c.id, name: c.name });
		const raw = await sales({
			resource: 'contact',
			operation: 'get',
			contactId: byId(c.id),
			simplify: false,
		});
		expect(raw.json[0]).toHaveProperty('owner_details');
		ctx.sb.resetStats();
		const orgs = await sales({
			resource: 'contact',
			operation: 'getAll',
			returnAll: true,
			filters: { type: 'organization' },
			options: { orderBy: 'name', order: 'asc' },
		});
		expect(orgs.json.map((x) => x.id).sort()).toEqual(
			t()
				.contacts.values()
				.filter((x) => x.type === 'organization')
				.map((x) => x.id)
				.sort(),
		);
		const q = new URLSearchParams(requestsTo('GET', '/v1/crm/contacts')[0].query);
		expect([q.get('type'), q.get('orderBy'), q.get('order')]).toEqual([
			'organization',
			'name',
			'asc',
		]);
	});

	it('Get Many by IDs: exactly the listed contacts', async () => {
		const ids = t()
			.contacts.values()
			.slice(0, 3)
			.map((c) => c.id as number);
		const r = await sales({
			resource: 'contact',
			operation: 'getMany',
			contactIds: ids.join(', '),
		});
		expect(r.json.map((c) => c.id)).toEqual(ids);
	});

	it('Update changes only the given fields and outputs the contact read back', async () => {
		const c = t().contacts.values()[4];
		const r = await sales({
			resource: 'contact',
			operation: 'update',
			contactId: byId(c.id),
			updateFields: { phone: '12345' },
		});
		expect(r.json[0]).toMatchObject({ id: c.id, phone: '12345', name: c.name });
		expect(JSON.parse(requestsTo('PATCH', '/v1/crm/contacts/:id').pop()!.body!)).toEqual({
			phone: '12345',
		});
		const nothing = await sales({
			resource: 'contact',
			operation: 'update',
			contactId: byId(c.id),
			updateFields: {},
		});
		expect(nothing.error?.message).toBe('Nothing to update');
	});

	it('Replace clears the fields left out', async () => {
		const c = t()
			.contacts.values()
			.find((x) => x.email && x.phone)!;
		const r = await sales({
			resource: 'contact',
			operation: 'replace',
			contactId: byId(c.id),
			name: 'Replaced',
			type: 'person',
		});
		expect(r.error).toBeUndefined();
		expect(t().contacts.get(c.id as number)).toMatchObject({
			name: 'Replaced',
			email: null,
			phone: null,
		});
	});

	it('Delete removes the contact; Bulk Update changes every id, one item per id', async () => {
		const [a, b, c] = t().contacts.values().slice(6, 9);
		expectDeleted(
			await sales({ resource: 'contact', operation: 'delete', contactId: byId(a.id) }),
			a.id as number,
			t().contacts,
		);
		const label = t().labels.values()[2];
		const bulk = await sales({
			resource: 'contact',
			operation: 'bulkUpdate',
			contactIds: `${String(b.id)},${String(c.id)}`,
			updateFields: { labelId: label.id, visibilityType: 'team' },
		});
		expect(bulk.json).toEqual([
			{ id: b.id, updated: true },
			{ id: c.id, updated: true },
		]);
		for (const x of [b, c])
			expect(t().contacts.get(x.id as number)).toMatchObject({
				label_id: label.id,
				visibility_type: 'team',
			});
	});

	it('continue-on-fail: a missing contact fails on its own item; the others are processed in order', async () => {
		const [a, b] = t().contacts.values().slice(10, 12);
		const r = await sales(
			{ resource: 'contact', operation: 'get', contactId: byId('={{ $json.id }}') },
			[{ id: a.id as number }, { id: 999999 }, { id: b.id as number }],
			true,
		);
		expect(r.json[0]).toMatchObject({ id: a.id });
		expect(r.json[1]).toMatchObject({ error: expect.stringMatching(/404/), itemIndex: 1 });
		expect(r.json[2]).toMatchObject({ id: b.id });
		expect(r.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});
});

describe('Contact Label', () => {
	it('Create → Get → Get Many → Update → Delete, each checked in the sandbox', async () => {
		const created = await sales({
			resource: 'contactLabel',
			operation: 'create',
			name: 'Prospect',
			color: '#ff8800',
			icon: 'star',
		});
		const id = created.json[0].id as number;
		expect(t().labels.get(id)).toMatchObject({ name: 'Prospect', color: '#ff8800', icon: 'star' });
		expect(
			(await sales({ resource: 'contactLabel', operation: 'get', labelId: id })).json[0],
		).toMatchObject({ id, name: 'Prospect' });
		const all = await sales({ resource: 'contactLabel', operation: 'getAll', returnAll: true });
		expect(all.json.map((l) => l.id).sort()).toEqual(
			t()
				.labels.values()
				.map((l) => l.id)
				.sort(),
		);
		const limited = await sales({
			resource: 'contactLabel',
			operation: 'getAll',
			returnAll: false,
			limit: 2,
		});
		expect(limited.json).toHaveLength(2);
		const up = await sales({
			resource: 'contactLabel',
			operation: 'update',
			labelId: id,
			updateFields: { color: '#000000' },
		});
		expect(up.json[0]).toMatchObject({ id, name: 'Prospect', color: '#000000' });
		expect(t().labels.get(id)!.color).toBe('#000000');
		expectDeleted(
			await sales({ resource: 'contactLabel', operation: 'delete', labelId: id }),
			id,
			t().labels,
		);
	});

	it('refuses an empty name before sending', async () => {
		ctx.sb.resetStats();
		const r = await sales({ resource: 'contactLabel', operation: 'create', name: '  ' });
		expect(r.error?.message).toMatch(/Name is empty/);
		expect(ctx.sb.stats().requests).toBe(0);
	});
});
