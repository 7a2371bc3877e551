/**
 * What a polling event remembers of each record between polls, beside its cursor (cursor.ts): the
 * values of the fields it watches, so that a change says which of them changed and what they
 * were before (docs/polling-triggers.md, "Contacts, deals and activities"). Pure: no request, no
 * n8n. The state machine (machine.ts) loads it from the node's static data with the cursor and
 * writes both back together, so n8n saves or commits the two of one moment, never one alone.
 *
 * Static data is one JSON value that n8n saves whole, so what is kept per record is small and
 * bounded:
 * - per watched field one kept value: absent `[]`, the value `[v]`, or, when its JSON is longer
 *   than MAX_KEPT_CHARS, its hash `[0, "h"]` (what changed is still seen; the value before is not
 *   kept, and a change says so);
 * - all records in one text, a line `id<TAB>[kept…]` each, least recently changed first: one
 *   string in static data (n8n wraps every object of static data in a proxy when it loads it; a
 *   string it does not), and past MAX_MEMORY_CHARS the record changed longest ago is forgotten
 *   first (`forgotten` counts them: a change of a forgotten record says that what it was is not
 *   known).
 */
import type { IDataObject } from 'n8n-workflow';

import { MAX_MEMORY_CHARS } from '../tuning';

export { MAX_MEMORY_CHARS };

export const MEMORY_VERSION = 1;

/** A kept value's JSON longer than this is kept as its hash. */
export const MAX_KEPT_CHARS = 200;

/** One field of a record: absent, or present with its value (which may be null). */
export type FieldValue = { present: false } | { present: true; value: unknown };

/** A field as kept: absent `[]`, its value `[v]`, or its hash `[0, "h"]` when the value is long. */
export type Kept = [] | [unknown] | [0, string];

/** The memory as it sits in static data. */
export interface StoredMemory {
	v: typeof MEMORY_VERSION;
	/** The watched fields, in the order of each record's kept values. */
	fields: string[];
	/** One line per record, `id\t[kept…]\n`, least recently changed first. */
	recs: string;
	/** Bumped at every write: the state machine sees from it that another poll wrote (P11). */
	rev: number;
	/** Records forgotten to stay within MAX_MEMORY_CHARS, in all. */
	forgotten?: number;
	/** The first poll could not read every record within its budget: some were never remembered. */
	partial?: boolean;
	/** What the items already said of `forgotten` and `partial` (memoryNotice): the count, and 1 for partial. */
	said?: number[];
}

/** A record ID the memory keeps: one line of text, so no tab, newline or the like, and not endless. */
export const keepableId = (id: string): boolean => /^[\w.:@-]{1,64}$/.test(id);

// ── Canonical JSON and a hash ───────────────────────────────────────────────────

/** JSON with object keys sorted (key order means nothing), so equal values give equal text. */
export function canonicalJson(value: unknown): string {
	try {
		return JSON.stringify(value, (_key, v: unknown) =>
			v && typeof v === 'object' && !Array.isArray(v)
				? Object.fromEntries(
						Object.keys(v as IDataObject)
							.sort()
							.map((k) => [k, (v as IDataObject)[k]]),
					)
				: v,
		);
	} catch {
		// A value nested past what the stack holds: it compares as itself only.
		return '"\\u0000unreadable"';
	}
}

/** Math.imul read once: in a vm context (jest's) each look-up of a global is slow. */
const imul = Math.imul;

/** Two 32-bit multiply-and-xor lanes: a 53-bit fingerprint, fed text piece by piece. */
class Hasher {
	private h1 = 0xdeadbeef;
	private h2 = 0x41c6ce57;

	text(text: string): void {
		let { h1, h2 } = this;
		for (let i = 0; i < text.length; i++) {
			const c = text.charCodeAt(i);
			h1 = imul(h1 ^ c, 2654435761);
			h2 = imul(h2 ^ c, 1597334677);
		}
		[this.h1, this.h2] = [h1, h2];
	}

