/** Demo tables and generated records (seed data and the bulk generator for benchmarks). */
import type { Env } from '../../env';
import { badRequest } from '../../http';
import { COMPANIES, FIRST_NAMES, LAST_NAMES, pickOne, type SeedCtx } from '../../module';
import { Collection, type Doc, type Tenant } from '../../state';
import {
	buildColumns,
	OBJECT_TYPES,
	TABLE_DEFS,
	type ObjectType,
	type Table,
	type TableRecord,
} from './model';
import { setPermissions } from './records';
import { getTable, recordsOf } from './tables';

const STAGE_NAMES = [
	'Qualified',
	'Contact made',
	'Demo scheduled',
	'Proposal made',
	'Negotiation',
	'Won',
	'Lost',
];
const PIPELINE_NAMES = ['Sales', 'Partnerships', 'Renewals', 'Enterprise', 'SMB'];
const SEED_BASE = Date.UTC(2024, 0, 1, 8, 0, 0);

interface GenCtx {
	rnd: () => number;
	users: number[];
	/** Record ids per ref table id. */
	refIds: Map<string, string[]>;
	n: number;
}

function nameCell(objectType: ObjectType, g: GenCtx): string {
	const { rnd, n } = g;
	switch (objectType) {
		case 'CONTACT':
			return rnd() < 0.25
				? `${pickOne(rnd, COMPANIES)} ${n}`
				: `${pickOne(rnd, FIRST_NAMES)} ${pickOne(rnd, LAST_NAMES)}`;
		case 'DEAL':
			return `${pickOne(rnd, COMPANIES)} deal ${n}`;
		case 'STAGE':
			return `${STAGE_NAMES[(n - 1) % STAGE_NAMES.length]} ${n}`;
		case 'PIPELINE':
			return `${PIPELINE_NAMES[(n - 1) % PIPELINE_NAMES.length]} pipeline ${n}`;
	}
}

/** Cells for one generated record; about one optional cell in eight stays empty. */
function generateCells(table: Table, g: GenCtx): Record<string, unknown> {
	const { rnd } = g;
	const cells: Record<string, unknown> = {};
	let name = '';
	for (const col of table.columnsMetaData) {
		if (!col.required && rnd() < 0.125) continue;
		switch (col.type) {
			case 'text':
				if (col.columnCode === 'NAME') cells[col.id] = name = nameCell(table.objectType, g);
				else
					cells[col.id] = pickOne(rnd, [
						'Call back next week',
						'Sent the proposal',
						'Asked for a discount',
						'Met at the fair',
					]);
				break;
			case 'email':
				cells[col.id] = `${(name || 'user')
					.toLowerCase()
					.normalize('NFKD')
					.replace(/[^a-z0-9]+/g, '.')}.${g.n}@${rnd() < 0.5 ? 'mail' : 'corp'}.example`;
				break;
			case 'phone':
				cells[col.id] = `+1555${String(Math.floor(rnd() * 1e7)).padStart(7, '0')}`;
				break;
			case 'string':
				cells[col.id] =
					col.columnCode === 'CURRENCY'
						? pickOne(rnd, ['USD', 'EUR', 'GBP'])
						: `${Math.floor(rnd() * 900) + 100} Market Street, Springfield`;
				break;
			case 'number':
				cells[col.id] =
					col.columnCode === 'AMOUNT'
						? Math.round(rnd() * 100000) / 10
						: col.columnCode === 'ORDER'
							? g.n
							: Math.floor(rnd() * 101);
				break;
			case 'boolean':
				cells[col.id] = rnd() < 0.5;
				break;
			case 'date':
				cells[col.id] = new Date(
					SEED_BASE + Math.floor(rnd() * 400) * 86_400_000 + Math.floor(rnd() * 24) * 3_600_000,
				).toISOString();
				break;
			case 'json':
				cells[col.id] = {
					source: pickOne(rnd, ['import', 'web', 'api']),
					rank: Math.floor(rnd() * 10),
				};
				break;
			case 'json_array':
				cells[col.id] = [
					{ sku: `SKU-${Math.floor(rnd() * 900) + 100}`, qty: Math.floor(rnd() * 5) + 1 },
				];
				break;
			case 'select':
				cells[col.id] = [pickOne(rnd, col.options ?? [])?.id].filter((x) => x !== undefined);
				break;
			case 'multi-select': {
				const opts = (col.options ?? []).filter(() => rnd() < 0.4).map((o) => o.id);
				cells[col.id] = opts;
				break;
			}
			case 'user':
				cells[col.id] = [pickOne(rnd, g.users)];
				break;
			case 'ref': {
				const ids = col.refTable ? (g.refIds.get(col.refTable._id) ?? []) : [];
				if (ids.length) cells[col.id] = [pickOne(rnd, ids)];
				break;
			}
		}
	}
	return cells;
}

