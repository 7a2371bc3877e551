/**
 * Property (issue 40): every value a model or a person writes reaches the platform exactly as
 * meant, or fails the item naming the field with a message of bounded length, and nothing is
 * written then. Generated values: valid and impossible dates in every layout (30 February, hour
 * 24, month 13, offsets, free text), integers past 2^53 as JSON numbers and as text, keys written
 * twice at depth 1 to 5, objects and lists where one value goes, and 10^5-character strings;
 * given to each kind of column of Cells (JSON) and of Conditions (JSON), and to date, number and
 * option parameters. The oracle is independent of the pack: Luxon reads dates, BigInt numbers.
 * Outcomes are read from the sandbox: the record stored, the request sent.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import type { PlatformTable } from '../../nodes/BusinessPlatformSales/common/tables';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { checkProperty } from '../helpers/property';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox({ regional: true });
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb, ctx.sb.demo.tokenResponse, {
		regionalBaseUrl: ctx.sb.regionalBaseUrl!,
	});
});

/** n8n's default time zone, the harness's: a date-time without a zone is read in it. */
const ZONE = 'America/New_York';
const MAX_MESSAGE = 1_500;
/** Stands for a 100,000-character text, made when the value is written (so a counterexample stays short). */
const HUGE = '<100,000 characters>';
const textOf = (t: string) => (t === HUGE ? 'x'.repeat(100_000) : t);
const BIG = 2n ** 53n;

type Rec = { _id: string; cells: Record<string, unknown> };
const tenant = () => ctx.sb.store.tenant(1);
const contacts = () =>
	(tenant().tables.values() as unknown as PlatformTable[]).find((t) => t.objectType === 'CONTACT')!;
const column = (name: string) => contacts().columnsMetaData!.find((c) => c.name === name)!;
const stored = () => tenant().records.get(contacts()._id)!.values() as unknown as Rec[];
const rl = (value: string) => ({ __rl: true, mode: 'id', value });

// ── Values and how they are written in JSON text ───────────────────────────────

type Value =
	| { kind: 'text'; text: string }
	| { kind: 'number'; n: number }
	| { kind: 'big'; digits: string; quoted: boolean }
	| { kind: 'bool'; b: boolean }
	| { kind: 'date'; text: string }
	| { kind: 'object'; depth: number; dup: boolean; big: boolean }
	| { kind: 'list'; items: string[] };

const json = (v: Value): string => {
	switch (v.kind) {
		case 'text':
		case 'date':
			return JSON.stringify(textOf(v.text));
		case 'number':
			return JSON.stringify(v.n);
		case 'big':
			return v.quoted ? `"${v.digits}"` : v.digits;
		case 'bool':
			return String(v.b);
		case 'list':
			return JSON.stringify(v.items);
		case 'object': {
			// Nested `depth` levels; the innermost has a key twice, or a number past 2^53.
			let inner = v.dup ? '{"k": 1, "k": 2}' : v.big ? '{"k": 12345678901234567890}' : '{"k": 1}';
			for (let i = 1; i < v.depth; i++) inner = `{"level${i}": ${inner}}`;
			return inner;
		}
	}
};

/** What the object value is once read (no key twice, no big number). */
const objectOf = (depth: number): unknown => {
	let inner: unknown = { k: 1 };
	for (let i = 1; i < depth; i++) inner = { [`level${i}`]: inner };
	return inner;
};

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const dateText = fc.oneof(
	{
		weight: 4,
		arbitrary: fc
			.record({
				y: fc.integer({ min: 1, max: 9999 }),
				m: fc.integer({ min: 0, max: 13 }),
				d: fc.integer({ min: 0, max: 32 }),
				h: fc.integer({ min: 0, max: 24 }),
				mi: fc.integer({ min: 0, max: 60 }),
				s: fc.integer({ min: 0, max: 60 }),
				ms: fc.constantFrom('', '.5', '.123', '.123456789'),
				sep: fc.constantFrom('T', ' '),
				layout: fc.constantFrom('date', 'minutes', 'seconds'),
				zone: fc.constantFrom('', 'Z', '+02:00', '-0530', '+14:00', '+24:00'),
			})
			.map((x) => {
				const date = `${pad(x.y, 4)}-${pad(x.m)}-${pad(x.d)}`;
				if (x.layout === 'date') return date;
				const time =
					x.layout === 'minutes'
						? `${pad(x.h)}:${pad(x.mi)}`
						: `${pad(x.h)}:${pad(x.mi)}:${pad(x.s)}${x.ms}`;
				return `${date}${x.sep}${time}${x.zone}`;
			}),
	},
	{
		weight: 1,
		arbitrary: fc.constantFrom(
			'March 5',
			'next Tuesday',
			'2026/03/05',
			'05.03.2026',
			'2026-02-30',
			'2026-02-29T12:00:00+02:00',
			'2028-02-29T12:00:00+02:00',
			'1700000000000',
			'',
		),
	},
);

