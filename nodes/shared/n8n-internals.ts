/**
 * Every shortcut of the pack that relies on how n8n behaves inside rather than on its
 * documented node API, in one place. Each says what it relies on, where that lives in
 * n8n's source, what it buys, and what the pack does when the assumption does not hold
 * (n8n's documented path). `test/integration/n8n-internals.test.ts` pins each behaviour
 * against the real n8n-core: `npm run test:internals` (the newest n8n of the tested range,
 * the devDependency) and `npm run test:internals:oldest` (1.123.81, from the pinned
 * runtime), so an n8n upgrade fails a named test instead of misbehaving.
 *
 * 1. The expression mark (`=`)            → holdsExpression, sameForEveryItem
 * 2. "Could not get parameter"           → isNotShown
 * 3. The token on n8n's plain request,
 *    n8n's OAuth2 helper only on a 401   → send, storedToken, CredentialInfo
 * 4. Items read ahead of their turn       → (documented here; the gate is concurrency.ts)
 * 5. "={{ $json.key }}" is the item's own
 *    value                               → readableWithoutN8n, readWithoutN8n
 * 6. Polls of one node share its static
 *    data, and may overlap               → claimPoll, holdsPoll, releasePoll
 * 7. Hidden only off a new default       → (described at Sales record/fields.ts columnsField)
 * 8. A model reads a tool error's message → (described at Sales record/json-input.ts forModel)
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	IPollFunctions,
} from 'n8n-workflow';
import * as workflow from 'n8n-workflow';

import {
	credentialSecrets,
	platformTokenKey,
} from '../../credentials/BusinessPlatformOAuth2Api.credentials';
import { readFailure } from './errors';
import type { RunScope } from './run-scope';

export const CREDENTIAL_TYPE = 'businessPlatformOAuth2Api';

// ── 1. The expression mark ──────────────────────────────────────────────────────
// Relies on: a parameter value that is an expression is saved as a text starting with "="
// (n8n-workflow `isExpression`, packages/workflow/src/expressions/expression-helpers.ts; the
// editor writes "={{ ... }}"), and INode.parameters holds the saved values.
// Buys: a value without an expression is read once per execution instead of once per item
// (five getNodeParameter calls per item where n8n's floor makes two; docs/performance.md,
// "read once": with read-ahead, create-in-n8n c1 from 0.76x to 1.10x of the HTTP Request node).
// When it does not hold (a value that n8n would evaluate without the mark), the pack would
// reuse item 0's value: the pinned test fails first. Objects (collections) are always read
// per item, and a parameter missing from the saved values is read per item too.

export const EXPRESSION_MARK = '=';

/** Whether a parameter's saved value holds an expression anywhere (a text starting with "="). */
export function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith(EXPRESSION_MARK);
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value !== null && typeof value === 'object')
		return Object.values(value as IDataObject).some(holdsExpression);
	return false;
}

/** Whether the value n8n gave for `name` is the same for every item of the execution (so it may be read once). */
export function sameForEveryItem(
	node: INode,
	name: string,
	read: { shown: boolean; value?: unknown },
): boolean {
	if (!read.shown) return !Object.prototype.hasOwnProperty.call(node.parameters, name);
	if (!Object.prototype.hasOwnProperty.call(node.parameters, name)) return false;
	return (
		!holdsExpression(node.parameters[name]) &&
		(read.value === null || typeof read.value !== 'object')
	);
}

// ── 2. "Could not get parameter" ────────────────────────────────────────────────
// Relies on: getNodeParameter without a fallback throws an error whose message starts
// "Could not get parameter" and whose extra.parameterName names it, when the parameter is
// not in the node's parameters (n8n-core, packages/core/src/execution-engine/node-execution-context/
// utils/get-node-parameter or node-execution-context.ts `_getNodeParameter`); n8n keeps only
// the parameters shown for the node's settings (NodeHelpers.getNodeParameters in Workflow).
// Buys: "not shown" (send nothing) is told apart from every other failure (an expression that
// fails names the parameter instead of silently leaving a field out).
// When the text changes: a parameter absent from the node's parameters is still "not shown"
// (the documented INode.parameters); anything else fails the item, naming the parameter.

export const NOT_SHOWN_MESSAGE = 'Could not get parameter';

/** Whether getNodeParameter failed because the parameter is not shown (so not set) for this node. */
export function isNotShown(error: unknown, name: string, node?: INode): boolean {
	const e = error as { message?: unknown; extra?: { parameterName?: unknown } } | null;
	if (
		typeof e?.message === 'string' &&
		e.message.startsWith(NOT_SHOWN_MESSAGE) &&
		(e.extra?.parameterName ?? name) === name
	)
		return true;
	const top = name.split('.')[0];
	return node !== undefined && !Object.prototype.hasOwnProperty.call(node.parameters ?? {}, top);
}

