/**
 * The turns that keep polls of one node apart in one process (nodes/shared/polling/turns.ts,
 * rows P2, P3 and P11 of docs/polling-triggers.md; n8n-internals 6 and 10), pure. A seeded
 * property over any interleaving of polls of a few nodes (workflow and node IDs that include
 * prototype keys and hostile strings), from two activations (two static data objects) and a few
 * starts, that end with or without a delivery, and time that passes (past 2^31 ms, and
 * backwards): against a model,
 * - P2: no poll begins while a poll of its activation from its start runs, younger than the budget;
 * - P3: no poll begins from a start a delivery of its node was read from, less than
 *   pendingDeliveryMs ago, unless a poll from another start began in between;
 * - P11: a poll is superseded exactly when a poll of another activation began after it;
 * - every other poll begins.
 * And the number of nodes followed stays within MAX_FOLLOWED_NODES, past it; the budget is n8n's
 * where it gives a sensible one, the pack's own otherwise.
 */
import fc from 'fast-check';

import { OWN_POLL_BUDGET_MS, pollBudgetMs } from '../../nodes/shared/n8n-internals';
import {
	ACTIVATION_MS,
	activationRuns,
	activationWorks,
	beginActivation,
	beginHeal,
	beginTurn,
	endActivation,
	endHeal,
	endLive,
	endTurn,
	followedNodes,
	healState,
	liveActivation,
	setLive,
	MAX_FOLLOWED_NODES,
	nodeKey,
	outwaitHeal,
	pendingDeliveryMs,
	pollsRun,
	type Turn,
} from '../../nodes/shared/polling/turns';
import { checkProperty, hostileString, PROTOTYPE_KEYS } from '../helpers/property';

type Poll = Parameters<typeof beginTurn>[0];

const poll = (workflow: string, node: string): Poll =>
	({
		getWorkflow: () => ({ id: workflow, name: 'w', active: true }),
		getNode: () => ({
			id: node,
			name: 'Poll',
			type: 't',
			typeVersion: 1,
			position: [0, 0] as [number, number],
			parameters: {},
		}),
	}) as unknown as Poll;

type Op =
	| { kind: 'begin'; node: number; activation: number; from: number }
	| { kind: 'end'; which: number; delivered: boolean }
	| { kind: 'time'; ms: number };

const op: fc.Arbitrary<Op> = fc.oneof(
	fc.record({
		kind: fc.constant('begin' as const),
		node: fc.nat(3),
		activation: fc.nat(1),
		from: fc.nat(2),
	}),
	fc.record({ kind: fc.constant('end' as const), which: fc.nat(20), delivered: fc.boolean() }),
	fc.record({
		kind: fc.constant('time' as const),
		ms: fc.constantFrom(1, 999, 15_000, 36_000, 45_000, 60_000, 72_001, 2 ** 31 + 1, -5),
	}),
);

interface Modelled {
	from: string;
	data: object;
	at: number;
	superseded: boolean;
}

