/* eslint-disable @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
import { call, expectPlatformError, otherTenantToken, useSandbox } from '../helpers/sandbox';

const ctx = useSandbox();

const TABLES = '/v1/crm/core/table';
const ALL_TYPES = [
	'text',
	'string',
	'email',
	'phone',
	'number',
	'boolean',
	'date',
	'json',
	'select',
	'multi-select',
	'user',
	'ref',
];

type Rec = {
	_id: string;
	cells: Record<string, any>;
	createdAt: string;
	updatedAt: string;
	createdBy: number;
	permissions?: { owners: number[] };
};

let tableIds: Record<string, string> = {};
let userIds: number[] = [];

/** The stored records of a tenant-1 table, read straight from the sandbox's store. */
function stored(tableId: string): Rec[] {
	return ctx.sb.store.tenant(1).records.get(tableId)!.values() as unknown as Rec[];
}

async function paged(tableId: string, body: unknown, query: Record<string, any> = {}) {
	return call(ctx.sb, 'POST', `${TABLES}/${tableId}/paged-record`, {
		body,
		query: { pageSize: 500, ...query },
	});
}

/** Ids the API returns for a filter (one page of up to 500; the seeded tables are small). */
async function filterIds(
	tableId: string,
	conditions: unknown[],
	logicalOperator = 'and',
	query: Record<string, any> = {},
): Promise<string[]> {
	const res = await paged(tableId, { logicalOperator, conditions }, query);
	expect(res.status).toBe(200);
	expect(res.body.totalCount).toBe(res.body.data.length);
	return (res.body.data as Rec[]).map((r) => r._id).sort();
}

const idsWhere = (tableId: string, pred: (r: Rec) => boolean) =>
	stored(tableId)
		.filter(pred)
		.map((r) => r._id)
		.sort();

const empty = (v: unknown) =>
	v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

beforeAll(async () => {
	const res = await call(ctx.sb, 'GET', TABLES);
	tableIds = Object.fromEntries(res.body.data.map((t: any) => [t.objectType, t._id]));
	userIds = ctx.sb.store.tenant(1).crmUsers.map((u) => u.id);
	// Fixture contacts so every operator has both matching and non-matching rows.
	const fixtures = [
		{ c1a: 'Zed Fixture', c1h: 9, c1i: true, c1j: '2023-06-01T00:00:00Z', c1g: [1, 3], c1d: [2] },
		{
			c1a: 'Amy Fixture',
			c1b: 'amy@corp.example',
			c1h: 10,
			c1i: false,
			c1j: '2025-12-31T23:00:00Z',
			c1g: [],
			c1f: [userIds[1]],
		},
		{ c1a: 'bob fixture', c1b: '', c1k: 'Nowhere Lane' },
	];
	for (const cells of fixtures) {
		const r = await call(ctx.sb, 'POST', `${TABLES}/${tableIds.CONTACT}/record`, {
			body: { cells },
		});
		expect(r.status).toBe(201);
	}
});

