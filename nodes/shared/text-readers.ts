/**
 * Strict readers of text a person or a model writes: dates and date-times, and JSON text; and how
 * an error repeats a value (`echo`, `clip`). Each reader returns the value exactly as meant or
 * what is wrong with it, and throws nothing: a field's reader (field-values.ts, the record cells)
 * turns that into an error that names the field. Nothing is guessed (no `new Date(text)`),
 * rounded or silently dropped.
 * docs/faults-and-security.md, "Bounds", and docs/ai-agents.md say what is refused and why.
 */

/** Characters of a value an error repeats, at most (a huge value cannot flood the message a model reads back). */
export const ECHO_CHARS = 80;

/** A text cut at `max` characters with "…" (unquoted). */
export const clip = (text: string, max = ECHO_CHARS) =>
	text.length > max ? `${text.slice(0, max)}…` : text;

/** A value as an error repeats it: quoted text, or JSON, cut at `max` characters with "…". */
export function echo(value: unknown, max = ECHO_CHARS): string {
	let text: string;
	if (typeof value === 'string') text = value;
	else if (value instanceof ExactNumber) text = value.text;
	else if (value !== null && typeof value === 'object') {
		try {
			text = JSON.stringify(value) ?? String(value);
		} catch {
			text = Object.prototype.toString.call(value);
		}
	} else text = String(value);
	const cut = text.length > max ? `${text.slice(0, max)}…` : text;
	return typeof value === 'string' ? `"${cut}"` : cut;
}

// ── Dates ───────────────────────────────────────────────────────────────────────

/** The forms a date-time is given in, for error messages. */
export const DATE_TIME_FORMS =
	'ISO 8601, such as 2026-12-01T10:00:00Z, 2026-12-01T10:00:00+02:00, or 2026-12-01T10:00:00 (read in the workflow’s time zone), or pick one, or use an expression such as {{ $now }}';

export const DATE_FORMS = 'ISO 8601, such as 2026-12-31, or pick one';

export type Read<T> = { ok: T } | { problem: string };

/** A calendar date. */
export interface CalendarDate {
	y: number;
	m: number;
	d: number;
}

interface Wall extends CalendarDate {
	h: number;
	mi: number;
	s: number;
	ms: number;
	/** Minutes ahead of UTC, when the text gives a zone. */
	offset?: number;
	/** Whether the text gives a time of day at all. */
	timed: boolean;
}

const ISO =
	/^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[T ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:[.,]([0-9]{1,9}))?)?(Z|[+-][0-9]{2}(?::?[0-9]{2})?)?)?$/i;
const MDY = /^([0-9]{1,2})\/([0-9]{1,2})\/([0-9]{4})$/;

const daysIn = (y: number, m: number) =>
	m === 2
		? y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
			? 29
			: 28
		: [4, 6, 9, 11].includes(m)
			? 30
			: 31;

/** Milliseconds since 1970 of a UTC wall-clock time (years 0 … 99 as written, not as 1900 …). */
function utcMs(w: Omit<Wall, 'offset' | 'timed'>): number {
	const date = new Date(0);
	date.setUTCFullYear(w.y, w.m - 1, w.d);
	date.setUTCHours(w.h, w.mi, w.s, w.ms);
	return date.getTime();
}

/** The parts of ISO 8601 text, each in its range (no 30 February, no hour 24, no month 13). */
function isoParts(text: string): Read<Wall> {
	const m = ISO.exec(text);
	if (!m) return { problem: 'not written as ISO 8601' };
	const [, y, mo, d, h, mi, s, frac, zone] = m;
	const w: Wall = {
		y: Number(y),
		m: Number(mo),
		d: Number(d),
		h: Number(h ?? 0),
		mi: Number(mi ?? 0),
		s: Number(s ?? 0),
		ms: Number((frac ?? '0').slice(0, 3).padEnd(3, '0')),
		timed: h !== undefined,
	};
	if (w.m < 1 || w.m > 12) return { problem: `there is no month ${w.m}` };
	if (w.d < 1 || w.d > daysIn(w.y, w.m))
		return { problem: `month ${w.m} of ${w.y} has no day ${w.d}` };
	if (w.h > 23 || w.mi > 59 || w.s > 59) return { problem: 'that time of day does not exist' };
	if (zone && zone.toUpperCase() !== 'Z') {
		const [zh, zm] = [Number(zone.slice(1, 3)), Number(zone.slice(-2))];
		const minutes = zone.length > 3 ? zm : 0;
		if (zh > 23 || minutes > 59) return { problem: `there is no time zone ${zone}` };
		w.offset = (zone.startsWith('-') ? -1 : 1) * (zh * 60 + minutes);
	} else if (zone) w.offset = 0;
	return { ok: w };
}