describe('polls of one node in one process (the state machine: P2, P3, P11)', () => {
	it('a poll begins, is held back or is superseded exactly as the rows say (property, against a model)', async () => {
		let run = 0;
		await checkProperty(
			300,
			fc.asyncProperty(
				fc.array(fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), hostileString()), {
					minLength: 4,
					maxLength: 4,
				}),
				fc.constantFrom(1, 15_000, 36_000, OWN_POLL_BUDGET_MS, 300_000),
				fc.array(op, { maxLength: 60 }),
				async (ids, budget, ops) => {
					run++;
					const nodes = ids.map((id, i) => poll(`wf-${run}-${i % 2}`, `${id}-${i}`));
					const activations = nodes.map(() => [{}, {}]);
					const pending = pendingDeliveryMs(budget);
					// The model: per node, the polls under way and the last delivery.
					const model = new Map<number, { running: Modelled[]; delivered?: [string, number] }>();
					const open: Array<{ node: number; turn: Turn; modelled: Modelled }> = [];
					let now = 0;
					for (const o of ops) {
						if (o.kind === 'time') now += o.ms;
						else if (o.kind === 'begin') {
							const from = `start ${o.from}`;
							const data = activations[o.node][o.activation];
							const m = model.get(o.node) ?? { running: [] };
							const busy = m.running.some(
								(r) => r.data === data && r.from === from && Math.abs(now - r.at) < budget,
							);
							const recent = m.delivered?.[0] === from && Math.abs(now - m.delivered[1]) < pending;
							const turn = beginTurn(nodes[o.node], data, from, now, budget);
							expect(turn).toEqual(busy ? 'P2' : recent ? 'P3' : expect.objectContaining({ from }));
							if (typeof turn !== 'string') {
								for (const r of m.running) if (r.data !== data) r.superseded = true;
								const modelled = { from, data, at: now, superseded: false };
								model.set(o.node, { running: [...m.running, modelled] });
								open.push({ node: o.node, turn, modelled });
							}
						} else if (open.length) {
							const [{ node, turn, modelled }] = open.splice(o.which % open.length, 1);
							expect(turn.superseded).toBe(modelled.superseded);
							endTurn(turn, o.delivered, now);
							const m = model.get(node)!;
							m.running = m.running.filter((r) => r !== modelled);
							if (o.delivered) m.delivered = [turn.from, now];
						}
					}
					for (const { turn } of open) endTurn(turn, false, now);
				},
			),
		);
	});

	it(`follows at most ${MAX_FOLLOWED_NODES} nodes: the least recently polled are forgotten first`, () => {
		const data = {};
		const turns = Array.from({ length: MAX_FOLLOWED_NODES + 5 }, (_, i) =>
			beginTurn(poll('wf-bound', `node-${i}`), data, 'start', 0, 36_000),
		);
		expect(followedNodes()).toBeLessThanOrEqual(MAX_FOLLOWED_NODES);
		// The first ones are forgotten: a poll of node-0 from the same start begins; the last one is still held.
		const again = beginTurn(poll('wf-bound', 'node-0'), data, 'start', 1, 36_000);
		expect(typeof again).toBe('object');
		turns.push(again);
		expect(
			beginTurn(poll('wf-bound', `node-${MAX_FOLLOWED_NODES + 4}`), data, 'start', 1, 36_000),
		).toBe('P2');
		for (const t of turns) if (typeof t !== 'string') endTurn(t, false, 2);
	});

	it("uses n8n's poll budget where it gives a sensible one, and the pack's own (below the shortest Poll Time) otherwise", () => {
		expect(pollBudgetMs({ getPollBudgetMs: () => 36_000 })).toBe(36_000);
		expect(OWN_POLL_BUDGET_MS).toBeLessThan(60_000);
		for (const odd of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '36000', undefined])
			expect(pollBudgetMs({ getPollBudgetMs: () => odd as number })).toBe(OWN_POLL_BUDGET_MS);
		expect(pollBudgetMs({})).toBe(OWN_POLL_BUDGET_MS);
	});
});