describe('sandbox: tables', () => {
	it('lists the four tables with column metadata', async () => {
		const res = await call(ctx.sb, 'GET', TABLES);
		expect(res.status).toBe(200);
		expect(res.body.totalCount).toBe(4);
		expect(res.body.data.map((t: any) => t.objectType).sort()).toEqual([
			'CONTACT',
			'DEAL',
			'PIPELINE',
			'STAGE',
		]);
		for (const t of res.body.data) {
			expect(t).toEqual({
				_id: expect.stringMatching(/^[0-9a-f]{24}$/),
				name: expect.any(String),
				objectType: expect.any(String),
				databaseId: expect.any(String),
				databaseName: 'crm',
				columnsMetaData: expect.any(Array),
				createdAt: expect.any(String),
				updatedAt: expect.any(String),
				createdBy: expect.any(Number),
			});
		}
		const columns = res.body.data.flatMap((t: any) => t.columnsMetaData);
		for (const type of ALL_TYPES) expect(columns.some((c: any) => c.type === type)).toBe(true);
		for (const c of columns) {
			expect(c).toMatchObject({
				id: expect.any(String),
				name: expect.any(String),
				columnCode: expect.any(String),
				index: expect.any(Number),
				required: expect.any(Boolean),
				editable: expect.any(Boolean),
				hidden: expect.any(Boolean),
				systemField: expect.any(Boolean),
				uiVisible: expect.any(Boolean),
				width: expect.any(Number),
			});
			if (c.type === 'select' || c.type === 'multi-select') {
				expect(c.allowAddOption).toEqual(expect.any(Boolean));
				for (const o of c.options)
					expect(o).toEqual({
						id: expect.any(Number),
						name: expect.any(String),
						color: expect.any(String),
						systemField: expect.any(Boolean),
					});
			}
			if (c.type === 'ref') expect(Object.values(tableIds)).toContain(c.refTable._id);
		}
	});
	it('filters tables by objectTypes and databaseName', async () => {
		const two = await call(ctx.sb, 'GET', TABLES, { query: { objectTypes: 'CONTACT,DEAL' } });
		expect(two.body.totalCount).toBe(2);
		expect(two.body.data.map((t: any) => t.objectType).sort()).toEqual(['CONTACT', 'DEAL']);
		expect(
			(await call(ctx.sb, 'GET', TABLES, { query: { databaseName: 'crm' } })).body.totalCount,
		).toBe(4);
		expect((await call(ctx.sb, 'GET', TABLES, { query: { databaseName: 'nope' } })).body).toEqual({
			data: [],
			totalCount: 0,
		});
	});
	it('answers tables keyed by object type', async () => {
		const res = await call(ctx.sb, 'GET', `${TABLES}/by-object-type`);
		expect(res.status).toBe(200);
		expect(Object.keys(res.body).sort()).toEqual(['CONTACT', 'DEAL', 'PIPELINE', 'STAGE']);
		expect(res.body.DEAL._id).toBe(tableIds.DEAL);
		const one = await call(ctx.sb, 'GET', `${TABLES}/by-object-type`, {
			query: { objectTypes: 'STAGE', databaseName: 'crm' },
		});
		expect(Object.keys(one.body)).toEqual(['STAGE']);
	});
	it('gets one table and 404s for an unknown id', async () => {
		const res = await call(ctx.sb, 'GET', `${TABLES}/${tableIds.DEAL}`);
		expect(res.status).toBe(200);
		expect(res.body.objectType).toBe('DEAL');
		expectPlatformError(await call(ctx.sb, 'GET', `${TABLES}/000000000000000000000000`), 404);
	});
	it('needs a token', async () => {
		for (const path of [TABLES, `${TABLES}/by-object-type`, `${TABLES}/${tableIds.CONTACT}`]) {
			const res = await call(ctx.sb, 'GET', path, { token: null });
			expectPlatformError(res, 401);
		}
	});
	it('keeps tables per tenant', async () => {
		const token = otherTenantToken(ctx.sb);
		const other = await call(ctx.sb, 'GET', TABLES, { token });
		expect(other.body.totalCount).toBe(4);
		for (const t of other.body.data) expect(Object.values(tableIds)).not.toContain(t._id);
		expect((await call(ctx.sb, 'GET', `${TABLES}/${tableIds.CONTACT}`, { token })).status).toBe(
			404,
		);
		const byType = await call(ctx.sb, 'GET', `${TABLES}/by-object-type`, { token });
		expect(byType.body.CONTACT._id).not.toBe(tableIds.CONTACT);
	});
});

