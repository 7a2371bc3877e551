/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Minimal HTTP plumbing for the sandbox: a router with path parameters, body
 * parsing, query helpers and the two error-body styles the spec documents.
 */
import type { IncomingMessage } from 'node:http';

/** Error bodies: sales/campaign/webhook endpoints vs people/payroll gateway errors. */
export type ErrorStyle = 'platform' | 'gateway';

export interface FieldError {
	field: string;
	error: string;
}

const REASONS: Record<number, string> = {
	400: 'BAD_REQUEST',
	401: 'UNAUTHORIZED',
	403: 'FORBIDDEN',
	404: 'NOT_FOUND',
	405: 'METHOD_NOT_ALLOWED',
	406: 'NOT_ACCEPTABLE',
	409: 'CONFLICT',
	413: 'PAYLOAD_TOO_LARGE',
	415: 'UNSUPPORTED_MEDIA_TYPE',
	429: 'TOO_MANY_REQUESTS',
	500: 'INTERNAL_SERVER_ERROR',
	503: 'SERVICE_UNAVAILABLE',
};

/** gRPC-gateway codes used by the people/payroll module's gatewayruntimeError. */
const GRPC_CODES: Record<number, number> = {
	400: 3,
	401: 16,
	403: 7,
	404: 5,
	409: 6,
	429: 8,
	500: 13,
	503: 14,
};

export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly errors: FieldError[] = [],
		readonly debugMessage = '',
	) {
		super(message);
	}
}

export const badRequest = (message: string, errors: FieldError[] = []) =>
	new ApiError(400, message, errors);
export const notFound = (what: string, id: unknown) =>
	new ApiError(
		404,
		`${what} not found`,
		[],
		`No ${what.toLowerCase()} with id ${String(id)} in this tenant`,
	);

export function errorBody(style: ErrorStyle, err: ApiError): unknown {
	if (style === 'gateway') {
		return {
			error: err.message,
			code: GRPC_CODES[err.status] ?? 2,
			message: err.message,
			details: err.errors.map((e) => ({
				type_url: 'type.googleapis.com/google.rpc.BadRequest',
				value: Buffer.from(`${e.field}: ${e.error}`).toString('base64'),
			})),
		};
	}
	return {
		code: err.status,
		errorMessage: err.message,
		debugMessage: err.debugMessage,
		httpStatus: `${err.status} ${REASONS[err.status] ?? 'ERROR'}`,
		errors: err.errors,
	};
}

export interface Reply {
	status: number;
	/** undefined: empty body. string: sent as is with `contentType` (default text/plain). Anything else: JSON. */
	body?: unknown;
	contentType?: string;
	headers?: Record<string, string>;
}

export const json = (status: number, body: unknown): Reply => ({ status, body });
export const empty = (status: number): Reply => ({ status });
export const text = (
	status: number,
	body: string,
	contentType = 'text/plain; charset=utf-8',
): Reply => ({ status, body, contentType });

/** Typed access to query parameters, tolerant of the serialisations clients use. */
export class Query {
	constructor(readonly params: URLSearchParams) {}

	has(name: string): boolean {
		return this.params.has(name) || this.params.has(`${name}[]`);
	}

	str(name: string): string | undefined {
		const v = this.params.get(name);
		return v === null || v === '' ? undefined : v;
	}

	int(name: string, opts: { min?: number; max?: number } = {}): number | undefined {
		const v = this.str(name);
		if (v === undefined) return undefined;
		if (!/^-?\d+$/.test(v))
			throw badRequest(`Query parameter ${name} must be an integer`, [
				{ field: name, error: 'must be an integer' },
			]);
		const n = Number(v);
		if (opts.min !== undefined && n < opts.min)
			throw badRequest(`Query parameter ${name} must be at least ${opts.min}`, [
				{ field: name, error: `must be >= ${opts.min}` },
			]);
		return opts.max !== undefined ? Math.min(n, opts.max) : n;
	}

	bool(name: string): boolean | undefined {
		const v = this.str(name);
		if (v === undefined) return undefined;
		if (v === 'true' || v === '1') return true;
		if (v === 'false' || v === '0') return false;
		throw badRequest(`Query parameter ${name} must be true or false`, [
			{ field: name, error: 'must be a boolean' },
		]);
	}

	/** Arrays as repeated keys (`a=1&a=2`), bracket keys (`a[]=1`) or comma-separated text. */
	list(name: string): string[] | undefined {
		const all = [...this.params.getAll(name), ...this.params.getAll(`${name}[]`)];
		const items = all
			.flatMap((v) => v.split(','))
			.map((v) => v.trim())
			.filter((v) => v !== '');
		return items.length ? items : undefined;
	}

