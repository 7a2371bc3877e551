/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * `npm start` as the README tells a person to use it: it prints the address, the account and
 * where n8n's log goes; that address, signed in with that account, shows the demo workflows;
 * n8n's own output is in the log file and not in the terminal; Ctrl-C stops n8n and the sandbox.
 * Its n8n home is a fresh folder (BP_DEMO_DIR), not the one a running `npm start` may be using.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '../../testbed/ports';
import { ROOT } from '../../testbed/root';
import { processesOfRun, runId, spawnGroup, type Managed } from '../../testbed/processes';
import { eventually } from '../../testbed/n8n/env';
import { launchBrowser, scenarios, type Browser } from './browser';
import { Editor } from './editor';

jest.setTimeout(600_000);

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
let start: Managed;
let browser: Browser;
let demoDir: string;
const scenario = scenarios(() => browser);

/** The processes `npm start` started, found by their n8n home or sandbox port (their environment names the demo folder). */
function demoProcesses(): number[] {
	return processesOfRun(runId())
		.map((p) => p.pid)
		.filter((pid) => {
			try {
				return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(demoDir);
			} catch {
				return false;
			}
		});
}

beforeAll(async () => {
	demoDir = mkdtempSync(join(tmpdir(), 'bp-demo-'));
	const env = {
		...process.env,
		BP_DEMO_DIR: demoDir,
		N8N_PORT: String(await freePort()),
		SANDBOX_PORT: String(await freePort()),
	};
	start = spawnGroup('npm start', 'npm', ['start'], { cwd: ROOT, env });
	// Waits for the line a person waits for (first run of a machine: it installs n8n first).
	const deadline = Date.now() + 540_000;
	while (!/Editor ready in/.test(start.output())) {
		if (start.exited())
			throw new Error(
				`npm start exited before the editor was ready:\n${start.output().slice(-3000)}`,
			);
		if (Date.now() > deadline)
			throw new Error(
				`npm start did not print "Editor ready" in time:\n${start.output().slice(-3000)}`,
			);
		await new Promise((r) => setTimeout(r, 200));
	}
	browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
	await browser?.close();
	await start?.stop();
	rmSync(demoDir, { recursive: true, force: true });
});

const printed = (re: RegExp) => {
	const m = re.exec(start.output());
	if (!m) throw new Error(`npm start did not print ${re}:\n${start.output()}`);
	return m.slice(1);
};

describe('npm start', () => {
	scenario(
		"prints where n8n's log goes; n8n's output is in that file and not in the terminal",
		async () => {
			const [log] = printed(/n8n's log: (\S+)/);
			expect(log.startsWith(demoDir)).toBe(true);
			expect(existsSync(log)).toBe(true);
			expect(readFileSync(log, 'utf8')).toMatch(/Editor is now accessible/);
			expect(start.output()).not.toMatch(/Editor is now accessible/);
			expect(README).toMatch(/n8n's log: /);
		},
	);

	scenario(
		'the printed address, signed in with the printed account, shows the demo workflows named as in the README',
		async () => {
			const [url] = printed(/Editor ready in \d+ s: (\S+)/);
			const [email, password] = printed(/Log in as (\S+) \/ (\S+)/);
			const ed = new Editor(browser.page, new URL(url).origin);
			const landed = await ed.login(url, { email, password });
			expect(new URL(landed).pathname).toBe('/home/workflows');
			const demos = readdirSync(join(ROOT, 'demo', 'workflows')).filter((f) =>
				f.endsWith('.json'),
			).length;
			const cards = ed.page.getByTestId('workflow-card-name');
			await cards.nth(demos - 1).waitFor();
			// Waited for, not read once: n8n renders its list again as it loads (seen on a busy machine: the
			// cards gone a moment after the last one showed).
			const names = await eventually(async () => {
				const shown = (await cards.allInnerTexts()).map((n) => n.trim());
				expect(shown).toHaveLength(demos);
				return shown;
			}, 30_000);
			for (const name of names) expect(README).toContain(`"${name}"`);
		},
	);

	scenario('Ctrl-C stops n8n and the sandbox, and nothing it started is left', async () => {
		const started = demoProcesses();
		expect(started.length).toBeGreaterThan(0);
		// What a terminal does on Ctrl-C: SIGINT to npm and everything in its process group.
		process.kill(-start.pid, 'SIGINT');
		await start.exit;
		await eventually(() => expect(start.output()).toMatch(/n8n and the sandbox stopped/), 30_000);
		await eventually(() => expect(demoProcesses()).toEqual([]), 30_000);
		expect(start.output()).not.toMatch(/npm start failed/);
	});
});
