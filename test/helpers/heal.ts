/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The webhook Trigger as n8n runs it, for the heal's tests (test/integration/trigger-heal*.test.ts):
 * a published Trigger (its workflow as n8n keeps it in memory, its webhook), its polls and its
 * activation hooks in n8n-core's contexts with their log lines kept, a registration the platform
 * drops, and an event delivered through the node. Every helper reads the sandbox or what the node
 * gives; none looks inside the pack.
 */
import { HookContext, PollContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	IPollFunctions,
	IWebhookData,
	WorkflowActivateMode,
	Workflow,
} from 'n8n-workflow';

import { additionalData } from '../../testbed/harness/additional-data';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { deliverWebhook, triggerWorkflow, webhookData } from '../../testbed/harness/triggers';
import { eventually } from '../../testbed/eventually';
import { useReceiver } from './receiver';
import { live } from './registrations';
import { call, useSandbox, type Sandbox } from './sandbox';
import { fileTuning } from './tuning';

/** A line the node logged: its level and text. */
export interface LogLine {
	level: 'debug' | 'info' | 'warn' | 'error';
	message: string;
}

/** Every line the Trigger logged in a test file, in order (the tests read it and clear it). */
export const logged: LogLine[] = [];

const logger = Object.fromEntries(
	(['debug', 'info', 'warn', 'error'] as const).map((level) => [
		level,
		(message: unknown) => void logged.push({ level, message: String(message) }),
	]),
);

/** Lines the node logged at warn or error level. */
export const warnings = () => logged.filter((l) => l.level === 'warn' || l.level === 'error');

/**
 * A heal test file's set-up: its tunables (test/helpers/tuning.ts) with the polls' clock (the
 * heal's turns, the activation's wait, an outage's length) moved by the tests (`clock.moved`), a
 * sandbox, a receiver n8n's webhook URLs point at (`at()`), and after each test no fault rule and
 * no logged line left.
 */
export function useHealFile() {
	const tuning = fileTuning();
	const clock = { moved: 0 };
	tuning.poll.now = () => Date.now() + clock.moved;
	const ctx = useSandbox();
	const receiver = useReceiver();
	afterEach(() => {
		ctx.sb.faults.clear();
		logged.length = 0;
	});
	return { tuning, clock, ctx, receiver, at: () => receiver.rx.url };
}

/** The context's logger replaced by one that keeps what it is told (n8n-core's is the process's). */
function withLog<T extends object>(ctx: T): T {
	Object.defineProperty(ctx, 'logger', { value: logger });
	return ctx;
}

/** A published Trigger: its node, its workflow as n8n keeps it in memory, its webhook. */
export interface Published {
	h: Harness;
	node: INode;
	wf: Workflow;
	wd: IWebhookData;
	/** The node's webhook URL, without query: where its registrations point. */
	base: string;
	/** The address n8n builds the URLs on (the test's receiver). */
	at: string;
}

let counter = 0;

export interface PublishOptions {
	typeVersion?: number;
	options?: IDataObject;
	h?: Harness;
	webhookId?: string;
	/** The static data n8n loads (what it saved). */
	saved?: IDataObject;
	/** The workflow's ID (default: one per webhook ID). */
	workflowId?: string;
}

/** The Trigger's workflow built as n8n builds it when it activates it, not yet activated. */
export function triggerOf(
	sb: Sandbox,
	at: string,
	events: string[],
	opts: PublishOptions = {},
): Published {
	const h = opts.h ?? createHarness(sb);
	const node = h.node(
		'businessPlatformSalesTrigger',
		{ events, options: opts.options ?? {} },
		'Platform Trigger',
		opts.typeVersion ?? 3,
	);
	node.webhookId = opts.webhookId ?? `heal-${++counter}-${Date.now()}`;
	const wf = triggerWorkflow(
		node,
		opts.saved ?? {},
		opts.workflowId ?? `wf-heal-${node.webhookId}`,
	);
	const [wd] = webhookData(wf, node, additionalData(h.credentials, undefined, at));
	return { h, node, wf, wd, base: `${at}/webhook/${node.webhookId}/webhook`, at };
}

/** One of n8n's activation hooks of the Trigger (checkExists, create, delete), its log lines kept. */
export async function hook(
	p: Published,
	method: 'checkExists' | 'create' | 'delete',
	activation: WorkflowActivateMode = 'activate',
): Promise<boolean | undefined> {
	const nodeType = p.wf.nodeTypes.getByNameAndVersion(p.node.type, p.node.typeVersion);
	const fn = nodeType.webhookMethods?.default?.[method];
	const ctx = new HookContext(
		p.wf,
		p.node,
		p.wd.workflowExecuteAdditionalData,
		'trigger',
		activation,
		p.wd,
	);
	return await fn!.call(withLog(ctx));
}

/** n8n's createWebhookIfNotExists: checkExists, then create only when it said false. */
export async function activate(p: Published): Promise<void> {
	if (!(await hook(p, 'checkExists'))) await hook(p, 'create');
}

/** The same Trigger as n8n saved it (its IDs, version, options and static data): what it builds when it activates it again. */
export const asSaved = (p: Published): PublishOptions => ({
	h: p.h,
	webhookId: p.node.webhookId,
	typeVersion: p.node.typeVersion,
	options: p.node.parameters.options as IDataObject,
	saved: JSON.parse(JSON.stringify(p.wf.staticData)) as IDataObject,
	workflowId: p.wf.id,
});

