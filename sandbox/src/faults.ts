/**
 * Faults on demand. A rule matches requests by method and path (prefix, or a
 * regular expression written /.../), fires for a share of them (`rate`) and/or
 * for the next `count` matches, and either delays the request (`latency`), holds it
 * until a test releases it (`hold`: a request "slow" for exactly as long as the test
 * needs, so an interleaving is reproducible), answers an error status (`status`, with
 * Retry-After for 429/503; `echo: true` repeats the request's body in the error's
 * text, as a careless platform does), answers a body of the test's choosing (`body`:
 * a 200 that is not the contract's shape, such as an HTML maintenance page), or drops
 * the connection without an answer (`drop`). `phase: "after"` lets the request be
 * processed first and only then replaces the answer: the client sees a failure
 * although the change happened (the case that makes blind retries duplicate data).
 */
export interface FaultRule {
	id?: number;
	kind: 'latency' | 'hold' | 'status' | 'body' | 'drop';
	method?: string;
	path?: string;
	/** 0..1: share of matching requests hit. Default 1. */
	rate?: number;
	/** Only the next N matching requests. Default: unlimited. */
	count?: number;
	/** For latency. */
	ms?: number;
	/** For status: 429, 500, 503, …; for body: the answer's status (default 200). */
	status?: number;
	/**
	 * For status: the error's text repeats the request's body (`true`), or one field of its JSON
	 * (its name), as a careless platform echoes what it refused.
	 */
	echo?: boolean | string;
	/** For body: the answer's text, sent as is (default empty). */
	body?: string;
	/** For body: its content type (default application/json). */
	contentType?: string;
	/** Seconds sent as Retry-After with status faults. */
	retryAfter?: number;
	phase?: 'before' | 'after';
}

export interface FaultHit {
	rule: FaultRule;
	phase: 'before' | 'after';
}

/** Deterministic PRNG (mulberry32): repeatable fault runs and demo data. */
export function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export class Faults {
	private rules: FaultRule[] = [];
	private nextId = 1;
	private random: () => number;
	fired = 0;
	/** Requests a `hold` rule keeps waiting, each with what releases it. */
	private readonly waiting = new Set<() => void>();

	constructor(seed = 42) {
		this.random = prng(seed);
	}

	add(rule: FaultRule): FaultRule {
		if (!['latency', 'hold', 'status', 'body', 'drop'].includes(rule.kind))
			throw new Error('kind must be latency, hold, status, body or drop');
		if (
			rule.kind === 'status' &&
			!(typeof rule.status === 'number' && rule.status >= 400 && rule.status < 600)
		)
			throw new Error('status faults need a status between 400 and 599');
		if (rule.kind === 'latency' && !(typeof rule.ms === 'number' && rule.ms >= 0))
			throw new Error('latency faults need ms');
		if (rule.kind === 'body') {
			if (rule.body !== undefined && typeof rule.body !== 'string')
				throw new Error('body faults need a text body');
			if (rule.status !== undefined && !(rule.status >= 200 && rule.status < 600))
				throw new Error('body faults need a status between 200 and 599');
		}
		const stored = { ...rule, id: this.nextId++ };
		this.rules.push(stored);
		return stored;
	}

	clear(): void {
		this.rules = [];
		this.release();
	}

	/** Removes one rule (a test's rule for the next request, when that request did not come). */
	remove(id: number | undefined): void {
		this.rules = this.rules.filter((r) => r.id !== id);
	}

	/** Requests held now (a test waits for its request to arrive before it acts). */
	get held(): number {
		return this.waiting.size;
	}

	/** Holds a request until `release` (a `hold` rule fired for it). */
	async hold(): Promise<void> {
		await new Promise<void>((resolve) => {
			const go = () => {
				this.waiting.delete(go);
				resolve();
			};
			this.waiting.add(go);
		});
	}

	/** Lets every held request go on; returns how many. */
	release(): number {
		const all = [...this.waiting];
		for (const go of all) go();
		return all.length;
	}

	list(): FaultRule[] {
		return this.rules.map((r) => ({ ...r }));
	}

	private matches(rule: FaultRule, method: string, path: string): boolean {
		if (rule.method && rule.method.toUpperCase() !== method) return false;
		if (rule.path) {
			if (
				rule.path.length > 2 &&
				rule.path.startsWith('/') &&
				rule.path.endsWith('/') &&
				!rule.path.startsWith('/v')
			) {
				if (!new RegExp(rule.path.slice(1, -1)).test(path)) return false;
			} else if (!path.startsWith(rule.path)) return false;
		}
		return true;
	}

	/** The rules that fire for this request, in order; counts are used up here. */
	pick(method: string, path: string): FaultHit[] {
		const hits: FaultHit[] = [];
		// One answer per request: once a status or drop rule fires for a phase, later ones wait
		// (and keep their counts) for the next request; latencies add up.
		const answered = new Set<string>();
		for (const rule of this.rules) {
			if (rule.count !== undefined && rule.count <= 0) continue;
			if (!this.matches(rule, method, path)) continue;
			const phase = rule.phase ?? 'before';
			const answers = rule.kind !== 'latency' && rule.kind !== 'hold';
			if (answers && answered.has(phase)) continue;
			if (rule.rate !== undefined && rule.rate < 1 && this.random() >= rule.rate) continue;
			if (rule.count !== undefined) rule.count--;
			this.fired++;
			if (answers) answered.add(phase);
			hits.push({ rule, phase });
		}
		this.rules = this.rules.filter((r) => r.count === undefined || r.count > 0);
		return hits;
	}
}

/** Parses `--fault` CLI values: JSON, or the short form `status:503:count=3:path=/v1/crm`. */
export function parseFaultFlag(value: string): FaultRule {
	if (value.trim().startsWith('{')) return JSON.parse(value) as FaultRule;
	const [kind, first, ...rest] = value.split(':');
	const rule: FaultRule = { kind: kind as FaultRule['kind'] };
	if (kind === 'status' && first) rule.status = Number(first);
	else if (kind === 'latency' && first) rule.ms = Number(first);
	else if (first) rest.unshift(first);
	for (const part of rest) {
		const [k, v] = part.split('=');
		if (k === 'rate' || k === 'count' || k === 'retryAfter' || k === 'ms' || k === 'status')
			rule[k] = Number(v);
		else if (k === 'path' || k === 'method') rule[k] = v;
		else if (k === 'phase') rule.phase = v as 'before' | 'after';
	}
	return rule;
}
