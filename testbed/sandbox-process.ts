/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The sandbox in a process of its own (as `npm run sandbox` starts it), for the
 * benchmarks: the client under test and the server do not share an event loop.
 * Managed like every process (testbed/processes.ts).
 */
import { join } from 'node:path';

import { ROOT } from './root';
import { spawnGroup } from './processes';

/** The sandbox's ready line (sandbox/src/cli.ts). */
export interface SandboxReady {
	baseUrl: string;
	authUrl: string;
	clientId: string;
	clientSecret: string;
	accessToken: string;
}

export async function startSandboxProcess(
	flags: string[] = [],
): Promise<{ ready: SandboxReady; pid: number; stop: () => Promise<void> }> {
	const child = spawnGroup(
		'sandbox',
		process.execPath,
		['--import', 'tsx', join(ROOT, 'sandbox/src/cli.ts'), '--port', '0', ...flags],
		{ cwd: ROOT, graceMs: 2000 },
	);
	const ready = await new Promise<SandboxReady>((res, rej) => {
		const look = () => {
			const out = child.output();
			const line = out.split('\n').find((l) => l.startsWith('{'));
			if (line) return res(JSON.parse(line) as SandboxReady);
			if (child.exited())
				return rej(new Error(`the sandbox exited while starting:\n${out.slice(-2000)}`));
			setTimeout(look, 50);
		};
		look();
	});
	return { ready, pid: child.pid, stop: () => child.stop() };
}
