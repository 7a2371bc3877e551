/** Request counters and the request log behind /__admin/stats and /__admin/requests. */
import type { SandboxConfig } from './env';

export interface LoggedRequest {
	seq: number;
	at: string;
	method: string;
	path: string;
	query: string;
	route?: string;
	status: number;
	tenantId?: number;
	/** The raw request body (first 64 KiB). Headers are never logged. */
	body?: string;
	/** Which listener answered: the API host or the regional host. */
	host: 'main' | 'regional';
	fault?: string;
}

/** A request as the server sees it, before it is numbered and dated. */
export type RequestEntry = Omit<LoggedRequest, 'seq' | 'at'>;

export class RequestLog {
	total = 0;
	byRoute: Record<string, number> = {};
	byStatus: Record<string, number> = {};
	entries: LoggedRequest[] = [];
	/** Keeps counting across resets, so `since` stays meaningful. */
	private seq = 0;

	constructor(private readonly config: SandboxConfig) {}

	record(entry: RequestEntry): void {
		this.total++;
		this.byStatus[entry.status] = (this.byStatus[entry.status] ?? 0) + 1;
		if (entry.route) this.byRoute[entry.route] = (this.byRoute[entry.route] ?? 0) + 1;
		this.entries.push({ seq: ++this.seq, at: new Date().toISOString(), ...entry });
		if (this.entries.length > this.config.requestLog * 1.2)
			this.entries = this.entries.slice(-this.config.requestLog);
	}

	reset(): void {
		this.total = 0;
		this.byRoute = {};
		this.byStatus = {};
		this.entries = [];
	}
}
