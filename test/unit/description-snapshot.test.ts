/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * Saved workflows are sacred: every node version's parameters (and the credential's)
 * are compared with the committed snapshot in test/descriptions/. A change that would
 * break a saved workflow fails here with the parameter's path; additive changes pass
 * and show as a "todo" until the snapshot records them (npm run descriptions:update).
 * Run alone: npm run test:descriptions.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	breakingMessage,
	compareSnapshots,
	VERSION_ADVICE,
} from '../../testbed/descriptions/compare';
import {
	currentSnapshots,
	SNAPSHOT_DIR,
	snapshotFile,
	UPDATE_COMMAND,
	type Snapshot,
} from '../../testbed/descriptions/snapshot';

const current = currentSnapshots();
const committed = readdirSync(SNAPSHOT_DIR)
	.filter((f) => f.endsWith('.json'))
	.map((f) => JSON.parse(readFileSync(join(SNAPSHOT_DIR, f), 'utf8')) as Snapshot);
const find = (list: Snapshot[], s: Snapshot) =>
	list.find((x) => x.kind === s.kind && x.name === s.name);

describe.each(committed.map((s) => [`${s.kind} ${s.name}`, s] as const))('%s', (_label, old) => {
	const result = compareSnapshots(old, find(current, old));

	it('keeps every saved workflow working (no breaking change to a recorded version)', () => {
		if (result.breaking.length) throw new Error(breakingMessage(result.breaking, old.kind));
	});

	if (result.additive.length) {
		const list = result.additive.map((f) => `${f.where}: ${f.what}`);
		it.todo(
			`${list.length} additive change(s) not yet in the snapshot (run ${UPDATE_COMMAND}): ${list.slice(0, 3).join('; ')}${list.length > 3 ? '; …' : ''}`,
		);
	}
});

describe('the snapshot', () => {
	const unrecorded = current.filter((s) => !existsSync(snapshotFile(s)));
	if (unrecorded.length)
		it.todo(
			`has no entry for ${unrecorded.map((s) => `${s.kind} ${s.name}`).join(', ')} yet (run ${UPDATE_COMMAND})`,
		);

	it('covers every node and credential of package.json', () => {
		expect(committed.length).toBeGreaterThanOrEqual(5);
		for (const s of committed) expect(find(current, s)).toBeDefined();
	});

	it('names the generator that writes it (a moved generator shows here, not in the next update)', () => {
		for (const s of committed) expect(s.generatedBy).toBe(find(current, s)?.generatedBy);
	});
});

it('holds no default that follows the clock: a description built in another year is the same', () => {
	// n8n leaves a value equal to the default out of a saved workflow: a default of "this year" changes what it reads.
	jest.useFakeTimers({ now: new Date('2031-06-15T12:00:00Z') });
	try {
		let later: Snapshot[] = [];
		jest.isolateModules(() => {
			type Module = typeof import('../../testbed/descriptions/snapshot');
			// eslint-disable-next-line @typescript-eslint/no-require-imports -- the descriptions built anew under the other clock
			const fresh = require('../../testbed/descriptions/snapshot') as Module;
			later = fresh.currentSnapshots();
		});
		expect(later).toEqual(current);
	} finally {
		jest.useRealTimers();
	}
});

