/**
 * Reading parameters, through n8n-core against the sandbox: a parameter hidden by
 * another one's value is simply not sent; an expression that fails to evaluate fails
 * its item with the parameter's name (with continue-on-fail, on that item only) and
 * never sends the request without the field.
 *
 * n8n itself evaluates a plain JavaScript error inside an expression (such as reading a
 * property of undefined) to null; what it throws are expression errors, such as a
 * reference to a node that does not exist (a node renamed after the expression was written).
 */
import type { IDataObject } from 'n8n-workflow';

import { createHarness } from '../../testbed/harness/run';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox();
/** A harness per test: its credential is fresh each time. */
const h = {
	run: (...args: Parameters<ReturnType<typeof createHarness>['run']>) =>
		createHarness(ctx.sb).run(...args),
};
const t = () => ctx.sb.store.tenant(1);
const contacts = () => t().contacts.values() as unknown as IDataObject[];
const sent = (method: string, path: string) =>
	ctx.sb.requests().filter((r) => r.method === method && r.path === path);

describe('an expression that fails to evaluate', () => {
	const create = {
		resource: 'contact',
		operation: 'create',
		type: 'person',
		name: '={{ $json.name }}',
		additionalFields: { email: '={{ $json.email ?? $("Old Node Name").item.json.email }}' },
	};

	it('fails the item with the parameter’s name, before any request', async () => {
		const before = sent('POST', '/v1/crm/contacts').length;
		const r = await h.run('businessPlatformSales', create, [
			{ json: { name: 'Expression Person' } },
		]);
		expect(r.error?.message).toBe(
			'Could not read the parameter "Additional Fields" (additionalFields): Referenced node doesn\'t exist',
		);
		expect(r.error?.context?.itemIndex).toBe(0);
		expect(sent('POST', '/v1/crm/contacts')).toHaveLength(before);
		expect(contacts().some((c) => c.name === 'Expression Person')).toBe(false);
	});

	it('with continue-on-fail, lands on that item while the others are created with their field', async () => {
		const input = [
			{ json: { name: 'Good One', email: 'one@example.com' } },
			{ json: { name: 'Bad Two' } },
			{ json: { name: 'Good Three', email: 'three@example.com' } },
		];
		const r = await h.run('businessPlatformSales', create, input, { continueOnFail: true });
		expect(r.error).toBeUndefined();
		expect(r.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(r.json[1]).toMatchObject({
			itemIndex: 1,
			error: expect.stringMatching(/"Additional Fields" \(additionalFields\)/),
		});
		expect(contacts().find((c) => c.name === 'Good One')).toMatchObject({
			email: 'one@example.com',
		});
		expect(contacts().find((c) => c.name === 'Good Three')).toMatchObject({
			email: 'three@example.com',
		});
		expect(contacts().some((c) => c.name === 'Bad Two')).toBe(false);
	});
});

describe('a parameter hidden by another parameter’s value', () => {
	it('is not sent: Payrun → Create for all users leaves out the employees it still has from before', async () => {
		const employee = t().peopleUsers.values()[0].userId as string;
		const r = await h.run('businessPlatformPeople', {
			resource: 'payrun',
			operation: 'create',
			workPeriodFrom: '2025-02-01',
			workPeriodTo: '2025-02-28',
			isForAllUsers: true,
			// Shown only when All Users is off: n8n drops it, so it has no value for this node.
			employees: [employee],
		});
		expect(r.error).toBeUndefined();
		const body = JSON.parse(sent('POST', '/v1/people-pay-run/payruns').pop()!.body!) as IDataObject;
		expect(body).toMatchObject({ isForAllUsers: true });
		expect(body).not.toHaveProperty('employees');
	});
});

describe('"={{ $json.key }}" read from the item (nodes/shared/n8n-internals/, 5)', () => {
	it('Contact → Create with Name and Additional Fields → Email as "={{ $json.… }}": n8n reads each parameter once per execution, every item gets its own values', async () => {
		const core = await import('n8n-core');
		const proto = Object.getPrototypeOf(core.ExecuteContext.prototype) as {
			_getNodeParameter: (name: string, ...rest: unknown[]) => unknown;
		};
		const original = proto._getNodeParameter;
		const reads = new Map<string, number>();
		proto._getNodeParameter = function (this: unknown, name: string, ...rest: unknown[]) {
			reads.set(name, (reads.get(name) ?? 0) + 1);
			return original.call(this, name, ...rest);
		};
		try {
			const input = Array.from({ length: 12 }, (_, i) => ({
				json: { name: `Read once ${i}`, email: `read.once.${i}@example.com` },
			}));
			const run = await createHarness(ctx.sb).run(
				'businessPlatformSales',
				{
					resource: 'contact',
					operation: 'create',
					name: '={{ $json.name }}',
					type: 'person',
					additionalFields: { email: '={{ $json.email }}' },
				},
				input,
			);
			expect(run.error).toBeUndefined();
			expect(run.json.map((c: IDataObject) => [c.name, c.email])).toEqual(
				input.map((i) => [i.json.name, i.json.email]),
			);
			expect(reads.get('name')).toBe(1);
			expect(reads.get('additionalFields')).toBe(1);
		} finally {
			proto._getNodeParameter = original;
		}
	});
});
