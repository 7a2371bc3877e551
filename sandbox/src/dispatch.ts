/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * One request from arrival to answer: routing (API or admin), faults before and
 * after processing, body reading, authentication, the handler, error bodies in
 * the module's style, and the request log.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { OAuthError, type Auth, type Session } from './auth';
import type { SandboxConfig } from './env';
import type { ContractLog } from './contract/log';
import type { FaultHit, FaultRule, Faults } from './faults';
import {
	ApiError,
	errorBody,
	parseBody,
	Query,
	type Ctx,
	type ErrorStyle,
	type Reply,
	type Router,
} from './http';
import type { RequestEntry, RequestLog } from './requestLog';
import { withClock, type Clock } from './state';

/** Which listener a request came in on. */
export type Host = 'main' | 'regional';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface DispatchDeps {
	config: SandboxConfig;
	api: Router<Session>;
	admin: Router<undefined>;
	auth: Auth;
	faults: Faults;
	log: RequestLog;
	/** With `contract: true`: every API request and answer is checked against contract/openapi.yaml. */
	contract?: ContractLog;
	/** The sandbox's time, which every handler reads (state.ts `nowIso`). */
	clock: Clock;
}

/** A reply as it goes on the wire: its body text and content type. */
function wire(reply: Reply): { payload?: string; contentType?: string } {
	if (reply.body === undefined) return {};
	if (typeof reply.body === 'string' && reply.contentType)
		return { payload: reply.body, contentType: reply.contentType };
	return { payload: JSON.stringify(reply.body), contentType: 'application/json;charset=UTF-8' };
}

export function send(res: ServerResponse, reply: Reply, onWire = wire(reply)): void {
	const headers: Record<string, string | number> = { ...(reply.headers ?? {}) };
	const { payload, contentType } = onWire;
	if (contentType) headers['content-type'] = contentType;
	headers['content-length'] = payload === undefined ? 0 : Buffer.byteLength(payload);
	res.writeHead(reply.status, headers);
	res.end(payload);
}

export function errorReply(err: unknown, style: ErrorStyle): Reply {
	if (err instanceof OAuthError)
		return { status: err.status, body: { error: err.code, error_description: err.message } };
	if (err instanceof ApiError) return { status: err.status, body: errorBody(style, err) };
	const message = err instanceof Error ? err.message : String(err);
	return {
		status: 500,
		body: errorBody(style, new ApiError(500, 'Internal server error', [], message)),
	};
}

function readBody(req: IncomingMessage, maxBody: number): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (c: Buffer) => {
			size += c.length;
			// Too large: keep reading (and dropping) to the end, so the 413 answer reaches the
			// client instead of a reset connection.
			if (size > maxBody) chunks.length = 0;
			else chunks.push(c);
		});
		req.on('end', () =>
			size > maxBody
				? reject(new ApiError(413, `Request body larger than ${maxBody} bytes`))
				: resolve(Buffer.concat(chunks).toString('utf8')),
		);
		req.on('error', reject);
	});
}

function faultMessage(status: number): string {
	if (status === 429) return 'Too many requests: slow down and retry after the time in Retry-After';
	if (status === 503) return 'Service temporarily unavailable';
	return 'Internal server error';
}

/**
 * Runs the fault hits of one phase in order: latency waits, hold waits for the test's release,
 * drop ends the run with 'drop', status and body build the answer (before processing it ends
 * the run; after processing a later rule may still replace it or drop). `body` gives the
 * request's text, for a status rule that echoes it.
 */
async function runFaults(
	faults: Faults,
	hits: FaultHit[],
	phase: 'before' | 'after',
	style: ErrorStyle,
	body: () => Promise<string>,
): Promise<Reply | 'drop' | undefined> {
	let reply: Reply | undefined;
	for (const hit of hits.filter((h) => h.phase === phase)) {
		const r: FaultRule = hit.rule;
		if (r.kind === 'latency') await sleep(r.ms ?? 0);
		else if (r.kind === 'hold') await faults.hold();
		else if (r.kind === 'drop') return 'drop';
		else if (r.kind === 'body') {
			reply = {
				status: r.status ?? 200,
				body: r.body ?? '',
				contentType: r.contentType ?? 'application/json',
			};
			if (phase === 'before') return reply;
		} else {
			const debug =
				phase === 'before'
					? 'Injected by the sandbox fault rules'
					: 'Injected by the sandbox fault rules after the request was processed';
			const text = r.echo
				? `${faultMessage(r.status!)}: ${echoed(await body(), r.echo)}`
				: faultMessage(r.status!);
			reply = errorReply(new ApiError(r.status!, text, [], debug), style);
			if (r.retryAfter !== undefined) reply.headers = { 'retry-after': String(r.retryAfter) };
			if (phase === 'before') return reply;
		}
	}
	return reply;
}

/** What an echoing fault repeats of the request's body: all of it, or one field of its JSON. */
function echoed(body: string, echo: true | string): string {
	if (echo === true) return body;
	try {
		return String((JSON.parse(body) as Record<string, unknown>)[echo]);
	} catch {
		return body;
	}
}

/** A request being dispatched: where it goes and what the log will say about it. */
interface Incoming {
	req: IncomingMessage;
	url: URL;
	method: string;
	path: string;
	isAdmin: boolean;
	matched: ReturnType<Router<Session>['match']> | ReturnType<Router<undefined>['match']>;
	style: ErrorStyle;
	entry: RequestEntry;
	/** The body text, once read. */
	raw?: string;
}

