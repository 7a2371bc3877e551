/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * In n8n's editor: the record column mapper, the trigger's test listening, and the demo
 * workflows `npm start` imports, each run the way the README tells a person to.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEMO_ACTIVE } from '../../scripts/start';
import { eventually } from '../../scripts/n8n-env';
import { contractEvents } from '../helpers/contract';
import { call } from '../helpers/sandbox';
import { useEditor } from './env';

jest.setTimeout(180_000);

const { env, scenario } = useEditor({ rows: 10 });
const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

beforeAll(async () => {
	for (const id of DEMO_ACTIVE) await env.e2e.activate(id);
}, 120_000);

const contactsTable = () =>
	env.sb.store
		.tenant(1)
		.tables.values()
		.find((t) => t.objectType === 'CONTACT')!;
const recordsOf = (table: Record<string, unknown>) =>
	env.sb.store.tenant(1).records.get(String(table._id))!.values();
const columnId = (table: Record<string, unknown>, name: string) =>
	(table.columnsMetaData as Array<{ id: string; name: string }>).find((c) => c.name === name)!.id;

/** New workflow → Sales "Create a record" → the contacts table picked from the list. */
async function recordCreateOnContacts(): Promise<void> {
	const { ed } = env;
	await ed.newWorkflow();
	await ed.addNode('Business Platform Sales', 'Create a record');
	const tables = await ed.pickerOptions('tableId');
	await ed.choose('tableId', tables.find((t) => t.startsWith(String(contactsTable().name)))!);
	await ed.ndv
		.getByTestId('resource-mapper-container')
		.getByTestId('parameter-input-Name')
		.waitFor();
}

describe('Record → Create', () => {
	scenario(
		"the column mapper lists the table's columns by name and creates the record",
		async () => {
			const { ed } = env;
			await recordCreateOnContacts();
			const mapper = ed.ndv.getByTestId('resource-mapper-container');
			const shown = await mapper
				.locator('[data-test-id^="parameter-input-"]:not([data-test-id="parameter-input-field"])')
				.evaluateAll((els) =>
					els.map((e) => String(e.getAttribute('data-test-id')).replace('parameter-input-', '')),
				);
			const visible = (contactsTable().columnsMetaData as Array<{ name: string; hidden: boolean }>)
				.filter((c) => !c.hidden)
				.map((c) => c.name);
			expect(shown).toEqual(expect.arrayContaining(visible));
			await mapper
				.getByTestId('parameter-input-Name')
				.locator('input')
				.first()
				.fill('Made in the editor');
			await mapper
				.getByTestId('parameter-input-Email')
				.locator('input')
				.first()
				.fill('editor@example.com');
			expect(await ed.executeStep()).toMatch(/1 item/);
			const table = contactsTable();
			const made = recordsOf(table).find(
				(r) =>
					(r.cells as Record<string, unknown>)[columnId(table, 'Name')] === 'Made in the editor',
			);
			expect(made?.cells).toMatchObject({ [columnId(table, 'Email')]: 'editor@example.com' });
		},
	);

	scenario(
		'[6] a boolean column left untouched is not sent (the record gets no "Subscribed: false")',
		async () => {
			const { ed } = env;
			await recordCreateOnContacts();
			const mapper = ed.ndv.getByTestId('resource-mapper-container');
			await mapper
				.getByTestId('parameter-input-Name')
				.locator('input')
				.first()
				.fill('Untouched boolean');
			expect(await ed.executeStep()).toMatch(/1 item/);
			const table = contactsTable();
			const made = recordsOf(table).find(
				(r) =>
					(r.cells as Record<string, unknown>)[columnId(table, 'Name')] === 'Untouched boolean',
			)!;
			expect(
				(made.cells as Record<string, unknown>)[columnId(table, 'Subscribed')] ?? null,
			).toBeNull();
		},
	);

	scenario(
		'[6] before a table is picked, the mapper shows no red "No columns found… Retry"',
		async () => {
			const { ed } = env;
			await ed.newWorkflow();
			await ed.addNode('Business Platform Sales', 'Create a record');
			await ed.param('tableId').waitFor();
			const mapper = ed.ndv.getByTestId('resource-mapper-container');
			await mapper
				.getByTestId('mapping-mode-select')
				.or(mapper.getByTestId('empty-fields-notice'))
				.first()
				.waitFor();
			expect(await mapper.innerText()).not.toMatch(/No columns found|Retry/);
		},
	);
});

