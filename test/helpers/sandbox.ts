/* eslint-disable @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Test helpers: start a sandbox in-process and call it over real HTTP with undici.
 */
import { request } from 'undici';

import { onCleanup } from '../../testbed/processes';
import { watchContract } from './contract';
import {
	startSandbox,
	type Sandbox,
	type SandboxConfig,
	type FaultRule,
} from '../../sandbox/src/server';

export type { Sandbox };

export interface CallResult<T = any> {
	status: number;
	body: T;
	text: string;
	headers: Record<string, string | string[] | undefined>;
}

export interface CallOptions {
	query?: Record<string, string | number | boolean | Array<string | number> | undefined>;
	body?: unknown;
	/** Raw body text (sent as is, with `contentType`). */
	raw?: string;
	contentType?: string;
	/** x-access-token; `null` sends none. Default: the sandbox's demo token. */
	token?: string | null;
	headers?: Record<string, string>;
}

export function queryString(query: CallOptions['query']): string {
	if (!query) return '';
	const p = new URLSearchParams();
	for (const [k, v] of Object.entries(query)) {
		if (v === undefined) continue;
		if (Array.isArray(v)) v.forEach((x) => p.append(k, String(x)));
		else p.append(k, String(v));
	}
	const s = p.toString();
	return s ? `?${s}` : '';
}

export async function call<T = any>(
	sb: Sandbox,
	method: string,
	path: string,
	opts: CallOptions = {},
): Promise<CallResult<T>> {
	// Marks the test's own requests: the contract binds what the nodes send (test/helpers/contract.ts).
	const headers: Record<string, string> = { 'x-sandbox-caller': 'test', ...(opts.headers ?? {}) };
	const token = opts.token === undefined ? sb.demo.accessToken : opts.token;
	if (token) headers['x-access-token'] = token;
	let body: string | undefined;
	if (opts.raw !== undefined) {
		body = opts.raw;
		headers['content-type'] = opts.contentType ?? 'application/json';
	} else if (opts.body !== undefined) {
		body = JSON.stringify(opts.body);
		headers['content-type'] = 'application/json';
	}
	const res = await request(sb.baseUrl + path + queryString(opts.query), {
		method: method as 'GET',
		headers,
		body,
	});
	const text = await res.body.text();
	let parsed: unknown = text;
	if (String(res.headers['content-type'] ?? '').includes('json') && text) parsed = JSON.parse(text);
	return { status: res.statusCode, body: parsed as T, text, headers: res.headers };
}

export type SandboxOptions = Partial<SandboxConfig> & { faults?: FaultRule[] };

/**
 * A sandbox in this process, stopped with the test file even if a hook failed or timed out.
 * It checks its traffic against the platform contract (`contract: false` turns that off).
 */
export async function startTestSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const sb = await startSandbox({ contract: true, ...options });
	watchContract(sb);
	onCleanup(() => sb.stop());
	return sb;
}

/** Starts a sandbox for one test file; stops it after. */
export function useSandbox(options: SandboxOptions = {}): { sb: Sandbox } {
	const holder = {} as { sb: Sandbox };
	beforeAll(async () => {
		holder.sb = await startTestSandbox(options);
	});
	afterAll(async () => {
		await holder.sb?.stop();
	});
	return holder;
}

/** A token of the second demo tenant, to prove isolation. */
export function otherTenantToken(sb: Sandbox): string {
	return sb.platformToken(sb.issueTokens('demo2'));
}

/** The platform's error body (sales, campaigns, webhooks), optionally naming a field. */
export function expectPlatformError(
	res: { status: number; body: any },
	status: number,
	field?: string,
): void {
	expect(res.status).toBe(status);
	expect(res.body).toEqual({
		code: status,
		errorMessage: expect.any(String),
		debugMessage: expect.any(String),
		httpStatus: expect.stringMatching(new RegExp(`^${status} `)),
		errors: expect.any(Array),
	});
	if (field)
		expect(res.body.errors).toEqual(expect.arrayContaining([{ field, error: expect.any(String) }]));
}

/** The people module's gatewayruntimeError {error, code, message, details}, optionally naming a field in its details. */
export function expectGateway(res: CallResult, status: number, field?: string): void {
	expect(res.status).toBe(status);
	expect(res.body).toEqual({
		error: expect.any(String),
		code: expect.any(Number),
		message: expect.any(String),
		details: expect.any(Array),
	});
	if (field) {
		const details = (res.body.details as { type_url: string; value: string }[]).map((d) =>
			Buffer.from(d.value, 'base64').toString(),
		);
		expect(details.some((d) => d.startsWith(`${field}:`))).toBe(true);
	}
}