const value: fc.Arbitrary<Value> = fc.oneof(
	fc
		.oneof(fc.string(), fc.constantFrom(HUGE, 'Customer', 'VIP', 'yes'))
		.map((text) => ({ kind: 'text' as const, text })),
	fc
		.oneof(
			fc.integer(),
			fc.double({ noNaN: true, noDefaultInfinity: true }),
			fc.constantFrom(2 ** 31, 2 ** 53 - 1, -(2 ** 53) + 1),
		)
		.map((n) => ({ kind: 'number' as const, n })),
	fc
		.record({ digits: fc.bigInt({ min: BIG, max: 10n ** 30n }).map(String), quoted: fc.boolean() })
		.map((b) => ({ kind: 'big' as const, ...b })),
	fc.boolean().map((b) => ({ kind: 'bool' as const, b })),
	dateText.map((text) => ({ kind: 'date' as const, text })),
	fc
		.record({ depth: fc.integer({ min: 1, max: 5 }), dup: fc.boolean(), big: fc.boolean() })
		.map((o) => ({ kind: 'object' as const, ...o })),
	fc
		.array(fc.constantFrom('Customer', 'Partner', 'a,b', 'VIP'), { maxLength: 3 })
		.map((items) => ({ kind: 'list' as const, items })),
);

// ── The oracle ──────────────────────────────────────────────────────────────────

/** What must happen: stored (or sent) exactly this, refused, or either (the pack may be stricter than the oracle). */
type Outcome = { exactly: unknown } | { refused: true } | { either: unknown };
const refuse: Outcome = { refused: true };

/** A date-time text as Luxon reads it (a space for T), in the workflow's zone; undefined when Luxon refuses it. */
function instant(text: string): string | undefined {
	const dt = DateTime.fromISO(text.trim().replace(' ', 'T'), { zone: ZONE, setZone: false });
	return dt.isValid ? dt.toUTC().toISO()! : undefined;
}

/** Forms the pack promises to read (ISO 8601 as n8n's pickers and $now write it); Luxon reads more (week dates …). */
const PROMISED =
	/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/;

function dateOutcome(text: string): Outcome {
	const at = instant(text);
	if (at === undefined) return refuse;
	return PROMISED.test(text.trim()) ? { exactly: at } : { either: at };
}

const isNumberText = (s: string) => /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(s);

function cellOutcome(type: string, v: Value): Outcome {
	const label = column('Label');
	// An empty text or list is no value: the cell is left out.
	if ((v.kind === 'text' || v.kind === 'date') && v.text === '') return { either: undefined };
	if (v.kind === 'list' && v.items.length === 0) return { either: undefined };
	switch (type) {
		case 'phone':
			if ((v.kind === 'text' || v.kind === 'date') && v.text === '') return { either: undefined };
			if (v.kind === 'text' || v.kind === 'date') return { exactly: textOf(v.text) };
			// JSON digits are kept as written; a number JavaScript holds past 2^53 in another form (1e+21) is refused.
			if (v.kind === 'number') {
				const literal = JSON.stringify(v.n);
				if (/^-?\d+$/.test(literal)) return { exactly: literal };
				return Number.isInteger(v.n) && !Number.isSafeInteger(v.n)
					? refuse
					: { exactly: String(v.n) };
			}
			if (v.kind === 'big') return { exactly: v.digits };
			if (v.kind === 'bool') return { exactly: String(v.b) };
			return refuse;
		case 'number':
			// An integer past 2^53 cannot be held exactly by a number column, in any form: refused.
			if (v.kind === 'number')
				return Number.isInteger(v.n) && !Number.isSafeInteger(v.n) ? refuse : { exactly: v.n };
			if (v.kind === 'text' || v.kind === 'date') {
				const t = v.text.trim();
				if (!isNumberText(t)) return refuse;
				if (/^[-+]?\d+$/.test(t) && (BigInt(t) >= BIG || BigInt(t) <= -BIG)) return refuse;
				return { either: Number(t) };
			}
			return refuse;
		case 'date':
			if (v.kind === 'date' || v.kind === 'text') return dateOutcome(v.text);
			return refuse;
		case 'select': {
			// One option, by name or by its ID (or a list of one): its ID; anything else is refused.
			const given: Array<string | number> =
				v.kind === 'text'
					? [v.text]
					: v.kind === 'list'
						? v.items
						: v.kind === 'number'
							? [v.n]
							: [];
			const ids = given.map(
				(g) =>
					label.options!.find((o) =>
						typeof g === 'number'
							? o.id === g
							: o.name.toLowerCase() === String(g).trim().toLowerCase() ||
								(/^\d+$/.test(String(g).trim()) && o.id === Number(String(g).trim())),
					)?.id,
			);
			if (ids.length === 0 || ids.some((id) => id === undefined) || new Set(ids).size > 1)
				return refuse;
			return { exactly: [ids[0]] };
		}
		case 'json':
			if (v.kind === 'object') return v.dup || v.big ? refuse : { exactly: objectOf(v.depth) };
			if (v.kind === 'list') return { exactly: v.items };
			return { either: undefined };
		default:
			return refuse;
	}
}

