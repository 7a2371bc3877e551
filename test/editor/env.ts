/**
 * One editor test file's world, fresh each run: a sandbox, a real n8n with the pack (one of the
 * suite's, to this file alone while it runs and emptied for it: test/editor/editor-n8ns.ts), the
 * demo credential (connected) and the demo workflows (what `npm start` sets up), Chromium
 * signed in. Everything is stopped or removed after the file, also when a hook failed.
 */
import {
	demoOpenAiCredential,
	demoWorkflows,
	DEMO_CREDENTIAL_ID,
	DEMO_OPENAI_CREDENTIAL_ID,
} from '../../demo/demo';
import { startTestSandbox, type Sandbox } from '../helpers/sandbox';
import { connectCredential } from '../../testbed/n8n/env';
import { launchBrowser, scenarios, type Browser } from './browser';
import { Editor } from './editor';
import { claimEditorN8n, type EditorN8n } from './editor-n8ns';

export const CREDENTIAL_NAME = 'Business Platform (sandbox)';

export interface EditorEnv {
	sb: Sandbox;
	e2e: EditorN8n;
	browser: Browser;
	ed: Editor;
}

/** A demo workflow as saved by an earlier release: its pack nodes at type version 1 (saved workflows keep their version). */
export function demoAtVersion1(id: string, newId: string): Record<string, unknown> {
	const demo = JSON.parse(
		JSON.stringify((demoWorkflows() as Array<Record<string, unknown>>).find((w) => w.id === id)),
	) as { name: string; nodes: Array<{ type: string; typeVersion: number }> };
	for (const n of demo.nodes)
		if (n.type.startsWith('n8n-nodes-business-platform.')) n.typeVersion = 1;
	return { ...demo, id: newId, name: `${demo.name} (version 1)` };
}

/** Starts the world in beforeAll and stops it in afterAll; returns it (filled in once beforeAll ran) and `scenario`, jest's `it` with screenshots on failure. */
export function useEditor(
	options: { rows?: number; workflows?: Array<Record<string, unknown>> } = {},
) {
	const env = {} as EditorEnv;
	beforeAll(async () => {
		env.sb = await startTestSandbox({ rows: options.rows ?? 10 });
		const { sb } = env;
		// No CLI import (each starts n8n's CLI once more): the credential is connected through
		// n8n's OAuth flow, as a person's Connect button does, and the workflows are saved through
		// n8n's REST API with their ids (n8n 2.41 keeps a given id), on the credentials n8n created.
		env.e2e = await claimEditorN8n();
		const { api, n8n } = env.e2e;
		const openAi = demoOpenAiCredential();
		const ids: Record<string, string> = {
			[DEMO_CREDENTIAL_ID]: await connectCredential(api, n8n.url, sb, CREDENTIAL_NAME),
			[DEMO_OPENAI_CREDENTIAL_ID]: (
				await api.rest<{ data: { id: string } }>('POST', '/credentials', {
					name: openAi.name,
					type: openAi.type,
					data: openAi.data,
				})
			).data.id,
		};
		const workflows = [
			...(demoWorkflows() as Array<Record<string, unknown>>),
			...(options.workflows ?? []),
		];
		for (const demo of workflows) {
			const workflow = JSON.parse(
				Object.entries(ids).reduce(
					(text, [demoId, id]) => text.replaceAll(demoId, id),
					JSON.stringify(demo),
				),
			) as Record<string, unknown>;
			const saved = await api.rest<{ data: { id: string } }>('POST', '/workflows', workflow);
			if (saved.data.id !== workflow.id)
				throw new Error(
					`n8n saved the workflow ${String(workflow.id)} as ${saved.data.id}: the editor tests open it by its id`,
				);
		}
		env.browser = await launchBrowser();
		env.ed = new Editor(env.browser.page, env.e2e.n8n.url);
		await env.ed.login();
	}, 300_000);

	afterAll(async () => {
		if (env.browser) {
			await env.browser.close();
			expect(env.browser.leftovers()).toEqual([]);
		}
		// Emptied while the sandbox still answers (the published Trigger removes its webhooks there).
		await env.e2e?.stop();
		await env.sb?.stop();
	}, 60_000);

	return { env, scenario: scenarios(() => env.browser) };
}
