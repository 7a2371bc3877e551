/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/node-usable-as-tool -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Pins the n8n behaviours the pack's shortcuts rely on (nodes/shared/n8n-internals/), each
 * against the real n8n-core through a probe node that does nothing but ask n8n: a changed
 * behaviour after an n8n upgrade fails the test named after it. `npm run test:internals`
 * runs it on the n8n-core of the devDependencies (the newest tested n8n);
 * `npm run test:internals:oldest` on n8n 1.123.81's n8n-core and n8n-workflow, from the
 * pinned runtime (jest maps both packages there; see jest.config.js).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import fc from 'fast-check';
import { HookContext, PollContext } from 'n8n-core';
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import * as n8nWorkflow from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers, toCronExpression } from 'n8n-workflow';

import {
	EXPRESSION_MARK,
	holdsExpression,
	isNotShown,
	NOT_SHOWN_MESSAGE,
	readableWithoutN8n,
	readWithoutN8n,
	sameForEveryItem,
} from '../../nodes/shared/engine/params';
import {
	ACTIVATION_WAIT_MS,
	commitOwnCursor,
	OWN_POLL_BUDGET_MS,
	pollBudgetMs,
	PUBLICATION_DEADLINE_MS,
} from '../../nodes/shared/n8n-internals';
import { WEBHOOK_METHOD } from '../../nodes/BusinessPlatformSalesTrigger/trigger-v4';
import { beginTurn, endTurn, nodeKey } from '../../nodes/shared/polling/turns';
import { platformTokenKey, storedTokens } from '../../nodes/shared/transport';
import { ensureRuntime, runtimePaths } from '../../testbed/runtime/install';
import { n8nAtLeast } from '../../testbed/runtime/versions';
import { additionalData } from '../../testbed/harness/additional-data';
import { NODE_TYPES, nodeTypeOf, PACKAGE } from '../../testbed/harness/nodes';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { triggerWorkflow } from '../../testbed/harness/triggers';
import { checkProperty, PROTOTYPE_KEYS } from '../helpers/property';
import { useSandbox } from '../helpers/sandbox';

const CREDENTIAL = 'businessPlatformOAuth2Api';

/** What the probe saw for one item. */
interface Seen {
	saved: unknown;
	value: unknown;
	thenable: boolean;
	hidden: { message?: string; parameterName?: unknown; inParameters: boolean };
	sameForEveryItem: boolean;
	token?: unknown;
	answer?: unknown;
	/** `quick` and `extra` as the pack reads them (extractValue), or n8n's error, for shortcut 5. */
	read: Record<'quick' | 'extra', { value?: unknown; error?: string }>;
}

/** A parameter as the pack reads it (engine/params.ts), or the error n8n gave. */
function readAsPack(
	fn: IExecuteFunctions,
	name: string,
	i: number,
): { value?: unknown; error?: string } {
	try {
		return { value: fn.getNodeParameter(name, i, undefined, { extractValue: true }) };
	} catch (e) {
		return { error: (e as Error).message };
	}
}

