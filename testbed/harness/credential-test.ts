/** The credential's Test button, as n8n runs it. */
import type { INode, INodeType } from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import { BusinessPlatformOAuth2Api } from '../../credentials/BusinessPlatformOAuth2Api.credentials';
import { additionalData } from './additional-data';
import { CREDENTIAL_TYPE, type TestCredentialsHelper } from './credentials';
import { TestNodeTypes } from './nodes';

/**
 * What n8n's Test button does for a credential with a `test` request: a routing
 * request through n8n-core (with the credential's OAuth2 handling), then the
 * credential's rules on the status. Returns n8n's verdict shape.
 */
export async function testCredential(
	credentials: TestCredentialsHelper,
	id = credentials.defaultId,
): Promise<{ status: 'OK' | 'Error'; message: string }> {
	const { ExecuteContext, RoutingNode } = await import('n8n-core');
	const type = new BusinessPlatformOAuth2Api();
	const stored = credentials.store.get(id)!;
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'test.credentialTest',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [CREDENTIAL_TYPE]: { id, name: stored.name } },
	};
	const nodeType: INodeType = {
		description: {
			displayName: 'Credential Test',
			name: 'test.credentialTest',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: type.test.request },
					default: '',
				},
			],
		},
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new TestNodeTypes({ 'test.credentialTest': nodeType }),
	});
	const data = additionalData(credentials);
	const context = new ExecuteContext(
		workflow,
		node,
		data,
		'internal',
		createRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	try {
		await new RoutingNode(context, nodeType, {
			id,
			name: stored.name,
			type: CREDENTIAL_TYPE,
			data: await credentials.getDecrypted(data, { id, name: stored.name }, CREDENTIAL_TYPE),
		}).runNode();
		return { status: 'OK', message: 'Connection tested successfully' };
	} catch (error) {
		const e = error as {
			message: string;
			cause?: { response?: { status?: number } };
			httpCode?: string;
		};
		const status = e.cause?.response?.status ?? Number(e.httpCode);
		const rule = type.test.rules?.find(
			(r) => r.type === 'responseCode' && r.properties.value === status,
		);
		return {
			status: 'Error',
			message: rule && rule.type === 'responseCode' ? rule.properties.message : e.message,
		};
	}
}