	/**
	 * A JSON value, keys of each object in sorted order (key order means nothing), each piece
	 * tagged with its kind and texts with their length, so that no two values feed the same.
	 * Walks at most `depth` levels (a value nested deeper counts as its kind only).
	 */
	value(value: unknown, depth = 64): void {
		if (value === null || value === undefined) return this.text(value === null ? 'z' : 'u');
		if (typeof value === 'string') return this.text(`s${value.length}:${value}`);
		if (typeof value !== 'object') return this.text(`${typeof value}:${String(value)};`);
		if (depth <= 0) return this.text(Array.isArray(value) ? '[…]' : '{…}');
		if (Array.isArray(value)) {
			this.text(`[${value.length}`);
			for (const v of value) this.value(v, depth - 1);
			return this.text(']');
		}
		const keys = Object.keys(value).sort();
		this.text(`{${keys.length}`);
		for (const k of keys) {
			this.text(`s${k.length}:${k}`);
			this.value((value as IDataObject)[k], depth - 1);
		}
		this.text('}');
	}

	/** The fingerprint: 11 base-36 characters at most. */
	digest(): string {
		let { h1, h2 } = this;
		h1 = imul(h1 ^ (h1 >>> 16), 2246822507) ^ imul(h2 ^ (h2 >>> 13), 3266489909);
		h2 = imul(h2 ^ (h2 >>> 16), 2246822507) ^ imul(h1 ^ (h1 >>> 13), 3266489909);
		return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
	}
}

/**
 * A 53-bit hash of a text as 11 base-36 characters at most. Not a secret, only a fingerprint: two
 * texts that differ collide once in about 9·10^15.
 */
export function textHash(text: string): string {
	const h = new Hasher();
	h.text(text);
	return h.digest();
}

/**
 * The fingerprint of a record's own fields (those `skip` does not name): what it holds, whatever
 * the order of its keys, without building its text.
 */
export function recordHash(record: IDataObject, skip: ReadonlySet<string>): string {
	const h = new Hasher();
	const keys = Object.keys(record)
		.filter((k) => !skip.has(k))
		.sort();
	for (const k of keys) {
		h.text(`s${k.length}:${k}`);
		h.value(record[k]);
	}
	return h.digest();
}

// ── Kept values and what changed ────────────────────────────────────────────────

/** How a field is kept. */
export function keep(field: FieldValue): Kept {
	if (!field.present) return [];
	const text = canonicalJson(field.value);
	return text.length > MAX_KEPT_CHARS ? [0, textHash(text)] : [field.value];
}

/** Whether two kept values say the same (a kept value against a kept hash: never, their lengths differ). */
function same(a: Kept | undefined, b: Kept): boolean {
	const before: Kept = Array.isArray(a) ? a : [];
	if (before.length !== b.length) return false;
	if (b.length === 0) return true;
	if (b.length === 2) return before[1] === b[1];
	return canonicalJson(before[0]) === canonicalJson(b[0]);
}

export interface FieldChanges {
	/** The watched fields whose value changed (appeared, went away, or another value). */
	changedFields: string[];
	/** Their values before the change; a field that was absent is left out. */
	previous: IDataObject;
	/** Changed fields whose value before was too long to keep (only its hash was). */
	previousNotKept: string[];
}

/** What changed between the values kept before and now, field by field. */
export function changesOf(fields: string[], before: Kept[], now: Kept[]): FieldChanges {
	const out: FieldChanges = { changedFields: [], previous: {}, previousNotKept: [] };
	fields.forEach((field, i) => {
		const was = before[i];
		if (same(was, now[i] ?? [])) return;
		out.changedFields.push(field);
		// An own property whatever the name (`__proto__` assigned would set the object's prototype).
		if (Array.isArray(was) && was.length === 1)
			Object.defineProperty(out.previous, field, {
				value: was[0],
				enumerable: true,
				writable: true,
				configurable: true,
			});
		else if (Array.isArray(was) && was.length === 2) out.previousNotKept.push(field);
	});
	return out;
}

// ── The memory ──────────────────────────────────────────────────────────────────

const isStored = (s: unknown): s is StoredMemory => {
	if (!s || typeof s !== 'object') return false;
	const m = s as Partial<StoredMemory>;
	return (
		m.v === MEMORY_VERSION &&
		Array.isArray(m.fields) &&
		m.fields.every((f) => typeof f === 'string') &&
		typeof m.recs === 'string' &&
		typeof m.rev === 'number'
	);
};

const lineChars = (id: string, line: string) => id.length + line.length + 2;

export class RecordMemory {
	/** id → its kept values as JSON text; Map order is change order, least recent first. */
	private readonly recs: Map<string, string>;

	private chars = 0;

	/** Whether anything was set or deleted since it was loaded. */
	changed = false;

	/** What the items already said: of the records forgotten, how many; whether the first poll was partial. */
	said: [number, boolean] = [0, false];

