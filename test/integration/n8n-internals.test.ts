/* eslint-disable @n8n/community-nodes/node-usable-as-tool -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Pins the n8n behaviours the pack's shortcuts rely on (nodes/shared/n8n-internals.ts), each
 * against the real n8n-core through a probe node that does nothing but ask n8n: a changed
 * behaviour after an n8n upgrade fails the test named after it. `npm run test:internals`
 * runs it on the n8n-core of the devDependencies (the newest tested n8n);
 * `npm run test:internals:oldest` on n8n 1.123.81's n8n-core and n8n-workflow, from the
 * pinned runtime (jest maps both packages there; see jest.config.js).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { EXPRESSION_MARK, holdsExpression, isNotShown, NOT_SHOWN_MESSAGE, sameForEveryItem, storedToken } from '../../nodes/shared/n8n-internals';
import { platformTokenKey } from '../../credentials/BusinessPlatformOAuth2Api.credentials';
import { n8nAtLeast } from '../../scripts/n8n-versions';
import { createHarness, NODE_TYPES, PACKAGE, type Harness } from '../harness/n8n';
import { useSandbox } from '../helpers/sandbox';

const CREDENTIAL = 'businessPlatformOAuth2Api';

/** What the probe saw for one item. */
interface Seen {
	saved: unknown;
	value: unknown;
	thenable: boolean;
	hidden: { message?: string; parameterName?: unknown; inParameters: boolean };
	sameForEveryItem: boolean;
	token?: unknown;
	answer?: unknown;
}

class Probe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'n8n internals probe',
		name: 'internalsProbe',
		group: ['transform'],
		version: 1,
		description: 'Asks n8n what the pack relies on',
		defaults: { name: 'Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL, required: false }],
		properties: [
			{ displayName: 'Mode', name: 'mode', type: 'options', options: [{ name: 'A', value: 'a' }, { name: 'B', value: 'b' }], default: 'a' },
			{ displayName: 'Only In B', name: 'onlyB', type: 'string', default: 'b-default', displayOptions: { show: { mode: ['b'] } } },
			{ displayName: 'Text', name: 'text', type: 'string', default: '' },
			{ displayName: 'Call', name: 'call', type: 'string', default: '' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < this.getInputData().length; i++) {
			const node = this.getNode();
			const value = this.getNodeParameter('text', i);
			const hidden: Seen['hidden'] = { inParameters: Object.prototype.hasOwnProperty.call(node.parameters, 'onlyB') };
			try {
				this.getNodeParameter('onlyB', i);
			} catch (e) {
				hidden.message = (e as Error).message;
				hidden.parameterName = (e as { extra?: IDataObject }).extra?.parameterName;
			}
			const seen: Seen = {
				saved: node.parameters.text,
				value,
				thenable: typeof (value as { then?: unknown } | null)?.then === 'function',
				hidden,
				sameForEveryItem: sameForEveryItem(node, 'text', { shown: true, value }),
			};
			const call = this.getNodeParameter('call', i) as string;
			if (call) {
				const creds = await this.getCredentials(CREDENTIAL, i);
				const data = creds.oauthTokenData as IDataObject | undefined;
				const key = platformTokenKey(data);
				seen.token = storedToken(data, key);
				seen.answer = await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL, { method: 'GET', url: call, json: true }, { oauth2: { property: key, keyToIncludeInAccessTokenHeader: 'x-access-token', tokenType: 'Bearer' } });
			}
			out.push({ json: seen as unknown as IDataObject, pairedItem: { item: i } });
		}
		return [out];
	}
}

NODE_TYPES[`${PACKAGE}.internalsProbe`] = new Probe();

const ctx = useSandbox({ rows: 3 });
let h: Harness;
beforeAll(() => {
	h = createHarness(ctx.sb, ctx.sb.issueTokens());
});
const probe = async (parameters: IDataObject, input: IDataObject[] = [{}]) => {
	const r = await h.run('internalsProbe', parameters, input.map((json) => ({ json })));
	if (r.error) throw r.error;
	return r.json as unknown as Seen[];
};

describe('n8n behaviours the pack relies on (nodes/shared/n8n-internals.ts)', () => {
	it('1. the expression mark: an expression is saved as text starting with "=", and evaluated per item', async () => {
		const seen = await probe({ text: '={{ $json.n }}' }, [{ n: 'one' }, { n: 'two' }]);
		expect(seen.map((s) => s.saved)).toEqual(['={{ $json.n }}', '={{ $json.n }}']);
		expect(String(seen[0].saved).startsWith(EXPRESSION_MARK)).toBe(true);
		expect(seen.map((s) => s.value)).toEqual(['one', 'two']);
		expect(seen.map((s) => s.sameForEveryItem)).toEqual([false, false]);
		const fixed = await probe({ text: 'plain' }, [{ n: 'one' }, { n: 'two' }]);
		expect(fixed.map((s) => [s.saved, s.value, s.sameForEveryItem])).toEqual([
			['plain', 'plain', true],
			['plain', 'plain', true],
		]);
		expect(holdsExpression({ a: ['x', '={{ 1 }}'] })).toBe(true);
	});

	it('2. "Could not get parameter": a parameter hidden by displayOptions is left out of the node and named in the error', async () => {
		const [seen] = await probe({ mode: 'a', text: 'x' });
		expect(seen.hidden.inParameters).toBe(false);
		expect(seen.hidden.message?.startsWith(NOT_SHOWN_MESSAGE)).toBe(true);
		expect(seen.hidden.parameterName).toBe('onlyB');
		expect(isNotShown({ message: seen.hidden.message, extra: { parameterName: 'onlyB' } }, 'onlyB')).toBe(true);
		// The fallback when n8n words it otherwise: absent from the node's parameters is "not shown".
		expect(isNotShown(new Error('some other text'), 'onlyB', { parameters: {} } as never)).toBe(true);
		expect(isNotShown(new Error('some other text'), 'text', { parameters: { text: '={{ $x }}' } } as never)).toBe(false);
		const [shown] = await probe({ mode: 'b', text: 'x' });
		expect(shown.hidden).toEqual({ inParameters: true });
	});

	it('3. the token: kept in oauthTokenData; on a 401 n8n\'s OAuth2 helper refreshes once and saves (and, from n8n 2.14, sends again with the new token)', async () => {
		ctx.sb.auth.expireAll();
		const refreshes = () => ctx.sb.auth.stats.refreshGrant + ctx.sb.auth.stats.getRefreshToken;
		const before = refreshes();
		const url = `${ctx.sb.baseUrl}/v1/crm/contacts/labels`;
		const first = await h.run('internalsProbe', { text: 'x', call: url });
		expect(refreshes() - before).toBe(1);
		if (n8nAtLeast('2.14.0')) {
			expect(first.error).toBeUndefined();
			expect(typeof first.json[0].token).toBe('string');
			expect(Array.isArray(first.json[0].answer)).toBe(true);
		} else {
			// n8n 1.x sends the retry with the old token: the platform refuses it (README, Compatibility).
			expect(first.error?.message).toMatch(/Authorization failed|401/);
		}
		// Either way n8n saved the renewed token response: the next read has a token the platform accepts.
		const [again] = await probe({ text: 'x', call: url });
		expect(typeof again.token).toBe('string');
		expect(Array.isArray(again.answer)).toBe(true);
		expect(refreshes() - before).toBe(1);
	});

	it('4. read ahead: getNodeParameter answers at once, not with a promise', async () => {
		const seen = await probe({ text: '={{ $json.n }}' }, [{ n: 1 }, { n: 2 }]);
		expect(seen.map((s) => s.thenable)).toEqual([false, false]);
	});
});
