/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
/** A loopback HTTP server that records the webhook calls it receives. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
	path: string;
	body: any;
	headers: Record<string, string | string[] | undefined>;
}

export interface Receiver {
	url: string;
	calls: Received[];
	close(): Promise<void>;
}

export async function startReceiver(status = 200): Promise<Receiver> {
	const calls: Received[] = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			let body: unknown = text;
			try {
				body = JSON.parse(text);
			} catch {
				// keep the text
			}
			calls.push({ path: req.url ?? '/', body, headers: req.headers });
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end('{"ok":true}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		calls,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
