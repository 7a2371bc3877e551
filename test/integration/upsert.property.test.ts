/**
 * Property: Create or Update leaves one record per key (issue 23, finding 3). Any list of
 * items whose emails repeat (from a small pool, in any case and with spaces around, some
 * already in the sandbox), at any Parallel Requests from 1 to 20: afterwards the sandbox
 * holds exactly one contact per email (one more than before for a new email, none more for
 * an existing one), and each item's output says "created" for the first item of a new email
 * and "updated" for every other, following the input order.
 */
import fc from 'fast-check';

import { createHarness } from '../../testbed/harness/run';
import { checkProperty } from '../helpers/property';
import { useSandbox } from '../helpers/sandbox';

const ctx = useSandbox({ rows: 5 });

const contactsWith = (email: string) =>
	ctx.sb.store
		.tenant(1)
		.contacts.values()
		.filter((c) => String(c.email ?? '').toLowerCase() === email);

let round = 0;

it('property: any items with repeated emails, at any Parallel Requests, leave one contact per email, created then updated in input order', async () => {
	const h = createHarness(ctx.sb);
	const existing = String(ctx.sb.store.tenant(1).contacts.values()[0].email).toLowerCase();
	const items = fc.array(
		fc.record({
			pick: fc.nat({ max: 3 }),
			upper: fc.boolean(),
			spaces: fc.boolean(),
		}),
		{ minLength: 1, maxLength: 12 },
	);
	await checkProperty(
		100,
		fc.asyncProperty(
			items,
			fc.oneof(fc.integer({ min: 1, max: 20 }), fc.constantFrom(21, 2 ** 31, 2 ** 53 + 2)),
			async (list, concurrency) => {
				round++;
				// A pool of new emails for this case, and one that exists from the start.
				const pool = [
					existing,
					`new-a-${round}@example.com`,
					`new-b-${round}@example.com`,
					`new-c-${round}@example.com`,
				];
				const before = new Map(pool.map((e) => [e, contactsWith(e).length]));
				const input = list.map(({ pick, upper, spaces }, i) => {
					const email = upper ? pool[pick].toUpperCase() : pool[pick];
					return { json: { email: spaces ? `  ${email} ` : email, name: `Upsert ${round}-${i}` } };
				});
				const run = await h.run(
					'businessPlatformSales',
					{
						resource: 'contact',
						operation: 'upsert',
						email: '={{ $json.email }}',
						name: '={{ $json.name }}',
						type: 'person',
						requestOptions: { concurrency },
					},
					input,
				);
				expect(run.error).toBeUndefined();
				const seen = new Set<string>();
				const expected = list.map(({ pick }) => {
					const first = !seen.has(pool[pick]);
					seen.add(pool[pick]);
					return first && before.get(pool[pick]) === 0 ? 'created' : 'updated';
				});
				expect(run.json.map((j) => j.upsertAction)).toEqual(expected);
				for (const email of pool)
					expect(contactsWith(email)).toHaveLength(
						Math.max(before.get(email)!, seen.has(email) ? 1 : 0),
					);
			},
		),
	);
}, 180_000);
