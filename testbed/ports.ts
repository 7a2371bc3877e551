/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/** Ports for listeners the tests, the benchmarks and `npm start` start later (n8n, its task broker, Redis, PostgreSQL). */
import { createServer } from 'node:net';

/**
 * Where a port for a later listener is picked: below Linux's ephemeral range (32768–60999 by
 * default), from which every outgoing connection takes its own port. A port the OS handed out as
 * free (port 0) sits in that range, and between the check and n8n's listen, which on a loaded
 * machine is a minute later, a test's connection could take it: the shared n8n once exited with
 * "n8n Task Broker's port … is already in use" so.
 */
const PICK_FROM = 20_000;
const PICK_TO = 32_000;

/** Whether a listener on 127.0.0.1 can take `port` now (it is released again). */
async function bindable(port: number): Promise<number | undefined> {
	return await new Promise((res) => {
		const s = createServer();
		s.once('error', () => res(undefined));
		s.listen(port, '127.0.0.1', () => {
			const got = (s.address() as { port: number }).port;
			s.close(() => res(got));
		});
	});
}

/** A free port on 127.0.0.1: `preferred` when it is free, else one outside the ephemeral range. */
export async function freePort(preferred = 0): Promise<number> {
	if (preferred && (await bindable(preferred))) return preferred;
	for (let i = 0; i < 50; i++) {
		const port = PICK_FROM + Math.floor(Math.random() * (PICK_TO - PICK_FROM));
		if (await bindable(port)) return port;
	}
	const any = await bindable(0);
	if (!any) throw new Error('no free port on 127.0.0.1');
	return any;
}