// ── 3. The token on n8n's plain request; n8n's OAuth2 helper only on a 401 ─────
// Relies on: the OAuth2 credential keeps the token response in `oauthTokenData` (n8n-core
// requestOAuth2, packages/core/src/execution-engine/node-execution-context/utils/request-helpers/
// oauth.ts, and the credentials service that saves it), and httpRequestWithAuthentication with
// `oauth2: {property, keyToIncludeInAccessTokenHeader}` sends that field as the header, and on a
// 401 refreshes, saves the new token response and sends the request again.
// Buys: n8n's OAuth2 path reads, decrypts and resolves the credential on every request (29.8 %
// of the pack's CPU per create before the change; docs/performance.md); this reads it once per
// execution, with n8n's proxy, SSRF and certificate settings unchanged (plain httpRequest).
// When it does not hold: without a token in `oauthTokenData` every request goes through n8n's
// OAuth2 path as a whole (the documented way); a 401 always does.

export interface CredentialInfo {
	/** Which account the credential reaches (its ID in n8n, base URLs, tenant): no secret. */
	account: string;
	/** The credential's secrets as the scope read them (tokens, client secret): scrubbed from any text an error passes on. */
	secrets: string[];
	baseUrl: string;
	regionalBaseUrl?: string;
	tokenKey?: string;
	/** The platform token as stored when the scope read it; undefined (not connected): every request through n8n's OAuth2 path. */
	token?: string;
	/** How many times the scope renewed the token (after a 401). */
	generation: number;
	/** The generation whose token the platform refused right after renewing it (a 401 with it fails at once). */
	refused?: number;
}

/** A 401 with a token that was refused right after its renewal: no further refresh in this scope. */
export class TokenRefused extends Error {
	constructor() {
		super('The platform refused the Business Platform token even right after n8n renewed it');
	}
}

export function storedToken(
	tokenData: IDataObject | undefined,
	tokenKey: string | undefined,
): string | undefined {
	const token = tokenData?.[tokenKey ?? 'access_token'];
	return typeof token === 'string' && token ? token : undefined;
}

const oauth2Options = (info: CredentialInfo) => ({
	property: info.tokenKey,
	keyToIncludeInAccessTokenHeader: 'x-access-token',
	tokenType: 'Bearer',
});

/** The stored credential's token, read again into the scope. */
async function readStoredToken(scope: RunScope, info: CredentialInfo): Promise<void> {
	const creds = await (scope.ctx as IExecuteFunctions).getCredentials(CREDENTIAL_TYPE, 0);
	const tokenData = creds.oauthTokenData as IDataObject | undefined;
	info.tokenKey = platformTokenKey(tokenData);
	info.token = storedToken(tokenData, info.tokenKey);
	info.secrets = [...new Set([...info.secrets, ...credentialSecrets(creds)])];
}

/**
 * One attempt, with the scope's token through n8n's plain `httpRequest`. On a 401, the
 * first item to see it (per refused token, in this scope) sends its request through n8n's
 * OAuth2 path, which sends the stored token — a token another execution already refreshed
 * just works — or refreshes it (n8n merges concurrent refreshes, in queue mode across
 * processes too, and runs the credential's preAuthentication), saves it and retries; the
 * scope then reads the stored token again, and the other items, which waited, send their
 * request once more with it. Without a token in the scope, n8n's OAuth2 path as a whole.
 */
export async function send(
	scope: RunScope,
	info: CredentialInfo,
	options: IHttpRequestOptions,
): Promise<unknown> {
	const ctx = scope.ctx;
	const viaOAuth2 = async () =>
		await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			CREDENTIAL_TYPE,
			{ ...options, headers: { ...options.headers } },
			{ oauth2: oauth2Options(info) },
		);
	for (let renewed = false; ; renewed = true) {
		const { token, generation } = info;
		if (token === undefined) return await viaOAuth2();
		const plain = await ctx.helpers
			.httpRequest({ ...options, headers: { ...options.headers, 'x-access-token': token } })
			.then(
				(value: unknown) => ({ answered: true as const, value }),
				(failure: unknown) => ({ answered: false as const, failure }),
			);
		if (plain.answered) {
			if (info.refused === generation) info.refused = undefined; // the token works after all: a later 401 is a new episode
			return plain.value;
		}
		// Any other failure, or a 401 after a renewal, goes to apiRequest, which retries or turns it into a clean NodeApiError.
		if (readFailure(plain.failure).status !== 401) throw plain.failure;
		// One refresh per 401 episode: a token refused right after its renewal is not renewed again for every item.
		if (info.refused === generation) throw new TokenRefused();
		if (renewed) throw plain.failure;
		const mine: { done: boolean; answer?: unknown; failure?: unknown } = { done: false };
		await scope.once(`token#${generation}`, async () => {
			await viaOAuth2().then(
				(answer: unknown) => Object.assign(mine, { answer }),
				(failure: unknown) => Object.assign(mine, { failure }),
			);
			mine.done = true;
			await readStoredToken(scope, info);
			info.generation = generation + 1;
			// n8n refreshed and sent the request again, and the platform still answered 401: the new token is refused.
			if (mine.failure !== undefined && readFailure(mine.failure).status === 401)
				info.refused = info.generation;
			// The refresh itself failed (revoked): every waiting item fails with it.
			if (mine.failure !== undefined && readFailure(mine.failure).reconnect) throw mine.failure;
		});
		if (mine.done) {
			if (mine.failure !== undefined)
				throw info.refused === info.generation ? new TokenRefused() : mine.failure;
			return mine.answer;
		}
	}
}

