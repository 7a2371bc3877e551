/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The tests' own HTTP gives up a connection 10 ms after its answer (test/jest/setup-env.ts): a second
 * request 100 ms later opens a new connection, though the server would keep the first for 30 s.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

it("the tests' fetch does not reuse a connection idle for 100 ms", async () => {
	let connections = 0;
	const server = createServer((_req, res) => res.end('ok'));
	server.keepAliveTimeout = 30_000;
	server.on('connection', () => connections++);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	try {
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
		expect(await (await fetch(url)).text()).toBe('ok');
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(await (await fetch(url)).text()).toBe('ok');
		expect(connections).toBe(2);
	} finally {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	}
});
