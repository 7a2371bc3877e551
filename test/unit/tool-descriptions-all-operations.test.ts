/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Every operation of the three action nodes as a tool (issue 35), not only the demo's five:
 * the tool node is built with `$fromAI()` in every field of the operation that can hold one
 * (each field the editor gives a ✨ button, and the dropdowns, which take a hand-written
 * `$fromAI()`), including the fields of its collections and one entry of each list, and
 * n8n-core's own `getSchema` (create-node-as-tool, as the AI Agent and the MCP Server Trigger
 * call it) must give the model a JSON schema with one described, typed property per key.
 * Operations with a field only a mapper or a binary file can set, with no alternative a model
 * can fill, and lists whose number of entries the workflow fixes, are the exceptions: each
 * needs its reason below, and the table is docs/ai-agents.md's "tool-exceptions" section
 * (`npm run docs:ai-tools` rewrites it).
 */
import { getSchema } from 'n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool';
import { zodToJsonSchema } from 'zod-to-json-schema';

import { BusinessPlatformSales } from '../../nodes/BusinessPlatformSales/BusinessPlatformSales.node.ts';
import { AI_AGENTS_DOC, checkDocSection } from '../helpers/ai-tools-doc';
import { LIMITS, listReason, nodeOf, type Op, operationsOf, TYPES } from '../helpers/tool-fields';

const ALL = TYPES.flatMap((t) => operationsOf(t).map((op) => ({ op, description: t.description })));
const where = (o: Op) =>
	`${o.node.replace('Business Platform ', '')} → ${o.resource} → ${o.operation}`;

describe('every operation as a tool: n8n gives the model a JSON schema it can fill', () => {
	it('covers every operation of the three nodes (and the alternative input of those that have one)', () => {
		expect(new Set(ALL.map(({ op }) => where(op))).size).toBe(3 + 77);
		expect(
			ALL.flatMap(({ op }) =>
				Object.entries(op.alternatives).map(([f, alt]) => `${where(op)}: ${f} (${alt})`),
			),
		).toEqual([
			'Sales → record → create: columns (Cells: From JSON)',
			'Sales → record → search: filters (Conditions Input: From JSON)',
			'Sales → record → update: columns (Cells: From JSON)',
		]);
	});

	const mode = (op: Op) =>
		[op.parameters.cellsInput, op.parameters.conditionsInput]
			.filter((v) => v === 'json')
			.map(() => ' (From JSON)')
			.join('');
	it.each(ALL.map(({ op, description }) => [`${where(op)}${mode(op)}`, op, description] as const))(
		'%s: one typed, described property per $fromAI key',
		(_name, op, description) => {
			const schema = zodToJsonSchema(getSchema(nodeOf(description, op.parameters)) as never) as {
				type: string;
				properties: Record<string, { type?: string; anyOf?: unknown[]; description?: string }>;
				required?: string[];
			};
			expect(schema.type).toBe('object');
			expect(Object.keys(schema.properties).sort()).toEqual(op.keys.map(([k]) => k).sort());
			for (const [key, type] of op.keys) {
				const prop = schema.properties[key];
				expect([key, prop.description]).toEqual([key, `The ${key.replace(/_/g, ' ')}`]);
				// A json key is any JSON value the model writes (n8n checks it is a non-empty object or list): no type, or n8n's anyOf.
				expect([
					key,
					type === 'json' ? (prop.type ?? prop.anyOf?.length ?? 'any') : prop.type,
				]).toEqual([key, type === 'json' ? expect.anything() : type]);
				if (type === 'json') expect([key, prop.type]).not.toEqual([key, 'string']);
			}
			expect((schema.required ?? []).sort()).toEqual(op.keys.map(([k]) => k).sort());
		},
	);

	it('leaves no field that only a mapper or a binary file can set without an alternative; the exceptions are docs/ai-agents.md’s list', () => {
		const plain = ALL.map(({ op }) => op).filter((op) => !mode(op));
		const hard = plain.flatMap((op) =>
			op.limits
				.filter(([f, k]) => (k === 'mapper' || k === 'binary') && !op.alternatives[f])
				.map(([f, k]) => `${where(op)}: ${f} (${k})`),
		);
		expect(hard).toEqual([]);
		const rows = plain.flatMap((op) =>
			[...new Set(op.limits.filter(([, k]) => LIMITS.includes(k)).map(([f]) => f))].map((field) => {
				const alt = op.alternatives[field];
				const reason = alt
					? `with **${alt}**, one JSON argument the model fills for any table, with any number of entries (the default, the ${op.labels[field] ?? field}, takes a \`$fromAI()\` per field the workflow sets up)`
					: listReason(op.labels[field]);
				return `| ${op.node.replace('Business Platform ', '')} | ${op.resource} | ${op.operation} | \`${field}\` | ${reason} |`;
			}),
		);
		checkDocSection(
			AI_AGENTS_DOC,
			'tool-exceptions',
			[
				'| Node | Resource | Operation | Field | What a model can do |',
				'| --- | --- | --- | --- | --- |',
				...rows,
			].join('\n'),
		);
	});
});

describe('hints for n8n’s AI workflow builder (INodeTypeDescription.builderHint, n8n 2.x; older n8n ignores them)', () => {
	const sales = new BusinessPlatformSales().description;
	const hint = (name: string) =>
		sales.properties.find((p) => p.name === name)?.builderHint?.propertyHint ?? '';

	it('the Sales node leads to Table → Get and the From JSON inputs; each new input says what to give', () => {
		expect(sales.builderHint?.searchHint).toMatch(
			/Table → Get returns a table’s columns .*Cells: From JSON.*Conditions Input: From JSON/,
		);
		expect([
			hint('cellsInput'),
			hint('cellsJson'),
			hint('conditionsInput'),
			hint('conditionsJson'),
		]).toEqual([
			expect.stringMatching(/Use "json" when an AI model/),
			expect.stringMatching(/keyed by column name.*\$fromAI\('cells'/),
			expect.stringMatching(/Use "json" when an AI model/),
			expect.stringMatching(/\{column, operator, value\}.*\$fromAI\('conditions'/),
		]);
	});
});