// ── 4. Items read ahead of their turn ───────────────────────────────────────────
// Relies on: getNodeParameter is synchronous and has no effect on other items (n8n-core
// ExecuteContext evaluates the expression on the spot), so item i+1 may read its parameters
// while item i's request is in flight, and n8n takes the results of all items from one
// `execute` call. Buys: at 1 in parallel, expressions are evaluated while requests are under
// way, as n8n's HTTP Request node does (docs/performance.md, "read ahead"); the ordered gate
// (OrderedGate, concurrency.ts) keeps the platform seeing the items in input order.
// There is no other path to fall back to: a getNodeParameter that returned a promise would
// change n8n's node API itself (its type), so the typecheck against that n8n-workflow fails,
// and the pinned test names the change.

// ── 5. "={{ $json.key }}" is the item's own value ─────────────────────────────────
// Relies on: n8n evaluates a parameter saved as "={{ $json.key }}" to the own value `key` of the
// item at that index of the node's input ($json is connectionInputData[itemIndex].json,
// packages/workflow/src/workflow-data-proxy.ts), unchanged when it is a text, a finite number or a
// boolean; a collection to its entries, each evaluated so; and getNodeParameter then leaves such
// values as they are for a property without extractValue or validateType that is not a resource
// locator, filter or resource mapper (_getNodeParameter with cleanupParameterData, extractValue and
// validateValueAgainstSchema, packages/core/src/execution-engine/node-execution-context/).
// Buys: n8n 2.x evaluates every expression in an isolate (about 0.5–0.9 ms each) and looks the
// property up twice among the node's properties on every read (docs/performance.md, "Expressions").
// When it does not hold: only these shapes are read so, and only after n8n itself has read the
// parameter once in the execution (so its display conditions and type were checked by n8n); any
// other expression, a key the item does not own, a value of another kind (null, an object, a list)
// is read through getNodeParameter, for that item. Keys n8n's expression sandbox refuses
// ("Cannot access … due to security concerns": n8n-workflow isSafeObjectProperty, where this n8n
// has it, and every name of Object, Object.prototype, Function.prototype and Reflect, and any key
// starting "__") always go through n8n, which refuses them as before.

const JSON_KEY = /^=\{\{\s*\$json\.([A-Za-z_$][\w$]*)\s*\}\}$/;

type Plain = string | number | boolean;
const isPlain = (v: unknown): v is Plain =>
	typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** Data keys every function object also has: n8n reads them from an item like any key (pinned by the property of 5). */
const DATA_NAMES: ReadonlySet<string> = new Set(['name', 'length']);

const BUILT_IN_NAMES: ReadonlySet<string> = new Set(
	[
		'prototype',
		'caller',
		'callee',
		'arguments',
		'mainModule',
		'binding',
		'dlopen',
		'execve',
		'loadEnvFile',
		'getBuiltinModule',
		'prepareStackTrace',
		...[Object, Object.prototype, Function.prototype, Reflect].flatMap((o) =>
			Object.getOwnPropertyNames(o),
		),
	].filter((n) => !DATA_NAMES.has(n)),
);

/** Whether n8n's expression sandbox lets an expression read this key (checked with n8n's own test where this n8n has it). */
function safeKey(key: string): boolean {
	const n8nSays = (workflow as { isSafeObjectProperty?: (k: string) => boolean })
		.isSafeObjectProperty;
	return (
		!key.startsWith('__') &&
		!BUILT_IN_NAMES.has(key) &&
		(typeof n8nSays !== 'function' || n8nSays(key))
	);
}

/** The item's own value that a saved "={{ $json.key }}" gives; undefined when n8n must evaluate it. */
function jsonKeyValue(saved: string, json: IDataObject | undefined): Plain | undefined {
	const key = JSON_KEY.exec(saved)?.[1];
	if (
		key === undefined ||
		!json ||
		!safeKey(key) ||
		!Object.prototype.hasOwnProperty.call(json, key)
	)
		return undefined;
	const value = json[key];
	return isPlain(value) ? value : undefined;
}

