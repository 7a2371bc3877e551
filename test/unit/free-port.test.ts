/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The ports the scripts pick for a listener that starts later (n8n's main and task broker, Redis,
 * PostgreSQL) lie below Linux's ephemeral range (32768–60999), from which every outgoing connection
 * takes its port: a port picked there could be taken by a test's connection before n8n listens on it.
 */
import { createServer } from 'node:net';

import { freePort } from '../../testbed/ports';

describe('freePort', () => {
	it('picks free ports below the ephemeral range, and the preferred one when it is free', async () => {
		const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
		for (const p of ports) {
			expect(p).toBeGreaterThanOrEqual(20_000);
			expect(p).toBeLessThan(32_768);
		}
		expect(await freePort(ports[0])).toBe(ports[0]);
	});

	it('passes over a preferred port that is taken', async () => {
		const server = createServer();
		await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
		const taken = (server.address() as { port: number }).port;
		try {
			const p = await freePort(taken);
			expect(p).not.toBe(taken);
			expect(p).toBeLessThan(32_768);
		} finally {
			await new Promise((r) => server.close(r));
		}
	});
});