describe('sandbox: records', () => {
	it('seeds records with typed cells', () => {
		const contacts = stored(tableIds.CONTACT);
		expect(contacts.length).toBeGreaterThanOrEqual(30);
		for (const r of contacts) {
			expect(typeof r.cells.c1a).toBe('string');
			if (r.cells.c1d) expect(r.cells.c1d.every((x: unknown) => Number.isInteger(x))).toBe(true);
			if (r.cells.c1f) for (const u of r.cells.c1f) expect(userIds).toContain(u);
			if (r.cells.c1j) expect(new Date(r.cells.c1j).toISOString()).toBe(r.cells.c1j);
			expect(r.permissions!.owners.length).toBeGreaterThan(0);
		}
		const contactIds = new Set(contacts.map((r) => r._id));
		for (const d of stored(tableIds.DEAL))
			for (const id of d.cells.d1e ?? []) expect(contactIds.has(id)).toBe(true);
		// Seeded records have distinct times (the fixtures created by this file may share a millisecond).
		const seeded = contacts.filter((r) => !/fixture/i.test(String(r.cells.c1a)));
		expect(new Set(seeded.map((r) => r.createdAt)).size).toBe(seeded.length);
	});

	it('round-trips a record: create, get, list, count, update, delete', async () => {
		const base = `${TABLES}/${tableIds.DEAL}`;
		const before = (await call(ctx.sb, 'GET', `${base}/count`)).body.count;
		expect(before).toBe(stored(tableIds.DEAL).length);
		const contactId = stored(tableIds.CONTACT)[0]._id;
		const cells = {
			d1a: 'Round trip deal',
			d1b: 1234.5,
			d1c: 'EUR',
			d1d: 2,
			d1e: [contactId],
			d1g: [userIds[2]],
			d1h: '2024-07-01T10:00:00+02:00',
			d1i: [1, 2],
			d1j: [{ sku: 'A', qty: 1 }],
			d1l: true,
		};
		const created = await call(ctx.sb, 'POST', `${base}/record`, { body: { cells } });
		expect(created.status).toBe(201);
		expect(created.body).toEqual({
			success: true,
			id: expect.any(String),
			data: expect.objectContaining({ _id: created.body.id }),
		});
		const id = created.body.id;
		expect(created.body.data.cells).toEqual({
			...cells,
			d1d: [2],
			d1h: '2024-07-01T08:00:00.000Z',
		});
		expect(created.body.data.createdBy).toBe(1);
		expect(created.body.data.permissions).toEqual({ owners: [userIds[2]] });

		const got = await call(ctx.sb, 'GET', `${base}/record/${id}`);
		expect(got.status).toBe(200);
		expect(got.body).toEqual(created.body.data);
		expect((await call(ctx.sb, 'GET', `${base}/count`)).body).toEqual({ count: before + 1 });
		expect(
			await filterIds(tableIds.DEAL, [{ colId: 'd1a', opr: 'eq', value: 'round trip deal' }]),
		).toEqual([id]);

		// PUT merges the given cells; null clears one.
		const updated = await call(ctx.sb, 'PUT', `${base}/record/${id}`, {
			body: { cells: { d1b: 99, d1c: null, d1g: userIds[3] } },
		});
		expect(updated.status).toBe(200);
		expect(updated.body).toEqual({ success: true, id, data: expect.any(Object) });
		expect(updated.body.data.cells).toEqual({
			...cells,
			d1b: 99,
			d1c: undefined,
			d1d: [2],
			d1h: '2024-07-01T08:00:00.000Z',
			d1g: [userIds[3]],
		});
		expect('d1c' in updated.body.data.cells).toBe(false);
		expect(updated.body.data.permissions).toEqual({ owners: [userIds[3]] });
		expect((await call(ctx.sb, 'GET', `${base}/record/${id}`)).body.cells.d1b).toBe(99);

		const deleted = await call(ctx.sb, 'DELETE', `${base}/record/${id}`);
		expect(deleted.status).toBe(200);
		expect(deleted.body).toEqual({ success: true, id });
		expectPlatformError(await call(ctx.sb, 'GET', `${base}/record/${id}`), 404);
		expectPlatformError(
			await call(ctx.sb, 'PUT', `${base}/record/${id}`, { body: { cells: { d1b: 1 } } }),
			404,
		);
		expectPlatformError(await call(ctx.sb, 'DELETE', `${base}/record/${id}`), 404);
		expect((await call(ctx.sb, 'GET', `${base}/count`)).body).toEqual({ count: before });
	});

	it('404s for an unknown table on every record endpoint', async () => {
		const base = `${TABLES}/000000000000000000000000`;
		expectPlatformError(await call(ctx.sb, 'POST', `${base}/record`, { body: { cells: {} } }), 404);
		expectPlatformError(await call(ctx.sb, 'GET', `${base}/record/x`), 404);
		expectPlatformError(
			await call(ctx.sb, 'PUT', `${base}/record/x`, { body: { cells: {} } }),
			404,
		);
		expectPlatformError(await call(ctx.sb, 'DELETE', `${base}/record/x`), 404);
		expectPlatformError(await call(ctx.sb, 'GET', `${base}/count`), 404);
		expectPlatformError(
			await call(ctx.sb, 'POST', `${base}/paged-record`, { body: { logicalOperator: 'and' } }),
			404,
		);
	});

	it('needs a token on every record endpoint', async () => {
		const base = `${TABLES}/${tableIds.CONTACT}`;
		const id = stored(tableIds.CONTACT)[0]._id;
		const calls: [string, string, unknown?][] = [
			['POST', `${base}/record`, { cells: { c1a: 'x' } }],
			['GET', `${base}/record/${id}`],
			['PUT', `${base}/record/${id}`, { cells: { c1a: 'x' } }],
			['DELETE', `${base}/record/${id}`],
			['GET', `${base}/count`],
			['POST', `${base}/paged-record`, { logicalOperator: 'and' }],
		];
		for (const [method, path, body] of calls)
			expectPlatformError(await call(ctx.sb, method, path, { body, token: null }), 401);
		expect(stored(tableIds.CONTACT).some((r) => r._id === id)).toBe(true);
	});

	it('keeps records per tenant', async () => {
		const token = otherTenantToken(ctx.sb);
		const base = `${TABLES}/${tableIds.CONTACT}`;
		const id = stored(tableIds.CONTACT)[0]._id;
		expect((await call(ctx.sb, 'GET', `${base}/record/${id}`, { token })).status).toBe(404);
		expect(
			(
				await call(ctx.sb, 'PUT', `${base}/record/${id}`, {
					token,
					body: { cells: { c1a: 'hijack' } },
				})
			).status,
		).toBe(404);
		expect((await call(ctx.sb, 'DELETE', `${base}/record/${id}`, { token })).status).toBe(404);
		expect((await call(ctx.sb, 'GET', `${base}/count`, { token })).status).toBe(404);
		expect(
			(await call(ctx.sb, 'POST', `${base}/record`, { token, body: { cells: { c1a: 'x' } } }))
				.status,
		).toBe(404);
		expect(
			(
				await call(ctx.sb, 'POST', `${base}/paged-record`, {
					token,
					body: { logicalOperator: 'and' },
				})
			).status,
		).toBe(404);
		// The other tenant's own CONTACT table holds none of tenant 1's records.
		const theirs = (await call(ctx.sb, 'GET', `${TABLES}/by-object-type`, { token })).body.CONTACT
			._id;
		const page = await call(ctx.sb, 'POST', `${TABLES}/${theirs}/paged-record`, {
			token,
			body: { logicalOperator: 'and' },
			query: { pageSize: 500 },
		});
		expect(page.status).toBe(200);
		const mine = new Set(stored(tableIds.CONTACT).map((r) => r._id));
		expect(page.body.data.some((r: Rec) => mine.has(r._id))).toBe(false);
		expect(stored(tableIds.CONTACT).find((r) => r._id === id)!.cells.c1a).not.toBe('hijack');
	});

	it('validates cells on create and update', async () => {
		const base = `${TABLES}/${tableIds.CONTACT}`;
		const post = (body: unknown) => call(ctx.sb, 'POST', `${base}/record`, { body });
		expectPlatformError(await post({}), 400, 'cells');
		expectPlatformError(await post({ cells: 'x' }), 400, 'cells');
		expectPlatformError(await post({ cells: { c1a: 'x', nope: 1 } }), 400, 'cells.nope');
		expectPlatformError(await post({ cells: { c1a: 'x', c1h: '12' } }), 400, 'cells.c1h');
		expectPlatformError(await post({ cells: { c1a: 'x', c1i: 'yes' } }), 400, 'cells.c1i');
		expectPlatformError(await post({ cells: { c1a: 'x', c1j: 'not a date' } }), 400, 'cells.c1j');
		expectPlatformError(await post({ cells: { c1a: 'x', c1d: [99] } }), 400, 'cells.c1d');
		expectPlatformError(await post({ cells: { c1a: 'x', c1d: [1, 2] } }), 400, 'cells.c1d');
		expectPlatformError(await post({ cells: { c1a: 'x', c1g: ['a'] } }), 400, 'cells.c1g');
		expectPlatformError(await post({ cells: { c1a: 'x', c1f: [424242] } }), 400, 'cells.c1f');
		expectPlatformError(await post({ cells: { c1a: 42 } }), 400, 'cells.c1a');
		expectPlatformError(await post({ cells: { c1b: 'no-name@x.example' } }), 400, 'cells.c1a');
		const both = await post({ cells: { c1a: 'x', c1h: 'a', zz: 1 } });
		expect(both.body.errors).toEqual([
			{ field: 'cells.c1h', error: 'must be a number' },
			{ field: 'cells.zz', error: 'unknown column' },
		]);
		const dealRef = await call(ctx.sb, 'POST', `${TABLES}/${tableIds.DEAL}/record`, {
			body: { cells: { d1a: 'x', d1e: ['000000000000000000000000'] } },
		});
		expectPlatformError(dealRef, 400, 'cells.d1e');

		// A single id is accepted for select-like columns and stored as an array.
		const ok = await post({ cells: { c1a: 'Single ids', c1d: 1, c1g: 2, c1f: userIds[0] } });
		expect(ok.status).toBe(201);
		expect(ok.body.data.cells).toMatchObject({ c1d: [1], c1g: [2], c1f: [userIds[0]] });
		const id = ok.body.id;
		const put = (body: unknown) => call(ctx.sb, 'PUT', `${base}/record/${id}`, { body });
		expectPlatformError(await put({}), 400, 'cells');
		expectPlatformError(await put({ cells: { c1h: true } }), 400, 'cells.c1h');
		expectPlatformError(await put({ cells: { c1a: null } }), 400, 'cells.c1a');
		expectPlatformError(await put({ cells: { c1a: '' } }), 400, 'cells.c1a');
		expectPlatformError(await put({ cells: { c9z: 1 } }), 400, 'cells.c9z');
		expect((await call(ctx.sb, 'GET', `${base}/record/${id}`)).body.cells.c1a).toBe('Single ids');
		expect((await call(ctx.sb, 'DELETE', `${base}/record/${id}`)).status).toBe(200);
	});

	it('validates the paged-record request', async () => {
		const t = tableIds.CONTACT;
		expectPlatformError(await paged(t, {}), 400, 'logicalOperator');
		expectPlatformError(await paged(t, { logicalOperator: 'xor' }), 400, 'logicalOperator');
		expectPlatformError(
			await paged(t, { logicalOperator: 'and', conditions: 'x' }),
			400,
			'conditions',
		);
		expectPlatformError(
			await paged(t, {
				logicalOperator: 'and',
				conditions: [{ colId: 'zz', opr: 'eq', value: '1' }],
			}),
			400,
			'conditions[0].colId',
		);
		expectPlatformError(
			await paged(t, {
				logicalOperator: 'and',
				conditions: [{ colId: 'c1a', opr: 'like', value: '1' }],
			}),
			400,
			'conditions[0].opr',
		);
		expectPlatformError(
			await paged(t, {
				logicalOperator: 'and',
				conditions: [{ colId: 'c1a', opr: 'eq', value: 1 }],
			}),
			400,
			'conditions[0].value',
		);
		expectPlatformError(
			await paged(t, {
				logicalOperator: 'and',
				conditions: [{ colId: 'c1h', opr: 'gt', value: 'ten' }],
			}),
			400,
			'conditions[0].value',
		);
		expectPlatformError(
			await paged(t, {
				logicalOperator: 'and',
				conditions: [{ colId: 'c1j', opr: 'lt', value: 'someday' }],
			}),
			400,
			'conditions[0].value',
		);
		expectPlatformError(await paged(t, { logicalOperator: 'and' }, { sortDir: 2 }), 400, 'sortDir');
		expectPlatformError(
			await paged(t, { logicalOperator: 'and' }, { sortCol: 'nope' }),
			400,
			'sortCol',
		);
		expectPlatformError(await paged(t, { logicalOperator: 'and' }, { pageNo: 0 }), 400, 'pageNo');
		expectPlatformError(
			await paged(t, { logicalOperator: 'and' }, { pageSize: 'x' }),
			400,
			'pageSize',
		);
		expectPlatformError(
			await paged(t, { logicalOperator: 'and' }, { fetchAllRef: 'maybe' }),
			400,
			'fetchAllRef',
		);
		expectPlatformError(
			await paged(tableIds.DEAL, { logicalOperator: 'and' }, { colIdsToFetchRef: 'd1a' }),
			400,
			'colIdsToFetchRef',
		);
	});

	it('answers the documented defaults of paged-record', async () => {
		const res = await call(ctx.sb, 'POST', `${TABLES}/${tableIds.CONTACT}/paged-record`, {
			body: { logicalOperator: 'and' },
		});
		expect(res.status).toBe(200);
		const all = stored(tableIds.CONTACT);
		expect(res.body).toMatchObject({
			totalCount: all.length,
			sortCol: 'createdAt',
			sortDir: -1,
			pageNo: 1,
			pageSize: 30,
		});
		expect(res.body.data).toHaveLength(30);
		// Newest first; records created in the same millisecond are ordered by _id, descending too.
		const newest = [...all]
			.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b._id.localeCompare(a._id))
			.slice(0, 30)
			.map((r) => r._id);
		expect(res.body.data.map((r: Rec) => r._id)).toEqual(newest);
		const capped = await paged(tableIds.CONTACT, { logicalOperator: 'and' }, { pageSize: 100000 });
		expect(capped.body.pageSize).toBe(ctx.sb.config.maxPageSize);
	});
});

