/**
 * Shortcut 5 of nodes/shared/n8n-internals/ in a real n8n, under the expression engine that n8n
 * runs (N8N_EXPRESSION_ENGINE: legacy, vm or quickjs; the e2e files start n8ns with each): a
 * Sales → Create Contact whose Name and Email are "={{ $json.name }}" and "={{ $json.email }}",
 * on two items with the same values. n8n evaluates the first item's fields itself; the pack reads
 * the second item's from the item (the shortcut). Both contacts must come out the same, for
 * texts that test the rule: of every kind, one that looks like an expression, a long one, and
 * numbers and booleans, which a text field sends as text. (In n8n-core, test/integration/n8n-internals.test.ts pins it under the
 * legacy engine only: jest's module sandbox refuses the dynamic import quickjs needs, and
 * isolated-vm has no build for the Node that runs jest.)
 */
import type { Sandbox } from './sandbox';
import { pack, webhookStart, workflow } from '../../testbed/n8n/env';

export const SHORTCUT_PATH = 'expression-shortcut';

export const shortcutWorkflow = (id = 'e2eShortcut00001') =>
	workflow(id, 'E2E expression shortcut', [
		webhookStart(SHORTCUT_PATH),
		{
			name: 'Items',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'body.items', options: {} },
		},
		pack(
			'businessPlatformSales',
			'Create',
			{
				resource: 'contact',
				operation: 'create',
				name: '={{ $json.name }}',
				type: 'person',
				additionalFields: { email: '={{ $json.email }}' },
			},
			// A value the platform refuses fails both items alike: the outcome is compared, not only successes.
			{ onError: 'continueRegularOutput' },
		),
	]);

/** The names tried: each on two items (n8n reads the first, the pack the second). */
export const SHORTCUT_NAMES: unknown[] = [
	'Plain name',
	'Zoë Ünïcødé 🚀 名前',
	'={{ 1 + 1 }}',
	'{{ $json.email }}',
	'  spaced  ',
	'x'.repeat(5000),
	'42',
	42,
	2 ** 53 + 2,
	-0.5,
	true,
];

type Call = (path: string, body?: unknown) => Promise<{ status: number; body: unknown }>;

/** Runs the check; gives, per name, the two contacts' name and email as the sandbox stored them. */
export async function shortcutOutcomes(
	call: Call,
	sb: Sandbox,
	tag: string,
): Promise<Array<{ tried: unknown; stored: unknown[] }>> {
	const out: Array<{ tried: unknown; stored: unknown[] }> = [];
	for (const [i, name] of SHORTCUT_NAMES.entries()) {
		const email = `shortcut.${tag}.${i}@example.com`;
		const res = await call(SHORTCUT_PATH, {
			items: [
				{ name, email },
				{ name, email },
			],
		});
		if (res.status !== 200)
			throw new Error(
				`the workflow failed (${res.status}): ${JSON.stringify(res.body).slice(0, 300)}`,
			);
		const stored = sb.store
			.tenant(1)
			.contacts.values()
			.filter((c) => c.email === email)
			.map((c) => ({ name: c.name, email: c.email }));
		out.push({ tried: name, stored });
	}
	return out;
}

/** What every engine must give: for each name, both items stored alike (or both refused), the text names stored as given, numbers and booleans as their text. */
export function expectSameOutcomes(outcomes: Array<{ tried: unknown; stored: unknown[] }>): void {
	for (const { tried, stored } of outcomes) {
		expect([tried, [0, 2]]).toEqual([tried, expect.arrayContaining([stored.length])]);
		if (stored.length === 2) expect([tried, stored[1]]).toEqual([tried, stored[0]]);
		if (typeof tried === 'string' && tried.trim() !== '')
			expect([tried, stored.length]).toEqual([tried, 2]);
		if (typeof tried === 'number' || typeof tried === 'boolean')
			expect(stored).toEqual([0, 1].map(() => expect.objectContaining({ name: String(tried) })));
	}
}
