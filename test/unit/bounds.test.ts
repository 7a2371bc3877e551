/**
 * Every numeric bound of the pack's pure code, crossed: a value just below, at and past each
 * limit, with the outcome on each side. The error texts (nodes/shared/errors.ts: how long a
 * platform text may be, how short a secret, how deep a body, how many wrapped causes), the
 * percent-decoding of IDs (nodes/shared/transport.ts fullyDecoded, nodes/shared/field-values.ts pathSegment: any number of layers, the echo cut at 40
 * characters), and the int64 limits of the People answers and the trigger's record ids (2^53).
 * The integer IDs the Sales node sends (nodes/shared/field-values.ts toIntegerId: 2^53). Seeded properties
 * where a rule holds for any input: no secret of 6+ characters, anywhere in an error body, reaches
 * the NodeApiError; decoding ends at a fixpoint; int64 texts keep every digit; an integer ID is sent
 * with exactly the digits given, or refused before any request.
 */
import fc from 'fast-check';
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { int64ToNumbers } from '../../nodes/BusinessPlatformPeople/resources/common';
import { recordId } from '../../nodes/BusinessPlatformSalesTrigger/webhook-trigger';
import {
	type FailureFacts,
	platformMessage,
	readFailure,
	REDACTED,
	toNodeApiError,
	withoutSecrets,
} from '../../nodes/shared/errors';
import { pathSegment, toIntegerId, toIntegerIds } from '../../nodes/shared/field-values';
import { fullyDecoded } from '../../nodes/shared/transport';
import { propertyParameters } from '../helpers/property';