const COLUMNS: Array<[string, string]> = [
	['Phone', 'phone'],
	['Score', 'number'],
	['Last contacted', 'date'],
	['Label', 'select'],
	['Extra', 'json'],
];

// ── The checks ─────────────────────────────────────────────────────────────────

const errorOf = (run: Awaited<ReturnType<Harness['run']>>) =>
	String(run.json[0]?.error ?? run.error?.message ?? '');

function expectRefused(run: Awaited<ReturnType<Harness['run']>>, names: RegExp, named = true) {
	const message = errorOf(run);
	// A refusal the oracle expects names the field; a value the platform refuses (a huge one) may be in its words.
	if (named) expect(message).toMatch(names);
	expect(message.length).toBeLessThanOrEqual(MAX_MESSAGE);
}

async function cell(col: [string, string], v: Value, dupTop: boolean): Promise<void> {
	const [name, type] = col;
	const given = json(v);
	const text = dupTop
		? `{"Name": "P", "${name}": ${given}, "${name}": ${given}}`
		: `{"Name": "P", "${name}": ${given}}`;
	const before = stored().length;
	const run = await h.run(
		'businessPlatformSales',
		{
			resource: 'record',
			operation: 'create',
			tableId: rl(contacts()._id),
			cellsInput: 'json',
			cellsJson: text,
		},
		[{ json: {} }],
		{ continueOnFail: true },
	);
	const outcome: Outcome = dupTop ? refuse : cellOutcome(type, v);
	const id = run.json[0]?._id as string | undefined;
	if (!id || run.json[0]?.error) {
		expect(
			'exactly' in outcome ? `${name}: ${given.slice(0, 80)} should be stored` : 'refused',
		).toBe('refused');
		expectRefused(run, new RegExp(`Column "${name}"|Cells \\(JSON\\)`), 'refused' in outcome);
		expect(stored()).toHaveLength(before);
		return;
	}
	expect('refused' in outcome ? `${name}: ${given.slice(0, 80)} should be refused` : 'stored').toBe(
		'stored',
	);
	const got = stored().find((r) => r._id === id)!.cells[column(name).id];
	const want = 'exactly' in outcome ? outcome.exactly : (outcome as { either: unknown }).either;
	if (want !== undefined) expect(got).toEqual(want);
}

