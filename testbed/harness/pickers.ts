/** The pack's pickers (list search, load options, resource mapping) in n8n-core's load-options context. */
import { LoadOptionsContext } from 'n8n-core';
import type {
	IDataObject,
	ILoadOptionsFunctions,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { UnexpectedError, Workflow } from 'n8n-workflow';
import { additionalData } from './additional-data';
import { harnessNodeTypes, nodeTypeOf, PACKAGE, TestNodeTypes } from './nodes';
import type { Harness } from './run';

/**
 * n8n-core's load-options context for a node with these parameters, as the editor builds it
 * when a picker (list search, load options, resource mapping) of the parameter at `path` opens.
 */
export function pickerContext(
	h: Harness,
	type: string,
	parameters: IDataObject,
	path = 'parameters.x',
	typeVersion = 1,
): LoadOptionsContext {
	const node = h.node(type, parameters, 'Node', typeVersion);
	const workflow = new Workflow({
		id: 'wf-pick',
		name: 'pick',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new TestNodeTypes(harnessNodeTypes()),
		settings: {},
	});
	return new LoadOptionsContext(
		workflow,
		node,
		{
			...additionalData(h.credentials),
			currentNodeParameters: parameters,
		} as IWorkflowExecuteAdditionalData,
		path,
	);
}

/** Calls the node's picker method `methods[kind][method]` in its load-options context. */
export async function pick<T>(
	h: Harness,
	type: string,
	kind: 'listSearch' | 'loadOptions' | 'resourceMapping',
	method: string,
	parameters: IDataObject,
	...args: unknown[]
): Promise<T> {
	const methods = nodeTypeOf(harnessNodeTypes()[`${PACKAGE}.${type}`]).methods?.[kind] as
		| Record<string, (this: ILoadOptionsFunctions, ...a: unknown[]) => Promise<T>>
		| undefined;
	const fn = methods?.[method];
	if (!fn) throw new UnexpectedError(`${type} has no ${kind} method ${method}`);
	return await fn.call(pickerContext(h, type, parameters), ...args);
}