describe("an activation and the Trigger's poll take turns (beginActivation)", () => {
	it('a poll that begins while an activation runs does nothing: while one of its hook calls runs, however long; between a checkExists that said false and the create, up to ACTIVATION_MS and not past it, whatever the clock does; the activation sees a running poll; nothing is left followed after both end (property)', async () => {
		await checkProperty(
			200,
			fc.asyncProperty(
				fc.oneof(hostileString(), fc.constantFrom(...PROTOTYPE_KEYS)),
				fc.constantFrom(
					0,
					1,
					ACTIVATION_MS - 1,
					ACTIVATION_MS,
					ACTIVATION_MS + 1,
					2 ** 31 + 1,
					2 ** 53,
					-(2 ** 31) - 1,
				),
				fc.boolean(),
				fc.boolean(),
				async (id, later, pollFirst, awaitsCreate) => {
					const ctx = poll(`wf-activation-${id}`, id);
					const key = nodeKey(ctx);
					const data = {};
					const t0 = 1_000_000;
					const runs = (at: number) => {
						const turn = beginTurn(ctx, data, 'heal', at, 36_000) as Turn;
						const result = activationRuns(turn, at);
						endTurn(turn, false, at);
						return result;
					};
					if (pollFirst) {
						const running = beginTurn(ctx, data, 'heal', t0, 36_000) as Turn;
						expect(pollsRun(key)).toBe(true);
						expect(beginActivation(key, t0)).toBe(true); // it waits for the poll
						endTurn(running, false, t0);
						expect(pollsRun(key)).toBe(false);
					} else expect(beginActivation(key, t0)).toBe(false);
					expect(runs(t0 + later)).toBe(true); // its hook call under way, however long
					// A second hook call beside it (n8n's delete while create runs): the first one's end does not end the activation.
					expect(beginActivation(key, t0 + later)).toBe(false);
					endActivation(key);
					expect(runs(t0 + later)).toBe(true);
					if (awaitsCreate) {
						endActivation(key, t0); // checkExists said false at t0: n8n calls create next
						expect(runs(t0 + later)).toBe(Math.abs(later) < ACTIVATION_MS);
						expect(beginActivation(key, t0 + later)).toBe(false); // create: no second wait
						expect(runs(t0 + later + 2 ** 31)).toBe(true);
					}
					endActivation(key);
					expect(runs(t0 + later)).toBe(false);
					expect(pollsRun(key)).toBe(false);
				},
			),
		);
		expect(followedNodes()).toBe(0);
	});
});

describe("the webhook Trigger's heal: one at a time, with its activation's registrations, never beside an activation (beginHeal)", () => {
	it('no heal without an activation of the node in this process; one heal at a time however long it runs; an activation makes it give way (waiting, then working), and waits for it once; an unpublish or another activation ends it; nothing is left followed (property)', async () => {
		await checkProperty(
			200,
			fc.asyncProperty(
				fc.oneof(hostileString(), fc.constantFrom(...PROTOTYPE_KEYS)),
				fc.constantFrom(1, 45_001, ACTIVATION_MS + 1, 2 ** 31 + 1, 2 ** 53, -(2 ** 31) - 1),
				async (id, later) => {
					const ctx = poll(`wf-heal-${id}`, id);
					const key = nodeKey(ctx);
					const t0 = 1_000_000;
					expect(beginHeal(ctx, t0)).toBeUndefined(); // no activation here: nothing to heal with
					const live = {
						base: `https://n8n/webhook/${id}`,
						secrets: new Map([['E', 's']]),
						restored: new Map(),
					};
					setLive(key, live);
					const turn = beginHeal(ctx, t0)!;
					expect(turn.live).toBe(live);
					expect(beginHeal(ctx, t0 + later)).toBeUndefined(); // however long the first has run
					expect(healState(turn, t0 + later)).toBe('live');
					expect(beginActivation(key, t0 + later)).toBe(true); // it waits for the heal
					expect(healState(turn, t0 + later)).toBe('waiting');
					activationWorks(key);
					expect(healState(turn, t0 + later)).toBe('working');
					endActivation(key);
					expect(healState(turn, t0 + later)).toBe('live');
					// n8n tries a failed teardown again: a heal waited for as long as allowed is not waited for again.
					outwaitHeal(key);
					expect(beginActivation(key, t0 + later)).toBe(false);
					expect(healState(turn, t0 + later)).toBe('waiting');
					endActivation(key);
					setLive(key, { ...live, restored: new Map() }); // published again
					expect(healState(turn, t0 + later)).toBe('gone');
					endLive(key, 'https://elsewhere/webhook-test/x'); // a test listener's URL: not the published one
					expect(liveActivation(key)).toBeDefined();
					endLive(key, live.base);
					expect(liveActivation(key)).toBeUndefined();
					turn.trouble = { since: t0 };
					endHeal(turn);
					expect(pollsRun(key)).toBe(false);
					expect(beginHeal(ctx, t0 + later)).toBeUndefined();
				},
			),
		);
		expect(followedNodes()).toBe(0);
	});
});
