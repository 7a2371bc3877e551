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
import type {
	IDataObject,
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { zodToJsonSchema } from 'zod-to-json-schema';

import { BusinessPlatformCampaigns } from '../../nodes/BusinessPlatformCampaigns/BusinessPlatformCampaigns.node.ts';
import { BusinessPlatformPeople } from '../../nodes/BusinessPlatformPeople/BusinessPlatformPeople.node.ts';
import { BusinessPlatformSales } from '../../nodes/BusinessPlatformSales/BusinessPlatformSales.node.ts';
import { CUSTOM_CALL } from '../../nodes/shared/engine/custom-call';
import { AI_AGENTS_DOC, checkDocSection } from '../helpers/ai-tools-doc';

/** A list whose number of entries the workflow fixes: what a model can fill (the fields of each entry, one `$fromAI()` each). */
const listReason = (displayName: string) =>
	`a list of ${displayName.toLowerCase()}: the model fills the fields of the entries the workflow sets up (one \`$fromAI()\` each), and cannot add or remove entries`;

type Kind = 'model' | 'by-expression' | 'fixed-list' | 'mapper' | 'binary' | 'setting';
/** What a model cannot give in full. */
const LIMITS: Kind[] = ['fixed-list', 'mapper', 'binary'];

interface Op {
	node: string;
	resource: string;
	operation: string;
	parameters: IDataObject;
	/** Each `$fromAI` key and its type. */
	keys: Array<[string, string]>;
	/** Fields a model cannot fill, or only in part: [field, kind]. */
	limits: Array<[string, Kind]>;
	/** Display names of the limited fields. */
	labels: Record<string, string>;
	/** Per limited field, the switch whose other value lets a model give all of it in one JSON argument (Cells: From JSON). */
	alternatives: Record<string, string>;
}

const fromAi = (key: string, type: string) =>
	`={{ $fromAI('${key}', 'The ${key.replace(/_/g, ' ')}', '${type}') }}`;
const keyOf = (...names: string[]) =>
	names
		.join('_')
		.replace(/[^a-zA-Z0-9_-]/g, '_')
		.slice(0, 64);

/** A field's value as a tool node gets it, the `$fromAI` keys it uses, and what it cannot take. */
function fill(p: INodeProperties, key: string, op: Op): unknown {
	const ai = (type: string) => {
		op.keys.push([key, type]);
		return fromAi(key, type);
	};
	if (p.type === 'resourceMapper') {
		op.limits.push([p.name, 'mapper']);
		op.labels[p.name] = `${p.displayName} mapper`;
		return p.default;
	}
	if (p.noDataExpression) {
		op.limits.push([p.name, 'setting']);
		return p.default;
	}
	if (/binary/i.test(p.name) && p.type === 'string') op.limits.push([p.name, 'binary']);
	switch (p.type) {
		case 'string':
		case 'dateTime':
		case 'color':
			return ai('string');
		case 'number':
			return ai('number');
		case 'boolean':
			return ai('boolean');
		case 'json':
			return ai('json');
		case 'options':
		case 'multiOptions':
			// Not offered by the editor's ✨ (its PROP_TYPE_DENYLIST), but a hand-written $fromAI() works.
			op.limits.push([p.name, 'by-expression']);
			return ai('string');
		case 'resourceLocator':
			return { __rl: true, mode: 'id', value: ai('string') };
		case 'collection':
			return Object.fromEntries(
				((p.options ?? []) as INodeProperties[]).map((c) => [
					c.name,
					fill(c, keyOf(key, c.name), op),
				]),
			);
		case 'fixedCollection': {
			const many = p.typeOptions?.multipleValues === true;
			if (many) {
				op.limits.push([p.name, 'fixed-list']);
				op.labels[p.name] = p.displayName;
			}
			return Object.fromEntries(
				((p.options ?? []) as INodePropertyCollection[]).map((g) => {
					const entry = Object.fromEntries(
						(g.values ?? []).map((c) => [c.name, fill(c, keyOf(key, g.name, c.name), op)]),
					);
					return [g.name, many ? [entry] : entry];
				}),
			);
		}
		default:
			return p.default;
	}
}

const nodeOf = (d: INodeTypeDescription, parameters: IDataObject): INode =>
	({
		id: '1',
		name: 'tool',
		type: `${d.name}Tool`,
		typeVersion: d.defaultVersion ?? Math.max(...[d.version].flat()),
		position: [0, 0],
		parameters,
	}) as unknown as INode;

/** One operation as a tool node, every field that can hold a `$fromAI()` holding one; `switches` set settings first. */
function build(
	d: INodeTypeDescription,
	resource: string,
	operation: string,
	switches: IDataObject = {},
): Op {
	const op: Op = {
		node: d.displayName,
		resource,
		operation,
		parameters: {},
		keys: [],
		limits: [],
		labels: {},
		alternatives: {},
	};
	const base = { resource, operation, ...switches };
	const node = nodeOf(d, base);
	const values = (NodeHelpers.getNodeParameters(
		d.properties,
		base as INodeParameters,
		true,
		false,
		node,
		d,
	) ?? {}) as IDataObject;
	const parameters: IDataObject = { ...base };
	for (const p of d.properties) {
		if (
			['resource', 'operation', 'toolDescription'].includes(p.name) ||
			p.name in switches ||
			!NodeHelpers.displayParameter(values as INodeParameters, p, node, d)
		)
			continue;
		parameters[p.name] = fill(p, keyOf(p.name), op) as IDataObject[string];
	}
	op.parameters = parameters;
	return op;
}

/** The other value of a setting that hides a mapper and shows a JSON field instead. */
function alternativeFor(
	d: INodeTypeDescription,
	resource: string,
	operation: string,
	field: string,
): IDataObject | undefined {
	const p = d.properties.find(
		(x) =>
			x.name === field &&
			(x.displayOptions?.show?.resource as string[] | undefined)?.includes(resource) &&
			(x.displayOptions?.show?.operation as string[] | undefined)?.includes(operation),
	);
	const hide = (p?.displayOptions?.hide ?? {}) as Record<string, unknown[]>;
	const [switchName, values] = Object.entries(hide)[0] ?? [];
	return switchName ? { [switchName]: values[0] as string } : undefined;
}

function operationsOf(type: INodeType): Op[] {
	const d = type.description;
	const resources = d.properties.find((p) => p.name === 'resource')!
		.options as INodePropertyOptions[];
	return resources.flatMap((r) => {
		const resource = String(r.value);
		const opProperty = d.properties.find(
			(p) =>
				p.name === 'operation' &&
				((p.displayOptions?.show?.resource as string[] | undefined) ?? [resource]).includes(
					resource,
				),
		)!;
		return (opProperty.options as INodePropertyOptions[])
			.filter((o) => o.value !== CUSTOM_CALL || resource === CUSTOM_CALL)
			.flatMap((o) => {
				const operation = String(o.value);
				const plain = build(d, resource, operation);
				const ops = [plain];
				for (const [field] of plain.limits.filter(([, k]) => LIMITS.includes(k))) {
					const alt = alternativeFor(d, resource, operation, field);
					if (!alt) continue;
					const other = build(d, resource, operation, alt);
					if (!other.limits.some(([f, k]) => f === field && LIMITS.includes(k))) {
						const [name, value] = Object.entries(alt)[0];
						const switchProperty = d.properties.find((x) => x.name === name)!;
						const option = (switchProperty.options as INodePropertyOptions[]).find(
							(x) => x.value === value,
						)!;
						plain.alternatives[field] = `${switchProperty.displayName}: ${option.name}`;
						ops.push(other);
					}
				}
				return ops;
			});
	});
}

const TYPES = [
	new BusinessPlatformSales(),
	new BusinessPlatformCampaigns(),
	new BusinessPlatformPeople(),
];
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
