/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The sandbox's HTTP listeners on the configured host: the API host and, with
 * `regional`, a second "regional host" with the same handler. Closing drops
 * every open connection, so a restart looks like a server going away.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { errorReply, send, type Host } from './dispatch';
import type { SandboxConfig } from './env';

export class Listeners {
	private readonly sockets = new Set<Socket>();
	private readonly servers: Partial<Record<Host, Server>> = {};
	/** TCP connections accepted since the last reset (a client without keep-alive opens one per request). */
	connections = 0;
	/**
	 * The most connections open at once since the last reset: a client's pool size, or for a
	 * client without keep-alive (one connection per request) its requests in flight.
	 */
	maxOpen = 0;
	/** Requests being answered now, and the most at once since the last reset (what a client's parallelism really was). */
	private inFlight = 0;
	maxInFlight = 0;

	resetCounters(): void {
		this.connections = 0;
		this.maxOpen = this.sockets.size;
		this.maxInFlight = this.inFlight;
	}

	constructor(
		private readonly config: SandboxConfig,
		private readonly handle: (
			req: IncomingMessage,
			res: ServerResponse,
			host: Host,
		) => Promise<void>,
	) {}

	/** Listens on `port` (0: a free one) for `host`; resolves with the port. */
	listen(port: number, host: Host): Promise<number> {
		return new Promise<number>((resolve, reject) => {
			const server = createServer((req, res) => {
				this.inFlight++;
				this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
				res.once('close', () => this.inFlight--);
				this.handle(req, res, host).catch((e) => {
					if (!res.headersSent) send(res, errorReply(e, 'platform'));
				});
			});
			this.servers[host] = server;
			server.keepAliveTimeout = 30_000;
			server.on('connection', (s) => {
				this.connections++;
				this.sockets.add(s);
				this.maxOpen = Math.max(this.maxOpen, this.sockets.size);
				s.on('close', () => this.sockets.delete(s));
			});
			server.once('error', reject);
			server.listen(port, this.config.host, () => resolve((server.address() as AddressInfo).port));
		});
	}

	/** Closes every listener and destroys every open connection. */
	close(): Promise<void> {
		return Promise.all(
			Object.values(this.servers).map(
				(server) =>
					new Promise<void>((resolve) => {
						for (const s of this.sockets) s.destroy();
						server.close(() => resolve());
					}),
			),
		).then(() => undefined);
	}
}
