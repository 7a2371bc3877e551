/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Chromium for the editor tests: Debian's build (testbed/chromium.ts) launched by
 * playwright-core with a fresh profile, marked with the run's id (so the run's sweep finds
 * it and its helpers), closed with the test file on every path (onCleanup), and screenshots
 * of every open page when a test fails.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium, selectors, type BrowserContext, type Page } from 'playwright-core';

import { CHROMIUM, CHROMIUM_FLAGS } from '../../testbed/chromium';
import { onCleanup, processesOfRun, RUN_ENV, runId } from '../../testbed/processes';

/** Where failing tests leave their screenshots (git-ignored). */
export const SCREENSHOTS = join(__dirname, '.screenshots');

export interface Browser {
	context: BrowserContext;
	/** The first tab; popups (the OAuth page) open as further pages of the context. */
	page: Page;
	/** Closes Chromium and removes its profile. */
	close(): Promise<void>;
	/** Processes of this browser still running (by its profile folder): none after close(). */
	leftovers(): Array<{ pid: number; cmd: string }>;
}

export async function launchBrowser(): Promise<Browser> {
	// n8n marks its elements with data-test-id, not Playwright's default data-testid.
	selectors.setTestIdAttribute('data-test-id');
	const profile = mkdtempSync(join(tmpdir(), 'bp-chromium-'));
	const launched: { context?: BrowserContext } = {};
	const close = async () => {
		await launched.context?.close().catch(() => undefined);
		rmSync(profile, { recursive: true, force: true });
	};
	// Registered before the launch: a launch cut short by the file's cleanup is still closed
	// (and anything it started carries the run id for the sweep).
	onCleanup(close);
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		args: CHROMIUM_FLAGS,
		env: { ...process.env, [RUN_ENV]: runId() },
		viewport: { width: 1600, height: 1000 },
		timeout: 60_000,
	});
	launched.context = context;
	context.setDefaultTimeout(30_000);
	const page = context.pages()[0] ?? (await context.newPage());
	return {
		context,
		page,
		close,
		leftovers: () => processesOfRun(runId()).filter((p) => p.cmd.includes(profile)),
	};
}

const slug = (text: string) =>
	text
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '')
		.slice(0, 90);

/** A screenshot of each open page (the editor, a popup), named after the test. Returns the files. */
export async function screenshots(
	browser: Browser | undefined,
	testName: string,
): Promise<string[]> {
	if (!browser) return [];
	mkdirSync(SCREENSHOTS, { recursive: true });
	const files: string[] = [];
	for (const [i, page] of browser.context.pages().entries()) {
		const file = join(SCREENSHOTS, `${slug(testName)}${i ? `-page${i + 1}` : ''}.png`);
		try {
			await page.screenshot({ path: file, timeout: 10_000 });
			files.push(file);
		} catch {
			// a page that closed meanwhile
		}
	}
	return files;
}

type TestFn = () => Promise<void>;

/**
 * `it` with screenshots on failure. `failing` marks a test of a defect whose fix has not
 * landed yet (jest's `it.failing`: it passes while the defect is there, and fails, asking
 * to be turned into a plain test, once the fix makes it pass). Their screenshots show
 * the defect.
 */
export function scenarios(browser: () => Browser | undefined) {
	const wrap = (name: string, fn: TestFn) => async () => {
		try {
			await fn();
		} catch (e) {
			const files = await screenshots(browser(), name);
			if (files.length && e instanceof Error) e.message += `\n\nScreenshots: ${files.join(', ')}`;
			throw e;
		}
	};
	const scenario = (name: string, fn: TestFn, timeout?: number) =>
		it(name, wrap(name, fn), timeout);
	// BP_EDITOR_SHOW_DEFECTS=1 runs these as plain tests, to see how each one fails now.
	scenario.failing = (name: string, fn: TestFn, timeout?: number) =>
		(process.env.BP_EDITOR_SHOW_DEFECTS ? it : it.failing)(name, wrap(name, fn), timeout);
	return scenario;
}