	intList(name: string): number[] | undefined {
		const items = this.list(name);
		if (!items) return undefined;
		return items.map((v) => {
			if (!/^-?\d+$/.test(v))
				throw badRequest(`Query parameter ${name} must hold integers`, [
					{ field: name, error: 'must be a list of integers' },
				]);
			return Number(v);
		});
	}
}

export interface Ctx<S = unknown> {
	req: IncomingMessage;
	method: string;
	path: string;
	query: Query;
	params: Record<string, string>;
	/** Parsed JSON or form body; undefined when the request had none. */
	body: unknown;
	rawBody: string;
	headers: IncomingMessage['headers'];
	/** Filled by the server for authenticated routes. */
	session: S;
}

export type Handler<S> = (ctx: Ctx<S>) => Reply | Promise<Reply>;

export interface RouteOptions {
	/** 'token': needs a valid x-access-token (default). 'none': public (OAuth steps). */
	auth?: 'token' | 'none';
	errorStyle?: ErrorStyle;
}

export interface Route<S> {
	method: string;
	pattern: string;
	segments: string[];
	handler: Handler<S>;
	options: Required<RouteOptions>;
}

/** Static segments win over parameters, so `/contacts/labels` beats `/contacts/:id`. */
export class Router<S> {
	private readonly routes: Route<S>[] = [];

	add(method: string, pattern: string, handler: Handler<S>, options: RouteOptions = {}): void {
		this.routes.push({
			method,
			pattern,
			segments: pattern.split('/').filter(Boolean),
			handler,
			options: { auth: options.auth ?? 'token', errorStyle: options.errorStyle ?? 'platform' },
		});
	}

	list(): ReadonlyArray<Route<S>> {
		return this.routes;
	}

	match(
		method: string,
		path: string,
	): { route: Route<S>; params: Record<string, string> } | { allowed: string[] } | undefined {
		const parts = path.split('/').filter(Boolean);
		let best: { route: Route<S>; params: Record<string, string>; score: string } | undefined;
		const allowed = new Set<string>();
		for (const route of this.routes) {
			if (route.segments.length !== parts.length) continue;
			const params: Record<string, string> = {};
			let score = '';
			let ok = true;
			for (let i = 0; i < parts.length; i++) {
				const seg = route.segments[i];
				if (seg.startsWith(':')) {
					params[seg.slice(1)] = decodeURIComponent(parts[i]);
					score += '0';
				} else if (seg === parts[i]) {
					score += '1';
				} else {
					ok = false;
					break;
				}
			}
			if (!ok) continue;
			if (route.method !== method) {
				allowed.add(route.method);
				continue;
			}
			if (!best || score > best.score) best = { route, params, score };
		}
		if (best) return { route: best.route, params: best.params };
		return allowed.size ? { allowed: [...allowed] } : undefined;
	}
}

export function parseBody(raw: string, contentType: string | undefined): unknown {
	if (raw.length === 0) return undefined;
	const type = (contentType ?? '').toLowerCase();
	if (type.includes('application/x-www-form-urlencoded')) {
		return Object.fromEntries(new URLSearchParams(raw));
	}
	if (type.includes('json') || /^\s*[[{"]/.test(raw) || !type) {
		try {
			return JSON.parse(raw) as unknown;
		} catch {
			throw new ApiError(
				400,
				'Malformed JSON request',
				[{ field: 'body', error: 'is not valid JSON' }],
				'JSON parse error: the request body could not be read',
			);
		}
	}
	return raw;
}

/** The request body as an object; 400 when it is something else. */
export function objectBody(ctx: Ctx<unknown>, required = true): Record<string, unknown> {
	const b = ctx.body;
	if (b === undefined && !required) return {};
	if (b === null || typeof b !== 'object' || Array.isArray(b)) {
		throw badRequest('Request body must be a JSON object', [
			{ field: 'body', error: 'must be an object' },
		]);
	}
	return b as Record<string, unknown>;
}

export function arrayBody(ctx: Ctx<unknown>): unknown[] {
	if (!Array.isArray(ctx.body))
		throw badRequest('Request body must be a JSON array', [
			{ field: 'body', error: 'must be an array' },
		]);
	return ctx.body;
}

export function intParam(ctx: Ctx<unknown>, name = 'id'): number {
	const v = ctx.params[name];
	if (!/^\d+$/.test(v))
		throw badRequest(`Path parameter ${name} must be an integer`, [
			{ field: name, error: 'must be an integer' },
		]);
	return Number(v);
}