	constructor(
		readonly fields: string[],
		recs: Map<string, string> = new Map(),
		public forgotten = 0,
		public partial = false,
		private readonly rev = 0,
		private readonly limit = MAX_MEMORY_CHARS,
	) {
		this.recs = recs;
		for (const [id, line] of recs) this.chars += lineChars(id, line);
	}

	/**
	 * The memory static data holds, when it is one of this version for these fields (in this
	 * order); otherwise undefined (a memory for other fields is no memory of these).
	 */
	static read(
		stored: unknown,
		fields: string[],
		limit = MAX_MEMORY_CHARS,
	): RecordMemory | undefined {
		if (!isStored(stored) || stored.fields.join('\n') !== fields.join('\n')) return undefined;
		const recs = new Map<string, string>();
		for (const line of stored.recs.split('\n')) {
			const tab = line.indexOf('\t');
			if (tab <= 0) continue;
			const id = line.slice(0, tab);
			if (keepableId(id)) recs.set(id, line.slice(tab + 1));
		}
		const forgotten = Number.isSafeInteger(stored.forgotten) ? Number(stored.forgotten) : 0;
		const memory = new RecordMemory(
			fields,
			recs,
			Math.max(0, forgotten),
			stored.partial === true,
			Number.isSafeInteger(stored.rev) ? stored.rev : 0,
			limit,
		);
		const said = Array.isArray(stored.said) ? stored.said : [];
		memory.said = [Number.isSafeInteger(said[0]) ? Number(said[0]) : 0, said[1] === 1];
		return memory;
	}

	/**
	 * What the next items should say of what the memory could not keep since they last said it
	 * (records forgotten past the bound, a first poll that read part of the list), once; undefined
	 * when nothing is new. Marks it said.
	 */
	unsaid(): string | undefined {
		const forgot = this.forgotten - this.said[0];
		const partial = this.partial && !this.said[1];
		if (forgot <= 0 && !partial) return undefined;
		this.said = [this.forgotten, this.partial];
		this.changed = true;
		const out: string[] = [];
		if (forgot > 0)
			out.push(
				`The trigger forgot ${forgot} records changed longest ago to stay within its memory's bound: their next change comes without previous, and a forgotten deal's deletion is not seen.`,
			);
		if (partial)
			out.push(
				'The first poll could not read every record within the poll budget: a record it did not read comes without previous at its next change.',
			);
		return `${out.join(' ')} (docs/polling-triggers.md)`;
	}

	get size(): number {
		return this.recs.size;
	}

	/** The characters the records take (the bound's measure). */
	get length(): number {
		return this.chars;
	}

	has(id: string): boolean {
		return this.recs.has(id);
	}

	/** The kept values of a record, or undefined when it is not remembered (or its line is unreadable). */
	get(id: string): Kept[] | undefined {
		const line = this.recs.get(id);
		if (line === undefined) return undefined;
		try {
			const kept = JSON.parse(line) as unknown;
			return Array.isArray(kept) ? (kept as Kept[]) : undefined;
		} catch {
			return undefined;
		}
	}

	/** Remembers a record (as the most recently changed); past the bound, forgets the least recently changed. */
	set(id: string, kept: Kept[]): void {
		if (!keepableId(id)) return;
		const line = JSON.stringify(kept);
		this.delete(id);
		this.recs.set(id, line);
		this.chars += lineChars(id, line);
		this.changed = true;
		for (const [oldest, old] of this.recs) {
			if (this.chars <= this.limit || oldest === id) break;
			this.recs.delete(oldest);
			this.chars -= lineChars(oldest, old);
			this.forgotten++;
		}
	}

	delete(id: string): void {
		const line = this.recs.get(id);
		if (line === undefined) return;
		this.recs.delete(id);
		this.chars -= lineChars(id, line);
		this.changed = true;
	}

	ids(): IterableIterator<string> {
		return this.recs.keys();
	}

	/** What static data holds, its revision one past the loaded one. */
	toStored(): StoredMemory {
		let recs = '';
		for (const [id, line] of this.recs) recs += `${id}\t${line}\n`;
		return {
			v: MEMORY_VERSION,
			fields: [...this.fields],
			recs,
			rev: this.rev + 1,
			...(this.forgotten > 0 ? { forgotten: this.forgotten } : {}),
			...(this.partial ? { partial: true } : {}),
			...(this.said[0] > 0 || this.said[1] ? { said: [this.said[0], this.said[1] ? 1 : 0] } : {}),
		};
	}
}
