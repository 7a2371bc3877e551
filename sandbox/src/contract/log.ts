/**
 * What the sandbox saw against the contract (with `contract: true`): how many requests,
 * answers and event payloads it checked, and every violation. Requests the tests make
 * themselves carry the header `x-sandbox-caller: test` and are counted apart: the
 * contract binds what the nodes send and everything the sandbox answers.
 */
import { ContractChecker, type RequestFacts } from './check';
import type { ContractOperation } from './load';

export type Caller = 'node' | 'test';

export interface Violation {
	kind: 'request' | 'response' | 'event';
	caller: Caller;
	method: string;
	path: string;
	problems: string[];
}

export interface ContractSummary {
	requests: Record<Caller, number>;
	responses: number;
	events: number;
	violations: Violation[];
}

let shared: ContractChecker | undefined;
/** One checker per process: the document is read and its schemas compiled once. */
export const contractChecker = (): ContractChecker => (shared ??= new ContractChecker());

export class ContractLog {
	requests: Record<Caller, number> = { node: 0, test: 0 };
	responses = 0;
	events = 0;
	violations: Violation[] = [];

	constructor(private readonly checker: ContractChecker = contractChecker()) {}

	/** Checks a request; returns the operation it named, for checking the answer. */
	request(facts: RequestFacts, caller: Caller): ContractOperation | undefined {
		this.requests[caller]++;
		const { op, problems } = this.checker.checkRequest(facts);
		if (problems.length)
			this.violations.push({
				kind: 'request',
				caller,
				method: facts.method,
				path: facts.path,
				problems,
			});
		return op;
	}

	response(
		op: ContractOperation,
		caller: Caller,
		facts: { method: string; path: string; status: number; contentType?: string; body: string },
	): void {
		this.responses++;
		const problems = this.checker.checkResponse(op, facts.status, facts.contentType, facts.body);
		if (problems.length)
			this.violations.push({
				kind: 'response',
				caller,
				method: facts.method,
				path: facts.path,
				problems,
			});
	}

	event(payload: unknown): void {
		this.events++;
		const problems = this.checker.checkEvent(payload);
		if (problems.length)
			this.violations.push({
				kind: 'event',
				caller: 'node',
				method: 'POST',
				path: '(webhookUrl)',
				problems,
			});
	}

	summary(): ContractSummary {
		return {
			requests: { ...this.requests },
			responses: this.responses,
			events: this.events,
			violations: [...this.violations],
		};
	}

	reset(): void {
		this.requests = { node: 0, test: 0 };
		this.responses = 0;
		this.events = 0;
		this.violations = [];
	}
}
