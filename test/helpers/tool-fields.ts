/**
 * Every operation of the three action nodes as a tool node would hold it: each field the
 * editor gives a ✨ button (and the dropdowns, which take a hand-written `$fromAI()`), the fields
 * of its collections and one entry of each list, filled by `value` (by default a `$fromAI()`
 * expression; a test may fill them with hostile values instead). Shared by the tool-description
 * test (what n8n gives the model) and the test of what comes back to a model (bounded errors).
 */
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

import { BusinessPlatformCampaigns } from '../../nodes/BusinessPlatformCampaigns/BusinessPlatformCampaigns.node.ts';
import { BusinessPlatformPeople } from '../../nodes/BusinessPlatformPeople/BusinessPlatformPeople.node.ts';
import { BusinessPlatformSales } from '../../nodes/BusinessPlatformSales/BusinessPlatformSales.node.ts';
import { CUSTOM_CALL } from '../../nodes/shared/engine/custom-call';

/** What a field is filled with: its `$fromAI` key and the type the model gives. */
export type FieldValue = (key: string, type: string) => unknown;

/** A list whose number of entries the workflow fixes: what a model can fill (the fields of each entry, one `$fromAI()` each). */
export const listReason = (displayName: string) =>
	`a list of ${displayName.toLowerCase()}: the model fills the fields of the entries the workflow sets up (one \`$fromAI()\` each), and cannot add or remove entries`;

export type Kind = 'model' | 'by-expression' | 'fixed-list' | 'mapper' | 'binary' | 'setting';
/** What a model cannot give in full. */
export const LIMITS: Kind[] = ['fixed-list', 'mapper', 'binary'];

export interface Op {
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

export const fromAi: FieldValue = (key: string, type: string) =>
	`={{ $fromAI('${key}', 'The ${key.replace(/_/g, ' ')}', '${type}') }}`;
const keyOf = (...names: string[]) =>
	names
		.join('_')
		.replace(/[^a-zA-Z0-9_-]/g, '_')
		.slice(0, 64);

/** A field's value as a tool node gets it, the `$fromAI` keys it uses, and what it cannot take. */
function fill(p: INodeProperties, key: string, op: Op, value: FieldValue): unknown {
	const ai = (type: string) => {
		op.keys.push([key, type]);
		return value(key, type);
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
					fill(c, keyOf(key, c.name), op, value),
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
						(g.values ?? []).map((c) => [c.name, fill(c, keyOf(key, g.name, c.name), op, value)]),
					);
					return [g.name, many ? [entry] : entry];
				}),
			);
		}
		default:
			return p.default;
	}
}

export const nodeOf = (d: INodeTypeDescription, parameters: IDataObject): INode =>
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
	value: FieldValue = fromAi,
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
		parameters[p.name] = fill(p, keyOf(p.name), op, value) as IDataObject[string];
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

export function operationsOf(type: INodeType, value: FieldValue = fromAi): Op[] {
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
				const plain = build(d, resource, operation, {}, value);
				const ops = [plain];
				for (const [field] of plain.limits.filter(([, k]) => LIMITS.includes(k))) {
					const alt = alternativeFor(d, resource, operation, field);
					if (!alt) continue;
					const other = build(d, resource, operation, alt, value);
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

export const TYPES = [
	new BusinessPlatformSales(),
	new BusinessPlatformCampaigns(),
	new BusinessPlatformPeople(),
];
