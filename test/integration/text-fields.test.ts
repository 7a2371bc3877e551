/**
 * Text fields given a number or a boolean by an expression (`{{ $json.phone }}` of a number):
 * the request builder sends them as text (nodes/shared/engine/item.ts, `asText`), because the
 * platform refuses a number where its schema says string. First, from the descriptions and the
 * contract: every text field sent as it is read is text on the wire, so that conversion is right
 * for each. Then, through n8n-core against the sandbox: the records exist with the text.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { CAMPAIGNS_RESOURCES } from '../../nodes/BusinessPlatformCampaigns/resources';
import { PEOPLE_RESOURCES } from '../../nodes/BusinessPlatformPeople/resources';
import { SALES_RESOURCES } from '../../nodes/BusinessPlatformSales/resources';
import type { Field, Operation, Resource } from '../../nodes/shared/engine/model';
import { loadContract } from '../../sandbox/src/contract/load';
import { createHarness, type Harness } from '../../testbed/harness/run';
import { checkProperty } from '../helpers/property';
import { useSandbox } from '../helpers/sandbox';

type Json = Record<string, unknown>;

/** The text fields that an operation sends as read (no mapping of their own), with their wire key. */
function textFields(fields: Field[] = []): Array<{ key: string; in: string }> {
	return fields.flatMap((f) => [
		...textFields(f.children),
		...(f.send && !f.send.map && f.property.type === 'string'
			? [{ key: f.send.key ?? f.property.name, in: f.send.in }]
			: []),
	]);
}

const contract = loadContract();
const doc = contract.doc;
const at = (pointer: string): Json | undefined =>
	pointer
		.split('/')
		.slice(1)
		.reduce<Json | undefined>(
			(o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')] as Json | undefined,
			doc,
		);
const deref = (s: Json | undefined): Json | undefined => {
	let out = s;
	while (out && typeof out.$ref === 'string') out = at(out.$ref.slice(1));
	return out;
};

/** The schema of a dotted key in a body schema; null where the schema says nothing of it. */
function schemaOf(schema: Json | undefined, key: string): Json | null {
	const s = deref(schema);
	if (!s) return null;
	for (const list of ['allOf', 'oneOf', 'anyOf'])
		for (const part of (s[list] as Json[] | undefined) ?? []) {
			const found = schemaOf(part, key);
			if (found) return found;
		}
	if (s.type === 'array') return schemaOf(s.items as Json, key);
	const [head, ...rest] = key.split('.');
	const prop = deref((s.properties as Record<string, Json> | undefined)?.[head]);
	if (!prop) return null;
	return rest.length ? schemaOf(prop, rest.join('.')) : prop;
}

/** The JSON types a schema allows (its own, or its alternatives'). */
const typesOf = (s: Json): unknown[] =>
	[s, ...((s.oneOf ?? s.anyOf ?? []) as Json[]).map(deref)].flatMap((x) =>
		([] as unknown[]).concat(x?.type ?? []),
	);

const NODES: Array<[string, Resource[]]> = [
	['Sales', SALES_RESOURCES],
	['Campaigns', CAMPAIGNS_RESOURCES],
	['People', PEOPLE_RESOURCES],
];
const ops: Array<{ name: string; op: Operation }> = NODES.flatMap(([node, resources]) =>
	resources.flatMap((r) =>
		r.operations.map((op) => ({ name: `${node} ${r.value} → ${op.value}`, op })),
	),
);

describe('every text field sent as read is text on the wire (so a number given to it is sent as text)', () => {
	it.each(ops.filter(({ op }) => textFields(op.fields).some((f) => f.in === 'body')))(
		'$name',
		({ op }) => {
			const found = contract.operations.find(
				(o) => o.method.toUpperCase() === op.method && o.path === op.path,
			);
			expect(found).toBeDefined();
			const body = found!.body?.media.get('application/json');
			const open = (found!.body && deref(at(body!))?.additionalProperties !== false) || false;
			const wrong = textFields(op.fields)
				.filter((f) => f.in === 'body')
				.map((f) => ({ key: f.key, schema: schemaOf(at(body!), f.key) }))
				// A key the schema does not name is allowed only where the schema takes other fields (People users: "not shown").
				.filter(({ schema }) => (schema ? !typesOf(schema).includes('string') : !open))
				.map(({ key, schema }) => `${key}: ${JSON.stringify(schema)}`);
			expect(wrong).toEqual([]);
		},
	);
});

describe('through n8n-core: numbers and booleans from expressions arrive as text', () => {
	const ctx = useSandbox({ rows: 5 });
	let h: Harness;
	beforeAll(() => {
		h = createHarness(ctx.sb);
	});
	const t = () => ctx.sb.store.tenant(1);
	const run = (type: string, params: IDataObject, json: IDataObject[]) =>
		h.run(
			type,
			params,
			json.map((j) => ({ json: j })),
			{ continueOnFail: true },
		);

	it('Sales → Create Contact: a name and a phone that are numbers (past 2^31 and 2^53, negative, fractions) or booleans', async () => {
		await checkProperty(
			40,
			fc.asyncProperty(
				fc.oneof(
					fc.integer(),
					fc.double({ noNaN: true, noDefaultInfinity: true }),
					fc.constantFrom(
						2 ** 31,
						2 ** 31 + 1,
						2 ** 53 + 2,
						-(2 ** 63),
						4915112345678,
						0,
						-0,
						1e21,
					),
					fc.boolean(),
				),
				async (value) => {
					const r = await run(
						'businessPlatformSales',
						{
							resource: 'contact',
							operation: 'create',
							name: '={{ $json.value }}',
							type: 'person',
							additionalFields: { phone: '={{ $json.value }}' },
						},
						[{ value }],
					);
					expect(r.error).toBeUndefined();
					expect(r.json[0].error).toBeUndefined();
					const stored = t().contacts.get(r.json[0].id as number)!;
					expect([stored.name, stored.phone]).toEqual([String(value), String(value)]);
				},
			),
		);
	});

	it('People → Create User and Campaigns → Create Category: numbers in their text fields', async () => {
		const user = await run(
			'businessPlatformPeople',
			{
				resource: 'user',
				operation: 'create',
				firstName: '={{ $json.n }}',
				lastName: '={{ $json.n + 1 }}',
				emailId: 'numbers@example.com',
				personal: { passportNumber: '={{ $json.n }}' },
			},
			[{ n: 2 ** 31 + 7 }],
		);
		expect(user.json[0].error).toBeUndefined();
		const created = t()
			.peopleUsers.values()
			.find((u) => u.emailId === 'numbers@example.com')!;
		expect(created).toMatchObject({
			firstName: String(2 ** 31 + 7),
			lastName: String(2 ** 31 + 8),
			passportNumber: String(2 ** 31 + 7),
		});

		const category = await run(
			'businessPlatformCampaigns',
			{ resource: 'category', operation: 'create', name: '={{ $json.n }}', additionalFields: {} },
			[{ n: 2026 }],
		);
		expect(category.json[0].error).toBeUndefined();
		expect(
			t()
				.categories.values()
				.some((c) => c.name === '2026'),
		).toBe(true);
	});
});