describe('Trigger', () => {
	/** New workflow → first step: the trigger, opened in the nodes panel; returns its events. */
	async function triggerEvents(): Promise<string[]> {
		const { ed } = env;
		await ed.newWorkflow();
		// The trigger's events are listed with the Sales node (the trigger's type is businessPlatformSalesTrigger).
		await ed.openNodeActions('Business Platform Sales');
		return (await ed.panelEntries()).filter((e) => /^On /.test(e));
	}

	scenario(
		'the nodes panel lists its events; "Execute step" listens and receives an event the sandbox sends',
		async () => {
			const { ed, sb } = env;
			// The list renders as n8n loads the node types: wait for all of them (up to 30 s), not one read.
			const events = await eventually(async () => {
				const listed = await triggerEvents();
				expect(listed.length).toBeGreaterThanOrEqual(contractEvents().length);
				return listed;
			}, 30_000);
			await ed.creator
				.getByText(events.find((e) => /deal created/i.test(e))!, { exact: true })
				.click();
			await ed.ndv.waitFor();
			await ed.ndv.getByTestId('node-execute-button').click();
			await ed.ndv.getByText('Listening for test event').first().waitFor();
			const testHook = () =>
				sb.store
					.tenant(1)
					.webhooks.values()
					.find(
						(h) =>
							!h.deleted &&
							h.eventType === 'CREATE_CRM_DEAL' &&
							String(h.webhookUrl).includes('/webhook-test/'),
					);
			await eventually(() => expect(testHook()).toBeDefined(), 30_000);
			const sent = await call(sb, 'POST', '/__admin/events', {
				token: null,
				body: { eventType: 'CREATE_CRM_DEAL', data: { id: 1, name: 'Sent while listening' } },
			});
			expect(sent.status).toBe(200);
			await ed.page.getByTestId('output-panel').getByText('Sent while listening').first().waitFor();
			// The test registration goes once the event arrived.
			await eventually(() => expect(testHook()).toBeUndefined(), 30_000);
		},
	);

	scenario('[5] its panel does not say "Pull in events" (the platform pushes them)', async () => {
		const { ed } = env;
		const events = await triggerEvents();
		await ed.creator
			.getByText(events.find((e) => /deal created/i.test(e))!, { exact: true })
			.click();
		const header = ed.ndv.getByTestId('trigger-header');
		await header.waitFor();
		expect(await header.innerText()).not.toMatch(/Pull in events/);
	});
});

describe('Polling triggers', () => {
	/** The events listed in the open panel entry, in lower case (n8n writes "On payrun created"). */
	const events = async () =>
		(await env.ed.panelEntries()).filter((e) => /^On /.test(e)).map((e) => e.toLowerCase());

	/** Clicks an event in the open panel entry, then "Fetch Test Event"; the output panel's text. */
	async function fetchTestEvent(event: string, before?: () => Promise<void>): Promise<string> {
		const { ed } = env;
		await ed.creator
			.getByText(new RegExp(`^\\s*${event}\\s*$`, 'i'))
			.first()
			.click();
		await ed.ndv.waitFor();
		await before?.();
		await eventually(
			async () =>
				expect(await ed.ndv.getByTestId('node-execute-button').innerText()).toMatch(
					/Fetch Test Event/i,
				),
			30_000,
		);
		return await ed.executeStep();
	}

	scenario(
		'People and Campaigns: their events are listed with their node; "Fetch Test Event" shows the newest item',
		async () => {
			const { ed } = env;
			await ed.newWorkflow();
			await ed.openNodeActions('Business Platform People');
			await eventually(
				async () =>
					expect(await events()).toEqual(
						expect.arrayContaining([
							'on payrun created',
							'on payrun processed',
							'on journal entry posted',
							'on paystub created',
							'on user created',
						]),
					),
				30_000,
			);
			expect(await fetchTestEvent('On Payrun Created')).toMatch(/1 item/);
			await ed.closeNdv();

			await ed.newWorkflow();
			await ed.openNodeActions('Business Platform Campaigns');
			await eventually(
				async () =>
					expect(await events()).toEqual(
						expect.arrayContaining(['on email template created', 'on email template updated']),
					),
				30_000,
			);
			expect(await fetchTestEvent('On Email Template Created')).toMatch(/1 item/);
		},
	);

	scenario(
		'Table Trigger: its own entry ("Business Platform Table"); with a table chosen from the picker, "Fetch Test Event" shows the newest record',
		async () => {
			const { ed } = env;
			await ed.newWorkflow();
			// n8n's panel shows a trigger's name without "Trigger".
			await ed.openNodeActions('Business Platform Table');
			await eventually(
				async () =>
					expect(await events()).toEqual(
						expect.arrayContaining(['on record created', 'on record updated']),
					),
				30_000,
			);
			const out = await fetchTestEvent('On Record Created', async () => {
				const tables = await ed.pickerOptions('tableId');
				await ed.choose('tableId', tables[0]);
			});
			expect(out).toMatch(/1 item/);
		},
	);
});

