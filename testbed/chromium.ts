/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The browser of the editor tests: Debian's Chromium (`/usr/bin/chromium`), driven by
 * playwright-core, which downloads no browser of its own. `ensureChromium()` (the
 * editor suite's global setup) installs it with apt-get when it is missing and this
 * is root, and otherwise stops with the command to run.
 */
import { existsSync } from 'node:fs';

import { spawnGroup } from './processes';

export const CHROMIUM = process.env.BP_CHROMIUM ?? '/usr/bin/chromium';

export const INSTALL_COMMAND =
	'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium';

/**
 * Flags of every launch. Without the background-networking ones Chromium keeps trying
 * Google's services, which this closed network refuses, and pages load slowly.
 */
export const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** Runs a command to completion as a managed process; resolves with its exit code and output. */
async function run(
	name: string,
	cmd: string,
	args: string[],
	env?: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
	const child = spawnGroup(name, cmd, args, { env });
	const { code } = await child.exit;
	await child.stop(0);
	return { code, output: child.output() };
}

/** Chromium's version line, or undefined when it is not installed or does not start. */
export async function chromiumVersion(): Promise<string | undefined> {
	if (!existsSync(CHROMIUM)) return undefined;
	const { code, output } = await run('chromium --version', CHROMIUM, ['--version']);
	const line = output.split('\n').find((l) => /^\s*chromium \d/i.test(l));
	return code === 0 && line ? line.trim() : undefined;
}

/** Makes sure Chromium is there: installs it as root, else fails with the command to run. Returns its version. */
export async function ensureChromium(log: (line: string) => void = () => {}): Promise<string> {
	const found = await chromiumVersion();
	if (found) return found;
	if (process.env.BP_CHROMIUM)
		throw new Error(
			`BP_CHROMIUM=${CHROMIUM} does not start (chromium --version failed): point it at a working Chromium, or unset it to use Debian's.`,
		);
	if (process.getuid?.() !== 0) {
		throw new Error(
			`The editor tests need Chromium at ${CHROMIUM} and this user cannot install it. As root, run:\n  ${INSTALL_COMMAND}`,
		);
	}
	log(`installing Debian's chromium: ${INSTALL_COMMAND}`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
		const { code, output } = await run(`apt-get ${args[0]}`, 'apt-get', args, env);
		if (code !== 0)
			throw new Error(
				`apt-get ${args.join(' ')} failed (exit ${code}); run it by hand to see why:\n  ${INSTALL_COMMAND}\n${output.slice(-2000)}`,
			);
	}
	const installed = await chromiumVersion();
	if (!installed)
		throw new Error(`apt-get installed chromium but ${CHROMIUM} --version still fails`);
	return installed;
}
