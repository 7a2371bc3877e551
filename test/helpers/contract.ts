/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * The contract check of every test file (test/jest/contract-check.ts runs it after
 * each test): every sandbox a test starts checks its traffic against
 * contract/openapi.yaml, and a test fails when the nodes sent a request the contract
 * does not describe, or the sandbox answered (or delivered an event) off the contract.
 * A test that sends off-contract requests on purpose (an ID that is not a number, a
 * Custom API Call to an unknown path) says so with `allowOffContract`.
 * The counts of each file go to the run's folder; the global teardown prints the total.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { RUN_ENV } from '../../testbed/processes';
import { loadContract } from '../../sandbox/src/contract/load';
import type { Sandbox, Violation } from '../../sandbox/src/server';

/** The event types of the contract (components.schemas.EventType). */
export const contractEvents = (): string[] =>
	(loadContract().doc as { components: { schemas: { EventType: { enum: string[] } } } }).components
		.schemas.EventType.enum;

interface Watched {
	sb: Sandbox;
	seen: number;
	allowed: { match: RegExp; reason: string }[];
}

const watched: Watched[] = [];

/** Called by the sandbox helpers for each sandbox a test file starts. */
export function watchContract(sb: Sandbox): void {
	if (sb.contract) watched.push({ sb, seen: 0, allowed: [] });
}

/**
 * Off-contract traffic the current test sends on purpose (call it inside the test): a
 * violation whose every problem matches `match` is not reported. `reason` says why.
 * The allowance ends with the test.
 */
export function allowOffContract(sb: Sandbox, match: RegExp, reason: string): void {
	const w = watched.find((x) => x.sb === sb);
	if (w) w.allowed.push({ match, reason });
}

const reported = (w: Watched, v: Violation) =>
	(v.kind !== 'request' || v.caller === 'node') &&
	!v.problems.every((p) => w.allowed.some((a) => a.match.test(p)));

/** The violations since the last call, over every sandbox of the file; throws naming them. */
export function assertContract(): void {
	const found: string[] = [];
	for (const w of watched) {
		const all = w.sb.contract!.violations;
		for (const v of all.slice(w.seen))
			if (reported(w, v)) found.push(...v.problems.map((p) => `  ${v.kind} (${v.caller}): ${p}`));
		w.seen = all.length;
		w.allowed = [];
	}
	if (found.length) {
		throw new Error(
			`Traffic off the platform contract (contract/openapi.yaml; docs/contract.md says how to read this):\n${found.slice(0, 20).join('\n')}` +
				(found.length > 20 ? `\n  … and ${found.length - 20} more` : ''),
		);
	}
}

export interface ContractCounts {
	file: string;
	nodeRequests: number;
	testRequests: number;
	responses: number;
	events: number;
}

const runFolder = () => join(tmpdir(), 'bp-contract', process.env[RUN_ENV] ?? 'no-run');

/** Writes what this file's sandboxes checked to the run's folder (outside the repository). */
export function recordContractCounts(file: string): void {
	const sum: ContractCounts = { file, nodeRequests: 0, testRequests: 0, responses: 0, events: 0 };
	for (const { sb } of watched) {
		const s = sb.contract!.summary();
		sum.nodeRequests += s.requests.node;
		sum.testRequests += s.requests.test;
		sum.responses += s.responses;
		sum.events += s.events;
	}
	if (!watched.length) return;
	mkdirSync(runFolder(), { recursive: true });
	writeFileSync(
		join(runFolder(), `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`),
		JSON.stringify(sum),
	);
}

/** Every file's counts of this run (for the global teardown). */
export function runContractCounts(): ContractCounts[] {
	try {
		return readdirSync(runFolder()).map(
			(f) => JSON.parse(readFileSync(join(runFolder(), f), 'utf8')) as ContractCounts,
		);
	} catch {
		return [];
	}
}

export const contractRunFolder = runFolder;
