/**
 * Faults on demand. A rule matches requests by method and path (prefix, or a
 * regular expression written /.../), fires for a share of them (`rate`) and/or
 * for the next `count` matches, and either delays the request (`latency`),
 * answers an error status (`status`, with Retry-After for 429/503), or drops the
 * connection without an answer (`drop`). `phase: "after"` lets the request be
 * processed first and only then replaces the answer: the client sees a failure
 * although the change happened (the case that makes blind retries duplicate data).
 */
export interface FaultRule {
	id?: number;
	kind: 'latency' | 'status' | 'drop';
	method?: string;
	path?: string;
	/** 0..1: share of matching requests hit. Default 1. */
	rate?: number;
	/** Only the next N matching requests. Default: unlimited. */
	count?: number;
	/** For latency. */
	ms?: number;
	/** For status: 429, 500, 503, … */
	status?: number;
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

	constructor(seed = 42) {
		this.random = prng(seed);
	}

	add(rule: FaultRule): FaultRule {
		if (!['latency', 'status', 'drop'].includes(rule.kind))
			throw new Error('kind must be latency, status or drop');
		if (
			rule.kind === 'status' &&
			!(typeof rule.status === 'number' && rule.status >= 400 && rule.status < 600)
		)
			throw new Error('status faults need a status between 400 and 599');
		if (rule.kind === 'latency' && !(typeof rule.ms === 'number' && rule.ms >= 0))
			throw new Error('latency faults need ms');
		const stored = { ...rule, id: this.nextId++ };
		this.rules.push(stored);
		return stored;
	}

	clear(): void {
		this.rules = [];
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
			if (rule.kind !== 'latency' && answered.has(phase)) continue;
			if (rule.rate !== undefined && rule.rate < 1 && this.random() >= rule.rate) continue;
			if (rule.count !== undefined) rule.count--;
			this.fired++;
			if (rule.kind !== 'latency') answered.add(phase);
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