/** The guard itself, on a copy of the committed Sales snapshot changed the ways people change descriptions. */
describe('the guard', () => {
	const sales = committed.find((s) => s.name === 'businessPlatformSales')!;
	const changed = (edit: (params: Record<string, Record<string, unknown>>) => void): Snapshot => {
		const copy = structuredClone(sales);
		edit(copy.versions['1'].parameters as Record<string, Record<string, unknown>>);
		return copy;
	};
	const visibility = 'contact › create › additionalFields › visibilityType';

	it.each([
		[
			'a changed option value',
			(p: Record<string, Record<string, unknown>>) =>
				((p[visibility].options as Array<{ value: string }>)[2].value = 'everyone'),
			/option value "team" was removed or changed/,
		],
		[
			'a changed default',
			(p: Record<string, Record<string, unknown>>) => (p[visibility].default = 'private'),
			/its default changed from "public" to "private"/,
		],
		[
			'a changed type',
			(p: Record<string, Record<string, unknown>>) => (p['contact › create › name'].type = 'json'),
			/its type changed/,
		],
		[
			'a removed parameter',
			(p: Record<string, Record<string, unknown>>) => delete p['contact › create › name'],
			/removed or renamed/,
		],
		[
			'a parameter hidden under a new condition',
			(p: Record<string, Record<string, unknown>>) =>
				(p['contact › create › name'].displayOptions = { show: { type: ['person'] } }),
			/conditions for showing it changed/,
		],
		[
			'a new required parameter without default',
			(p: Record<string, Record<string, unknown>>) =>
				(p['contact › create › extra'] = {
					name: 'extra',
					type: 'string',
					default: '',
					required: true,
				}),
			/new required parameter/,
		],
		[
			'a parameter hidden by a new parameter at its default',
			(p: Record<string, Record<string, unknown>>) => {
				p['contact › create › mode'] = {
					name: 'mode',
					type: 'options',
					default: 'json',
					options: [
						{ name: 'Fields', value: 'fields' },
						{ name: 'JSON', value: 'json' },
					],
				};
				p['contact › create › name'].displayOptions = { hide: { mode: ['json'] } };
			},
			/conditions for showing it changed/,
		],
	])('fails on %s, naming the parameter and asking for a node version', (_what, edit, reason) => {
		const result = compareSnapshots(sales, changed(edit));
		const message = breakingMessage(result.breaking, 'node');
		expect(result.breaking.length).toBeGreaterThan(0);
		expect(message).toMatch(reason);
		expect(message).toContain(
			'Business Platform Sales (businessPlatformSales) v1: contact › create ›',
		);
		expect(message).toContain(VERSION_ADVICE);
	});

	it.each([
		[
			'a new optional parameter',
			(p: Record<string, Record<string, unknown>>) =>
				(p['contact › create › extra'] = { name: 'extra', type: 'string', default: '' }),
		],
		[
			'a new option',
			(p: Record<string, Record<string, unknown>>) =>
				(p[visibility].options as unknown[]).push({ name: 'Everyone', value: 'everyone' }),
		],
		[
			'new wording',
			(p: Record<string, Record<string, unknown>>) =>
				Object.assign(p[visibility], { displayName: 'Shown To', description: 'Who sees it' }),
		],
		[
			// Saved workflows have no value for the new parameter: n8n gives them its default, which keeps the old one shown.
			'a parameter hidden only when a new parameter leaves its default',
			(p: Record<string, Record<string, unknown>>) => {
				p['contact › create › mode'] = {
					name: 'mode',
					type: 'options',
					default: 'fields',
					options: [
						{ name: 'Fields', value: 'fields' },
						{ name: 'JSON', value: 'json' },
					],
				};
				p['contact › create › name'].displayOptions = { hide: { mode: ['json'] } };
			},
		],
	])('lets %s through as additive', (_what, edit) => {
		const result = compareSnapshots(sales, changed(edit));
		expect(result.breaking).toEqual([]);
		expect(result.additive.length).toBeGreaterThan(0);
	});

	it('sees no change in the order of an object’s keys', () => {
		const reordered = changed((p) => {
			const entry = p['contact › get › contactId'];
			p['contact › get › contactId'] = Object.fromEntries(
				Object.entries(entry)
					.reverse()
					.map(([k, v]) => [
						k,
						v && typeof v === 'object' && !Array.isArray(v)
							? Object.fromEntries(Object.entries(v).reverse())
							: v,
					]),
			);
		});
		expect(compareSnapshots(sales, reordered)).toEqual({ breaking: [], additive: [] });
	});

	it('treats a removed version as breaking and a new one as additive', () => {
		const next = String(Math.max(...Object.keys(sales.versions).map(Number)) + 1);
		const withNext = structuredClone(sales);
		withNext.versions[next] = structuredClone(sales.versions['1']);
		expect(compareSnapshots(sales, withNext)).toMatchObject({
			breaking: [],
			additive: [{ what: 'new version' }],
		});
		expect(compareSnapshots(withNext, sales).breaking[0].what).toMatch(/version is gone/);
	});
});