const node: INode = {
	id: 'n',
	name: 'N',
	type: 't',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const facts = (body: unknown, status = 400): FailureFacts => ({
	status,
	body,
	message: 'Request failed',
	reconnect: false,
});
const apiError = (f: FailureFacts, secrets: string[]) =>
	toNodeApiError(f, { node, method: 'GET', path: '/v1/x', secrets });
/** Everything the error carries as text: its message, description, and what n8n keeps of it (errorResponse, context, messages). */
const texts = (e: ReturnType<typeof apiError>) => [
	e.message,
	e.description ?? '',
	JSON.stringify(e.errorResponse),
	JSON.stringify(e.context),
	JSON.stringify(e.messages),
	JSON.stringify(e),
];
/** A value wrapped in `levels` objects: {a: {a: … value}}. */
const nest = (levels: number, leaf: unknown): unknown =>
	levels === 0 ? leaf : { a: nest(levels - 1, leaf) };

describe('errors.ts platformMessage: a plain-text error body is shown below 300 characters', () => {
	it('keeps a text of 299 characters, and leaves out one of 300 or more', () => {
		expect(platformMessage('x'.repeat(299)).text).toBe('x'.repeat(299));
		expect(platformMessage('x'.repeat(300)).text).toBeUndefined();
		expect(platformMessage('x'.repeat(301)).text).toBeUndefined();
	});
});

describe('errors.ts platformMessage: a debugMessage is shown below 500 characters', () => {
	it('gives a debugMessage of 499 characters as the detail, and none of 500 or more', () => {
		expect(platformMessage({ errorMessage: 'x', debugMessage: 'd'.repeat(499) }).detail).toBe(
			'd'.repeat(499),
		);
		expect(
			platformMessage({ errorMessage: 'x', debugMessage: 'd'.repeat(500) }).detail,
		).toBeUndefined();
		expect(
			platformMessage({ errorMessage: 'x', debugMessage: 'd'.repeat(501) }).detail,
		).toBeUndefined();
	});
});

describe('errors.ts MIN_SECRET_LENGTH (6): shorter secrets are not looked for, 6+ are redacted in every form and place', () => {
	it('leaves a 5-character secret, and redacts a 6-character one as given, URL-encoded, in keys and nested values', () => {
		const short = 'Q1w2E';
		const six = 'p/ss w';
		const body = {
			errorMessage: `got ${short} and ${six} and ${encodeURIComponent(six)}`,
			[six]: { list: [`x${six}x`, { [encodeURIComponent(six)]: six }] },
		};
		const scrubbed = withoutSecrets(facts(body), [short, six, undefined]);
		const json = JSON.stringify(scrubbed.body);
		expect(json).toContain(short);
		expect(json).not.toContain(six);
		expect(json).not.toContain(encodeURIComponent(six));
		expect(scrubbed.body).toEqual({
			errorMessage: `got ${short} and ${REDACTED} and ${REDACTED}`,
			[REDACTED]: { list: [`x${REDACTED}x`, { [REDACTED]: REDACTED }] },
		});
		const error = apiError(facts(body), [short, six]);
		expect(error.message).toBe(
			`The Business Platform API answered 400: got ${short} and ${REDACTED} and ${REDACTED}`,
		);
		expect(apiError(facts({ errorMessage: short }), [short]).message).toContain(short);
	});
});

describe('errors.ts scrubValue depth 20: withoutSecrets walks 21 levels and scrubs what is deeper as one text; toNodeApiError never shows a secret', () => {
	it('walks a body 21 levels deep and scrubs a deeper one as one text: no depth keeps the secret', () => {
		const secret = 'S3CR3T-token';
		const at = (levels: number) =>
			JSON.stringify(withoutSecrets(facts(nest(levels, secret)), [secret]).body);
		for (const levels of [20, 21, 22, 25, 200]) expect(at(levels)).not.toContain(secret);
	});

	it('a secret URL-encoded with lower-case hex or a form\'s "+", and one that cannot be URL-encoded (a lone surrogate), are handled', () => {
		const secret = 'p/ss w0rd';
		for (const text of ['p%2fss%20w0rd', 'p%2Fss+w0rd', 'p%2fss+w0rd'])
			expect(
				JSON.stringify(withoutSecrets(facts({ errorMessage: text }), [secret]).body),
			).not.toContain(text);
		const lone = '\uD800abcdef';
		expect(() => apiError(facts({ errorMessage: `x ${lone}` }), [lone])).not.toThrow();
		expect(apiError(facts({ errorMessage: `x ${lone}` }), [lone]).message).not.toContain(lone);
	});

	it('the NodeApiError of a body holding the secret 25 levels deep (and in its texts) carries no secret', () => {
		const secret = 'S3CR3T/token';
		const body = {
			errorMessage: `bad ${secret}`,
			debugMessage: `see ${encodeURIComponent(secret)}`,
			errors: [{ field: secret, error: secret }],
			deep: nest(25, secret),
			[secret]: nest(25, { [secret]: secret }),
		};
		for (const f of [facts(body), withoutSecrets(facts(body), [secret])]) {
			const error = apiError(f, [secret]);
			expect(error.description).toContain(`Fields: ${REDACTED}: ${REDACTED}.`);
			for (const text of texts(error)) {
				expect(text).not.toContain(secret);
				expect(text).not.toContain(encodeURIComponent(secret));
			}
		}
	});

	it('property: a secret of 6+ characters anywhere in an error body never reaches the NodeApiError', () => {
		// Characters URL-encoding rewrites, letters, and any grapheme; none shared with REDACTED, so no marker can spell a secret.
		const unit = fc.oneof(
			fc.constantFrom('/', ' ', '%', '&', '?', '=', '+', '#', ':', 'é', '😀', '\u00a0'),
			fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'),
			fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
		);
		const secretArb = fc
			.string({ unit, minLength: 6, maxLength: 20 })
			.filter((s) => ![...`${REDACTED}\\"\u0000`].some((c) => s.includes(c)));
		const bodyWith = (secret: string) => {
			const carrier = fc
				.tuple(fc.string(), fc.constantFrom(secret, encodeURIComponent(secret)), fc.string())
				.map(([a, s, b]) => `${a}${s}${b}`);
			const gateway = carrier.map((t) => ({
				value: Buffer.from(`field: ${t}`).toString('base64'),
			}));
			return fc.oneof(
				carrier,
				fc.record(
					{
						errorMessage: carrier,
						message: carrier,
						error: carrier,
						error_description: carrier,
						debugMessage: carrier,
						errors: fc.array(fc.record({ field: carrier, error: carrier }), { maxLength: 3 }),
						details: fc.array(gateway, { maxLength: 3 }),
						extra: fc.jsonValue(),
					},
					{ requiredKeys: [] },
				),
				fc.dictionary(carrier, fc.oneof(carrier, fc.jsonValue()), { maxKeys: 4 }),
				fc
					.tuple(fc.integer({ min: 0, max: 30 }), carrier)
					.map(([levels, text]) => ({ errorMessage: 'x', nested: nest(levels, { [text]: text }) })),
			);
		};
		const cases = secretArb.chain((secret) =>
			fc.tuple(
				fc.constant(secret),
				bodyWith(secret),
				fc.constantFrom(302, 400, 404, 409, 500),
				fc.boolean(),
			),
		);
		fc.assert(
			fc.property(cases, ([secret, body, status, scrubFirst]) => {
				const f = scrubFirst ? withoutSecrets(facts(body, status), [secret]) : facts(body, status);
				for (const text of texts(apiError(f, [secret]))) {
					expect(text).not.toContain(secret);
					expect(text).not.toContain(encodeURIComponent(secret));
				}
			}),
			propertyParameters(300),
		);
	});
});

describe('errors.ts readFailure: it walks at most 6 layers of .cause', () => {
	/** An error whose `.cause` chain holds `layers` objects, the status only on the last. */
	const wrapped = (layers: number): JsonObject => {
		let error: JsonObject = {
			message: `layer ${layers - 1}`,
			response: { status: 503, data: { errorMessage: 'deep' } },
		};
		for (let i = layers - 2; i >= 0; i--) error = { message: `layer ${i}`, cause: error };
		return error;
	};

	it('finds the status on the 5th and 6th layer (index 4 and 5), not on the 7th', () => {
		expect(readFailure(wrapped(5))).toMatchObject({
			status: 503,
			body: { errorMessage: 'deep' },
			message: 'layer 0',
		});
		expect(readFailure(wrapped(6))).toMatchObject({
			status: 503,
			body: { errorMessage: 'deep' },
			message: 'layer 0',
		});
		expect(readFailure(wrapped(7))).toMatchObject({
			status: undefined,
			body: undefined,
			message: 'layer 0',
		});
	});
});

describe('transport.ts fullyDecoded: percent-encodings are undone however many layers there are', () => {
	const layered = (n: number) => {
		let text = '%2e';
		for (let i = 1; i < n; i++) text = text.replace(/%/g, '%25');
		return text;
	};

	it.each(Array.from({ length: 12 }, (_, i) => i + 1))(
		"'.' encoded %i times decodes to '.'",
		(n) => {
			expect(layered(n)).toHaveLength(3 + 2 * (n - 1));
			expect(fullyDecoded(layered(n))).toBe('.');
		},
	);

	it('gives back the last valid text when a layer is not valid encoding', () => {
		expect(fullyDecoded('%E0%A4%A')).toBe('%E0%A4%A');
		expect(fullyDecoded('%')).toBe('%');
		expect(fullyDecoded('%25E0%25A4%25A')).toBe('%E0%A4%A');
		expect(fullyDecoded('%2525')).toBe('%');
	});

	it('property: it ends, and equals decodeURIComponent repeated until the text no longer changes or is not valid', () => {
		const unit = fc.constantFrom(
			'%',
			'25',
			'2',
			'5',
			'e',
			'E',
			'.',
			'a',
			'0',
			'A4',
			'E0',
			'%25',
			'%2e',
			'%2E',
			'%E0',
			'%A4',
			'%F0%9F%98%80',
			'/',
		);
		fc.assert(
			fc.property(fc.string({ unit, maxLength: 40 }), (text) => {
				let expected = text;
				for (;;) {
					let next: string;
					try {
						next = decodeURIComponent(expected);
					} catch {
						break;
					}
					if (next === expected) break;
					expect(next.length).toBeLessThan(expected.length);
					expected = next;
				}
				expect(fullyDecoded(text)).toBe(expected);
			}),
			propertyParameters(500),
		);
	});
});

describe('field-values.ts pathSegment: dot segments refused at any encoding depth, the echoed value cut at 40 characters', () => {
	const ctx = {
		fail: (message: string, description?: string) =>
			new NodeOperationError(node, message, { description }),
	};
	const refusal = (value: string) => {
		try {
			pathSegment(value, 'Contact ID', ctx);
		} catch (error) {
			return (error as Error).message;
		}
		return undefined;
	};

	it.each([
		'.',
		'..',
		'%2e%2e',
		'%252e%252e',
		'%25252525252e%25252525252e',
		' .. ',
		'%2e%2e%20',
		'',
		'   ',
	])('refuses %j', (value) => {
		expect(refusal(value)).toMatch(/^The Contact ID ".*" is not an ID$/s);
	});

	it.each([
		['a..b', 'a..b'],
		['...', '...'],
		['%2e%2e%2e', '%252e%252e%252e'],
		['a b/c', 'a%20b%2Fc'],
	])('accepts %j, sent as %j', (value, sent) => {
		expect(pathSegment(value, 'Contact ID', ctx)).toBe(sent);
	});

	it('echoes a refused value of 40 characters whole, and cuts one of 41 or 60 at 40', () => {
		const echoed = (value: string) =>
			/^The Contact ID "(.*)" is not an ID$/s.exec(refusal(value) ?? '')?.[1];
		expect(echoed(' '.repeat(38) + '..')).toBe(' '.repeat(38) + '..');
		expect(echoed(' '.repeat(39) + '..')).toBe(' '.repeat(39) + '.');
		expect(echoed(' '.repeat(60))).toBe(' '.repeat(40));
	});
});

describe('People common.ts int64ToNumbers: int64 texts become numbers up to 2^53-1, beyond they stay texts', () => {
	it.each([
		['9007199254740991', 9007199254740991],
		['-9007199254740991', -9007199254740991],
		['9007199254740992', '9007199254740992'],
		['9007199254740993', '9007199254740993'],
		['-9007199254740993', '-9007199254740993'],
		['9223372036854775807', '9223372036854775807'],
		['9223372036854775808', '9223372036854775808'],
		['18446744073709551616', '18446744073709551616'],
	])('iamUserId %s gives %p', (text, expected) => {
		expect(int64ToNumbers({ iamUserId: text, filterConfig: { page: text } })).toEqual({
			iamUserId: expected,
			filterConfig: { page: expected },
		});
	});

	it('property: any int64 text comes back as a number with the same digits, or as the same text', () => {
		fc.assert(
			fc.property(
				fc.bigInt({ min: -(BigInt(2) ** BigInt(64)), max: BigInt(2) ** BigInt(64) }),
				(value) => {
					const out = int64ToNumbers({ iamUserId: String(value) }).iamUserId;
					const safe =
						value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= -BigInt(Number.MAX_SAFE_INTEGER);
					expect(out).toBe(safe ? Number(value) : String(value));
					if (typeof out === 'number') expect(String(out)).toBe(String(value));
				},
			),
			propertyParameters(300),
		);
	});
});

describe('trigger.ts positiveInt (through recordId): a record id is a safe positive integer', () => {
	it.each([1, 2 ** 31, 2 ** 53 - 1, '12', ' 12 ', '9007199254740991'])('accepts %p', (id) => {
		expect(recordId({ id }, 'contacts')).toBe(Number(id));
		expect(recordId({ data: { deal_id: id } }, 'deals')).toBe(Number(id));
	});

	it.each([
		0,
		-1,
		2 ** 53,
		2 ** 53 + 2,
		1.5,
		'0',
		'-1',
		'1.5',
		'1e3',
		'9007199254740992',
		'9007199254740993',
		'',
		null,
		Infinity,
		NaN,
	])('refuses %p', (id) => {
		expect(recordId({ id }, 'contacts')).toBeUndefined();
	});
});

describe('field-values.ts toIntegerId: an integer ID is sent exactly as given, up to 2^53-1, or refused', () => {
	const ctx = {
		fail: (message: string, description?: string) =>
			new NodeOperationError(node, message, { description }),
	};
	const outcome = (value: unknown): number | string => {
		try {
			return toIntegerId(value, 'Stage', ctx);
		} catch (error) {
			return (error as Error).message;
		}
	};
	const MAX = BigInt(Number.MAX_SAFE_INTEGER);

	it.each([
		[1, 1],
		['2147483647', 2147483647],
		['2147483648', 2147483648],
		[2 ** 32, 2 ** 32],
		['9007199254740991', 9007199254740991],
		[{ __rl: true, mode: 'list', value: '9007199254740991' }, 9007199254740991],
		[' 42 ', 42],
		['007', 7],
	])('sends %j as %p', (value, sent) => {
		expect(outcome(value)).toBe(sent);
	});

	it.each(['9007199254740992', '9007199254740993', 2 ** 53, '18446744073709551617'])(
		'refuses %j: too large to send exactly',
		(value) => {
			expect(outcome(value)).toMatch(/^Stage "?[0-9]+"? is too large to send exactly$/);
		},
	);

	it('refuses a 400-digit ID, echoing its first 40 digits', () => {
		expect(outcome('9'.repeat(400))).toMatch(/^Stage "9{40}.?" is too large to send exactly$/);
	});

	it.each([
		0,
		'0',
		-1,
		'-5',
		1.5,
		'1e3',
		1e21,
		'',
		'  ',
		'toString',
		'__proto__',
		NaN,
		Infinity,
		null,
	])('refuses %p: not a whole number', (value) => {
		expect(outcome(value)).toMatch(/^Stage must be a whole number/);
	});

	it('property: any integer text or number, from 0 past 2^64, is sent with the same value or refused', () => {
		const around = (b: bigint) => fc.bigInt({ min: b - BigInt(3), max: b + BigInt(3) });
		fc.assert(
			fc.property(
				fc.oneof(
					fc.bigInt({ min: BigInt(0), max: BigInt(2) ** BigInt(70) }),
					around(BigInt(2) ** BigInt(31)),
					around(MAX),
					around(BigInt(2) ** BigInt(64)),
				),
				fc.constantFrom('text', 'number', 'locator', 'padded'),
				(big, form) => {
					const text = big.toString();
					const value =
						form === 'number'
							? Number(big)
							: form === 'locator'
								? { __rl: true, mode: 'id', value: text }
								: form === 'padded'
									? ` 0${text} `
									: text;
					const out = outcome(value);
					// What the caller gave: a number past 2^53 is already rounded before the node sees it.
					const given = form === 'number' ? BigInt(Number(big)) : big;
					if (typeof out === 'number') {
						expect(big).toBeGreaterThan(BigInt(0));
						expect(BigInt(out)).toBe(given);
						expect(given).toBeLessThanOrEqual(MAX);
					} else if (given === BigInt(0)) expect(out).toMatch(/must be a whole number/);
					else if (form === 'number' && Number(big) >= 1e21)
						expect(out).toMatch(/must be a whole number/); // "1e+21": not digits
					else {
						expect(given).toBeGreaterThan(MAX);
						expect(out).toMatch(/is too large to send exactly$/);
					}
				},
			),
			propertyParameters(500),
		);
	});

	it('toIntegerIds: 10^5 IDs in one text, each checked; one past 2^53 among them refuses the list', () => {
		const many = Array.from({ length: 100_000 }, (_, i) => i + 1);
		expect(toIntegerIds(many.join(','), 'Contact IDs', ctx)).toEqual(many);
		expect(() =>
			toIntegerIds([...many.slice(0, 99_999), '9007199254740993'], 'Contact IDs', ctx),
		).toThrow(/Contact IDs "9007199254740993" is too large to send exactly/);
	});
});