/**
 * Record ids for a batch, in the store's 24-hex-digit format: the first 18 digits
 * of one `store.nextOid()` (time plus 40 random bits) and a 6-digit counter. One
 * nextOid per 16M ids instead of one per record keeps bulk seeding fast.
 */
function oidBatch(env: Env): () => string {
	let prefix = '';
	let n = 0;
	return () => {
		if (n % 0x1000000 === 0) prefix = env.store.nextOid().slice(0, 18);
		return prefix + (n++ % 0x1000000).toString(16).padStart(6, '0');
	};
}

function addRecords(
	env: Env,
	tenant: Tenant,
	table: Table,
	count: number,
	rnd: () => number,
	createdAt: (i: number) => number,
): number {
	const records = recordsOf(tenant, table);
	const refIds = new Map<string, string[]>();
	for (const col of table.columnsMetaData) {
		if (col.refTable)
			refIds.set(
				col.refTable._id,
				[...(tenant.records.get(col.refTable._id)?.values() ?? [])].map((r) => r._id as string),
			);
	}
	const users = tenant.crmUsers.map((u) => u.id);
	const start = records.size;
	const nextId = oidBatch(env);
	for (let i = 0; i < count; i++) {
		const at = createdAt(i);
		const rec: TableRecord = {
			_id: nextId(),
			cells: generateCells(table, { rnd, users, refIds, n: start + i + 1 }),
			createdAt: new Date(at).toISOString(),
			updatedAt: new Date(at + Math.floor(rnd() * 3) * 86_400_000).toISOString(),
			createdBy: pickOne(rnd, users),
		};
		setPermissions(table, rec);
		records.set(rec._id, rec);
	}
	return count;
}

export function bulkRecords(
	env: Env,
	tenant: Tenant,
	count: number,
	options: Record<string, unknown>,
): number {
	let table: Table | undefined;
	if (typeof options.tableId === 'string') table = getTable(tenant, options.tableId);
	else {
		const objectType = typeof options.objectType === 'string' ? options.objectType : 'CONTACT';
		table = tenant.tables.values().find((t) => t.objectType === objectType) as Table | undefined;
		if (!table)
			throw badRequest(`No table with objectType ${objectType}`, [
				{ field: 'objectType', error: 'unknown object type' },
			]);
	}
	if (!Number.isInteger(count) || count < 0)
		throw badRequest('count must be a non-negative integer', [
			{ field: 'count', error: 'must be a non-negative integer' },
		]);
	// Increasing creation times: from `at` (ms), `every` ms apart (0: one frozen time); by default distinct, ending now.
	const at = typeof options.at === 'number' && Number.isFinite(options.at) ? options.at : undefined;
	const every = typeof options.every === 'number' && options.every >= 0 ? options.every : 1;
	const t0 = at ?? env.store.clock.now() - count * every;
	return addRecords(env, tenant, table, count, Math.random, (i) => t0 + i * every);
}

/** The four tables of the database "crm", then their records (referenced tables first). */
export function seedTables(env: Env, tenant: Tenant, s: SeedCtx): void {
	const createdBy = tenant.crmUsers[0].id;
	const databaseId = env.store.nextOid();
	const ids = Object.fromEntries(OBJECT_TYPES.map((t) => [t, env.store.nextOid()])) as Record<
		ObjectType,
		string
	>;
	OBJECT_TYPES.forEach((objectType, k) => {
		const def = TABLE_DEFS[objectType];
		const at = new Date(SEED_BASE - (OBJECT_TYPES.length - k) * 86_400_000).toISOString();
		const table: Table = {
			_id: ids[objectType],
			name: def.name,
			objectType,
			databaseId,
			databaseName: 'crm',
			columnsMetaData: buildColumns(def, ids),
			createdAt: at,
			updatedAt: at,
			createdBy,
		};
		tenant.tables.set(table._id, table);
		tenant.records.set(table._id, new Collection<string, Doc>());
	});
	// Referenced tables first, so ref cells point at existing records.
	(['PIPELINE', 'STAGE', 'CONTACT', 'DEAL'] as const).forEach((objectType, k) => {
		const table = tenant.tables.get(ids[objectType]) as Table;
		addRecords(env, tenant, table, s.rows, s.rnd, (i) => SEED_BASE + i * 3_600_000 + k * 60_000);
	});
}
