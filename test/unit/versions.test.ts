/**
 * The node-version mechanism (CONTRIBUTING.md, "Changing a parameter"): a parameter
 * changed in version 2 keeps its version-1 form for saved workflows; the snapshot guard
 * accepts that as additive, and the request builder reads the form of the node's version.
 */
import type { IExecuteFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { VersionedNodeType } from 'n8n-workflow';

import { buildProperties } from '../../nodes/shared/engine/description';
import type { Field, OpContext, Operation, Resource } from '../../nodes/shared/engine/model';
import { collectRequest } from '../../nodes/shared/engine/item';
import { readItemParameter } from '../../nodes/shared/engine/params';
import { RunScope } from '../../nodes/shared/run-scope';
import { compareSnapshots } from '../../testbed/descriptions/compare';
import { snapshotOfNode } from '../../testbed/descriptions/snapshot';

const visibilityV1: Field = {
	property: {
		displayName: 'Visibility',
		name: 'visibility',
		type: 'options',
		options: [{ name: 'Team', value: 'team' }],
		default: 'team',
	},
	send: { in: 'body', key: 'visibility_type' },
};
// Version 2: a list of audiences under the same name, sent as a comma-separated text.
const visibilityV2: Field = {
	property: {
		displayName: 'Visibility',
		name: 'visibility',
		type: 'multiOptions',
		options: [
			{ name: 'Team', value: 'team' },
			{ name: 'Everyone', value: 'all' },
		],
		default: ['team'],
	},
	send: { in: 'body', key: 'visibility_type', map: (v) => (v as string[]).join(',') },
};
type Show = NonNullable<NonNullable<Field['property']['displayOptions']>['show']>;
const inVersions = (f: Field, show: Show): Field => ({
	...f,
	property: { ...f.property, displayOptions: { show } },
});

const operation = (fields: Field[]): Operation => ({
	value: 'create',
	name: 'Create',
	action: 'Create a thing',
	description: 'Create',
	method: 'POST',
	path: '/things',
	fields,
});
const resource = (fields: Field[]): Resource => ({
	value: 'thing',
	name: 'Thing',
	operations: [operation(fields)],
});

function node(version: number | number[], fields: Field[]): INodeType {
	const description: INodeTypeDescription = {
		displayName: 'Example',
		name: 'example',
		group: ['transform'],
		version,
		description: 'Example',
		defaults: { name: 'Example' },
		inputs: ['main'],
		outputs: ['main'],
		properties: buildProperties([resource(fields)]),
	};
	return { description };
}

const released = node(1, [visibilityV1]);
const versioned = node(
	[1, 2],
	[
		inVersions(visibilityV1, { '@version': [1] }),
		inVersions(visibilityV2, { '@version': [{ _cnd: { gte: 2 } }] }),
	],
);

describe('changing a parameter in a new node version', () => {
	it('changed in place, it breaks saved workflows', () => {
		const inPlace = compareSnapshots(
			snapshotOfNode(released),
			snapshotOfNode(node(1, [visibilityV2])),
		);
		expect(inPlace.breaking.map((f) => f.what)).toEqual(
			expect.arrayContaining([
				expect.stringMatching(/type changed/),
				expect.stringMatching(/default changed/),
			]),
		);
	});

	it('changed in version 2, version 1 stays as it was: the guard sees only additions', () => {
		const result = compareSnapshots(snapshotOfNode(released), snapshotOfNode(versioned));
		expect(result.breaking).toEqual([]);
		expect(result.additive).toContainEqual(expect.objectContaining({ what: 'new version' }));
		expect(
			snapshotOfNode(versioned).versions['2'].parameters['thing › create › visibility'],
		).toMatchObject({ type: 'multiOptions', default: ['team'] });
	});

	it.each([
		[1, 'team', 'team'],
		[2, ['team', 'all'], 'team,all'],
	])(
		'a node of version %s sends its own form of the parameter',
		async (typeVersion, value, sent) => {
			const fn = {
				getNode: () => ({ typeVersion, name: 'Example', parameters: { visibility: value } }),
				getNodeParameter: (name: string) => (name === 'visibility' ? value : undefined),
			} as unknown as IExecuteFunctions;
			const op = operation([
				inVersions(visibilityV1, { '@version': [1] }),
				inVersions(visibilityV2, { '@version': [{ _cnd: { gte: 2 } }] }),
			]);
			const ctx = {
				fn,
				scope: new RunScope(fn),
				itemIndex: 0,
				operation: op,
				fail: (m: string) => new Error(m),
			} as unknown as OpContext;
			expect(collectRequest(op, ctx).body).toEqual({ visibility_type: sent });
		},
	);
});

describe('a redesign as a versioned node type (VersionedNodeType)', () => {
	it('keeps version 1 as released, and the snapshot reads every version', () => {
		const redesigned = node(2, [visibilityV2]);
		const wrapper = new VersionedNodeType(
			{ 1: released, 2: redesigned },
			{ ...released.description, defaultVersion: 2 },
		);
		const snapshot = snapshotOfNode(wrapper);
		expect(Object.keys(snapshot.versions)).toEqual(['1', '2']);
		expect(compareSnapshots(snapshotOfNode(released), snapshot).breaking).toEqual([]);
		expect(snapshot.versions['2'].parameters['thing › create › visibility']).toMatchObject({
			type: 'multiOptions',
		});
	});
});

describe('parameters read once per execution', () => {
	it('a value without an expression is read once; expressions and objects are read for every item', () => {
		const parameters = {
			type: 'person',
			name: '={{ $json.name }}',
			extra: { email: 'x@example.com' },
		};
		const reads: string[] = [];
		const fn = {
			getNode: () => ({ typeVersion: 1, name: 'Example', parameters }),
			getNodeParameter: (name: string, item: number) => {
				reads.push(`${name}@${item}`);
				if (!(name in parameters))
					throw Object.assign(new Error(`Could not get parameter "${name}"`), {
						extra: { parameterName: name },
					});
				return name === 'name'
					? `Name ${item}`
					: structuredClone(parameters[name as keyof typeof parameters]);
			},
		} as unknown as IExecuteFunctions;
		const scope = new RunScope(fn);
		const values = [0, 1, 2].map((i) =>
			['type', 'name', 'extra', 'hidden'].map((p) => readItemParameter(scope, p, i)),
		);
		expect(values[2]).toEqual([
			{ shown: true, value: 'person' },
			{ shown: true, value: 'Name 2' },
			{ shown: true, value: { email: 'x@example.com' } },
			{ shown: false },
		]);
		expect(reads.filter((r) => r.startsWith('type'))).toEqual(['type@0']);
		expect(reads.filter((r) => r.startsWith('hidden'))).toEqual(['hidden@0']);
		expect(reads.filter((r) => r.startsWith('name'))).toEqual(['name@0', 'name@1', 'name@2']);
		expect(reads.filter((r) => r.startsWith('extra'))).toEqual(['extra@0', 'extra@1', 'extra@2']);
		// Each item gets its own copy of an object.
		expect(values[0][2]).not.toBe(values[1][2]);
	});
});
