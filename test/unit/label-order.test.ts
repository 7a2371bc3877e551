/**
 * The order of labels the package sorts while it loads (collections' fields, resources, events):
 * `compareLabels` (nodes/shared/field-values.ts) instead of `localeCompare`, whose first use starts
 * ICU's collator (about 6 ms of the package's load). It must give the order `localeCompare`
 * gives: a seeded property over letters, digits and spaces in any case, and every list of
 * options in every node description that is in `compareLabels` order is in `localeCompare`
 * order too.
 */
import fc from 'fast-check';
import type { INodeType } from 'n8n-workflow';

import { compareLabels } from '../../nodes/shared/field-values';
import { NODE_TYPES } from '../../testbed/harness/nodes';
import { propertyParameters } from '../helpers/property';

const label = fc
	.array(fc.constantFrom(...'aAbBmMzZ09 '.split('')), { maxLength: 8 })
	.map((chars) => chars.join(''));

/** Every array of `{ name }` objects in a description (options at any depth). */
function nameLists(value: unknown, out: string[][] = []): string[][] {
	if (Array.isArray(value)) {
		if (
			value.length > 1 &&
			value.every((v) => v && typeof (v as { name?: unknown }).name === 'string')
		)
			out.push(value.map((v) => (v as { name: string }).name));
		for (const v of value) nameLists(v, out);
	} else if (value && typeof value === 'object')
		for (const v of Object.values(value)) nameLists(v, out);
	return out;
}

const descriptions = Object.values(NODE_TYPES).flatMap((t) => {
	const versioned = (t as { nodeVersions?: Record<string, INodeType> }).nodeVersions;
	return versioned ? Object.values(versioned).map((v) => v.description) : [t.description];
});

const sorted = (names: string[], compare: (a: string, b: string) => number) =>
	names.every((n, i) => i === 0 || compare(names[i - 1], n) <= 0);

describe('labels sorted without ICU', () => {
	it('compareLabels gives the sign localeCompare gives, for labels of letters, digits and spaces in any case', () => {
		fc.assert(
			fc.property(label, label, (a, b) => {
				expect(Math.sign(compareLabels(a, b))).toBe(Math.sign(a.localeCompare(b)));
			}),
			propertyParameters(20_000),
		);
	});

	it("every list of options the package sorted is in localeCompare's order too", () => {
		const lists = descriptions.flatMap((d) => nameLists(d));
		const ordered = lists.filter((names) => sorted(names, compareLabels));
		// The collections, resources and events the package sorts: many lists, not a vacuous check.
		expect(ordered.length).toBeGreaterThan(50);
		for (const names of ordered) expect(sorted(names, (a, b) => a.localeCompare(b))).toBe(true);
	});
});
