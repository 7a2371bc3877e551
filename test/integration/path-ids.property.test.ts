/**
 * Property: IDs into paths (issue 23, finding 8). For every operation of the three action
 * nodes whose path carries an ID field, any text in that field (prototype keys, ".", "..",
 * encoded dots, slashes, unicode, huge or blank) either stops the item before anything is
 * sent, or reaches the sandbox on the operation's own path pattern with exactly one path
 * segment per ID, on the credential's host. What reached the platform is read from the
 * sandbox's request log. A pure property over the transport's URL rule runs thousands of
 * paths against base URLs with and without a path of their own.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { CAMPAIGNS_RESOURCES } from '../../nodes/BusinessPlatformCampaigns/resources';
import { PEOPLE_RESOURCES } from '../../nodes/BusinessPlatformPeople/resources';
import { SALES_RESOURCES } from '../../nodes/BusinessPlatformSales/resources';
import type { Field, Operation, Resource } from '../../nodes/shared/engine/model';
import { shownInVersion } from '../../nodes/shared/engine/params';
import { apiUrl, fullyDecoded } from '../../nodes/shared/transport';
import { createHarness } from '../../testbed/harness/run';
import { checkProperty, hostileString, propertyParameters } from '../helpers/property';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox();

interface PathOperation {
	node: string;
	resource: string;
	op: Operation;
	idFields: Field[];
}

const NODES: Array<[string, Resource[]]> = [
	['businessPlatformSales', SALES_RESOURCES],
	['businessPlatformCampaigns', CAMPAIGNS_RESOURCES],
	['businessPlatformPeople', PEOPLE_RESOURCES],
];

/** Every operation with `{placeholders}` in its path and the version-1 fields that fill them. */
const PATH_OPERATIONS: PathOperation[] = NODES.flatMap(([node, resources]) =>
	resources.flatMap((r) =>
		r.operations
			.filter((op) => op.path.includes('{'))
			.map((op) => ({
				node,
				resource: r.value,
				op,
				idFields: (op.fields ?? []).filter(
					(f) => f.send?.in === 'path' && shownInVersion(f.property, 1),
				),
			}))
			.filter((p) => p.idFields.length > 0),
	),
);

/** Where a table given by name (not a table ID) is looked up first (Sales, Table → Get and the record operations). */
const TABLE_LOOKUP = 'GET /v1/crm/core/table';
const pattern = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
const segments = (path: string) => path.split('?')[0].split('/').length;

test('the operations with IDs in their path are found', () => {
	expect(PATH_OPERATIONS.length).toBeGreaterThanOrEqual(20);
});

test("property: an ID field either stops the item before sending or fills exactly one segment of the operation's own path", async () => {
	const sb = ctx.sb;
	const h = createHarness(sb);
	const idValue = fc.oneof({ weight: 3, arbitrary: hostileString() }, fc.constantFrom('1', '42'));
	const idsForOperation = fc
		.constantFrom(...PATH_OPERATIONS)
		.chain((p) =>
			fc.tuple(
				fc.constant(p),
				fc.array(idValue, { minLength: p.idFields.length, maxLength: p.idFields.length }),
			),
		);
	await checkProperty(
		400,
		// Each ID field gets its own value: hostile, or a plain one so that a later field is reached too.
		fc.asyncProperty(idsForOperation, async ([{ node, resource, op, idFields }, ids]) => {
			const parameters: IDataObject = { resource, operation: op.value };
			idFields.forEach(
				(f, i) =>
					(parameters[f.property.name] =
						f.property.type === 'resourceLocator'
							? { __rl: true, mode: 'id', value: ids[i] }
							: ids[i]),
			);
			const before = sb.requests().at(-1)?.seq ?? 0;
			// n8n itself may refuse the workflow first (a locator's ID pattern): refused before sending too.
			await h
				.run(node, parameters, [{ json: {} }])
				.catch((error: Error) => expect(error.name).toBe('WorkflowHasIssuesError'));
			const sent = sb.requests().filter((r) => r.seq > before);
			for (const r of sent) {
				// Anything sent with the operation's method is the operation's own endpoint, one segment per ID,
				// or the list of tables that a table given by name is looked up in (it puts no ID in a path).
				if (r.route === TABLE_LOOKUP) expect(segments(r.path)).toBe(segments('/v1/crm/core/table'));
				else if (r.method === op.method) {
					expect({ route: r.route, segments: segments(r.path) }).toEqual({
						route: `${op.method} ${pattern(op.path)}`,
						segments: segments(op.path),
					});
				} else {
					expect(r.method).toBe('GET'); // a read the operation makes first (a table's columns)
				}
				// No segment that is, or decodes (however many times a server or proxy decodes it) into, "." or "..".
				expect(r.path.split('/').some((s) => /^\.{1,2}$/.test(fullyDecoded(s)))).toBe(false);
			}
		}),
	);
}, 180_000);

test("property: the transport sends only below the credential's API Base URL", () => {
	const base = fc.constantFrom(
		'https://api.example.com',
		'https://api.example.com/prefix',
		'http://127.0.0.1:4010',
		'http://127.0.0.1:4010/v',
	);
	const path = fc.oneof(
		hostileString(),
		fc
			.array(
				fc.oneof(
					hostileString(),
					fc.constantFrom(
						'.',
						'..',
						'%2e',
						'%2E%2e',
						'.%2e',
						'v1',
						'crm',
						'@evil.com',
						'evil.com:443',
					),
				),
				{ maxLength: 5 },
			)
			.map((parts) => `/${parts.join('/')}`),
		fc.constantFrom(
			'//evil.com/x',
			'@evil.com/x',
			'\\\\evil.com',
			'/v1/../../x',
			'/v1/%2e%2e/x',
			'/v1/%252e%252e/x',
			'https://evil.com',
		),
	);
	fc.assert(
		fc.property(base, path, (b, p) => {
			const target = apiUrl(b, p);
			if ('problem' in target) return;
			const url = new URL(target.url);
			const root = new URL(b);
			expect(url.origin).toBe(root.origin);
			expect(`${url.pathname}/`.startsWith(`${root.pathname.replace(/\/+$/, '')}/`)).toBe(true);
			// Nothing the URL parser resolved: the path it sends is the path it was given.
			expect(url.pathname.split('/').length).toBe(
				`${root.pathname.replace(/\/+$/, '')}${p.split(/[?#]/, 1)[0]}`.split('/').length,
			);
		}),
		propertyParameters(3000),
	);
});

test('Record → Delete with the ID ".." sends nothing and names the field', async () => {
	const sb = ctx.sb;
	const h = createHarness(sb);
	const before = sb.requests().at(-1)?.seq ?? 0;
	const tableId = sb.store.tenant(1).tables.values()[0].id;
	const run = await h.run(
		'businessPlatformSales',
		{
			resource: 'record',
			operation: 'delete',
			tableId: { __rl: true, mode: 'id', value: String(tableId) },
			recordId: { __rl: true, mode: 'id', value: '..' },
		},
		[{ json: {} }],
	);
	expect(run.error?.message).toMatch(/Record.*"\.\." is not an ID/);
	expect(sb.requests().filter((r) => r.seq > before && r.method === 'DELETE')).toHaveLength(0);
});
