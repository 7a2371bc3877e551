/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The description snapshot: every parameter of every node version and of the
 * credential, flattened to one entry per parameter path, and the comparison that
 * tells a change that breaks saved workflows from an additive one.
 *
 * A path is `resource › operation › parameter › child` (nested collection options
 * and fixed-collection groups included); parameters shown for every resource and
 * operation have just their name. A saved workflow stores, per node, the node's
 * type version and the parameters that differ from their defaults, so for a
 * version that already shipped, a parameter must keep its path, type, default and
 * option values, and must stay shown where it was shown. See CONTRIBUTING.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type {
	ICredentialType,
	IDataObject,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ROOT } from '../root';

export const SNAPSHOT_DIR = join(ROOT, 'test/descriptions');
export const UPDATE_COMMAND = 'npm run descriptions:update';
const SEP = ' › ';
/** displayOptions keys that are part of the path (resource, operation) or of the version key. */
const PATH_KEYS = ['resource', 'operation', '@version'];

export type Entry = IDataObject;

export interface VersionSnapshot {
	node: IDataObject;
	parameters: Record<string, Entry>;
}

export interface Snapshot {
	generatedBy: string;
	kind: 'node' | 'credential';
	name: string;
	displayName: string;
	/** Nodes: one entry per type version. Credentials: one entry, "credential". */
	versions: Record<string, VersionSnapshot>;
}

// --------------------------------------------------------------- loading --

interface PackageJson {
	n8n: { nodes: string[]; credentials: string[] };
}