/** Milliseconds the time zone is ahead of UTC at the instant `at`. */
function zoneOffsetMs(at: number, timeZone: string): number {
	const parts = Object.fromEntries(
		new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			era: 'short',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		})
			.formatToParts(new Date(at))
			.map((p) => [p.type, p.value]),
	);
	const year = Number(parts.year);
	const wall = utcMs({
		// Intl writes years before 1 as 1 BC, 2 BC …: astronomically 0, -1 …
		y: parts.era === 'BC' ? 1 - year : year,
		m: Number(parts.month),
		d: Number(parts.day),
		h: Number(parts.hour),
		mi: Number(parts.minute),
		s: Number(parts.second),
		ms: 0,
	});
	return wall - Math.floor(at / 1000) * 1000;
}

/** A wall-clock time without a zone, read in `timeZone` (n8n's date picker writes those: the workflow's zone). */
function inZone(w: Wall, timeZone: string): number {
	const guess = utcMs(w);
	let zone: number;
	try {
		zone = zoneOffsetMs(guess, timeZone);
	} catch {
		return guess; // an unknown zone name: as UTC
	}
	const again = zoneOffsetMs(guess - zone, timeZone);
	return guess - (again === zone ? zone : again);
}

const isLuxon = (v: unknown): v is { toISO: () => string | null; isValid?: boolean } =>
	v !== null && typeof v === 'object' && typeof (v as { toISO?: unknown }).toISO === 'function';

/** A JavaScript Date or a Luxon DateTime (what n8n's expressions give): its instant, if it is a valid one. */
function instantOf(value: unknown): Read<number> | undefined {
	if (value instanceof Date) {
		const ms = value.getTime();
		return Number.isNaN(ms) ? { problem: 'an invalid Date' } : { ok: ms };
	}
	if (!isLuxon(value)) return undefined;
	const iso = value.isValid === false ? null : value.toISO();
	const read = typeof iso === 'string' ? isoParts(iso) : undefined;
	if (!read || !('ok' in read) || read.ok.offset === undefined)
		return { problem: 'an invalid DateTime' };
	return { ok: utcMs(read.ok) - read.ok.offset * 60_000 };
}

function notText(value: unknown): string {
	if (typeof value === 'number') return 'a number is not read as a date';
	if (typeof value === 'boolean') return 'true or false is not a date';
	return Array.isArray(value) ? 'a list is not a date' : 'an object is not a date';
}

/** A date-time as its instant (milliseconds since 1970): text without a zone is read in `timeZone`. */
export function readDateTime(value: unknown, timeZone: string): Read<number> {
	const instant = instantOf(value);
	if (instant) return instant;
	if (typeof value !== 'string') return { problem: notText(value) };
	const read = isoParts(value.trim());
	if (!('ok' in read)) return read;
	const w = read.ok;
	if (w.offset !== undefined && !w.timed) return { problem: 'a zone needs a time of day' };
	const ms = w.offset === undefined ? inZone(w, timeZone) : utcMs(w) - w.offset * 60_000;
	return Number.isNaN(new Date(ms).getTime()) ? { problem: 'out of range' } : { ok: ms };
}

/**
 * A calendar date: ISO text (its date as written, also when a time follows), MM/DD/YYYY where
 * `mdy` (the people API's form), or a Date or DateTime (its date in `timeZone`).
 */
export function readDate(value: unknown, timeZone: string, mdy = false): Read<CalendarDate> {
	const instant = instantOf(value);
	if (instant) {
		if (!('ok' in instant)) return instant;
		const w = new Date(instant.ok + zoneOrZero(instant.ok, timeZone));
		return { ok: { y: w.getUTCFullYear(), m: w.getUTCMonth() + 1, d: w.getUTCDate() } };
	}
	if (typeof value !== 'string') return { problem: notText(value) };
	const text = value.trim();
	const us = mdy ? MDY.exec(text) : null;
	const read = isoParts(us ? `${us[3]}-${us[1].padStart(2, '0')}-${us[2].padStart(2, '0')}` : text);
	if (!('ok' in read)) return read;
	return { ok: { y: read.ok.y, m: read.ok.m, d: read.ok.d } };
}

