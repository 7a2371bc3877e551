/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/** An HTTP server of a test on a free 127.0.0.1 port (receivers, fronts, scripted servers). */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { onCleanup } from '../../testbed/processes';

export interface Loopback {
	/** http://127.0.0.1:<port>, without a trailing slash. */
	url: string;
	/** Ends open connections and stops listening; also done after the test file if a test did not. */
	close(): Promise<void>;
}

/**
 * Serves `handle` until closed. A handler that throws or rejects is answered 500 (or its
 * response ended, if it had begun).
 */
export async function serveLoopback(
	handle: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
): Promise<Loopback> {
	const server = createServer((req, res) => {
		Promise.resolve()
			.then(() => handle(req, res))
			.catch((e: unknown) => {
				if (res.headersSent) return void res.end();
				res.writeHead(500, { 'content-type': 'text/plain' });
				res.end(`Test server failure: ${e instanceof Error ? e.message : String(e)}`);
			});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const stop = () =>
		new Promise<void>((resolve) => {
			server.closeAllConnections();
			server.close(() => resolve());
		});
	const remove = onCleanup(stop);
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		async close() {
			remove();
			if (server.listening) await stop();
		},
	};
}

/** The request's body as text, once all of it has arrived. */
export async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const c of req) chunks.push(c as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}