describe('sandbox: record filter operators', () => {
	const t = () => tableIds.CONTACT;
	const cond = (colId: string, opr: string, value?: string) => ({ colId, opr, value });
	const check = async (conditions: unknown[], pred: (r: Rec) => boolean, logical = 'and') => {
		const expected = idsWhere(t(), pred);
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(stored(t()).length);
		expect(await filterIds(t(), conditions, logical)).toEqual(expected);
	};

	it('eq: text, case-insensitive', async () => {
		await check(
			[cond('c1a', 'eq', 'ZED FIXTURE')],
			(r) => String(r.cells.c1a ?? '').toLowerCase() === 'zed fixture',
		);
	});
	it('eq: number, boolean and select membership', async () => {
		await check([cond('c1h', 'eq', '10')], (r) => r.cells.c1h === 10);
		await check([cond('c1i', 'eq', 'true')], (r) => r.cells.c1i === true);
		await check([cond('c1g', 'eq', '3')], (r) => (r.cells.c1g ?? []).includes(3));
		// An option may be named instead of its id.
		await check([cond('c1d', 'eq', 'organization')], (r) => (r.cells.c1d ?? []).includes(2));
	});
	it('neq: select membership negated (empty cells match)', async () => {
		await check([cond('c1d', 'neq', '2')], (r) => !(r.cells.c1d ?? []).includes(2));
	});
	it('emp', async () => {
		await check([cond('c1b', 'emp')], (r) => empty(r.cells.c1b));
		await check([cond('c1g', 'emp')], (r) => empty(r.cells.c1g));
	});
	it('nemp', async () => {
		await check([cond('c1h', 'nemp', '')], (r) => !empty(r.cells.c1h));
	});
	it('lt: numeric, not lexicographic', async () => {
		await check(
			[cond('c1h', 'lt', '10')],
			(r) => typeof r.cells.c1h === 'number' && r.cells.c1h < 10,
		);
	});
	it('lte: dates as timestamps', async () => {
		const value = '2024-06-30T12:00:00+02:00';
		await check(
			[cond('c1j', 'lte', value)],
			(r) => !!r.cells.c1j && Date.parse(r.cells.c1j) <= Date.parse(value),
		);
	});
	it('gt: numeric', async () => {
		await check(
			[cond('c1h', 'gt', '9')],
			(r) => typeof r.cells.c1h === 'number' && r.cells.c1h > 9,
		);
	});
	it('gte: dates, including createdAt', async () => {
		await check(
			[cond('c1j', 'gte', '2024-06-30')],
			(r) => !!r.cells.c1j && Date.parse(r.cells.c1j) >= Date.parse('2024-06-30'),
		);
		await check(
			[cond('createdAt', 'gte', '2024-01-01T20:00:00Z')],
			(r) => Date.parse(r.createdAt) >= Date.parse('2024-01-01T20:00:00Z'),
		);
	});
	it('in: any of a comma-separated list of option ids', async () => {
		await check([cond('c1g', 'in', '1, 3')], (r) =>
			(r.cells.c1g ?? []).some((x: number) => x === 1 || x === 3),
		);
		await check([cond('c1h', 'in', '9,10')], (r) => r.cells.c1h === 9 || r.cells.c1h === 10);
	});
	it('nin: none of a list of user ids', async () => {
		const list = [userIds[0], userIds[1]];
		await check(
			[cond('c1f', 'nin', list.join(','))],
			(r) => !(r.cells.c1f ?? []).some((u: number) => list.includes(u)),
		);
	});
	it('sw', async () => {
		await check([cond('c1a', 'sw', 'ZE')], (r) =>
			String(r.cells.c1a ?? '')
				.toLowerCase()
				.startsWith('ze'),
		);
	});
	it('ew', async () => {
		await check([cond('c1b', 'ew', '@CORP.example')], (r) =>
			String(r.cells.c1b ?? '')
				.toLowerCase()
				.endsWith('@corp.example'),
		);
	});
	it('c: text and option names', async () => {
		await check([cond('c1a', 'c', 'fixture')], (r) =>
			String(r.cells.c1a ?? '')
				.toLowerCase()
				.includes('fixture'),
		);
		await check([cond('c1g', 'c', 'news')], (r) => (r.cells.c1g ?? []).includes(2));
	});
	it('nc', async () => {
		await check(
			[cond('c1a', 'nc', 'A')],
			(r) =>
				!String(r.cells.c1a ?? '')
					.toLowerCase()
					.includes('a'),
		);
	});
	it('combines conditions with and / or', async () => {
		const a = cond('c1h', 'gte', '50');
		const b = cond('c1i', 'eq', 'false');
		const pa = (r: Rec) => typeof r.cells.c1h === 'number' && r.cells.c1h >= 50;
		const pb = (r: Rec) => r.cells.c1i === false;
		await check([a, b], (r) => pa(r) && pb(r), 'and');
		await check([a, b], (r) => pa(r) || pb(r), 'or');
		await check([a, b], (r) => pa(r) && pb(r), 'AND');
	});
	it('searches text-like cells with q', async () => {
		const expected = idsWhere(t(), (r) =>
			['c1a', 'c1b', 'c1c', 'c1k'].some(
				(k) => typeof r.cells[k] === 'string' && r.cells[k].toLowerCase().includes('corp'),
			),
		);
		expect(expected.length).toBeGreaterThan(0);
		expect(await filterIds(t(), [], 'and', { q: 'CORP' })).toEqual(expected);
		const withCond = idsWhere(
			t(),
			(r) => expected.includes(r._id) && typeof r.cells.c1h === 'number' && r.cells.c1h > 9,
		);
		expect(await filterIds(t(), [cond('c1h', 'gt', '9')], 'and', { q: 'corp' })).toEqual(withCond);
	});
	it('sorts by a column in both directions', async () => {
		const asc = await paged(t(), { logicalOperator: 'and' }, { sortCol: 'c1h', sortDir: 1 });
		expect(asc.body).toMatchObject({ sortCol: 'c1h', sortDir: 1 });
		const scores = asc.body.data.map((r: Rec) =>
			typeof r.cells.c1h === 'number' ? r.cells.c1h : -Infinity,
		);
		expect(scores).toEqual([...scores].sort((x: number, y: number) => x - y));
		const desc = await paged(t(), { logicalOperator: 'and' }, { sortCol: 'c1h', sortDir: -1 });
		expect(desc.body.data.map((r: Rec) => r._id)).toEqual(
			asc.body.data.map((r: Rec) => r._id).reverse(),
		);
		const byName = await paged(t(), { logicalOperator: 'and' }, { sortCol: 'c1a', sortDir: 1 });
		const names = byName.body.data.map((r: Rec) => r.cells.c1a.toLowerCase());
		expect(names).toEqual([...names].sort((x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0)));
		const oldest = await paged(
			t(),
			{ logicalOperator: 'and' },
			{ sortCol: 'createdAt', sortDir: 1 },
		);
		const created = oldest.body.data.map((r: Rec) => r.createdAt);
		expect(created).toEqual([...created].sort());
	});
	it('pages to the end', async () => {
		const total = stored(t()).length;
		const seen: string[] = [];
		let pageNo = 1;
		for (;;) {
			const res = await paged(t(), { logicalOperator: 'and' }, { pageNo, pageSize: 7 });
			expect(res.body).toMatchObject({ totalCount: total, pageNo, pageSize: 7 });
			seen.push(...res.body.data.map((r: Rec) => r._id));
			if (res.body.data.length < 7) break;
			pageNo++;
		}
		expect(pageNo).toBe(Math.floor(total / 7) + 1);
		expect(seen).toHaveLength(total);
		expect(new Set(seen).size).toBe(total);
		const beyond = await paged(
			t(),
			{ logicalOperator: 'and' },
			{ pageNo: pageNo + 5, pageSize: 7 },
		);
		expect(beyond.body.data).toEqual([]);
		expect(beyond.body.totalCount).toBe(total);
	});
	it('expands ref cells with fetchAllRef and colIdsToFetchRef', async () => {
		const contacts = new Map(stored(tableIds.CONTACT).map((r) => [r._id, r]));
		const stages = new Map(stored(tableIds.STAGE).map((r) => [r._id, r]));
		const all = await paged(tableIds.DEAL, { logicalOperator: 'and' }, { fetchAllRef: true });
		expect(all.status).toBe(200);
		expect(all.body.data.length).toBeGreaterThan(0);
		for (const d of all.body.data) {
			expect(Object.keys(d.refData).sort()).toEqual(['d1e', 'd1f']);
			expect(d.refData.d1e.map((x: Rec) => x._id)).toEqual(d.cells.d1e ?? []);
			for (const x of d.refData.d1e) expect(x.cells).toEqual(contacts.get(x._id)!.cells);
			for (const x of d.refData.d1f) expect(x.cells).toEqual(stages.get(x._id)!.cells);
		}
		expect(all.body.data.some((d: any) => d.refData.d1e.length > 0)).toBe(true);
		const some = await paged(
			tableIds.DEAL,
			{ logicalOperator: 'and' },
			{ colIdsToFetchRef: 'd1f' },
		);
		for (const d of some.body.data) expect(Object.keys(d.refData)).toEqual(['d1f']);
		const none = await paged(tableIds.DEAL, { logicalOperator: 'and' });
		for (const d of none.body.data) expect(d.refData).toBeUndefined();
		// fetchAllRef takes precedence over colIdsToFetchRef.
		const both = await paged(
			tableIds.DEAL,
			{ logicalOperator: 'and' },
			{ fetchAllRef: true, colIdsToFetchRef: 'd1f' },
		);
		expect(Object.keys(both.body.data[0].refData).sort()).toEqual(['d1e', 'd1f']);
		// A ref to a STAGE: filter by the referenced record id.
		const stageId = stored(tableIds.DEAL).find((d) => d.cells.d1f?.length)!.cells.d1f[0];
		expect(await filterIds(tableIds.DEAL, [{ colId: 'd1f', opr: 'eq', value: stageId }])).toEqual(
			idsWhere(tableIds.DEAL, (d) => (d.cells.d1f ?? []).includes(stageId)),
		);
	});
});

