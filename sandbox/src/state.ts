/**
 * In-memory, multi-tenant state. Every collection belongs to one tenant; ids of
 * integer-keyed sales resources come from sequences shared by all tenants, so an
 * id of another tenant is simply "not found" here.
 */
import { randomBytes } from 'node:crypto';

export type Doc = Record<string, unknown>;

/** A Map that counts its changes, so list queries can cache sorted views. */
export class Collection<K, V extends Doc> {
	private readonly map = new Map<K, V>();
	version = 0;

	get size(): number {
		return this.map.size;
	}
	get(id: K): V | undefined {
		return this.map.get(id);
	}
	has(id: K): boolean {
		return this.map.has(id);
	}
	set(id: K, value: V): V {
		this.map.set(id, value);
		this.version++;
		return value;
	}
	delete(id: K): boolean {
		const had = this.map.delete(id);
		if (had) this.version++;
		return had;
	}
	/** Call after mutating a stored document in place. */
	touch(): void {
		this.version++;
	}
	values(): V[] {
		return [...this.map.values()];
	}
	clear(): void {
		this.map.clear();
		this.version++;
	}

	private readonly cache = new Map<string, { version: number; value: unknown }>();

	/** Computes a value from the collection once per key and collection version (a few keys are kept). */
	derive<T>(key: string, compute: (all: V[]) => T): T {
		const hit = this.cache.get(key);
		if (hit && hit.version === this.version) {
			// Refresh its place so the most recently used keys survive.
			this.cache.delete(key);
			this.cache.set(key, hit);
			return hit.value as T;
		}
		const value = compute(this.values());
		this.cache.set(key, { version: this.version, value });
		if (this.cache.size > 16) this.cache.delete(this.cache.keys().next().value as string);
		return value;
	}

	/** A filtered and sorted view, computed once per distinct query and collection version. */
	query(key: string, compute: (all: V[]) => V[]): V[] {
		return this.derive(`q:${key}`, compute);
	}

	/** Groups documents by a key, once per collection version (for joins in read views). */
	groupBy<K2>(name: string, keyOf: (doc: V) => K2 | K2[] | null | undefined): Map<K2, V[]> {
		return this.derive(`g:${name}`, (all) => {
			const map = new Map<K2, V[]>();
			for (const doc of all) {
				const keys = keyOf(doc);
				for (const k of Array.isArray(keys)
					? keys
					: keys === null || keys === undefined
						? []
						: [keys]) {
					const list = map.get(k);
					if (list) list.push(doc);
					else map.set(k, [doc]);
				}
			}
			return map;
		});
	}
}

export interface CrmUser extends Doc {
	id: number;
	first_name: string;
	last_name: string;
	email: string;
	contact: string;
	role: string;
	status: string;
}

/** A tenant's collections keyed by the platform's integer ids (sales, campaigns, webhooks)… */
const INTEGER_KEYED = [
	'contacts',
	'labels',
	'activities',
	'deals',
	'pipelines',
	'forms',
	'categories',
	'emailTemplates',
	'webhooks',
] as const;
/** …and those keyed by document ids (tables, people, payroll). */
const DOCUMENT_KEYED = [
	'tables',
	'peopleUsers',
	'payruns',
	'paystubs',
	'componentGroups',
	'taxDeclarations',
] as const;

type IntegerKeyed = (typeof INTEGER_KEYED)[number];
type DocumentKeyed = (typeof DOCUMENT_KEYED)[number];

export const isCollectionName = (name: string): name is IntegerKeyed | DocumentKeyed =>
	[...INTEGER_KEYED, ...DOCUMENT_KEYED].some((n) => n === name);

export type Tenant = {
	id: number;
	name: string;
	crmUsers: CrmUser[];
	/** The records of each table, by table id. */
	records: Map<string, Collection<string, Doc>>;
} & Record<IntegerKeyed, Collection<number, Doc>> &
	Record<DocumentKeyed, Collection<string, Doc>>;

function emptyCollections<Name extends string, Id>(
	names: readonly Name[],
): Record<Name, Collection<Id, Doc>> {
	return Object.fromEntries(names.map((name) => [name, new Collection<Id, Doc>()])) as Record<
		Name,
		Collection<Id, Doc>
	>;
}

export function newTenant(id: number, name: string): Tenant {
	return {
		id,
		name,
		crmUsers: [],
		records: new Map(),
		...emptyCollections<IntegerKeyed, number>(INTEGER_KEYED),
		...emptyCollections<DocumentKeyed, string>(DOCUMENT_KEYED),
	};
}

const SEQ_START: Record<string, number> = {
	contact: 1001,
	label: 101,
	activity: 3001,
	deal: 5001,
	pipeline: 11,
	stage: 201,
	form: 701,
	category: 801,
	template: 901,
	hook: 1,
	crmUser: 1,
	je: 40001,
};

/**
 * The sandbox's time. It follows the machine's clock unless a test moves it
 * (`POST /__admin/clock`): set to a moment, frozen there (every change gets the same
 * timestamp), or moved on. Each sandbox has its own; a request runs with its sandbox's clock.
 */
export class Clock {
	private offsetMs = 0;
	private frozenAt?: number;

