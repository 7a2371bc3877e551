/**
 * The turns that keep polls of one node apart in one process (nodes/shared/n8n-internals/, 10),
 * pure. A seeded property over any interleaving of polls of a few nodes (workflow and node IDs
 * that include prototype keys and hostile strings) that begin from a cursor, end with or without
 * a delivery, and time that passes (up to past 2^31 ms, and backwards): against a model,
 * - no poll begins while another of its node holds a turn younger than the poll budget;
 * - no poll begins from the cursor a delivery of its node started from, less than
 *   pendingDeliveryMs after that delivery, unless a poll from another cursor came in between;
 * - every other poll begins.
 * And the number of nodes followed stays within MAX_FOLLOWED_NODES, past it.
 */
import fc from 'fast-check';

import {
	beginPollTurn,
	endPollTurn,
	followedNodes,
	holdsTurn,
	MAX_FOLLOWED_NODES,
	pendingDeliveryMs,
	type PollTurn,
} from '../../nodes/shared/n8n-internals';
import { checkProperty, hostileString, PROTOTYPE_KEYS } from '../helpers/property';

type Poll = Parameters<typeof beginPollTurn>[0];

const poll = (workflow: string, node: string, budget: number): Poll =>
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
		getPollBudgetMs: () => budget,
	}) as unknown as Poll;

type Op =
	| { kind: 'begin'; node: number; from: number }
	| { kind: 'end'; which: number; delivered: boolean }
	| { kind: 'time'; ms: number };

const op: fc.Arbitrary<Op> = fc.oneof(
	fc.record({
		kind: fc.constant('begin' as const),
		node: fc.nat(3),
		from: fc.nat(2),
	}),
	fc.record({ kind: fc.constant('end' as const), which: fc.nat(20), delivered: fc.boolean() }),
	fc.record({
		kind: fc.constant('time' as const),
		ms: fc.constantFrom(1, 999, 15_000, 36_000, 60_000, 72_001, 2 ** 31 + 1, -5),
	}),
);

describe('polls of one node in one process (n8n-internals 10)', () => {
	it('a poll begins exactly when no turn of its node is live and no recent delivery started from its cursor (property, against a model)', async () => {
		let run = 0;
		await checkProperty(
			300,
			fc.asyncProperty(
				fc.array(fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), hostileString()), {
					minLength: 4,
					maxLength: 4,
				}),
				fc.constantFrom(1, 15_000, 36_000, 300_000),
				fc.array(op, { maxLength: 60 }),
				async (ids, budget, ops) => {
					run++;
					const nodes = ids.map((id, i) => poll(`wf-${run}-${i % 2}`, `${id}-${i}`, budget));
					const pending = pendingDeliveryMs(nodes[0]);
					// The model: per node, the live turn's start and the last delivery.
					const model = new Map<number, { polling?: number; delivered?: [string, number] }>();
					const open: Array<{ node: number; turn: PollTurn }> = [];
					let now = 0;
					for (const o of ops) {
						if (o.kind === 'time') now += o.ms;
						else if (o.kind === 'begin') {
							const from = `cursor ${o.from}`;
							const m = model.get(o.node) ?? {};
							const busy = m.polling !== undefined && Math.abs(now - m.polling) < budget;
							const recent = m.delivered?.[0] === from && Math.abs(now - m.delivered[1]) < pending;
							const turn = beginPollTurn(nodes[o.node], from, now);
							expect(turn !== undefined).toBe(!busy && !recent);
							if (turn) {
								model.set(o.node, { polling: now });
								open.push({ node: o.node, turn });
							}
						} else if (open.length) {
							const [{ node, turn }] = open.splice(o.which % open.length, 1);
							const m = model.get(node) ?? {};
							const holds = m.polling === turn.at;
							expect(holdsTurn(turn)).toBe(holds);
							endPollTurn(turn, o.delivered, now);
							if (holds) model.set(node, o.delivered ? { delivered: [turn.from, now] } : {});
						}
					}
					for (const { turn } of open) endPollTurn(turn, false, now);
				},
			),
		);
	});

	it(`follows at most ${MAX_FOLLOWED_NODES} nodes: the least recently polled are forgotten first`, () => {
		const turns = Array.from({ length: MAX_FOLLOWED_NODES + 5 }, (_, i) =>
			beginPollTurn(poll('wf-bound', `node-${i}`, 36_000), 'cursor', 0),
		);
		expect(followedNodes()).toBeLessThanOrEqual(MAX_FOLLOWED_NODES);
		// The first ones are forgotten (their turns no longer hold), the last ones still run.
		expect(holdsTurn(turns[0]!)).toBe(false);
		expect(holdsTurn(turns[turns.length - 1]!)).toBe(true);
		expect(beginPollTurn(poll('wf-bound', 'node-0', 36_000), 'cursor', 1)).toBeDefined();
		for (const t of turns) if (t) endPollTurn(t, false, 2);
	});
});
