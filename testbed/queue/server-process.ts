/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * How queue mode's servers (Redis, PostgreSQL) run: each a managed process (testbed/processes.ts) behind setpriv,
 * which stops it when the process that started it dies and, as root, runs it as `nobody`; ready when it says so.
 */
import { spawnSync } from 'node:child_process';

import { spawnGroup, type Managed } from '../processes';

export const isRoot = () => process.getuid?.() === 0;
export const hasCommand = (cmd: string) =>
	spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).status === 0;

export interface Server {
	port: number;
	process: Managed;
	stop(): Promise<void>;
}

export async function until(
	what: string,
	proc: Managed,
	ready: () => Promise<boolean> | boolean,
	timeoutMs: number,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (await ready()) return;
		if (proc.exited())
			throw new Error(`${what} exited while starting:\n${proc.output().slice(-2000)}`);
		if (Date.now() > deadline) {
			await proc.stop(0);
			throw new Error(
				`${what} was not ready after ${timeoutMs / 1000} s:\n${proc.output().slice(-2000)}`,
			);
		}
		await new Promise((r) => setTimeout(r, 50));
	}
}

/** Runs a command to completion as a managed process; throws with its output when it fails. */
export async function runToEnd(
	name: string,
	cmd: string,
	args: string[],
	env: NodeJS.ProcessEnv,
): Promise<void> {
	const child = spawnGroup(name, cmd, args, { env });
	const { code, signal } = await child.exit;
	await child.stop(0);
	if (code !== 0)
		throw new Error(`${name} failed (${signal ?? code}):\n${child.output().slice(-2000)}`);
}

/**
 * setpriv (util-linux) in front of a server: it gets `deathSignal` if the process that
 * started it dies without stopping it (SIGKILL), and, as root, runs as `nobody`.
 */
export function prefix(deathSignal: string, asNobody: boolean): string[] {
	if (!hasCommand('setpriv')) return [];
	return [
		'setpriv',
		...(asNobody ? ['--reuid=nobody', '--regid=nogroup', '--clear-groups'] : []),
		`--pdeathsig=${deathSignal}`,
		'--',
	];
}

export function launch(
	name: string,
	pre: string[],
	bin: string,
	args: string[],
	env: NodeJS.ProcessEnv,
	graceMs: number,
): Managed {
	const [cmd, ...rest] = pre.length ? [...pre, bin, ...args] : [bin, ...args];
	return spawnGroup(name, cmd, rest, { env, graceMs });
}