function incoming(d: DispatchDeps, req: IncomingMessage, host: Host): Incoming {
	const url = new URL(req.url ?? '/', 'http://sandbox');
	const method = (req.method ?? 'GET').toUpperCase();
	const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
	const isAdmin = path.startsWith('/__admin');
	const matched = (isAdmin ? d.admin : d.api).match(method, path);
	const route = matched && 'route' in matched ? matched.route : undefined;
	const style: ErrorStyle =
		route?.options.errorStyle ?? (path.startsWith('/v1/people') ? 'gateway' : 'platform');
	const entry: RequestEntry = {
		method,
		path,
		query: url.search,
		route: route ? `${method} ${route.pattern}` : undefined,
		status: 0,
		host,
	};
	return { req, url, method, path, isAdmin, matched, style, entry };
}

/**
 * The token of a request: its `x-access-token` header, or (with the benchmarks' `acceptBearer`
 * switch only) an `Authorization: Bearer` header when there is no `x-access-token`.
 */
function accessToken(req: IncomingMessage, acceptBearer: boolean): string | undefined {
	const header = req.headers['x-access-token'];
	const token = Array.isArray(header) ? header[0] : header;
	if (token || !acceptBearer) return token;
	const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
	return bearer?.[1];
}

/** Reads the body, authenticates and runs the route's handler; any error becomes the error answer. */
async function answer(d: DispatchDeps, i: Incoming): Promise<Reply> {
	const { req, method, path, matched, isAdmin, entry } = i;
	try {
		const raw = i.raw ?? (await readBody(req, d.config.maxBody));
		i.raw = raw;
		if (!isAdmin && raw) entry.body = raw.length > 65536 ? raw.slice(0, 65536) : raw;
		if (!matched)
			throw new ApiError(
				404,
				`No endpoint ${method} ${path}`,
				[],
				'Check the path against the API documents',
			);
		if (!('route' in matched))
			throw new ApiError(
				405,
				`Method ${method} is not allowed on ${path}`,
				[],
				`Allowed: ${matched.allowed.join(', ')}`,
			);
		const ctx: Ctx<Session> = {
			req,
			method,
			path,
			query: new Query(i.url.searchParams),
			params: matched.params,
			body: parseBody(raw, req.headers['content-type']),
			rawBody: raw,
			headers: req.headers,
			session: undefined as unknown as Session,
		};
		if (!isAdmin && matched.route.options.auth === 'token') {
			ctx.session = d.auth.authenticate(accessToken(req, d.config.acceptBearer));
			entry.tenantId = ctx.session.tenantId;
		}
		const handler = matched.route.handler as (c: Ctx<Session>) => Reply | Promise<Reply>;
		return await withClock(d.clock, () => handler(ctx));
	} catch (err) {
		return errorReply(err, i.style);
	}
}

/** Checks an API request and, unless the connection was dropped, its answer (as it goes on the wire) against the contract. */
function checkContract(
	d: DispatchDeps,
	i: Incoming,
	reply: Reply | undefined,
	onWire = reply && wire(reply),
): void {
	if (!d.contract || i.isAdmin) return;
	const caller = i.req.headers['x-sandbox-caller'] === 'test' ? 'test' : 'node';
	const header = i.req.headers['content-type'];
	const facts = {
		method: i.method,
		path: i.url.pathname,
		query: i.url.searchParams,
		contentType: header,
		body: i.raw,
	};
	const op = d.contract.request(facts, caller);
	if (!op || !reply || !onWire) return;
	const { payload, contentType } = onWire;
	d.contract.response(op, caller, {
		method: i.method,
		path: i.url.pathname,
		status: reply.status,
		contentType,
		body: payload ?? '',
	});
}

/** The request handler of both listeners. */
export function requestHandler(
	d: DispatchDeps,
): (req: IncomingMessage, res: ServerResponse, host: Host) => Promise<void> {
	const drop = (i: Incoming, fault: string) => {
		i.entry.status = 0;
		i.entry.fault = fault;
		d.log.record(i.entry);
		// Dropped before its body was read: what it sent is not known, so it is not checked.
		if (i.raw !== undefined) checkContract(d, i, undefined);
		i.req.socket.destroy();
	};
	return async (req, res, host) => {
		const i = incoming(d, req, host);
		const hits = i.isAdmin ? [] : d.faults.pick(i.method, i.path);
		// The body, read once, for a fault that echoes it before the request is processed.
		const body = async () => (i.raw ??= await readBody(req, d.config.maxBody).catch(() => ''));
		const before = await runFaults(d.faults, hits, 'before', i.style, body);
		if (before === 'drop') return drop(i, 'drop');
		// The client gave up while a latency fault held its request (its timeout passed): nothing is carried out,
		// and the log says so, so a test can wait for the sandbox to be done with it.
		if (req.socket.destroyed) return drop(i, 'client left');
		if (before) {
			i.entry.status = before.status;
			i.entry.fault = `status ${before.status}`;
			i.raw ??= await readBody(req, d.config.maxBody).catch(() => undefined);
			if (i.raw) i.entry.body = i.raw.length > 65536 ? i.raw.slice(0, 65536) : i.raw;
			d.log.record(i.entry);
			checkContract(d, i, before);
			return send(res, before);
		}
		let reply = await answer(d, i);
		const after = await runFaults(d.faults, hits, 'after', i.style, async () => i.raw ?? '');
		if (after === 'drop') return drop(i, 'drop after processing');
		if (after) {
			i.entry.fault = `status ${after.status} after processing`;
			reply = after;
		}
		i.entry.status = reply.status;
		if (!i.isAdmin) d.log.record(i.entry);
		const onWire = wire(reply); // the body's text, made once for the check and the answer
		checkContract(d, i, reply, onWire);
		send(res, reply, onWire);
	};
}