function zoneOrZero(at: number, timeZone: string): number {
	try {
		return zoneOffsetMs(at, timeZone);
	} catch {
		return 0;
	}
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A calendar date as YYYY-MM-DD. */
export const isoDate = (d: CalendarDate) => `${pad(d.y, 4)}-${pad(d.m)}-${pad(d.d)}`;

// ── JSON ────────────────────────────────────────────────────────────────────────

/** A JSON number that a JavaScript number cannot hold exactly (an integer past 2^53): its digits as written. */
export class ExactNumber {
	constructor(readonly text: string) {}

	toString(): string {
		return this.text;
	}
}

/** Whether `value` holds an ExactNumber anywhere (it cannot be sent as a JSON number). */
export function holdsExactNumber(value: unknown): boolean {
	const stack = [value];
	while (stack.length) {
		const v = stack.pop();
		if (v instanceof ExactNumber) return true;
		if (v !== null && typeof v === 'object')
			for (const k of Object.keys(v)) stack.push((v as Record<string, unknown>)[k]);
	}
	return false;
}

const plainText = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

/**
 * JSON text as its value, strictly: a key written twice in any object, at any depth, is refused
 * (JSON.parse keeps the last one, silently), and an integer past 2^53 is kept as written (an
 * ExactNumber) instead of rounded. The text is checked by JSON.parse first, then read again
 * once, left to right, without recursion (any depth).
 */
export function readJson(text: string): Read<unknown> {
	let value: unknown;
	try {
		value = JSON.parse(text) as unknown;
	} catch (e) {
		return { problem: `is not valid JSON: ${(e as Error).message.slice(0, 120)}` };
	}
	// One frame per open object or list: where its next value goes, and the keys it has had.
	const frames: Array<{
		into: object;
		keys?: Set<string>;
		index: number;
		key?: string;
		at: string;
	}> = [];
	const where = (f: (typeof frames)[number] | undefined) =>
		f
			? f.keys
				? `${f.at}${f.at ? ' › ' : ''}${plainText(f.key ?? '')}`
				: `${f.at}${f.at ? ' › ' : ''}entry ${f.index + 1}`
			: '';
	const place = (replace?: unknown): unknown => {
		const top = frames[frames.length - 1];
		if (!top) {
			if (replace !== undefined) value = replace;
			return value;
		}
		const slot = top.keys ? (top.key as string) : top.index;
		const into = top.into as Record<string | number, unknown>;
		if (replace !== undefined) into[slot] = replace;
		return into[slot];
	};
	let expectKey = false;
	for (let i = 0; i < text.length; i++) {
		const ch = text[i];
		if (ch === '"') {
			let j = i + 1;
			while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
			const top = frames[frames.length - 1];
			if (expectKey && top?.keys) {
				const key = JSON.parse(text.slice(i, j + 1)) as string;
				if (top.keys.has(key))
					return { problem: `names ${plainText(key)} twice${top.at ? ` in ${top.at}` : ''}` };
				top.keys.add(key);
				top.key = key;
				expectKey = false;
			}
			i = j;
		} else if (ch === '{' || ch === '[') {
			const into = place() as object;
			frames.push({
				into,
				index: 0,
				at: where(frames[frames.length - 1]),
				...(ch === '{' ? { keys: new Set<string>() } : {}),
			});
			expectKey = ch === '{';
		} else if (ch === '}' || ch === ']') frames.pop();
		else if (ch === ',') {
			const top = frames[frames.length - 1];
			if (top.keys) expectKey = true;
			else top.index++;
		} else if (ch === '-' || (ch >= '0' && ch <= '9')) {
			let j = i + 1;
			while (j < text.length && /[0-9eE.+-]/.test(text[j])) j++;
			const literal = text.slice(i, j);
			if (/^-?[0-9]+$/.test(literal) && !Number.isSafeInteger(Number(literal)))
				place(new ExactNumber(literal));
			i = j - 1;
		}
	}
	return { ok: value };
}

/** An object parsed from JSON (not a list, a Date, a DateTime or an ExactNumber). */
export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
	v !== null &&
	typeof v === 'object' &&
	!Array.isArray(v) &&
	!(v instanceof Date) &&
	!(v instanceof ExactNumber) &&
	!isLuxon(v);