/** `dist/nodes/X/X.node.js` → the source file's exported class, instantiated. */
function loadFromDist<T>(distPath: string): T {
	const source = join(ROOT, distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the files package.json names, synchronously (tsx and jest)
	const mod = require(source) as Record<string, new () => T>;
	const className = distPath.split('/').pop()!.split('.')[0];
	const Class = mod[className];
	if (typeof Class !== 'function') throw new Error(`${source} exports no class ${className}`);
	return new Class();
}

export function packageTypes(): {
	nodes: Array<INodeType | IVersionedNodeType>;
	credentials: ICredentialType[];
} {
	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;
	return {
		nodes: pkg.n8n.nodes.map((p) => loadFromDist<INodeType | IVersionedNodeType>(p)),
		credentials: pkg.n8n.credentials.map((p) => loadFromDist<ICredentialType>(p)),
	};
}

// ------------------------------------------------------------- flattening --

const versionsOf = (d: INodeTypeDescription): number[] =>
	Array.isArray(d.version) ? d.version : [d.version];

/** Each type version with the description n8n shows for it. */
function nodeVersions(node: INodeType | IVersionedNodeType): Array<[number, INodeTypeDescription]> {
	if ('nodeVersions' in node) {
		return Object.entries(node.nodeVersions).flatMap(([, type]) =>
			versionsOf(type.description).map(
				(v) => [v, type.description] as [number, INodeTypeDescription],
			),
		);
	}
	return versionsOf(node.description).map((v) => [v, node.description]);
}

/** Whether a property is shown for this resource, operation and version (other conditions are kept in the entry). */
function shownFor(p: INodeProperties, values: IDataObject, version: number): boolean {
	const pick = (conditions: IDataObject | undefined) => {
		const kept = Object.fromEntries(
			Object.entries(conditions ?? {}).filter(
				([k]) => PATH_KEYS.includes(k) && (k === '@version' || values[k] !== undefined),
			),
		);
		return Object.keys(kept).length ? kept : undefined;
	};
	const show = pick(p.displayOptions?.show as IDataObject | undefined);
	const hide = pick(p.displayOptions?.hide as IDataObject | undefined);
	if (!show && !hide) return true;
	const reduced = { ...p, displayOptions: { show, hide } } as INodeProperties;
	return NodeHelpers.displayParameter(
		values as never,
		reduced,
		{ typeVersion: version } as never,
		null,
	);
}

/** The other display conditions of a property (those on sibling values), or undefined. */
function conditions(p: INodeProperties): IDataObject | undefined {
	const strip = (c: IDataObject | undefined) => {
		const kept = Object.fromEntries(
			Object.entries(c ?? {}).filter(([k]) => !PATH_KEYS.includes(k)),
		);
		return Object.keys(kept).length ? kept : undefined;
	};
	const show = strip(p.displayOptions?.show as IDataObject | undefined);
	const hide = strip(p.displayOptions?.hide as IDataObject | undefined);
	return show || hide ? JSON.parse(JSON.stringify({ show, hide })) : undefined;
}

const isProperty = (o: unknown): o is INodeProperties =>
	!!o && typeof o === 'object' && 'type' in o && 'name' in o && 'displayName' in o;

/** Adds one property (and its children shown in this node version) under `path`. */
function flatten(
	p: INodeProperties,
	path: string,
	out: Record<string, Entry>,
	version: number,
): void {
	const { displayOptions: _d, options, ...rest } = p;
	void _d;
	const entry: Entry = JSON.parse(JSON.stringify(rest)) as Entry;
	const shownWhen = conditions(p);
	if (shownWhen) entry.displayOptions = shownWhen;
	let key = path;
	for (let n = 2; key in out; n++) key = `${path} #${n}`;
	if (p.type === 'collection') {
		out[key] = entry;
		for (const child of (options ?? []).filter(isProperty))
			if (shownFor(child, {}, version)) flatten(child, `${key}${SEP}${child.name}`, out, version);
		return;
	}
	if (p.type === 'fixedCollection') {
		const groups = (options ?? []) as Array<{
			name: string;
			displayName: string;
			values?: INodeProperties[];
		}>;
		entry.options = groups.map((g) => ({ name: g.name, displayName: g.displayName }));
		out[key] = entry;
		for (const g of groups)
			for (const child of g.values ?? [])
				if (shownFor(child, {}, version))
					flatten(child, `${key}${SEP}${g.name}${SEP}${child.name}`, out, version);
		return;
	}
	if (options !== undefined) entry.options = JSON.parse(JSON.stringify(options)) as IDataObject[];
	out[key] = entry;
}

/** Resource and operation pairs of an action node ([undefined, undefined] for nodes without resources). */
function pairs(
	properties: INodeProperties[],
	version: number,
): Array<{ resource?: string; operation?: string }> {
	const resource = properties.find((p) => p.name === 'resource' && shownFor(p, {}, version));
	if (!resource) {
		const operation = properties.find((p) => p.name === 'operation' && shownFor(p, {}, version));
		return operation
			? (operation.options as Array<{ value: string }>).map((o) => ({ operation: o.value }))
			: [{}];
	}
	return (resource.options as Array<{ value: string }>).flatMap((r) => {
		const ops = properties.find(
			(p) => p.name === 'operation' && shownFor(p, { resource: r.value }, version),
		);
		return ops
			? (ops.options as Array<{ value: string }>).map((o) => ({
					resource: r.value,
					operation: o.value,
				}))
			: [{ resource: r.value }];
	});
}

/** Whether a property's display depends on the resource or the operation. */
const scoped = (p: INodeProperties) =>
	['resource', 'operation'].some(
		(k) => p.displayOptions?.show?.[k] !== undefined || p.displayOptions?.hide?.[k] !== undefined,
	);

/** Every parameter of one version: those shown everywhere, each resource's operation list, then each operation's. */
function parametersOf(properties: INodeProperties[], version: number): Record<string, Entry> {
	const out: Record<string, Entry> = {};
	for (const p of properties)
		if (!scoped(p) && shownFor(p, {}, version)) flatten(p, p.name, out, version);
	const list = pairs(properties, version);
	for (const resource of new Set(list.map((x) => x.resource))) {
		if (resource === undefined) continue;
		for (const p of properties)
			if (p.name === 'operation' && scoped(p) && shownFor(p, { resource }, version))
				flatten(p, `${resource}${SEP}operation`, out, version);
	}
	for (const pair of list) {
		const prefix = [pair.resource, pair.operation].filter((x) => x !== undefined).join(SEP);
		for (const p of properties) {
			if (p.name === 'operation' || !scoped(p)) continue;
			if (shownFor(p, pair as IDataObject, version))
				flatten(p, `${prefix}${SEP}${p.name}`, out, version);
		}
	}
	return out;
}

const GENERATED_BY = `${UPDATE_COMMAND} (testbed/descriptions/snapshot.ts): do not edit by hand`;

export function snapshotOfNode(node: INodeType | IVersionedNodeType): Snapshot {
	const versions: Record<string, VersionSnapshot> = {};
	for (const [version, d] of nodeVersions(node)) {
		const { properties, ...rest } = d;
		versions[String(version)] = {
			node: JSON.parse(JSON.stringify(rest)) as IDataObject,
			parameters: parametersOf(properties, version),
		};
	}
	return {
		generatedBy: GENERATED_BY,
		kind: 'node',
		name: node.description.name,
		displayName: node.description.displayName,
		versions,
	};
}

export function snapshotOfCredential(cred: ICredentialType): Snapshot {
	const parameters: Record<string, Entry> = {};
	for (const p of cred.properties) flatten(p, p.name, parameters, 1);
	const node: IDataObject = {
		name: cred.name,
		displayName: cred.displayName,
		extends: cred.extends ?? [],
	};
	return {
		generatedBy: GENERATED_BY,
		kind: 'credential',
		name: cred.name,
		displayName: cred.displayName,
		versions: { credential: { node, parameters } },
	};
}

export function currentSnapshots(): Snapshot[] {
	const { nodes, credentials } = packageTypes();
	return [...nodes.map(snapshotOfNode), ...credentials.map(snapshotOfCredential)];
}

export const snapshotFile = (s: Pick<Snapshot, 'kind' | 'name'>) =>
	join(SNAPSHOT_DIR, `${s.name}.${s.kind}.json`);

export const render = (s: Snapshot) => `${JSON.stringify(s, null, '\t')}\n`;
