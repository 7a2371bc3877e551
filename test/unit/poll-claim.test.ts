/**
 * The claim that keeps one poll of a node at a time (nodes/shared/n8n-internals/, 6), pure.
 * A seeded property over any interleaving of polls that start (claim), end (release) and time
 * that passes: while a poll holds a live claim (younger than the budget), no other poll claims;
 * a poll that ends releases only its own claim; a claim older than the budget is taken over.
 * Odd stored values (texts, objects, prototype keys, non-finite numbers) count as no claim.
 */
import fc from 'fast-check';

import {
	claimPoll,
	DEFAULT_POLL_BUDGET_MS,
	holdsPoll,
	releasePoll,
	type PollClaim,
	type PollClaimHolder,
} from '../../nodes/shared/n8n-internals';
import { checkProperty, hostileString } from '../helpers/property';

const node = {
	getNode: () => ({
		id: 'n',
		name: 'Poll',
		type: 't',
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: {},
	}),
};
const withBudget = (ms: number) => ({ ...node, getPollBudgetMs: () => ms });

describe('claimPoll', () => {
	it("a second poll finds the first one's claim; after release, or after the budget, the node is free", () => {
		const data: PollClaimHolder = {};
		const a = claimPoll(node, data, 1_000)!;
		expect(claimPoll(node, data, 1_001)).toBeUndefined();
		releasePoll(data, a);
		expect(data).toEqual({});
		const b = claimPoll(node, data, 2_000)!;
		const c = claimPoll(node, data, 2_000 + DEFAULT_POLL_BUDGET_MS)!;
		expect(c).toBeDefined();
		expect(holdsPoll(data, b)).toBe(false);
		releasePoll(data, b); // not b's any more: c's claim stays
		expect(holdsPoll(data, c)).toBe(true);
	});

	it("uses n8n's poll budget where it has one, and five minutes where it has none or gives nonsense", () => {
		const data: PollClaimHolder = { polling: 0 };
		expect(claimPoll(withBudget(10), data, 9)).toBeUndefined();
		expect(claimPoll(withBudget(10), data, 10)).toBeDefined();
		for (const odd of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
			expect(
				claimPoll(withBudget(odd), { polling: 0 }, DEFAULT_POLL_BUDGET_MS - 1),
			).toBeUndefined();
			expect(claimPoll(withBudget(odd), { polling: 0 }, DEFAULT_POLL_BUDGET_MS)).toBeDefined();
		}
	});

	it('a claim from the future (a clock set back) holds within the budget and no further', () => {
		expect(claimPoll(node, { polling: 10_000 }, 9_000)).toBeUndefined();
		expect(claimPoll(node, { polling: 10_000 + DEFAULT_POLL_BUDGET_MS }, 10_000)).toBeDefined();
	});

	it('odd stored values count as no claim (property)', async () => {
		const odd = fc.oneof(
			hostileString(),
			fc.object(),
			fc.constantFrom(
				null,
				true,
				Number.NaN,
				Number.POSITIVE_INFINITY,
				Number.NEGATIVE_INFINITY,
				[],
				JSON.parse('{"__proto__": {"at": 1}}') as unknown,
			),
		);
		await checkProperty(
			200,
			fc.asyncProperty(odd, async (value) => {
				const data: PollClaimHolder = { polling: value };
				const claim = claimPoll(node, data, 1_000);
				expect(claim).toEqual({ at: 1_000 });
				expect(holdsPoll(data, claim!)).toBe(true);
				await Promise.resolve();
			}),
		);
	});

	type Step =
		| { kind: 'start'; poll: number }
		| { kind: 'end'; poll: number }
		| { kind: 'wait'; ms: number };
	const step: fc.Arbitrary<Step> = fc.oneof(
		fc.record({ kind: fc.constant('start' as const), poll: fc.nat(3) }),
		fc.record({ kind: fc.constant('end' as const), poll: fc.nat(3) }),
		fc.record({
			kind: fc.constant('wait' as const),
			ms: fc.constantFrom(0, 1, 1_000, DEFAULT_POLL_BUDGET_MS - 1, DEFAULT_POLL_BUDGET_MS),
		}),
	);

	it('at most one poll holds a live claim, whatever the interleaving (property)', async () => {
		await checkProperty(
			300,
			fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps) => {
				const data: PollClaimHolder = {};
				const claims = new Map<number, PollClaim>();
				let now = 1_000_000;
				for (const s of steps) {
					if (s.kind === 'wait') now += s.ms;
					else if (s.kind === 'end') {
						const c = claims.get(s.poll);
						if (c) releasePoll(data, c);
						claims.delete(s.poll);
					} else if (!claims.has(s.poll)) {
						const c = claimPoll(node, data, now);
						if (c) claims.set(s.poll, c);
					}
					const live = [...claims.values()].filter(
						(c) => holdsPoll(data, c) && now - c.at < DEFAULT_POLL_BUDGET_MS,
					);
					expect(live.length).toBeLessThanOrEqual(1);
					// A running poll whose claim is live is the only one a new poll can't pass.
					if (live.length === 1) expect(claimPoll(node, { ...data }, now)).toBeUndefined();
				}
				await Promise.resolve();
			}),
		);
	});
});