	now(): number {
		return this.frozenAt ?? Date.now() + this.offsetMs;
	}

	/** `at`: jump to that moment; `freeze`: stop (true) or run on (false); `advanceMs`: move on by that much. */
	set(change: { at?: number; freeze?: boolean; advanceMs?: number }): void {
		const target = change.at ?? this.now() + (change.advanceMs ?? 0);
		const frozen = change.freeze ?? this.frozenAt !== undefined;
		this.frozenAt = frozen ? target : undefined;
		this.offsetMs = frozen ? 0 : target - Date.now();
	}

	get frozen(): boolean {
		return this.frozenAt !== undefined;
	}
}

/** The clock of the handler running now (handlers are synchronous, so one at a time). */
let currentClock: Clock | undefined;

/**
 * Runs `fn`, a route's handler, with `clock` as the time `nowIso` and `nowMs` give; outside
 * one (seeding at start), the real time. The handlers that read the time are synchronous (the
 * one asynchronous handler, the admin's events, reads none), so a plain variable is enough:
 * an AsyncLocalStorage here made every promise of the process pay for async hooks on Node 20
 * (about a quarter more CPU for promise-heavy code, such as n8n-core beside an in-process
 * sandbox in the tests).
 */
export function withClock<T>(clock: Clock, fn: () => T): T {
	const previous = currentClock;
	currentClock = clock;
	try {
		return fn();
	} finally {
		currentClock = previous;
	}
}

export const nowMs = () => currentClock?.now() ?? Date.now();

export class Store {
	readonly tenants = new Map<number, Tenant>();
	readonly clock = new Clock();
	private readonly seq = new Map<string, number>();
	private oidCounter = 0;

	nextInt(kind: keyof typeof SEQ_START | string): number {
		const n = this.seq.get(kind) ?? SEQ_START[kind] ?? 1;
		this.seq.set(kind, n + 1);
		return n;
	}

	/** A 24-hex-digit id like the platform's document ids. */
	nextOid(): string {
		this.oidCounter++;
		const time = Math.floor(Date.now() / 1000)
			.toString(16)
			.padStart(8, '0');
		return (
			time +
			randomBytes(5).toString('hex') +
			this.oidCounter.toString(16).padStart(6, '0').slice(-6)
		);
	}

	tenant(id: number): Tenant {
		const t = this.tenants.get(id);
		if (!t) throw new Error(`no tenant ${id}`);
		return t;
	}
}

export const nowIso = () => new Date(nowMs()).toISOString();

// ---------- paging envelopes ----------

export interface PageSlice<T> {
	items: T[];
	page: number;
	size: number;
	total: number;
	totalPages: number;
}

export function slice<T>(all: T[], page: number, size: number): PageSlice<T> {
	const p = Math.max(1, page);
	const s = Math.max(1, size);
	return {
		items: all.slice((p - 1) * s, p * s),
		page: p,
		size: s,
		total: all.length,
		totalPages: Math.ceil(all.length / s),
	};
}

/** deals, campaign categories, email templates (FilterConfig): the page's items, each as `view` shows it. */
export const filterConfigEnvelope = <T>(s: PageSlice<T>, view: (item: T) => unknown) => ({
	data: s.items.map(view),
	page: s.page,
	number_of_elements: s.items.length,
	size_per_page: s.size,
	total_pages: s.totalPages,
	number_of_records: s.total,
});

/** people v1FilterConfig: every number is an int64 written as a string. */
export const v1FilterConfig = <T>(s: PageSlice<T>) => ({
	page: String(s.page),
	numberOfElements: String(s.items.length),
	sizePerPage: String(s.size),
	totalPage: String(s.totalPages),
	numberOfRecords: String(s.total),
});

/** payrun filterResponse. */
export const payrunFilterResponse = <T>(s: PageSlice<T>) => ({
	currentPage: s.page,
	count: s.items.length,
	limit: s.size,
	totalPages: s.totalPages,
	totalCount: s.total,
});

// ---------- sorting and text search ----------

export function compareValues(a: unknown, b: unknown): number {
	if (a === b) return 0;
	if (a === undefined || a === null || a === '') return -1;
	if (b === undefined || b === null || b === '') return 1;
	if (typeof a === 'number' && typeof b === 'number') return a - b;
	return String(a).localeCompare(String(b));
}

export function sortBy<T extends Doc>(
	items: T[],
	field: string | undefined,
	dir: 'asc' | 'desc',
	tieBreak = 'id',
): T[] {
	if (!field) return items;
	const sign = dir === 'desc' ? -1 : 1;
	return [...items].sort(
		(x, y) => sign * compareValues(x[field], y[field]) || compareValues(x[tieBreak], y[tieBreak]),
	);
}

export function textMatch(value: unknown, needle: string): boolean {
	return typeof value === 'string' && value.toLowerCase().includes(needle.toLowerCase());
}

export function pick<T extends Doc>(doc: T, fields: string[] | undefined): Doc {
	if (!fields?.length) return doc;
	const out: Doc = { id: doc.id };
	for (const f of fields) if (f in doc) out[f] = doc[f];
	return out;
}