describe('values reach the platform exactly as meant, or fail naming the field', () => {
	it('Cells (JSON): every kind of column, every kind of value, keys twice at depth 1 to 5', async () => {
		await checkProperty(
			400,
			fc.asyncProperty(fc.constantFrom(...COLUMNS), value, fc.boolean(), async (col, v, dup) => {
				await cell(col, v, dup);
			}),
		);
	}, 120_000);

	it('Conditions (JSON): a date, number, text or option column compared with any value; nothing searched on a failure', async () => {
		const searches = () => ctx.sb.requests().filter((r) => r.path.endsWith('/paged-record'));
		await checkProperty(
			300,
			fc.asyncProperty(
				fc.constantFrom(...COLUMNS.slice(0, 4)),
				fc.constantFrom('eq', 'gt', 'in', 'contains'),
				value,
				async ([name, type], operator, v) => {
					const before = searches().length;
					const run = await h.run(
						'businessPlatformSales',
						{
							resource: 'record',
							operation: 'search',
							tableId: rl(contacts()._id),
							conditionsInput: 'json',
							conditionsJson: `[{"column": "${name}", "operator": "${operator}", "value": ${json(v)}}]`,
							returnAll: false,
							limit: 1,
						},
						[{ json: {} }],
						{ continueOnFail: true },
					);
					const outcome = conditionOutcome(type, operator, v);
					if (run.json[0]?.error) {
						expect(
							'exactly' in outcome
								? `${name} ${operator} ${json(v).slice(0, 80)} should be searched`
								: 'refused',
						).toBe('refused');
						expectRefused(run, /Condition 1|Conditions \(JSON\)/, 'refused' in outcome);
						expect(searches()).toHaveLength(before);
						return;
					}
					expect(
						'refused' in outcome
							? `${name} ${operator} ${json(v).slice(0, 80)} should be refused`
							: 'sent',
					).toBe('sent');
					const want =
						'exactly' in outcome ? outcome.exactly : (outcome as { either: unknown }).either;
					if (want === undefined) return;
					const sent = JSON.parse(searches().at(-1)!.body ?? '{}') as { conditions: IDataObject[] };
					expect(sent.conditions[0].value).toBe(want);
				},
			),
		);
	}, 120_000);

	it("date, number and option parameters: a deal's closing date, an activity's start, a payrun's period, a year, a contact's type", async () => {
		const posted = () =>
			ctx.sb.requests().filter((r) => r.method !== 'GET' || /payruns/.test(r.path));
		await checkProperty(
			300,
			fc.asyncProperty(
				fc.constantFrom('closingDate', 'start', 'periodFrom', 'year', 'type'),
				value,
				async (which, v) => {
					const raw =
						v.kind === 'text' || v.kind === 'date'
							? textOf(v.text)
							: v.kind === 'number'
								? v.n
								: v.kind === 'big'
									? v.digits
									: v.kind === 'bool'
										? v.b
										: v.kind === 'list'
											? v.items
											: { k: 1 };
					const before = posted().length;
					const run = await parameterRun(which, raw);
					const outcome = parameterOutcome(which, raw);
					if (run.json[0]?.error || run.error) {
						expect(
							'exactly' in outcome
								? `${which} = ${JSON.stringify(raw)?.slice(0, 80)} should be sent`
								: 'refused',
						).toBe('refused');
						expect(errorOf(run).length).toBeLessThanOrEqual(MAX_MESSAGE);
						if (which !== 'periodFrom' && which !== 'year') expect(posted()).toHaveLength(before);
						return;
					}
					expect(
						'refused' in outcome
							? `${which} = ${JSON.stringify(raw)?.slice(0, 80)} should be refused`
							: 'sent',
					).toBe('sent');
					const want =
						'exactly' in outcome ? outcome.exactly : (outcome as { either: unknown }).either;
					if (want !== undefined) expect(sentParameter(which)).toEqual(want);
				},
			),
		);
	}, 120_000);
});

function conditionOutcome(type: string, operator: string, v: Value): Outcome {
	// A 100,000-character value: the platform may refuse such a search; the pack never cuts or changes it.
	if (v.kind === 'text' && v.text === HUGE) return { either: undefined };
	if (operator === 'in') {
		if (v.kind !== 'list' && v.kind !== 'text') return { either: undefined };
		if (v.kind === 'list' && v.items.some((i) => i.includes(','))) return refuse;
		return { either: undefined };
	}
	if (v.kind === 'list' || v.kind === 'object') return refuse;
	if (operator === 'contains') {
		if (v.kind === 'text' || v.kind === 'date') return { exactly: v.text };
		if (v.kind === 'big') return { exactly: v.digits };
		return { either: undefined };
	}
	if (type === 'date') return v.kind === 'date' || v.kind === 'text' ? dateOutcome(v.text) : refuse;
	if (type === 'number') {
		if (v.kind === 'big') return refuse;
		if (v.kind === 'number')
			return Number.isInteger(v.n) && !Number.isSafeInteger(v.n)
				? refuse
				: { exactly: String(v.n) };
		return { either: undefined };
	}
	if (type === 'phone') {
		if (v.kind === 'big') return { exactly: v.digits };
		if (v.kind === 'text' || v.kind === 'date') return { exactly: v.text };
	}
	return { either: undefined };
}

