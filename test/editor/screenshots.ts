/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * `npm run docs:screenshots`: the pictures of the pack in n8n's editor that the docs show
 * (docs/images/*.png), made again from the current code, so they never go stale. It starts
 * what the editor tests start (a sandbox, n8n with the pack installed, the demo credential and
 * workflows, Debian's Chromium), drives the editor as a person does with the editor tests'
 * steps (editor.ts), writes one PNG per view at 1280×800, and stops everything on every path.
 * `BP_SCREENSHOTS_ONLY=credential,nodes-panel` makes only those.
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import { buildPack } from '../../testbed/pack/build';
import { ensureChromium } from '../../testbed/chromium';
import { ROOT } from '../../testbed/root';
import { ensureRuntime } from '../../testbed/runtime/install';
import { packTarball } from '../../testbed/pack/tarball';
import { processesOfRun, runId, stopAll } from '../../testbed/processes';
import { DEMO_ACTIVE, demoCredential, demoOpenAiCredential, demoWorkflows } from '../../demo/demo';
import { tableAgent } from '../helpers/ai-env';
import { eventually, startE2e, type E2e } from '../../testbed/n8n/env';
import { startTestSandbox, type Sandbox } from '../helpers/sandbox';
import { launchBrowser, screenshots, type Browser } from './browser';
import { Editor } from './editor';
import { CREDENTIAL_NAME } from './env';

const OUT = join(ROOT, 'docs', 'images');
const VIEWPORT = { width: 1280, height: 800 };
const AGENT = 'bpDocsTableAgent';
const TOOL = 'Create a record in Business Platform Sales';

const t0 = Date.now();
const say = (line: string) =>
	process.stdout.write(
		`[screenshots ${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${line}\n`,
	);

interface World {
	sb: Sandbox;
	e2e: E2e;
	ed: Editor;
}

/** The demo agent with one tool: Sales Record → Create, as a new tool node is (Cells "Map Each Column", no table). */
function agentWithRecordTool(): Record<string, unknown> {
	const wf = tableAgent();
	wf.nodes = wf.nodes.filter(
		(n) => !n.type.startsWith('n8n-nodes-business-platform.') || n.name === TOOL,
	);
	wf.nodes.find((n) => n.name === TOOL)!.parameters = {
		resource: 'record',
		operation: 'create',
		tableId: { __rl: true, mode: 'list', value: '' },
	};
	wf.connections = Object.fromEntries(
		Object.entries(wf.connections).filter(([name]) => wf.nodes.some((n) => n.name === name)),
	);
	return { ...wf, id: AGENT, name: 'AI agent with a Business Platform Record tool', active: false };
}

/** Lets the page finish drawing (fonts, icons, transitions) and writes the picture. */
async function shot(ed: Editor, name: string): Promise<void> {
	await ed.page.evaluate('document.fonts.ready.then(() => true)');
	await ed.page.mouse.move(VIEWPORT.width - 5, VIEWPORT.height - 5);
	await ed.page.waitForTimeout(600);
	const file = join(OUT, `${name}.png`);
	await ed.page.screenshot({ path: file, animations: 'disabled' });
	say(`  ${relative(ROOT, file)} (${Math.round(statSync(file).size / 1024)} KB)`);
}

/** Each picture: what a person does to get there, then the shot. */
const PICTURES: Record<string, (w: World) => Promise<void>> = {
	'nodes-panel': async ({ ed }) => {
		await ed.newWorkflow();
		await ed.openNodesPanel();
		await ed.search('Business Platform', 'Business Platform Sales');
		await ed.nodeItem('Business Platform Table').first().waitFor();
		// The icons load after the list.
		await eventually(async () => {
			const loaded = await ed.creator
				.getByTestId('item-iterator-item')
				.locator('img')
				.evaluateAll((imgs) =>
					(imgs as Array<{ complete: boolean; naturalWidth: number }>).every(
						(i) => i.complete && i.naturalWidth > 0,
					),
				);
			if (!loaded) throw new Error('the icons of the nodes panel did not load');
		}, 30_000);
		await shot(ed, 'nodes-panel');
	},

	credential: async ({ ed }) => {
		const item = ed.page.getByTestId('resources-list-item').filter({ hasText: CREDENTIAL_NAME });
		await ed.visit('/home/credentials', item);
		await item.click();
		await ed.page.getByTestId('credential-edit-dialog').waitFor();
		await ed.page.getByTestId('oauth-connect-success-banner').waitFor();
		await ed.page.getByText('OAuth Redirect URL').first().waitFor();
		await shot(ed, 'credential');
		await ed.page.keyboard.press('Escape');
		await ed.page.getByTestId('credential-edit-dialog').waitFor({ state: 'hidden' });
	},

	'deal-create': async ({ ed }) => {
		await ed.newWorkflow();
		await ed.addNode('Business Platform Sales', 'Create a deal');
		await ed.param('name').locator('input, textarea').first().fill('Renewal 2027');
		await ed.choose('pipelineId', (await ed.pickerOptions('pipelineId'))[0]);
		await ed.addCollectionField('Additional Fields', /^Contact$/);
		await ed.choose('contactId', (await ed.pickerOptions('contactId'))[0]);
		// The stage picker (a list of the chosen pipeline's stages) open.
		await ed.param('stageId').getByTestId('rlc-input').click();
		await ed.page.getByTestId('rlc-item').filter({ visible: true }).first().waitFor();
		await shot(ed, 'deal-create');
		await ed.page.keyboard.press('Escape');
	},

	'trigger-events': async ({ ed }) => {
		await ed.newWorkflow();
		await ed.openNodeActions('Business Platform Sales');
		const event = ed.creator.getByText(/^\s*On deal created\s*$/i).first();
		await event.waitFor({ timeout: 30_000 });
		await event.click();
		await ed.ndv.waitFor();
		// A second event chosen, the Events list left open.
		await ed.param('events').locator('input').first().click();
		const list = ed.page.locator('.el-select__popper[aria-hidden="false"]');
		await list.getByText('Deal Updated (Sales)', { exact: true }).click();
		await ed.param('events').getByText('Deal Updated (Sales)').waitFor();
		await shot(ed, 'trigger-events');
		await ed.page.keyboard.press('Escape');
	},

	'table-trigger': async ({ ed, sb }) => {
		await ed.newWorkflow();
		await ed.openNodeActions('Business Platform Table');
		const event = ed.creator.getByText(/^\s*On record created\s*$/i).first();
		await event.waitFor({ timeout: 30_000 });
		await event.click();
		await ed.ndv.waitFor();
		const contacts = String(
			sb.store
				.tenant(1)
				.tables.values()
				.find((t) => t.objectType === 'CONTACT')!.name,
		);
		const tables = await ed.pickerOptions('tableId');
		await ed.choose('tableId', tables.find((t) => t.startsWith(contacts)) ?? tables[0]);
		await shot(ed, 'table-trigger');
	},

	'ai-agent-tool': async ({ ed }) => {
		await ed.openWorkflow(AGENT);
		await ed.openNode(TOOL);
		await ed.param('cellsInput').waitFor({ timeout: 30_000 });
		const tables = await ed.pickerOptions('tableId');
		await ed.choose('tableId', tables[0]);
		await ed.choose('cellsInput', 'From JSON');
		const json = ed.param('cellsJson');
		await json.waitFor({ timeout: 30_000 });
		await ed.letModelDefine('cellsJson');
		await shot(ed, 'ai-agent-tool');
	},

	'demo-execution': async ({ ed, sb }) => {
		// A new deal, the way the README's demo makes one: "Execute workflow" on the sample-deal workflow.
		const deals = sb.store.tenant(1).deals.size;
		await ed.runWorkflow('bpDemoSampleDeal');
		await eventually(() => {
			if (sb.store.tenant(1).deals.size <= deals) throw new Error('no new deal in the sandbox');
		}, 30_000);
		// The published workflow that ran on it: its Executions tab, the newest run opened.
		await ed.openWorkflow('bpDemoNewDeal001');
		await ed.page.getByTestId('radio-button-executions').click();
		const succeeded = ed.page
			.getByTestId('current-executions-list')
			.getByText(/Succeeded/)
			.first();
		await succeeded.waitFor({ timeout: 60_000 });
		await succeeded.click();
		// The run's preview: its heading says Succeeded, its three nodes drawn.
		await ed.page
			.getByText(/^\s*Succeeded\s*$/)
			.first()
			.waitFor({ timeout: 30_000 });
		await eventually(async () => {
			if ((await ed.page.getByTestId('canvas-node').filter({ visible: true }).count()) < 3)
				throw new Error("the execution's preview did not show the workflow's three nodes");
		}, 30_000);
		await shot(ed, 'demo-execution');
	},
};

async function main(): Promise<void> {
	const only = process.env.BP_SCREENSHOTS_ONLY?.split(',').filter(Boolean);
	const names = Object.keys(PICTURES).filter((n) => !only || only.includes(n));
	if (only?.some((n) => !PICTURES[n]))
		throw new Error(
			`BP_SCREENSHOTS_ONLY names unknown pictures; known: ${Object.keys(PICTURES).join(', ')}`,
		);
	mkdirSync(OUT, { recursive: true });

	say('build and pack the pack');
	await buildPack();
	packTarball();
	say('the n8n runtime and Chromium');
	await ensureRuntime((l) => say(`  ${l}`));
	say(`  ${await ensureChromium((l) => say(`  ${l}`))}`);

	// Everything below is stopped in `finally`, also when a step failed; stopAll() then gets whatever
	// a step cut short had started (every process and server goes through testbed/processes.ts).
	const started: { sb?: Sandbox; e2e?: E2e; browser?: Browser } = {};
	const failed: string[] = [];
	try {
		say('start the sandbox and n8n with the demo credential and workflows');
		const sb = (started.sb = await startTestSandbox({ rows: 10 }));
		const e2e = (started.e2e = await startE2e(
			[demoCredential(sb), demoOpenAiCredential()],
			[...(demoWorkflows() as Array<Record<string, unknown>>), agentWithRecordTool()],
			{},
		));
		for (const id of DEMO_ACTIVE) await e2e.activate(id);

		say('Chromium, signed in');
		const browser = (started.browser = await launchBrowser());
		await browser.page.setViewportSize(VIEWPORT);
		const ed = new Editor(browser.page, e2e.n8n.url);
		await ed.login();

		for (const name of names) {
			say(name);
			try {
				await PICTURES[name]({ sb, e2e, ed });
			} catch (e) {
				failed.push(name);
				const seen = await screenshots(browser, `docs-screenshots ${name}`);
				say(
					`  FAILED: ${e instanceof Error ? e.message.split('\n').slice(0, 3).join(' ') : String(e)}`,
				);
				say(`  what the page showed: ${seen.map((f) => relative(ROOT, f)).join(', ')}`);
				await ed.page.keyboard.press('Escape').catch(() => undefined);
			}
		}
	} finally {
		say('stop Chromium, n8n and the sandbox');
		await started.browser?.close();
		await started.e2e?.stop();
		await started.sb?.stop();
		// n8n's folder of this run (a temp folder: its database, the pack installed): nothing to keep.
		const folder = started.e2e?.env.N8N_USER_FOLDER;
		if (folder) rmSync(folder, { recursive: true, force: true });
		await stopAll(2000);
		const left = processesOfRun(runId()).filter((p) => p.pid !== process.pid);
		if (left.length)
			say(`  still running: ${left.map((p) => `${p.pid} ${p.cmd.slice(0, 60)}`).join('; ')}`);
	}
	if (failed.length) throw new Error(`no picture made for: ${failed.join(', ')}`);
}

main().then(
	() => {
		say(`done in ${Math.round((Date.now() - t0) / 1000)} s`);
		process.exit(0);
	},
	(e: unknown) => {
		process.stderr.write(
			`docs:screenshots failed: ${e instanceof Error ? e.message : String(e)}\n`,
		);
		process.exit(1);
	},
);
