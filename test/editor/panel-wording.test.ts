/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * In n8n's editor, defects [5] (labels and wording) and [2] ("Custom API Call") of issue 13,
 * whose fixes are in nodes/ (the rest of the nodes panel's tests: panel.test.ts, on an n8n of its
 * own, so that the two halves run on two jest workers). Each test states the fixed behaviour.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { eventually } from '../../testbed/n8n/env';
import { usePanelEditor } from './panel-env';

jest.setTimeout(180_000);

const { env, scenario } = usePanelEditor();
const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

describe('[5] labels and wording', () => {
	scenario('the canvas names operations and events, not internal values', async () => {
		const { ed } = env;
		const shown: Record<string, string> = {};
		for (const id of ['bpDemoSampleDeal', 'bpDemoNewDeal001']) {
			await ed.openWorkflow(id);
			Object.assign(shown, await ed.subtitles());
		}
		const pack = [
			'Pick a Person Contact',
			'Create a Deal',
			'When a Deal Is Created',
			'Get Its Contact',
			'Add a Follow-up Call',
		];
		const internal = pack.filter((n) =>
			/^[a-z][A-Za-z]*: [a-z][A-Za-z]*$|[A-Z]+_[A-Z_]+/.test(shown[n] ?? ''),
		);
		expect(internal.map((n) => `${n}: "${shown[n]}"`)).toEqual([]);
	});

	scenario('stages of a chosen pipeline do not repeat their status ("Won (won)")', async () => {
		const { ed } = env;
		await ed.newWorkflow();
		await ed.addNode('Business Platform Sales', 'Create a deal');
		await ed.choose('pipelineId', 'Sales pipeline');
		const stages = await ed.pickerOptions('stageId');
		expect(
			stages.filter(
				(s) =>
					/^(.+) \((.+)\)$/.test(s) &&
					s.replace(/^(.+) \((.+)\)$/, '$1').toLowerCase() ===
						s.replace(/^(.+) \((.+)\)$/, '$2').toLowerCase(),
			),
		).toEqual([]);
	});

	scenario('one wording for "Add option" in a node\'s panel', async () => {
		const { ed } = env;
		await ed.newWorkflow();
		await ed.addNode('Business Platform People', 'Get many users');
		// The panel renders its collections as it opens: wait (up to 30 s) until more than one is there.
		const words = await eventually(async () => {
			const found = (await ed.collectionAddWords()).filter((w) => /^add option$/i.test(w));
			expect(found.length).toBeGreaterThan(1);
			return found;
		}, 30_000);
		expect(new Set(words).size).toBe(1);
	});

	scenario('Activity → Create offers a contact picker, as Deal does', async () => {
		const { ed } = env;
		await ed.newWorkflow();
		await ed.addNode('Business Platform Sales', 'Create an activity');
		await ed.addCollectionField('Additional Fields', /^Contact/);
		const fields = ed.collection('Additional Fields');
		const pickers = fields.locator(
			'[data-test-id^="resource-locator-"], [data-test-id^="parameter-input-"]:not([data-test-id="parameter-input-field"]) .el-select',
		);
		expect(await pickers.count()).toBeGreaterThan(0);
	});

	scenario(
		'the Sales node offers the trigger\'s events in the nodes panel ("No … Triggers available" is gone)',
		async () => {
			const { ed } = env;
			await ed.newWorkflow();
			await ed.openNodeActions('Business Platform Sales');
			// The events are listed once n8n has loaded the trigger's type: waited for (up to 30 s), then the callout is gone.
			await eventually(
				async () =>
					expect((await ed.panelEntries()).some((e) => /deal created/i.test(e))).toBe(true),
				30_000,
			);
			expect(
				await ed.creator
					.getByTestId('actions-panel-no-triggers-callout')
					.filter({ visible: true })
					.count(),
			).toBe(0);
		},
	);

	scenario(
		'the trigger\'s events read as words ("On bill created accounting" is not)',
		async () => {
			const { ed } = env;
			await ed.newWorkflow();
			await ed.openNodeActions('Business Platform Sales');
			const events = await eventually(async () => {
				const listed = (await ed.panelEntries()).filter((e) => /^On /.test(e));
				expect(listed.length).toBeGreaterThanOrEqual(20);
				return listed;
			}, 30_000);
			expect(events.filter((e) => / (accounting|sales)$/.test(e))).toEqual([]);
		},
	);
});

describe('[2] "Custom API Call"', () => {
	scenario(
		'no action node leads to n8n\'s HTTP Request notice ("We\'ll take care of the auth for you")',
		async () => {
			const { ed } = env;
			await ed.newWorkflow();
			const offered: string[] = [];
			for (const [node, action] of [
				['Business Platform Sales', 'Create a deal'],
				['Business Platform Campaigns', 'Create an email template'],
				['Business Platform People', 'Get many users'],
			]) {
				await ed.addNode(node, action);
				const resources = await ed.pickerOptions('resource');
				if (resources.includes('Custom API Call')) {
					await ed.choose('resource', 'Custom API Call');
					if (await ed.ndv.getByTestId('node-parameters-http-notice').count()) offered.push(node);
				}
				await ed.closeNdv();
			}
			expect(offered).toEqual([]);
		},
	);

	scenario(
		"the HTTP Request node either does not offer the pack's credential, or gets data with it (no 401)",
		async () => {
			const { ed, sb } = env;
			await ed.newWorkflow();
			await ed.openNodesPanel();
			await ed.search('HTTP Request');
			await ed.nodeItem('HTTP Request').first().click();
			await ed.ndv.waitFor();
			await ed.choose('authentication', 'Predefined Credential Type');
			const select = ed.param('nodeCredentialType').getByTestId('credential-select');
			await select.click();
			const option = ed.page
				.locator('.el-select__popper[aria-hidden="false"]')
				.getByTestId('credential-select-option')
				.filter({ hasText: /^Business Platform OAuth2 API$/ });
			await ed.page
				.locator('.el-select__popper[aria-hidden="false"]')
				.getByTestId('credential-select-option')
				.first()
				.waitFor();
			if (!(await option.count())) {
				expect(README).toMatch(/HTTP Request node/);
				return;
			}
			await option.click();
			await ed.ndv.getByTestId('node-credentials-select').waitFor();
			const url = ed.param('url').locator('input').first();
			await url.fill(`${sb.baseUrl}/v1/crm/contacts`);
			await url.press('Tab');
			const out = await ed.executeStep();
			expect(out).not.toMatch(/Authorization failed|401/);
			expect(out).toMatch(/\d+ items?/);
		},
	);
});
