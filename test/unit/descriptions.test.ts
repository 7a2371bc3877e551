/** The nodes' UI descriptions, as n8n reads them: conventions every node must keep. */
import type { INodeProperties, INodeType } from 'n8n-workflow';

import { shownInVersion } from '../../nodes/shared/engine/params';
import { NODE_TYPES } from '../../testbed/harness/nodes';

/** Every node type of the pack, a versioned one (the Sales Trigger) once per description it has. */
const packNodes = Object.entries(NODE_TYPES)
	.filter(([name]) => !name.endsWith('.testTransport'))
	.flatMap(
		([name, node]): Array<[string, INodeType]> =>
			'nodeVersions' in node
				? [...new Set(Object.values(node.nodeVersions))].map((v) => [
						`${name} v${String(v.description.version)}`,
						v,
					])
				: [[name, node]],
	);

/** Shown for this resource and operation in this node version (a parameter may have one form per version). */
const visibleFor = (p: INodeProperties, resource: string, operation: string, version: number) => {
	const show = p.displayOptions?.show ?? {};
	const ok = (key: string, v: string) => !show[key] || (show[key] as unknown[]).includes(v);
	return ok('resource', resource) && ok('operation', operation) && shownInVersion(p, version);
};

describe.each(packNodes)('%s', (_name, node: INodeType) => {
	const d = node.description;
	const isTrigger = d.group.includes('trigger');

	it('follows the community-node conventions', () => {
		expect(d.usableAsTool === true).toBe(!isTrigger);
		expect(d.credentials?.[0]).toMatchObject({ name: 'businessPlatformOAuth2Api', required: true });
		expect(d.icon).toEqual({
			light: 'file:businessPlatform.svg',
			dark: 'file:businessPlatform.dark.svg',
		});
	});

	if (isTrigger) return;
	const versions = Array.isArray(d.version) ? d.version : [d.version];
	const resource = d.properties.find((p) => p.name === 'resource')!;
	const pairs = versions.flatMap((v) =>
		(resource.options as Array<{ value: string }>).flatMap((r) => {
			const ops = d.properties.find(
				(p) => p.name === 'operation' && visibleFor(p, r.value, '', v),
			)!;
			return (ops.options as Array<{ value: string; action?: string; name: string }>).map(
				(o) => [v, r.value, o.value, o] as const,
			);
		}),
	);

	it.each(pairs.map(([v, r, o, opt]) => [`v${v} ${r} → ${o}`, v, r, o, opt] as const))(
		'%s: one property per name, ids first, Return All before filters, Simplify last',
		(_t, v, r, o, opt) => {
			expect(opt.action).toBeTruthy();
			const props = d.properties.filter(
				(p) => p.name !== 'resource' && p.name !== 'operation' && visibleFor(p, r, o, v),
			);
			const names = props.map((p) => p.name);
			expect(new Set(names).size).toBe(names.length);
			const idx = (n: string) => names.indexOf(n);
			if (idx('returnAll') >= 0) {
				expect(idx('limit')).toBe(idx('returnAll') + 1);
				props.forEach((p, i) => {
					if (p.type === 'collection' && p.name !== 'requestOptions')
						expect(i).toBeGreaterThan(idx('returnAll'));
				});
			}
			if (idx('simplify') >= 0)
				expect(idx('simplify')).toBe(names.filter((n) => n !== 'requestOptions').length - 1);
			for (const p of props) {
				if (p.type === 'boolean' && p.description) expect(p.description).toMatch(/^Whether/);
			}
		},
	);
});
