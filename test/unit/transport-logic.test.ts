/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
import { NotStarted, OrderedGate } from '../../nodes/shared/engine/execute';
import { platformMessage, readFailure } from '../../nodes/shared/errors';
import { nextAttempt, retryRule } from '../../nodes/shared/retry';
import { DEFAULT_TUNING } from '../../nodes/shared/tuning';
import { mapConcurrent, RunScope } from '../../nodes/shared/run-scope';
import { baseUrlProblem, credentialInfo } from '../../nodes/shared/transport';

describe('mapConcurrent', () => {
	it('keeps input order whatever order the work finishes in, and never exceeds the limit', async () => {
		let running = 0;
		let peak = 0;
		const delays = [30, 5, 20, 1, 10, 15, 2, 25];
		const out = await mapConcurrent(delays, 3, async (ms, i) => {
			running++;
			peak = Math.max(peak, running);
			await new Promise((r) => setTimeout(r, ms));
			running--;
			return i * 10;
		});
		expect(out.map((r) => (r && r.ok ? r.value : null))).toEqual([0, 10, 20, 30, 40, 50, 60, 70]);
		expect(peak).toBe(3);
	});

	it('stops starting new items after a failure when asked, and reports each failure in place', async () => {
		const started: number[] = [];
		const out = await mapConcurrent(
			[0, 1, 2, 3, 4, 5],
			1,
			async (_x, i) => {
				started.push(i);
				if (i === 2) throw new Error('boom');
				return i;
			},
			true,
		);
		expect(started).toEqual([0, 1, 2]);
		expect(out[2]).toMatchObject({ ok: false });
		expect(out[3]).toBeUndefined();
		const all = await mapConcurrent([0, 1, 2], 2, async (_x, i) => {
			if (i === 1) throw new Error('x');
			return i;
		});
		expect(all.map((r) => r?.ok)).toEqual([true, false, true]);
	});
});

describe('retryRule: the decision and its note from one rule', () => {
	const facts = (f: {
		status?: number;
		code?: string;
		retryAfterMs?: number;
		reconnect?: boolean;
	}) => ({
		message: 'x',
		reconnect: false,
		...f,
	});
	it.each([
		['GET', undefined, facts({ status: 503 }), true, undefined],
		['POST', undefined, facts({ status: 503 }), false, 'not repeated automatically'],
		['POST', undefined, facts({ code: 'ECONNRESET' }), false, 'not repeated automatically'],
		['POST', undefined, facts({ code: 'ECONNREFUSED' }), true, undefined],
		['POST', undefined, facts({ status: 429, retryAfterMs: 2000 }), true, 'wait 2 s'],
		['GET', 'never', facts({ status: 429 }), false, 'never retried'],
		['DELETE', 'never', facts({ code: 'ECONNREFUSED' }), false, 'never retried'],
		['GET', undefined, facts({ status: 401, reconnect: true }), false, undefined],
		['GET', undefined, facts({ status: 404 }), false, undefined],
	] as const)('%s (retry %s) after %j: retry %s, note %s', (method, retry, f, again, note) => {
		const rule = retryRule({ method, retry }, f);
		expect(rule.retry).toBe(again);
		if (note === undefined) expect(rule.note).toBeUndefined();
		else expect(rule.note).toContain(note);
	});
});

describe("nextAttempt: the rule within the tuning's attempts, longest delay and total wait", () => {
	const retry = { ...DEFAULT_TUNING.retry, attempts: 3, maxDelayMs: 5_000, maxTotalWaitMs: 8_000 };
	const fresh = { waitedMs: 0, elapsedMs: 0 };
	const f = (x: { status?: number; code?: string; retryAfterMs?: number }) => ({
		message: 'x',
		reconnect: false,
		...x,
	});

	it('waits a backoff for a retryable failure, the Retry-After for a 429', () => {
		const backoff = nextAttempt({ method: 'GET' }, f({ status: 503 }), 1, fresh, retry);
		expect('delayMs' in backoff && backoff.delayMs).toBeGreaterThan(0);
		expect(
			nextAttempt({ method: 'POST' }, f({ status: 429, retryAfterMs: 4_000 }), 1, fresh, retry),
		).toEqual({ delayMs: 4_000 });
	});

	it.each([
		['the last attempt', 3, fresh, f({ status: 503 })],
		['a Retry-After past the longest delay', 1, fresh, f({ status: 429, retryAfterMs: 5_001 })],
		[
			'the total wait',
			1,
			{ waitedMs: 7_000, elapsedMs: 0 },
			f({ status: 429, retryAfterMs: 1_001 }),
		],
		['the total time', 1, { waitedMs: 0, elapsedMs: retry.maxTotalMs }, f({ status: 503 })],
	] as const)("stops at %s, with the rule's note", (_why, attempt, spent, facts) => {
		const next = nextAttempt({ method: 'GET' }, facts, attempt, spent, retry);
		expect('delayMs' in next).toBe(false);
	});

	it('a create after a 5xx is not sent again, and the note says why', () => {
		expect(nextAttempt({ method: 'POST' }, f({ status: 502 }), 1, fresh, retry)).toEqual({
			note: expect.stringContaining('not repeated automatically'),
		});
	});
});