/**
 * n8n unpublishes the workflow: its delete hook runs on a Workflow n8n builds from what it saved
 * (not the one whose polls run), as n8n 1.x and 2.41 do when they deactivate.
 */
export async function unpublish(sb: Sandbox, p: Published): Promise<void> {
	await hook(triggerOf(sb, p.at, p.node.parameters.events as string[], asSaved(p)), 'delete');
}

/** Publishes a Trigger: built and activated. */
export async function publish(
	sb: Sandbox,
	at: string,
	events: string[],
	opts: PublishOptions = {},
): Promise<Published> {
	const p = triggerOf(sb, at, events, opts);
	await activate(p);
	return p;
}

/** n8n restarts (or publishes again): a new Workflow from what was saved, activated. */
export async function restart(sb: Sandbox, p: Published, events: string[]): Promise<Published> {
	return await publish(sb, p.at, events, asSaved(p));
}

/**
 * One poll of the Trigger as n8n runs it (the items it returns start an execution; a throw is a
 * failed execution). `n8n`: the end of the tested range the context is like (`oldest`: 1.x, no
 * poll budget). `staticData`: what the poll sees as the node's static data when it is not the
 * workflow's (n8n's durable cursors: a copy).
 */
export async function poll(
	p: Published,
	opts: { n8n?: 'newest' | 'oldest'; staticData?: IDataObject } = {},
): Promise<IDataObject[]> {
	const wf = opts.staticData
		? triggerWorkflow(p.node, { 'node:Platform Trigger': opts.staticData }, p.wf.id)
		: p.wf;
	const nodeType = wf.nodeTypes.getByNameAndVersion(p.node.type, p.node.typeVersion);
	const context = new PollContext(
		wf,
		p.node,
		additionalData(p.h.credentials, undefined, p.at),
		'trigger',
		'activate',
	);
	if (opts.n8n === 'oldest') delete (context as unknown as Record<string, unknown>).getPollBudgetMs;
	const out = await nodeType.poll!.call(withLog(context) as unknown as IPollFunctions);
	return (out?.[0] ?? []).map((i) => i.json);
}

/** The node's static data as n8n keeps it. */
export const nodeData = (p: Published) =>
	(p.wf.staticData['node:Platform Trigger'] ?? {}) as {
		secrets?: Record<string, string>;
		hookIds?: Record<string, number>;
		url?: string;
		seenLive?: Record<string, string>;
	};

/** The events registered at the node, sorted (one entry per registration). */
export const liveEvents = (sb: Sandbox, base: string) =>
	live(sb, base)
		.map((w) => String(w.eventType))
		.sort();

/** The platform drops one registration of the node (as it may with an endpoint that kept failing). */
export async function drop(sb: Sandbox, p: Published, eventType: string): Promise<void> {
	const hook = live(sb, p.base).find((w) => w.eventType === eventType);
	if (!hook) throw new Error(`no registration of ${eventType} at ${p.base}`);
	const res = await call(sb, 'DELETE', `/v1/webhooks/delete/${String(hook.hookId)}`);
	if (res.status !== 200) throw new Error(`the sandbox refused the drop: ${res.status}`);
}

/** What a register request needs of the credential (a registration the test makes itself). */
export const registerBody = (sb: Sandbox): IDataObject => ({
	clientId: sb.config.clientId,
	clientSecret: sb.config.clientSecret,
	accessToken: sb.demo.accessToken,
	refreshToken: sb.demo.refreshToken,
});

/**
 * Emits an event on the sandbox and gives what the node outputs for the deliveries the sandbox
 * made to this node (`calls`: the receiver's calls): one item per execution n8n would start.
 */
export async function emitAndDeliver(
	sb: Sandbox,
	p: Published,
	calls: Array<{ path: string; body: unknown }>,
	eventType: string,
): Promise<IDataObject[]> {
	const before = calls.length;
	await call(sb, 'POST', '/__admin/events', { token: null, body: { eventType, data: { id: 7 } } });
	const path = new URL(p.base).pathname;
	const mine = calls.slice(before).filter((c) => c.path.split('?')[0] === path);
	const out: IDataObject[] = [];
	for (const c of mine) {
		const u = new URL(c.path, p.at);
		const r = await deliverWebhook(p.wf, p.wd, {
			query: Object.fromEntries(u.searchParams),
			body: c.body,
		});
		for (const item of r.workflowData?.[0] ?? []) out.push(item.json);
	}
	return out;
}

/**
 * A poll whose list or register request the sandbox holds until the test releases it
 * (`sb.faults.release()`): the poll under way, once its request is held.
 */
export async function heldPoll(
	sb: Sandbox,
	p: Published,
	request: 'list' | 'register',
	opts: { n8n?: 'newest' | 'oldest' } = {},
): Promise<{ polled: Promise<IDataObject[]> }> {
	sb.faults.add(
		request === 'list'
			? { kind: 'hold', method: 'GET', path: '/v1/webhooks', count: 1 }
			: { kind: 'hold', method: 'POST', path: '/v1/webhooks/register', count: 1 },
	);
	const before = sb.faults.held;
	const polled = poll(p, opts);
	await eventually(
		() => {
			if (sb.faults.held <= before)
				throw new Error(`the poll's ${request} request is not held yet`);
		},
		15_000,
		50,
	);
	return { polled };
}

/** Turns of the event loop, for a request under way to reach the sandbox (no clock involved). */
export async function settle(turns = 20): Promise<void> {
	for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}