class Probe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'n8n internals probe',
		name: 'internalsProbe',
		group: ['transform'],
		version: 1,
		description: 'Asks n8n what the pack relies on',
		defaults: { name: 'Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL, required: false }],
		properties: [
			{
				displayName: 'Mode',
				name: 'mode',
				type: 'options',
				options: [
					{ name: 'A', value: 'a' },
					{ name: 'B', value: 'b' },
				],
				default: 'a',
			},
			{
				displayName: 'Only In B',
				name: 'onlyB',
				type: 'string',
				default: 'b-default',
				displayOptions: { show: { mode: ['b'] } },
			},
			{ displayName: 'Text', name: 'text', type: 'string', default: '' },
			{ displayName: 'Call', name: 'call', type: 'string', default: '' },
			{ displayName: 'Quick', name: 'quick', type: 'string', default: '' },
			{
				displayName: 'Extra',
				name: 'extra',
				type: 'collection',
				default: {},
				options: [
					{ displayName: 'A', name: 'a', type: 'string', default: '' },
					{ displayName: 'B', name: 'b', type: 'string', default: '' },
					{ displayName: 'N', name: 'n', type: 'number', default: 0 },
					{ displayName: 'F', name: 'f', type: 'boolean', default: false },
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < this.getInputData().length; i++) {
			const node = this.getNode();
			const value = this.getNodeParameter('text', i);
			const hidden: Seen['hidden'] = {
				inParameters: Object.prototype.hasOwnProperty.call(node.parameters, 'onlyB'),
			};
			try {
				this.getNodeParameter('onlyB', i);
			} catch (e) {
				hidden.message = (e as Error).message;
				hidden.parameterName = (e as { extra?: IDataObject }).extra?.parameterName;
			}
			const seen: Seen = {
				saved: node.parameters.text,
				value,
				thenable: typeof (value as { then?: unknown } | null)?.then === 'function',
				hidden,
				sameForEveryItem: sameForEveryItem(node, 'text', { shown: true, value }),
				read: { quick: readAsPack(this, 'quick', i), extra: readAsPack(this, 'extra', i) },
			};
			const call = this.getNodeParameter('call', i) as string;
			if (call) {
				const creds = await this.getCredentials(CREDENTIAL, i);
				const data = creds.oauthTokenData as IDataObject | undefined;
				const key = platformTokenKey(data);
				seen.token = storedTokens(creds).token;
				seen.answer = await this.helpers.httpRequestWithAuthentication.call(
					this,
					CREDENTIAL,
					{ method: 'GET', url: call, json: true },
					{
						oauth2: {
							property: key,
							keyToIncludeInAccessTokenHeader: 'x-access-token',
							tokenType: 'Bearer',
						},
					},
				);
			}
			out.push({ json: seen as unknown as IDataObject, pairedItem: { item: i } });
		}
		return [out];
	}
}

NODE_TYPES[`${PACKAGE}.internalsProbe`] = new Probe();

const ctx = useSandbox({ rows: 3 });
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb, ctx.sb.issueTokens());
});
const probe = async (parameters: IDataObject, input: IDataObject[] = [{}]) => {
	const r = await h.run(
		'internalsProbe',
		parameters,
		input.map((json) => ({ json })),
	);
	if (r.error) throw r.error;
	return r.json as unknown as Seen[];
};

