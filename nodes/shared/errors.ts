/**
 * Turns whatever n8n's request helpers throw into a clean NodeApiError: the HTTP
 * status, the platform's own message and field errors, and what to check — built
 * from a plain object, so no request options, headers or tokens travel along.
 */
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

export interface FailureFacts {
	/** HTTP status, or undefined for network failures. */
	status?: number;
	/** Network error code (ECONNRESET, ECONNREFUSED, …). */
	code?: string;
	/** The response body, parsed when it was JSON. */
	body?: unknown;
	/** Retry-After in milliseconds, when the server sent one. */
	retryAfterMs?: number;
	/** The helper's own message (n8n's, never containing headers). */
	message: string;
	/** n8n asked for the credential to be reconnected (refresh impossible). */
	reconnect: boolean;
	/** Where a redirect (3xx) pointed: scheme, host and port only (never its path or query). */
	redirectTo?: string;
}

const NETWORK_CODES: ReadonlySet<string> = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'ENOTFOUND',
	'EAI_AGAIN',
	'UND_ERR_SOCKET',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

/**
 * Network failures in words. n8n replaces any error message that names such a code (its
 * NodeApiError and NodeOperationError both do) with a generic sentence of its own, which
 * would also swallow the text of an error that wraps this one: the code goes in the description.
 */
const NETWORK_WORDS: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'the connection was closed without an answer',
	EPIPE: 'the connection was closed while sending',
	UND_ERR_SOCKET: 'the connection was closed without an answer',
	ECONNABORTED: 'no answer within the timeout, or the connection was aborted',
	ETIMEDOUT: 'timed out',
	ERR_SOCKET_CONNECTION_TIMEOUT: 'timed out',
	ENOTFOUND: 'host not found',
	EAI_AGAIN: 'host name lookup failed',
	EHOSTUNREACH: 'host unreachable',
	ENETUNREACH: 'network unreachable',
};

function asObject(v: unknown): IDataObject | undefined {
	return v !== null && typeof v === 'object' ? (v as IDataObject) : undefined;
}