describe('sandbox: bulk records', () => {
	it('seeds 50,000 records and pages through them', async () => {
		const tableId = tableIds.PIPELINE;
		const before = stored(tableId).length;
		const seeded = await call(ctx.sb, 'POST', '/__admin/seed', {
			token: null,
			body: { kind: 'records', tableId, count: 50000 },
		});
		expect(seeded.status).toBe(200);
		expect(seeded.body).toEqual({ kind: 'records', added: 50000 });
		const total = before + 50000;
		expect((await call(ctx.sb, 'GET', `${TABLES}/${tableId}/count`)).body).toEqual({
			count: total,
		});
		const seen = new Set<string>();
		let pageNo = 1;
		for (;;) {
			const res = await paged(tableId, { logicalOperator: 'and' }, { pageNo, pageSize: 500 });
			expect(res.status).toBe(200);
			expect(res.body.totalCount).toBe(total);
			for (const r of res.body.data) {
				expect(seen.has(r._id)).toBe(false);
				seen.add(r._id);
			}
			if (res.body.data.length < 500) break;
			pageNo++;
		}
		expect(seen.size).toBe(total);
	});
	it('adds records by objectType', async () => {
		const res = await call(ctx.sb, 'POST', '/__admin/seed', {
			token: null,
			body: { kind: 'records', objectType: 'STAGE', count: 5 },
		});
		expect(res.body).toEqual({ kind: 'records', added: 5 });
		expect(stored(tableIds.STAGE).length).toBe(ctx.sb.config.rows + 5);
	});
});