/** Whether a saved value may be read without n8n: "={{ $json.key }}", or a collection of such and of fixed texts, numbers and booleans. */
export function readableWithoutN8n(saved: unknown): boolean {
	if (typeof saved === 'string') return JSON_KEY.test(saved);
	if (saved === null || typeof saved !== 'object' || Array.isArray(saved) || '__rl' in saved)
		return false;
	return Object.values(saved).every((v) =>
		typeof v === 'string' ? !v.startsWith(EXPRESSION_MARK) || JSON_KEY.test(v) : isPlain(v),
	);
}

/** One item's value of a saved value that is `readableWithoutN8n` (a new object for a collection); undefined when n8n must read it for this item. */
export function readWithoutN8n(
	saved: unknown,
	json: IDataObject | undefined,
): { value: unknown } | undefined {
	if (typeof saved === 'string') {
		const value = jsonKeyValue(saved, json);
		return value === undefined ? undefined : { value };
	}
	const out: IDataObject = {};
	for (const [key, entry] of Object.entries(saved as IDataObject)) {
		if (typeof entry !== 'string' || !entry.startsWith(EXPRESSION_MARK)) {
			out[key] = entry;
			continue;
		}
		const value = jsonKeyValue(entry, json);
		if (value === undefined) return undefined;
		out[key] = value;
	}
	return { value: out };
}

// ── 6. Polls of one node share its static data, and may overlap ────────────────
// Relies on: n8n runs every poll of an active workflow's node on the one Workflow object built
// when the workflow was activated, so getWorkflowStaticData('node') gives each poll the same
// object in memory (n8n-core PollContext → Workflow.getStaticData); and n8n's default scheduler
// starts a poll at every Poll Time without waiting for the one before (a cron job per Poll Time,
// packages/core/src/execution-engine/poll-trigger-executor.ts in 2.x, active-workflows.ts
// `activatePolling` in 1.x: no lock). A poll still paging through a large backlog when the next
// Poll Time comes would otherwise read the same cursor as the new poll, and both would deliver.
// Buys: a poll that starts while one of the same node runs delivers nothing and leaves the
// cursor alone (polling/poll.ts); the next Poll Time reads what it would have read.
// When it does not hold: a poll working on its own copy of the static data (n8n 2.41's opt-in
// durable scheduler, N8N_SCHEDULER_ENABLED, loads the workflow for each poll, runs each poll
// task under a lease and abandons it after 45 s) never sees another's claim and polls as before. A claim is taken as left behind by a poll that
// died after n8n's poll budget (getPollBudgetMs; five minutes, n8n's own default, where this n8n
// has none): a later poll takes it over, and the poll that lost it delivers nothing. A claim
// that n8n happened to save with the static data (another trigger of the workflow started an
// execution during the poll) only delays polls after a restart by that budget.

/** The node's static data, where `polling` holds the running poll's claim (its start, in ms since 1970). */
export interface PollClaimHolder {
	polling?: unknown;
}
/** n8n's poll budget where IPollFunctions has no getPollBudgetMs (n8n before 2.41). */
export const DEFAULT_POLL_BUDGET_MS = 5 * 60_000;

export interface PollClaim {
	readonly at: number;
}

type BudgetedPoll = Pick<IPollFunctions, 'getNode'> & { getPollBudgetMs?: () => number };

function pollBudgetMs(ctx: BudgetedPoll): number {
	const budget = typeof ctx.getPollBudgetMs === 'function' ? ctx.getPollBudgetMs() : undefined;
	return typeof budget === 'number' && Number.isFinite(budget) && budget > 0
		? budget
		: DEFAULT_POLL_BUDGET_MS;
}

/**
 * Claims the node's poll in its static data, or returns undefined when another poll of the node
 * holds a claim younger than the poll budget. Reads and writes without awaiting in between, so
 * two polls of one process cannot both claim.
 */
export function claimPoll(
	ctx: BudgetedPoll,
	data: PollClaimHolder,
	now = Date.now(),
): PollClaim | undefined {
	const held = data.polling;
	if (typeof held === 'number' && Math.abs(now - held) < pollBudgetMs(ctx)) return undefined;
	data.polling = now;
	return { at: now };
}

/** Whether the claim is still this poll's (not taken over after the budget). */
export const holdsPoll = (data: PollClaimHolder, claim: PollClaim): boolean =>
	data.polling === claim.at;

/** Ends the claim, if it is still this poll's. */
export function releasePoll(data: PollClaimHolder, claim: PollClaim): void {
	if (holdsPoll(data, claim)) delete data.polling;
}