describe('the demo workflows (README, "In the editor")', () => {
	scenario(
		'"create a sample deal" runs from its button; the published "new deal → …" workflow then runs by itself',
		async () => {
			const { ed, sb } = env;
			const deals = sb.store.tenant(1).deals.size;
			await ed.openWorkflow('bpDemoSampleDeal');
			await ed.page.getByTestId('execute-workflow-button').click();
			await ed.page
				.getByText('Workflow executed successfully')
				.first()
				.waitFor({ timeout: 60_000 });
			expect(sb.store.tenant(1).deals.size).toBe(deals + 1);

			await ed.openWorkflow('bpDemoNewDeal001');
			await ed.page
				.getByTestId('workflow-open-publish-modal-button')
				.filter({ hasText: 'Published' })
				.waitFor();
			expect(README).toMatch(/\(published\)/);
			await ed.page.getByTestId('radio-button-executions').click();
			await ed.page
				.getByTestId('current-executions-list')
				.getByText(/Succeeded/)
				.first()
				.waitFor({ timeout: 60_000 });
		},
	);

	scenario('"invoice created → log" (published) runs for an invoice event', async () => {
		const { ed, sb } = env;
		await call(sb, 'POST', '/__admin/events', {
			token: null,
			body: { eventType: 'CREATE_INVOICE', data: { invoiceId: 'INV-EDITOR', total: 42 } },
		});
		await ed.openWorkflow('bpDemoInvoiceLog');
		await ed.page
			.getByTestId('workflow-open-publish-modal-button')
			.filter({ hasText: 'Published' })
			.waitFor();
		await ed.page.getByTestId('radio-button-executions').click();
		await ed.page
			.getByTestId('current-executions-list')
			.getByText(/Succeeded/)
			.first()
			.waitFor({ timeout: 60_000 });
	});

	scenario(
		'"page all records of a table" runs from its button and returns every record',
		async () => {
			const { ed } = env;
			await ed.openWorkflow('bpDemoAllRecords');
			await ed.page.getByTestId('execute-workflow-button').click();
			await ed.page
				.getByText('Workflow executed successfully')
				.first()
				.waitFor({ timeout: 60_000 });
			const count = recordsOf(contactsTable()).length;
			await ed.page
				.locator('[data-test-id="canvas-node"][data-node-name="Get All Its Records"]')
				.getByText(`${count} item`)
				.first()
				.waitFor();
		},
	);

	scenario(
		"[4] a deal's contact, organization and owner come out as objects, not JSON text",
		async () => {
			const { ed } = env;
			await ed.openWorkflow('bpDemoSampleDeal');
			await ed.page.getByTestId('execute-workflow-button').click();
			await ed.page
				.getByText('Workflow executed successfully')
				.first()
				.waitFor({ timeout: 60_000 });
			await ed.openNode('Create a Deal');
			const output = ed.page.getByTestId('output-panel');
			await output.getByTestId('radio-button-json').click();
			// The JSON view renders after the switch: wait until it shows the deal's fields.
			const json = await eventually(async () => {
				const text = await output.innerText();
				if (!/"contact_info"/.test(text))
					throw new Error(`the output shows no deal yet: ${text.slice(0, 200)}`);
				return text;
			}, 30_000);
			expect(json).not.toMatch(/"(contact|organization|owner)_info":\s*"\{/);
			expect(json).toMatch(/"contact_info":\s*\{/);
		},
	);
});
