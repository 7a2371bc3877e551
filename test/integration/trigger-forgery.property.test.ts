/**
 * Property: no forged execution (issue 23, finding 1). A trigger is activated against the
 * sandbox (two events registered, their secrets in static data); then deliveries with any
 * event name (every key of Object.prototype, unicode, empty, very long, the registered ones,
 * events the platform knows but this node did not register), any secret (empty, the right
 * one, another event's, a prefix, a near miss) and any body reach webhook() as n8n's router
 * hands them over. A delivery starts an execution exactly when its event is registered and
 * its secret is that event's; every other delivery is answered 401 with no execution, and
 * webhook() never throws.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { EVENTS } from '../../nodes/BusinessPlatformSalesTrigger/events';
import { additionalData } from '../../testbed/harness/additional-data';
import { createHarness } from '../../testbed/harness/run';
import {
	activateWebhook,
	deliverWebhook,
	triggerWorkflow,
	webhookData,
	webhookMethod,
} from '../../testbed/harness/triggers';
import { checkProperty, hostileString, PROTOTYPE_KEYS } from '../helpers/property';
import { fakeResponse } from '../helpers/receiver';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox();
const REGISTERED = ['CREATE_CRM_DEAL', 'UPDATE_INVOICE'];

async function activated() {
	const h = createHarness(ctx.sb);
	const node = h.node(
		'businessPlatformSalesTrigger',
		{ events: REGISTERED },
		'Platform Trigger',
		2,
	);
	node.webhookId = `forgery-${Date.now()}`;
	const wf = triggerWorkflow(node, {});
	const [wd] = webhookData(
		wf,
		node,
		additionalData(h.credentials, undefined, 'http://127.0.0.1:1'),
	);
	await activateWebhook(wf, wd);
	const secrets = (wf.staticData['node:Platform Trigger'] as { secrets: Record<string, string> })
		.secrets;
	return { wf, wd, secrets };
}

it('property: a delivery starts an execution only for a registered event with its exact secret; webhook() never throws', async () => {
	const { wf, wd, secrets } = await activated();
	expect(Object.keys(secrets).sort()).toEqual([...REGISTERED].sort());
	const eventName = fc.oneof(
		fc.constantFrom(...REGISTERED),
		fc.constantFrom(...EVENTS.map((e) => e.value)),
		fc.constantFrom(...PROTOTYPE_KEYS),
		hostileString(),
	);
	const secretFor = (event: unknown) =>
		fc.oneof(
			fc.constant(typeof event === 'string' && Object.hasOwn(secrets, event) ? secrets[event] : ''),
			fc.constantFrom('', ...Object.values(secrets)),
			fc.constantFrom(...Object.values(secrets)).map((s) => s.slice(0, -1)),
			fc.constantFrom(...Object.values(secrets)).map((s) => `${s}x`),
			hostileString(),
		);
	// n8n's query parser gives texts, lists (?event=a&event=b) and objects (?event[x]=1), or nothing.
	const queryValue = (value: fc.Arbitrary<unknown>) =>
		fc.oneof(
			{ weight: 6, arbitrary: value },
			fc.constant(undefined),
			fc.array(value, { maxLength: 2 }),
			fc.dictionary(fc.string(), value, { maxKeys: 2 }),
		);
	const delivery = eventName.chain((event) =>
		fc.record({
			event: queryValue(fc.constant(event)),
			secret: queryValue(secretFor(event)),
			body: fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.object()),
		}),
	);
	let executions = 0;
	await checkProperty(
		600,
		fc.asyncProperty(delivery, async ({ event, secret, body }) => {
			const res = fakeResponse();
			const query: IDataObject = {};
			if (event !== undefined) query.event = event as IDataObject;
			if (secret !== undefined) query.secret = secret as IDataObject;
			const answer = await deliverWebhook(wf, wd, { body, query }, res); // a throw fails the property
			const genuine =
				typeof event === 'string' &&
				REGISTERED.includes(event) &&
				typeof secret === 'string' &&
				secret === secrets[event];
			if (genuine) {
				executions++;
				expect(answer.workflowData?.[0]?.[0]?.json).toMatchObject({ eventType: event });
				expect(res.status).toBe(0);
			} else {
				expect(answer.workflowData).toBeUndefined();
				expect(answer.noWebhookResponse).toBe(true);
				expect(res.status).toBe(401);
			}
		}),
	);
	// The generator reached the genuine case too, so the property checked both sides.
	expect(executions).toBeGreaterThan(0);
	await webhookMethod('delete', wf, wd);
}, 180_000);

it('the reported forgeries are refused: toString and valueOf with an empty secret, constructor with any secret', async () => {
	const { wf, wd } = await activated();
	for (const query of [
		{ event: 'toString', secret: '' },
		{ event: 'valueOf', secret: '' },
		{ event: 'constructor', secret: 'x' },
		{ event: '__proto__', secret: '' },
		{ event: 'hasOwnProperty' },
	]) {
		const res = fakeResponse();
		const answer = await deliverWebhook(wf, wd, { body: { forged: true }, query }, res);
		expect({ query, status: res.status, started: answer.workflowData !== undefined }).toEqual({
			query,
			status: 401,
			started: false,
		});
	}
	await webhookMethod('delete', wf, wd);
});
