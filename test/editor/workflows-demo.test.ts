/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * In n8n's editor: the polling triggers' events and "Fetch Test Event", and the demo workflows
 * `npm start` imports, each run the way the README tells a person to (the record column mapper
 * and the trigger's test listening: workflows.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { eventually } from '../../testbed/n8n/env';
import { call } from '../helpers/sandbox';
import { useWorkflowsEditor } from './workflows-env';

jest.setTimeout(180_000);

const { env, scenario, contactsTable, recordsOf } = useWorkflowsEditor();
const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

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
			await ed.runWorkflow('bpDemoSampleDeal');
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
			await ed.runWorkflow('bpDemoAllRecords');
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
			await ed.runWorkflow('bpDemoSampleDeal');
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