async function parameterRun(which: string, raw: unknown) {
	// An activity ends an hour after its start (when the oracle reads one), so only the start can be refused.
	const start = typeof raw === 'string' ? instant(raw) : undefined;
	const end = start
		? DateTime.fromISO(start).plus({ hours: 1 }).toUTC().toISO()
		: '9999-12-31T23:59:59Z';
	const item = [{ json: { v: raw, end } as IDataObject }];
	const options = { continueOnFail: true };
	const expr = '={{ $json.v }}';
	if (which === 'closingDate')
		return await h.run(
			'businessPlatformSales',
			{ resource: 'deal', operation: 'create', name: 'P', additionalFields: { closingDate: expr } },
			item,
			options,
		);
	if (which === 'start')
		return await h.run(
			'businessPlatformSales',
			{
				resource: 'activity',
				operation: 'create',
				name: 'P',
				start: expr,
				end: '={{ $json.end }}',
			},
			item,
			options,
		);
	if (which === 'type')
		return await h.run(
			'businessPlatformSales',
			{ resource: 'contact', operation: 'create', name: 'P', type: expr },
			item,
			options,
		);
	if (which === 'year')
		return await h.run(
			'businessPlatformPeople',
			{ resource: 'payrun', operation: 'getAllByYear', year: expr, returnAll: false, limit: 1 },
			item,
			options,
		);
	return await h.run(
		'businessPlatformPeople',
		{
			resource: 'payrun',
			operation: 'getAll',
			returnAll: false,
			limit: 1,
			filters: { periodFrom: expr, periodTo: '9999-12-31' },
		},
		item,
		options,
	);
}

function parameterOutcome(which: string, raw: unknown): Outcome {
	if (Array.isArray(raw) && raw.length === 0) return { either: undefined };
	if (which === 'type')
		return raw === 'person' || raw === 'organization'
			? { exactly: raw }
			: typeof raw === 'string' && raw.trim() === ''
				? { either: undefined }
				: refuse;
	if (which === 'year') {
		const n =
			typeof raw === 'number' || (typeof raw === 'string' && raw.trim() !== '') ? Number(raw) : NaN;
		const year = Number.isInteger(n) && n >= 1900 && n <= 9999;
		if (!year) return raw === '' ? { either: undefined } : refuse;
		return typeof raw === 'number' || /^\s*\d+\s*$/.test(String(raw))
			? { exactly: n }
			: { either: n };
	}
	if (typeof raw !== 'string') return raw instanceof Date ? { either: undefined } : refuse;
	if (raw.trim() === '') return { either: undefined };
	if (which === 'start') return dateOutcome(raw);
	// Calendar dates: the date as written (ISO), or MM/DD/YYYY for the payroll module.
	const mdy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(raw.trim());
	const iso = mdy ? `${mdy[3]}-${pad(Number(mdy[1]))}-${pad(Number(mdy[2]))}` : raw.trim();
	if (mdy && which !== 'periodFrom') return refuse;
	const at = instant(iso);
	if (at === undefined) return refuse;
	const date = iso.slice(0, 10);
	const wire =
		which === 'closingDate' ? date : `${date.slice(5, 7)}/${date.slice(8, 10)}/${date.slice(0, 4)}`;
	return PROMISED.test(iso) ? { exactly: wire } : { either: wire };
}

function sentParameter(which: string): unknown {
	const last = (test: (path: string) => boolean) =>
		ctx.sb
			.requests()
			.filter(
				(r) => test(r.path) && (r.method === 'POST' || which === 'year' || which === 'periodFrom'),
			)
			.at(-1)!;
	if (which === 'closingDate')
		return (JSON.parse(last((p) => p === '/v1/crm/deals').body ?? '{}') as IDataObject)
			.closing_date;
	if (which === 'start')
		return (JSON.parse(last((p) => p.startsWith('/v1/crm/activities')).body ?? '{}') as IDataObject)
			.start;
	if (which === 'type')
		return (JSON.parse(last((p) => p === '/v1/crm/contacts').body ?? '{}') as IDataObject).type;
	if (which === 'year')
		return Number(
			last((p) => /\/payruns\/year\//.test(p))
				.path.split('/')
				.pop(),
		);
	const query = new URLSearchParams(last((p) => p.endsWith('/payruns')).query);
	return query.get('searchString')?.split('-')[0];
}