function parseRetryAfter(value: unknown): number | undefined {
	if (value === undefined || value === null) return undefined;
	const text = String(Array.isArray(value) ? value[0] : value).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Reads status, body, headers and network codes from the layers n8n wraps around an HTTP failure. */
export function readFailure(error: unknown): FailureFacts {
	const layers: IDataObject[] = [];
	let cur = asObject(error);
	for (let depth = 0; cur && depth < 6; depth++) {
		layers.push(cur);
		cur = asObject(cur.cause);
	}
	let status: number | undefined;
	let body: unknown;
	let retryAfterMs: number | undefined;
	let code: string | undefined;
	let redirectTo: string | undefined;
	for (const layer of layers) {
		const response = asObject(layer.response);
		if (status === undefined) {
			const s = Number(
				response?.status ?? layer.httpCode ?? layer.statusCode ?? asObject(layer.context)?.status,
			);
			if (Number.isInteger(s) && s >= 100) status = s;
		}
		if (body === undefined && response && 'data' in response) body = response.data;
		if (body === undefined && response && 'body' in response) body = response.body;
		const headers = asObject(response?.headers);
		if (retryAfterMs === undefined && headers)
			retryAfterMs = parseRetryAfter(headers['retry-after'] ?? headers['Retry-After']);
		if (redirectTo === undefined && headers)
			redirectTo = originOf(headers.location ?? headers.Location);
		if (
			!code &&
			typeof layer.code === 'string' &&
			(NETWORK_CODES.has(layer.code) || /^E[A-Z]+$/.test(layer.code))
		)
			code = layer.code;
	}
	if (typeof body === 'string') {
		try {
			body = JSON.parse(body) as unknown;
		} catch {
			// keep the text
		}
	}
	const top = layers[0] ?? {};
	const message = String(top.message ?? error);
	const reconnect = layers.some(
		(l) =>
			/needs to be reconnected|reconnect the credential/i.test(String(l.message ?? '')) ||
			l.error === 'invalid_grant' ||
			asObject(l.body)?.error === 'invalid_grant',
	);
	return {
		status,
		code,
		body,
		retryAfterMs,
		message,
		reconnect,
		...(redirectTo ? { redirectTo } : {}),
	};
}

/** The scheme, host and port of a redirect's Location (relative ones resolve to "the same host"). */
function originOf(location: unknown): string | undefined {
	if (typeof location !== 'string' || !location) return undefined;
	try {
		return new URL(location).origin;
	} catch {
		return 'the same host';
	}
}

/** What stands in an error for a secret the platform's text held. */
export const REDACTED = '[redacted]';
/** Secrets shorter than this are not looked for: they would blank ordinary words of the text. */
const MIN_SECRET_LENGTH = 6;

/** A secret URL-encoded as gateways write it: upper- and lower-case hex, and a form's "+" for a space. */
function encodedForms(secret: string): string[] {
	let encoded: string;
	try {
		encoded = encodeURIComponent(secret);
	} catch {
		return []; // a lone surrogate cannot be encoded, so no text holds it encoded
	}
	const lower = encoded.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
	return [encoded, lower, encoded.replace(/%20/g, '+'), lower.replace(/%20/g, '+')];
}

/** Each secret as given and URL-encoded, longest first (so a secret that holds another is replaced whole). */
function secretForms(secrets: Array<string | undefined> | undefined): string[] {
	const forms = (secrets ?? []).flatMap((s) =>
		typeof s === 'string' && s.length >= MIN_SECRET_LENGTH ? [s, ...encodedForms(s)] : [],
	);
	return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

/** A text without any of the secrets (as given, and as URL-encoding writes them). */
function scrubText(text: string, secrets: string[]): string {
	let out = text;
	for (const secret of secrets) out = out.split(secret).join(REDACTED);
	return out;
}

function scrubValue(value: unknown, secrets: string[], depth = 0): unknown {
	if (typeof value === 'string') return scrubText(value, secrets);
	if (value === null || typeof value !== 'object') return value;
	// Deeper than any platform answer: scrubbed as one text rather than walked further.
	if (depth > 20) return scrubText(JSON.stringify(value), secrets);
	if (Array.isArray(value)) return value.map((v) => scrubValue(v, secrets, depth + 1));
	const out: IDataObject = {};
	for (const [k, v] of Object.entries(value as IDataObject))
		out[scrubText(k, secrets)] = scrubValue(v, secrets, depth + 1) as IDataObject[string];
	return out;
}

/**
 * The failure without any secret the pack knows (the access token, the refresh tokens, the client
 * secret): a gateway or the platform may echo a request header or the token in its error text, and
 * that text goes into the node's error, Continue On Fail items and an AI agent's context.
 */
export function withoutSecrets(
	facts: FailureFacts,
	secrets: Array<string | undefined>,
): FailureFacts {
	const known = secretForms(secrets);
	if (known.length === 0) return facts;
	return {
		...facts,
		message: scrubText(facts.message, known),
		body: scrubValue(facts.body, known),
	};
}

export const isNetworkFailure = (f: FailureFacts) =>
	f.status === undefined &&
	(f.code !== undefined || /socket hang up|ECONNRESET|network|timeout/i.test(f.message));

/** A field the platform rejected, with its reason. */
export interface RejectedField {
	field: string;
	error: string;
}

/** The people module's gateway errors carry `field: error` texts in base64 `details`. */
function gatewayDetails(details: unknown): RejectedField[] {
	if (!Array.isArray(details)) return [];
	return details.flatMap((d) => {
		const value = asObject(d)?.value;
		if (typeof value !== 'string') return [];
		const text = Buffer.from(value, 'base64').toString('utf8');
		const at = text.indexOf(': ');
		return at > 0 && /^[\w.[\]-]+$/.test(text.slice(0, at))
			? [{ field: text.slice(0, at), error: text.slice(at + 2) }]
			: [];
	});
}

/** The platform's own words: `errorMessage` (sales) or `message`/`error` (people), plus field errors. */
export function platformMessage(body: unknown): {
	text?: string;
	fields: string[];
	rejected: RejectedField[];
	detail?: string;
} {
	const b = asObject(body);
	if (!b)
		return {
			text: typeof body === 'string' && body.length < 300 ? body : undefined,
			fields: [],
			rejected: [],
		};
	const text = [b.errorMessage, b.message, b.error_description, b.error].find(
		(v) => typeof v === 'string' && v,
	) as string | undefined;
	const listed = Array.isArray(b.errors)
		? (b.errors as IDataObject[]).map((e) => ({ field: String(e.field), error: String(e.error) }))
		: [];
	const rejected = [...listed, ...gatewayDetails(b.details)];
	const fields = rejected.map((e) => `${e.field}: ${e.error}`);
	// The platform's debugMessage often says which record or value (e.g. the missing IDs).
	const detail =
		typeof b.debugMessage === 'string' &&
		b.debugMessage &&
		b.debugMessage !== text &&
		b.debugMessage.length < 500
			? b.debugMessage
			: undefined;
	return { text, fields, rejected, detail };
}

/**
 * The rejected fields for the error's message (an AI agent gets only the message): each by its
 * wire name and, when known, the node's parameter it came from. A field the platform's text
 * already names, with no parameter to add, is not repeated.
 */
function rejectedText(
	text: string | undefined,
	rejected: RejectedField[],
	labelOf?: (field: string) => string | undefined,
): string {
	const parts = rejected.flatMap(({ field, error }) => {
		const label = labelOf?.(field);
		const named = text?.includes(field);
		if (named && !label) return [];
		if (named) return [`${field} is the node's "${label}"`];
		return [`${field}${label ? ` (the node's "${label}")` : ''}: ${error}`];
	});
	return parts.length ? ` (${parts.join('; ')})` : '';
}

const HINTS: Record<number, string> = {
	400: 'The platform refused the input: check the fields named above.',
	401: 'The platform refused the token even after a refresh: reconnect the credential.',
	403: 'The connected user may not do this: check the user’s role or the app’s scope in the platform.',
	404: 'Nothing with this ID exists in your account (or the API base URL is wrong): check the ID, for example with a "Get Many" operation.',
	405: 'The platform does not offer this operation at this address: check the API base URL.',
	406: 'The platform refused the request because of a plan limit: check your plan.',
	409: 'A record with the same unique value already exists.',
	413: 'The request is too large: send fewer items or smaller values.',
	429: 'The platform is rate-limiting requests: lower the node’s concurrency or wait before running again.',
};

export interface ErrorContext {
	node: INode;
	method: string;
	path: string;
	itemIndex?: number;
	/** The node parameter a wire field name comes from (its display name), for rejected fields. */
	labelOf?: (field: string) => string | undefined;
	/** Extra sentence, e.g. that a create was not repeated. */
	note?: string;
	attempts?: number;
	/** The credential's secrets: never in the error's texts, whatever the platform's text held (withoutSecrets). */
	secrets?: Array<string | undefined>;
}

/** Builds the NodeApiError the user sees. Only plain facts go in: never options or headers. */
export function toNodeApiError(facts: FailureFacts, ctx: ErrorContext): NodeApiError {
	const where = `${ctx.method} ${ctx.path}`;
	const platform = platformMessage(facts.body);
	let message: string;
	let hint: string;
	if (facts.reconnect) {
		message = 'The Business Platform credential needs to be reconnected';
		hint =
			'The platform no longer accepts its refresh token (it was revoked, expired or already used). Open the credential and click "Reconnect".';
	} else if (facts.status === undefined) {
		message = `Could not reach the Business Platform API (${(facts.code && NETWORK_WORDS[facts.code]) ?? 'network error'})`;
		hint = `${facts.code ? `Network error ${facts.code}. ` : ''}Check the API Base URL in the credential and that the platform is reachable from n8n.`;
	} else if (facts.status >= 300 && facts.status < 400) {
		message = `The Business Platform API answered ${facts.status}, a redirect${facts.redirectTo ? ` to ${facts.redirectTo}` : ''}`;
		hint =
			'The pack does not follow redirects: the token and the request body were not sent to the new address. Check the API Base URL in the credential (the address of the API itself, with https://).';
	} else {
		message = `The Business Platform API answered ${facts.status}${platform.text ? `: ${platform.text}` : ''}${rejectedText(platform.text, platform.rejected, ctx.labelOf)}`;
		hint =
			HINTS[facts.status] ??
			(facts.status >= 500
				? 'The platform had a problem: try again later.'
				: 'Check the request fields.');
	}
	const parts = [
		platform.fields.length ? `Fields: ${platform.fields.join('; ')}.` : '',
		platform.detail ? `Details: ${platform.detail.replace(/\.?$/, '.')}` : '',
		hint,
		ctx.note ?? '',
		ctx.attempts && ctx.attempts > 1 ? `(${ctx.attempts} attempts.)` : '',
		`Request: ${where}.`,
	].filter(Boolean);
	// The texts as they leave: a secret the platform sent encoded (the people gateway's base64 details) is decoded by now.
	const known = secretForms(ctx.secrets);
	const clean = (text: string) => scrubText(text, known);
	message = clean(message);
	const description = clean(parts.join(' '));
	const plain: JsonObject = {
		message,
		description,
		httpCode: facts.status !== undefined ? String(facts.status) : (facts.code ?? 'network'),
	};
	if (platform.text) plain.platformMessage = clean(platform.text);
	if (platform.fields.length) plain.fieldErrors = platform.fields.map(clean);
	const error = new NodeApiError(ctx.node, plain, {
		message,
		description,
		httpCode: plain.httpCode as string,
		itemIndex: ctx.itemIndex,
	});
	// NodeApiError swaps a message that names a network code (ECONNREFUSED, ECONNRESET, …) for
	// n8n's generic wording ("The service refused the connection…"): keep the pack's own.
	error.message = message;
	return error;
}

/** A 401 with a token the platform refused right after n8n renewed it (transport.ts send): no further refresh in that run scope. */
export class TokenRefused extends Error {
	constructor() {
		super('The platform refused the Business Platform token even right after n8n renewed it');
	}
}

/** The item's error for a TokenRefused: what happened and what to check. */
export function tokenRefusedError(
	node: INode,
	req: { method: string; path: string; itemIndex?: number },
): NodeOperationError {
	return new NodeOperationError(node, new TokenRefused().message, {
		itemIndex: req.itemIndex,
		description: `The platform refused the token even after a refresh: n8n renewed it once for this execution and the platform still answered 401 to ${req.method} ${req.path}, so it was not renewed again for the other items. Check that the app registered on the platform may use this endpoint (its scopes), or open the credential and click "Reconnect".`,
	});
}

/** The item's error for a path that would leave the API Base URL (transport.ts apiUrl): nothing was sent. */
export function refusedPathError(
	node: INode,
	problem: string,
	itemIndex?: number,
): NodeOperationError {
	return new NodeOperationError(node, `Refused to send the request: ${problem}`, {
		itemIndex,
		description:
			'Nothing was sent. Check the ID or path fields of this item: an ID must not be "." or "..", and a path must be an endpoint below the API Base URL.',
	});
}