describe('credentialInfo: the credential read once per run scope', () => {
	const scopeReading = (answers: Array<Record<string, unknown>>) => {
		let reads = 0;
		const ctx = {
			getNode: () => ({ name: 'n', credentials: { businessPlatformOAuth2Api: { id: '7' } } }),
			getCredentials: async () => answers[Math.min(reads++, answers.length - 1)],
		};
		return { scope: new RunScope(ctx as never), reads: () => reads };
	};
	const good = { baseUrl: 'https://api.example.com/', oauthTokenData: { access_token: 't0ken' } };

	it('items in parallel share one read', async () => {
		const { scope, reads } = scopeReading([good]);
		const infos = await Promise.all([1, 2, 3].map(async () => await credentialInfo(scope)));
		expect(reads()).toBe(1);
		expect(infos.map((i) => i.baseUrl)).toEqual(Array(3).fill('https://api.example.com'));
		expect(infos[0].token).toBe('t0ken');
	});

	it('a failed read (an http address) is not kept: the next request reads again', async () => {
		const { scope, reads } = scopeReading([{ ...good, baseUrl: 'http://api.example.com' }, good]);
		await expect(credentialInfo(scope)).rejects.toThrow('must start with https://');
		await expect(credentialInfo(scope)).resolves.toMatchObject({ token: 't0ken' });
		expect(reads()).toBe(2);
	});
});

describe('OrderedGate', () => {
	const tick = () => new Promise((r) => setTimeout(r, 1));

	it('admits items in input order, at most `size` inside, whatever order they arrive in', async () => {
		const gate = new OrderedGate(2);
		const entered: number[] = [];
		let inside = 0;
		let peak = 0;
		const arrive = [3, 0, 5, 1, 4, 2];
		await Promise.all(
			arrive.map(async (i, n) => {
				await new Promise((r) => setTimeout(r, n * 2));
				await gate.enter(i);
				entered.push(i);
				peak = Math.max(peak, ++inside);
				await tick();
				inside--;
				gate.leave();
			}),
		);
		expect(entered).toEqual([0, 1, 2, 3, 4, 5]);
		expect(peak).toBe(2);
	});

	it('lets later items pass an item that finished without entering', async () => {
		const gate = new OrderedGate(1);
		const second = gate.enter(2).then(() => 'entered');
		gate.pass(1); // ahead of its turn: remembered
		await gate.enter(0);
		gate.leave();
		await expect(second).resolves.toBe('entered');
	});

	it('after a failure, later items never enter; earlier ones still do', async () => {
		const gate = new OrderedGate(1);
		await gate.enter(0);
		const later = gate.enter(3);
		const earlier = gate.enter(1);
		gate.fail(2);
		await expect(later).rejects.toBeInstanceOf(NotStarted);
		gate.leave();
		await expect(earlier).resolves.toBeUndefined();
		await expect(gate.enter(4)).rejects.toBeInstanceOf(NotStarted);
	});
});

describe('readFailure', () => {
	it('digs status, body, Retry-After and network codes out of wrapped errors', () => {
		const wrapped = {
			message: 'outer',
			httpCode: '429',
			cause: {
				message: 'inner',
				response: {
					status: 429,
					headers: { 'retry-after': '3' },
					data: '{"errorMessage":"slow down"}',
				},
			},
		};
		expect(readFailure(wrapped)).toMatchObject({
			status: 429,
			retryAfterMs: 3000,
			body: { errorMessage: 'slow down' },
			reconnect: false,
		});
		expect(readFailure({ message: 'socket hang up', cause: { code: 'ECONNRESET' } })).toMatchObject(
			{ status: undefined, code: 'ECONNRESET' },
		);
		expect(readFailure({ message: 'The credential "x" needs to be reconnected.' }).reconnect).toBe(
			true,
		);
		const date = new Date(Date.now() + 5000).toUTCString();
		expect(
			readFailure({ response: { status: 503, headers: { 'retry-after': date } } }).retryAfterMs,
		).toBeGreaterThan(3000);
	});

	it('reads both error body styles', () => {
		expect(
			platformMessage({
				code: 400,
				errorMessage: 'Validation failed',
				errors: [{ field: 'name', error: 'must be a string' }],
			}),
		).toEqual({
			text: 'Validation failed',
			fields: ['name: must be a string'],
			rejected: [{ field: 'name', error: 'must be a string' }],
		});
		expect(
			platformMessage({ error: 'user not found', code: 5, message: 'user not found', details: [] }),
		).toEqual({ text: 'user not found', fields: [], rejected: [] });
		// The people module's gateway errors: `field: error` in base64 details.
		const detail = {
			type_url: 'type.googleapis.com/google.rpc.BadRequest',
			value: Buffer.from('emailId: is not a valid email').toString('base64'),
		};
		expect(
			platformMessage({
				error: 'Validation failed',
				code: 3,
				message: 'Validation failed',
				details: [detail],
			}).rejected,
		).toEqual([{ field: 'emailId', error: 'is not a valid email' }]);
	});
});

describe('baseUrlProblem', () => {
	it.each([
		['https://api.example.com', undefined],
		['https://api.example.com/', undefined],
		['http://127.0.0.1:4010', undefined],
		['http://localhost:4010', undefined],
		['http://[::1]:4010', undefined],
		['http://api.example.com', /must start with https/],
		['ftp://api.example.com', /must start with https/],
		['api.example.com', /is not a URL/],
		['', /is not a URL/],
	])('%s', (url, expected) => {
		const problem = baseUrlProblem(url, 'API Base URL');
		if (expected) expect(problem).toMatch(expected);
		else expect(problem).toBeUndefined();
	});
});
