/* eslint-disable @typescript-eslint/no-explicit-any -- development code, not published: linted by eslint.dev.config.mjs */
/** A loopback HTTP server that records the webhook calls it receives. */
import { readBody, serveLoopback, type Loopback } from './loopback';

export interface Received {
	path: string;
	body: any;
	headers: Record<string, string | string[] | undefined>;
}

export interface Receiver extends Loopback {
	calls: Received[];
}

export async function startReceiver(status = 200): Promise<Receiver> {
	const calls: Received[] = [];
	const server = await serveLoopback(async (req, res) => {
		const text = await readBody(req);
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
	return { ...server, calls };
}

/** A stand-in for an express response: records what the node wrote. */
export function fakeResponse() {
	const res = {
		status: 0,
		headers: {} as Record<string, unknown>,
		body: '',
		writeHead(status: number, headers?: Record<string, unknown>) {
			res.status = status;
			Object.assign(res.headers, headers);
			return res;
		},
		end(text?: string) {
			res.body = text ?? '';
			return res;
		},
	};
	return res;
}

/** A receiver for the file: started before its tests, closed after them (`.rx` once started). */
export function useReceiver(status = 200): { readonly rx: Receiver } {
	const holder = {} as { rx: Receiver };
	beforeAll(async () => {
		holder.rx = await startReceiver(status);
	});
	afterAll(async () => {
		await holder.rx?.close();
	});
	return holder;
}