describe('n8n behaviours the pack relies on (nodes/shared/n8n-internals/)', () => {
	it('1. the expression mark: an expression is saved as text starting with "=", and evaluated per item', async () => {
		const seen = await probe({ text: '={{ $json.n }}' }, [{ n: 'one' }, { n: 'two' }]);
		expect(seen.map((s) => s.saved)).toEqual(['={{ $json.n }}', '={{ $json.n }}']);
		expect(String(seen[0].saved).startsWith(EXPRESSION_MARK)).toBe(true);
		expect(seen.map((s) => s.value)).toEqual(['one', 'two']);
		expect(seen.map((s) => s.sameForEveryItem)).toEqual([false, false]);
		const fixed = await probe({ text: 'plain' }, [{ n: 'one' }, { n: 'two' }]);
		expect(fixed.map((s) => [s.saved, s.value, s.sameForEveryItem])).toEqual([
			['plain', 'plain', true],
			['plain', 'plain', true],
		]);
		expect(holdsExpression({ a: ['x', '={{ 1 }}'] })).toBe(true);
	});

	it('2. "Could not get parameter": a parameter hidden by displayOptions is left out of the node and named in the error', async () => {
		const [seen] = await probe({ mode: 'a', text: 'x' });
		expect(seen.hidden.inParameters).toBe(false);
		expect(seen.hidden.message?.startsWith(NOT_SHOWN_MESSAGE)).toBe(true);
		expect(seen.hidden.parameterName).toBe('onlyB');
		expect(
			isNotShown({ message: seen.hidden.message, extra: { parameterName: 'onlyB' } }, 'onlyB'),
		).toBe(true);
		// The fallback when n8n words it otherwise: absent from the node's parameters is "not shown".
		expect(isNotShown(new Error('some other text'), 'onlyB', { parameters: {} } as never)).toBe(
			true,
		);
		expect(
			isNotShown(new Error('some other text'), 'text', {
				parameters: { text: '={{ $x }}' },
			} as never),
		).toBe(false);
		const [shown] = await probe({ mode: 'b', text: 'x' });
		expect(shown.hidden).toEqual({ inParameters: true });
	});

	it("3. the token: kept in oauthTokenData; on a 401 n8n's OAuth2 helper refreshes once and saves (and, from n8n 2.14, sends again with the new token)", async () => {
		ctx.sb.auth.expireAll();
		const refreshes = () => ctx.sb.auth.stats.refreshGrant + ctx.sb.auth.stats.getRefreshToken;
		const before = refreshes();
		const url = `${ctx.sb.baseUrl}/v1/crm/contacts/labels`;
		const first = await h.run('internalsProbe', { text: 'x', call: url });
		expect(refreshes() - before).toBe(1);
		if (n8nAtLeast('2.14.0')) {
			expect(first.error).toBeUndefined();
			expect(typeof first.json[0].token).toBe('string');
			expect(Array.isArray(first.json[0].answer)).toBe(true);
		} else {
			// n8n 1.x sends the retry with the old token: the platform refuses it (README, Compatibility).
			expect(first.error?.message).toMatch(/Authorization failed|401/);
		}
		// Either way n8n saved the renewed token response: the next read has a token the platform accepts.
		const [again] = await probe({ text: 'x', call: url });
		expect(typeof again.token).toBe('string');
		expect(Array.isArray(again.answer)).toBe(true);
		expect(refreshes() - before).toBe(1);
	});

	it('4. read ahead: getNodeParameter answers at once, not with a promise', async () => {
		const seen = await probe({ text: '={{ $json.n }}' }, [{ n: 1 }, { n: 2 }]);
		expect(seen.map((s) => s.thenable)).toEqual([false, false]);
	});

	it('5. "={{ $json.key }}": n8n gives the item\'s own text, number or boolean unchanged, also inside a collection (property, against readWithoutN8n)', async () => {
		// Mostly keys the items have, some the sandbox refuses (prototype names), some random.
		const key = fc.oneof(
			{ weight: 6, arbitrary: fc.constantFrom('name', 'email', 'n', '_id', '$x', 'length') },
			{ weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS, 'mainModule', 'caller') },
			{ weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z_$][\w$]{0,8}$/) },
		);
		const value = fc.oneof(
			{
				weight: 6,
				arbitrary: fc.oneof(
					fc.string(),
					fc.string({ unit: 'grapheme' }),
					fc.string({ unit: 'binary' }),
					fc.integer(),
					fc.double(),
					fc.boolean(),
				),
			},
			// Data that looks like an expression stays data: n8n does not evaluate a value a second time.
			{
				weight: 1,
				arbitrary: fc.constantFrom(
					'={{ 1 + 1 }}',
					'={{ $json.name }}',
					'{{ $json.email }}',
					'=',
					'',
					'x'.repeat(100_000),
				),
			},
			{
				weight: 1,
				arbitrary: fc.oneof(
					fc.constant(null),
					fc.array(fc.string(), { maxLength: 2 }),
					fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
				),
			},
		);
		const expression = fc.oneof(
			key.map((k) => `={{ $json.${k} }}`),
			fc
				.tuple(fc.constantFrom('', ' ', '  ', '\t'), key, fc.constantFrom('', ' ', '\n'))
				.map(([a, k, b]) => `={{${a}$json.${k}${b}}}`),
			fc.constantFrom(
				'={{ $json.name }}x',
				'={{ $json["name"] }}',
				'={{ $json.name.length }}',
				'={{ $json }}',
				'= {{ $json.name }}',
				'plain text',
				'',
				'={{ 1 + 1 }}',
			),
		);
		const saved = fc.record({
			quick: expression,
			extra: fc.record(
				{ a: expression, b: fc.string(), n: fc.integer(), f: fc.boolean() },
				{ requiredKeys: ['a'] },
			),
		});
		const items = fc.array(fc.dictionary(key, value, { maxKeys: 6 }), {
			minLength: 1,
			maxLength: 4,
		});
		let compared = 0;
		await checkProperty(
			120,
			fc.asyncProperty(saved, items, async ({ quick: savedQuick, extra }, input) => {
				const seen = await probe({ text: 'x', quick: savedQuick, extra }, input);
				for (const [i, json] of input.entries()) {
					for (const [savedValue, field] of [
						[savedQuick, 'quick'],
						[extra, 'extra'],
					] as const) {
						const quick = readableWithoutN8n(savedValue)
							? readWithoutN8n(savedValue, json)
							: undefined;
						if (!quick) continue;
						// Where the pack reads without n8n, n8n reads the same value (and does not fail).
						expect({ field, ...seen[i].read[field] }).toStrictEqual({ field, value: quick.value });
						compared++;
					}
				}
			}),
		);
		// The property reached the shortcut, not only its fallbacks.
		expect(compared).toBeGreaterThan(100);
	});
	it("6. an activation's polls share one static data object: every PollContext of the workflow gets it, so what one poll writes the next sees (P11), and the workflow published again (a new Workflow from what was saved) gets another, which supersedes the former's polls (P11); n8n's poll budget where it has one", () => {
		const node = h.node(
			'businessPlatformTableTrigger',
			{ event: 'recordCreated', tableId: { __rl: true, mode: 'id', value: '1' }, options: {} },
			'Poll',
		);
		const workflow = triggerWorkflow(node, {}, 'wf-internals-6');
		const poll = (w: typeof workflow, activation: 'activate' | 'update') =>
			new PollContext(w, node, additionalData(h.credentials), 'trigger', activation);
		const [a, b] = [poll(workflow, 'activate'), poll(workflow, 'update')];
		const data = (c: PollContext) => c.getWorkflowStaticData('node') as IDataObject;
		expect(data(a)).toBe(data(b));
		data(a).cursor = 'written by a';
		expect(data(b).cursor).toBe('written by a');
		const saved = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		const again = poll(triggerWorkflow(node, saved, workflow.id), 'activate');
		expect(data(again)).not.toBe(data(a));
		expect(data(again).cursor).toBe('written by a');
		// The machine's reading of it: a poll of the same activation from the same start waits (P2); one of the new activation runs and supersedes.
		const first = beginTurn(a as unknown as IPollFunctions, data(a), 'start', 0, 36_000);
		expect(beginTurn(b as unknown as IPollFunctions, data(b), 'start', 1, 36_000)).toBe('P2');
		const newer = beginTurn(again as unknown as IPollFunctions, data(again), 'start', 2, 36_000);
		expect(typeof first === 'object' && first.superseded).toBe(true);
		for (const t of [first, newer]) if (typeof t === 'object') endTurn(t, false, 3);
		const budget = (a as { getPollBudgetMs?: () => number }).getPollBudgetMs;
		if (n8nAtLeast('2.41.0')) expect(pollBudgetMs(a)).toBe(5 * 60_000);
		else {
			expect(budget).toBeUndefined();
			expect(pollBudgetMs(a)).toBe(OWN_POLL_BUDGET_MS);
		}
	});

	it("6. under n8n 2.41's durable scheduler each poll works on its own copy of the static data (resolveNodeStaticData): the machine counts each as its own, and the later one supersedes (P11)", () => {
		if (!n8nAtLeast('2.41.0')) return; // n8n 1.x has only the shared object (above)
		const node = h.node(
			'businessPlatformTableTrigger',
			{ event: 'recordCreated', tableId: { __rl: true, mode: 'id', value: '1' }, options: {} },
			'Poll',
		);
		const workflow = triggerWorkflow(node, {}, 'wf-internals-6-durable');
		const Context = PollContext as unknown as new (...args: unknown[]) => PollContext;
		// As n8n's TriggerExecutionContextFactory builds it for a scheduled poll: the staged copy as static data.
		const poll = (copy: IDataObject) =>
			new Context(
				workflow,
				node,
				additionalData(h.credentials),
				'trigger',
				'update',
				undefined,
				undefined,
				undefined,
				undefined,
				() => copy,
				() => 36_000,
			);
		const [a, b] = [poll({}), poll({})];
		const data = (c: PollContext) => c.getWorkflowStaticData('node') as IDataObject;
		expect(data(a)).not.toBe(data(b));
		const first = beginTurn(a as unknown as IPollFunctions, data(a), 'start', 0, 36_000);
		const second = beginTurn(b as unknown as IPollFunctions, data(b), 'start', 1, 36_000);
		expect(typeof second).toBe('object');
		expect(typeof first === 'object' && first.superseded).toBe(true);
		for (const t of [first, second]) if (typeof t === 'object') endTurn(t, false, 2);
		expect(pollBudgetMs(a)).toBe(36_000);
	});

	it("7. durable cursors: n8n commits no cursor for the poll at publishing (a test poll) that returns nothing, commits after a scheduled one; commitOwnCursor calls n8n's hook (none before 2.41: nothing happens)", async () => {
		const node = h.node(
			'businessPlatformTableTrigger',
			{ event: 'recordCreated', tableId: { __rl: true, mode: 'id', value: '1' }, options: {} },
			'Poll',
		);
		const workflow = triggerWorkflow(node);
		let commits = 0;
		const Context = PollContext as unknown as new (...args: unknown[]) => PollContext;
		const ctx = new Context(
			workflow,
			node,
			additionalData(h.credentials),
			'trigger',
			'activate',
			undefined,
			undefined,
			async () => void commits++,
		);
		await commitOwnCursor(ctx as unknown as IPollFunctions);
		if (!n8nAtLeast('2.41.0')) {
			expect((ctx as { __commitCursor?: unknown }).__commitCursor).toBeUndefined();
			expect(commits).toBe(0);
			return;
		}
		expect(commits).toBe(1);
		// n8n-core's PollTriggerExecutor: after a poll that returned nothing, the commit hook runs only when it is not a test poll.
		const core = (await import('n8n-core')) as unknown as {
			PollTriggerExecutor: new (...args: unknown[]) => {
				create: (
					w: unknown,
					n: unknown,
					f: unknown,
					current: () => boolean,
				) => (testing?: boolean) => Promise<void>;
			};
		};
		const logger = { scoped: () => logger, debug: () => undefined, error: () => undefined };
		const tracing = {
			startSpan: async (_o: unknown, fn: (span: unknown) => unknown) =>
				await fn({ setStatus: () => undefined }),
			startNewTraceSpan: async (_o: unknown, fn: (span: unknown) => unknown) =>
				await fn({ setStatus: () => undefined }),
			pickWorkflowAttributes: () => ({}),
			pickNodeAttributes: () => ({}),
		};
		const pollers = { runPollFunction: async () => null };
		const executor = new core.PollTriggerExecutor(logger, pollers, tracing, {
			error: () => undefined,
		});
		let hook = 0;
		const functions = {
			__commitCursor: async () => void hook++,
			__emit: () => undefined,
			__emitError: () => undefined,
		};
		const run = executor.create(
			{
				name: 'wf',
				id: 'wf',
				expression: {
					acquireIsolate: async () => undefined,
					releaseIsolate: async () => undefined,
				},
			},
			node,
			functions,
			() => true,
		);
		await run(true);
		expect(hook).toBe(0);
		await run(false);
		expect(hook).toBe(1);
	});

	it('8. a parameter hidden only when a new sibling leaves its default: a Record → Create or Search saved without the switch keeps its mapper or conditions', () => {
		const sales = nodeTypeOf(NODE_TYPES[`${PACKAGE}.businessPlatformSales`]).description;
		const node = (parameters: IDataObject) =>
			({
				id: '1',
				name: 'n',
				type: `${PACKAGE}.businessPlatformSales`,
				typeVersion: 2,
				position: [0, 0],
				parameters,
			}) as unknown as INode;
		const shown = (parameters: IDataObject) => {
			const values =
				NodeHelpers.getNodeParameters(
					sales.properties,
					parameters as INodeParameters,
					true,
					false,
					node(parameters),
					sales,
				) ?? {};
			return sales.properties
				.filter((p) => NodeHelpers.displayParameter(values, p, node(parameters), sales))
				.map((p) => p.name);
		};
		const saved = {
			resource: 'record',
			operation: 'create',
			tableId: { __rl: true, mode: 'id', value: 'x' },
			columns: { mappingMode: 'defineBelow', value: { Name: 'Ada' } },
		};
		expect(shown(saved)).toEqual(expect.arrayContaining(['cellsInput', 'columns']));
		expect(shown(saved)).not.toContain('cellsJson');
		expect(shown({ ...saved, cellsInput: 'json' })).toEqual(
			expect.arrayContaining(['cellsInput', 'cellsJson']),
		);
		expect(shown({ ...saved, cellsInput: 'json' })).not.toContain('columns');
		const search = {
			resource: 'record',
			operation: 'search',
			tableId: { __rl: true, mode: 'id', value: 'x' },
			filters: { conditions: [{ column: 'Name', operator: 'eq', value: 'Ada' }] },
		};
		expect(shown(search)).toEqual(expect.arrayContaining(['conditionsInput', 'filters']));
		expect(shown({ ...search, conditionsInput: 'json' })).not.toContain('filters');
	});

	it("10. a poll's context names its workflow and node (getWorkflow().id, getNode().id), as an activation hook's does: polls of one node in this process are kept apart by them, whatever static data each has", () => {
		const node = h.node(
			'businessPlatformTableTrigger',
			{ event: 'recordCreated', tableId: { __rl: true, mode: 'id', value: '1' }, options: {} },
			'Poll',
		);
		const workflow = triggerWorkflow(node, {}, 'wf-internals-10');
		// Two polls as the durable scheduler builds them: their own workflow objects, the same IDs.
		const poll = () =>
			new PollContext(
				triggerWorkflow(node, {}, workflow.id),
				node,
				additionalData(h.credentials),
				'trigger',
				'update',
			) as unknown as IPollFunctions;
		const [a, b] = [poll(), poll()];
		expect(a.getWorkflow().id).toBe('wf-internals-10');
		expect(a.getNode().id).toBe(node.id);
		const [da, db] = [a.getWorkflowStaticData('node'), b.getWorkflowStaticData('node')];
		expect(da).not.toBe(db);
		const turn = beginTurn(a, da, 'cursor A', 0, 36_000);
		expect(typeof turn).toBe('object');
		endTurn(turn as Exclude<typeof turn, string>, true, 2); // a delivered from cursor A
		expect(beginTurn(b, db, 'cursor A', 3, 36_000)).toBe('P3'); // its cursor may not have landed
		const next = beginTurn(b, db, 'cursor B', 4, 36_000); // it has
		expect(typeof next).toBe('object');
		endTurn(next as Exclude<typeof next, string>, false, 5);
		const last = beginTurn(b, db, 'cursor A', 6, 36_000); // the delivery from A is forgotten
		expect(typeof last).toBe('object');
		endTurn(last as Exclude<typeof last, string>, false, 7);
		// A copied workflow (same node ID, another workflow ID) is another node.
		const copy = new PollContext(
			triggerWorkflow(node, {}, 'wf-internals-10-copy'),
			node,
			additionalData(h.credentials),
			'trigger',
			'update',
		) as unknown as IPollFunctions;
		const mine = beginTurn(a, da, 'cursor C', 8, 36_000);
		const theirs = beginTurn(copy, da, 'cursor C', 8, 36_000);
		expect(typeof theirs).toBe('object');
		for (const t of [mine, theirs]) if (typeof t === 'object') endTurn(t, false, 9);
		// An activation hook of the node names the same workflow and node as its polls (the Trigger's
		// heal works with what its activation registered), and a test listener's runs in mode manual.
		const hook = (mode: 'trigger' | 'manual') =>
			new HookContext(workflow, node, additionalData(h.credentials), mode, 'activate', {
				httpMethod: 'POST',
				node: node.name,
				path: 'p',
				webhookDescription: { name: 'default', httpMethod: 'POST', path: 'p' },
				workflowId: workflow.id,
				workflowExecuteAdditionalData: additionalData(h.credentials),
			});
		expect(nodeKey(hook('trigger'))).toBe(nodeKey(a));
		expect(hook('trigger').getMode()).toBe('trigger');
		expect(hook('manual').getMode()).toBe('manual');
	});

	it('11. a webhook trigger that also polls: n8n counts the node among its poll nodes (activated with its webhooks), reads its hidden Poll Times, and runs its execute, not its poll, when an execution passes an event through it', async () => {
		const parameters = { events: ['CREATE_INVOICE'], options: {} };
		const node = h.node('businessPlatformSalesTrigger', parameters, 'Trigger', 3);
		const workflow = triggerWorkflow(node, {}, 'wf-internals-11');
		expect(workflow.getPollNodes().map((n) => n.name)).toEqual(['Trigger']);
		expect(workflow.getTriggerNodes()).toEqual([]);
		const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, 3);
		expect(nodeType.description.webhooks).toHaveLength(1);
		expect(nodeType.description.polling).toBeUndefined(); // the editor shows a webhook trigger
		const poll = new PollContext(
			workflow,
			node,
			additionalData(h.credentials),
			'trigger',
			'activate',
		) as unknown as IPollFunctions;
		const pollTimes = poll.getNodeParameter('pollTimes') as { item: Array<{ mode: string }> };
		expect(pollTimes).toEqual({ item: [{ mode: 'everyMinute' }] });
		expect(toCronExpression(pollTimes.item[0] as never)).toMatch(/^\d+ \* \* \* \* \*$/);
		// An event passed through the node in an execution (a test event, a delivery): execute runs,
		// the poll does not (it would list the registrations).
		const before = ctx.sb.requests().length;
		const event = { eventType: 'CREATE_INVOICE', payload: { invoiceId: 'INV-11' } };
		const run = await h.run('businessPlatformSalesTrigger', parameters, [{ json: event }], {
			name: 'Trigger',
			typeVersion: 3,
		});
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([event]);
		expect(ctx.sb.requests().length).toBe(before);
	});
	it("14. version 4's webhook method: n8n's expression engine gives none with a polling event and POST otherwise; n8n 2.41 resolves it without the engine (the native resolver the description carries) when no parameter holds an expression, to the same; 1.x has no such resolver", () => {
		const type = nodeTypeOf(NODE_TYPES[`${PACKAGE}.businessPlatformSalesTrigger`], 4);
		const webhook = type.description.webhooks![0];
		expect(webhook.httpMethod).toBe(WEBHOOK_METHOD);
		const resolve = (n8nWorkflow as Record<string, unknown>).resolveWebhookDescriptionField as
			| ((node: INode, d: unknown, field: string) => { resolved: boolean; value?: unknown })
			| undefined;
		const cases: Array<[string | string[], string]> = [
			[['POLL_CRM_DEALS'], ''],
			[['CREATE_CRM_DEAL', 'UPDATE_INVOICE'], 'POST'],
			[[], 'POST'],
			[['ALL_SALES_EVENTS', 'POLL_CRM_CONTACTS'], ''],
			['={{ ["POLL_CRM_ACTIVITIES"] }}', ''],
			['={{ ["CREATE_CRM_DEAL"] }}', 'POST'],
		];
		for (const [events, method] of cases) {
			const node = h.node('businessPlatformSalesTrigger', { events }, 'Trigger', 4);
			const workflow = triggerWorkflow(node, {}, 'wf-internals-14');
			const own = workflow.getNode('Trigger')!;
			const engine = workflow.expression.getSimpleParameterValue(
				own,
				webhook.httpMethod,
				'internal',
				{},
				undefined,
				'GET',
			);
			expect([events, engine]).toEqual([events, method]);
			if (!n8nAtLeast('2.41.0')) {
				expect(resolve).toBeUndefined();
				continue;
			}
			const native = resolve!(workflow.nodes.Trigger, webhook, 'httpMethod');
			// Resolved: to the engine's answer. Instant events without expressions (what deliveries
			// meet) are always resolved; an expression (or a picker's value: Deal Changed's pipeline) never.
			if (native.resolved) expect([events, native.value]).toEqual([events, method]);
			const instantAndStatic = typeof events !== 'string' && method === 'POST';
			if (instantAndStatic || typeof events === 'string')
				expect([events, native.resolved]).toEqual([events, instantAndStatic]);
		}
	});
	it("15. the publication deadline: n8n 2.41.1's publication outbox consumer aborts a publish or an unpublish after 0.7 × its lease (120 s by default): 84 s, while the webhook trigger's hook call, raced against the abort, runs on in the background; n8n 1.123.81 has no publication service and awaits the delete hook however long; the pack's activation waits for a heal well under the deadline", async () => {
		expect(ACTIVATION_WAIT_MS * 2).toBeLessThanOrEqual(PUBLICATION_DEADLINE_MS);
		// The runtime of the selected n8n (installed by the e2e setup or npm run test:internals:oldest; here once if missing).
		const { n8nDir } = await ensureRuntime(() => undefined, runtimePaths());
		const modules = join(n8nDir, 'node_modules');
		const dist = join(modules, 'n8n', 'dist');
		const read = (...path: string[]) => readFileSync(join(...path), 'utf8');
		const consumer = join(dist, 'workflows/publication/workflow-publication-outbox-consumer.js');
		if (!n8nAtLeast('2.0.0')) {
			expect(existsSync(consumer)).toBe(false);
			const manager = read(dist, 'active-workflow-manager.js');
			const clear = manager.slice(
				manager.indexOf('async clearWebhooks('),
				manager.indexOf('getExecutePollFunctions('),
			);
			expect(clear).toMatch(/await this\.webhookService\.deleteWebhook\(/);
			expect(clear).not.toMatch(/race|timeout|abort|signal/i);
			return;
		}
		const code = read(consumer);
		const fraction = Number(/const ABORT_AFTER_LEASE_FRACTION = ([\d.]+);/.exec(code)?.[1]);
		expect(code).toContain('const abortAfterMs = leaseMs * ABORT_AFTER_LEASE_FRACTION;');
		expect(code).toMatch(
			/raceTimeout\(work, abortAfterMs\)\) !== TIMED_OUT\)\s+return true;\s+controller\.abort\(/,
		);
		const config = read(modules, '@n8n/config/dist/configs/workflows.config.js');
		const minutes = Number(
			/this\.publicationOutboxLeaseSeconds = (\d+) \* constants_1\.Time\.minutes\.toSeconds;/.exec(
				config,
			)?.[1],
		);
		expect(Math.round(fraction * minutes * 60_000)).toBe(PUBLICATION_DEADLINE_MS);
		const activator = read(dist, 'workflows/triggers/workflow-trigger-activator.js');
		expect(activator).toMatch(/raceAbort\(this\.webhookTriggerRegistrar\.deregister\(/);
		expect(activator).toMatch(/if \(signal\.aborted\)\s+abort\.onDetached\(promise\);/);
	});
});
