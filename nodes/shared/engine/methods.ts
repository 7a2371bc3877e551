/**
 * The node's `methods` (pickers): every resource's in one object. Two resources may
 * list the same picker (the same function); two different pickers under one name
 * would silently replace each other, so that fails when the node is loaded.
 */
import { UnexpectedError } from 'n8n-workflow';

import type { Resource, ResourceMethods } from './model';

const KINDS = ['listSearch', 'loadOptions', 'resourceMapping'] as const;

export function mergeMethods(resources: Resource[]): Required<ResourceMethods> {
	const out: Required<ResourceMethods> = { listSearch: {}, loadOptions: {}, resourceMapping: {} };
	const owner: Record<string, string> = {};
	for (const r of resources) {
		for (const kind of KINDS) {
			const merged = out[kind] as Record<string, unknown>;
			for (const [name, picker] of Object.entries(r.methods?.[kind] ?? {})) {
				if (merged[name] !== undefined && merged[name] !== picker) {
					throw new UnexpectedError(
						`Two different ${kind} pickers are named "${name}" (resources "${owner[`${kind}.${name}`]}" and "${r.value}"): rename one of them`,
					);
				}
				merged[name] = picker;
				owner[`${kind}.${name}`] ??= r.value;
			}
		}
	}
	return out;
}
