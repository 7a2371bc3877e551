/**
 * What comes back to a model (issue 40): every operation of the three action nodes run as a tool
 * node would run it, with a 100,000-character value in each parameter a model can fill (the
 * `$fromAI()` fields of docs/ai-agents.md: text, dropdowns, IDs, JSON; one item per field, that
 * field huge and the others plain, so that each field's own check is reached), against the
 * sandbox. Each item either works or fails with a message a model can read back: the input
 * echoed cut (docs/faults-and-security.md, "Bounds"), never whole.
 */
import type { IDataObject } from 'n8n-workflow';

import { createHarness, type Harness } from '../../testbed/harness/run';
import { useSandbox } from '../helpers/sandbox';
import { operationsOf, TYPES, type FieldValue } from '../helpers/tool-fields';
import { fileTuning } from '../helpers/tuning';

/** This file's tunables and clocks (test/helpers/tuning.ts): the harness's nodes run with them. */
const tuning = fileTuning();

const ctx = useSandbox({ regional: true });
let h: Harness;
const retry = { ...tuning.retry };
afterAll(() => Object.assign(tuning.retry, retry));
beforeAll(() => {
	// A URL of 100,000 characters is refused by the platform's HTTP server: its retries need not wait.
	tuning.retry.baseDelayMs = 5;
	h = createHarness(ctx.sb, ctx.sb.demo.tokenResponse, {
		regionalBaseUrl: ctx.sb.regionalBaseUrl!,
	});
});

const HUGE = 100_000;
/** The longest message an error may have here: labels, lists of valid values, and each input cut. */
const MAX_MESSAGE = 1_500;

/** A value of the type a model gives for that key: text of 100,000 characters, a huge number, or JSON with a huge key and value. */
function hugeOf(key: string, type: string): unknown {
	if (type === 'number') return 2 ** 53 + 2;
	if (type === 'boolean') return true;
	if (type === 'json') return { [`${key}-${'k'.repeat(HUGE)}`]: 'v'.repeat(HUGE) };
	return 'x'.repeat(HUGE);
}

/** A plain value of that type, for the fields that are not the huge one: a small ID or name, false, an empty object. */
function plainOf(type: string): unknown {
	if (type === 'number') return 1;
	if (type === 'boolean') return false;
	if (type === 'json') return {};
	return '1';
}

/** Each field reads its value from the item, as a tool node reads `$fromAI()`'s: an expression n8n evaluates at run time. */
const fromItem: FieldValue = (key) => `={{ $json["${key}"] }}`;

const RUNS = TYPES.flatMap((t) =>
	operationsOf(t, fromItem).map((op) => ({
		type: t.description.name,
		title: `${op.node.replace('Business Platform ', '')} → ${op.resource} → ${op.operation}${op.parameters.cellsInput === 'json' || op.parameters.conditionsInput === 'json' ? ' (From JSON)' : ''}`,
		parameters: op.parameters,
		inputs: op.keys.map(([huge, hugeType]) =>
			Object.fromEntries([
				...op.keys.map(([key, type]) => [key, plainOf(type)]),
				[huge, hugeOf(huge, hugeType)],
			]),
		),
	})),
);

describe('a 100,000-character value in each parameter a model can fill', () => {
	// n8n's own check before any node runs (a field its display rules find empty) answers for n8n: bounded too.
	it.each(RUNS.map((r) => [r.title, r] as const))(
		'%s: each item works, or fails with a bounded message',
		async (_t, r) => {
			const run = await h
				.run(
					r.type,
					r.parameters as IDataObject,
					r.inputs.map((json) => ({ json: json as IDataObject })),
					{ continueOnFail: true },
				)
				.catch((e: Error) => ({ json: [] as IDataObject[], error: e }));
			const messages = [
				...run.json.map((j) => (typeof j.error === 'string' ? j.error : '')),
				run.error?.message ?? '',
			];
			for (const message of messages) {
				expect(message.length).toBeLessThanOrEqual(MAX_MESSAGE);
				expect(message).not.toMatch(/x{200}|k{200}|v{200}/);
			}
		},
	);
});
