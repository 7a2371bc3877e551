/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * docs/ai-tools.md (and docs/ai-agents.md's tool list) hold, between markers, what models receive
 * from the pack's tools, written by the tests that observe it. A test compares what it
 * observed with its section and fails with the command that rewrites it;
 * `npm run docs:ai-tools` sets BP_WRITE_REPORTS=1 and the sections are written instead.
 * `npm test` never writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { ROOT } from '../../testbed/root';

export const AI_TOOLS_DOC = 'docs/ai-tools.md';
/** The page about AI agents, whose demo-agent tool list is generated too (it was the README's until the README moved its depth to docs/). */
export const AI_AGENTS_DOC = 'docs/ai-agents.md';
const UPDATE = 'npm run docs:ai-tools';

const markers = (name: string, update: string) => [
	`<!-- generated:${name} (${update}) -->`,
	`<!-- /generated:${name} -->`,
];

/** Compares (or, with BP_WRITE_REPORTS=1, rewrites) one generated section of a document (a path from the project root); `update` is the command that rewrites it. */
export function checkDocSection(
	file: string,
	name: string,
	content: string,
	update = UPDATE,
): void {
	const [open, close] = markers(name, update);
	const path = join(ROOT, file);
	const doc = readFileSync(path, 'utf8');
	const start = doc.indexOf(open);
	const end = doc.indexOf(close);
	if (start < 0 || end < start)
		throw new Error(
			`${file} has no section "${name}": add the lines\n${open}\n${close}\nwhere it belongs, then run ${update}`,
		);
	const current = doc.slice(start + open.length, end).trim();
	const wanted = content.trim();
	if (current === wanted) return;
	if (process.env.BP_WRITE_REPORTS === '1') {
		writeFileSync(path, `${doc.slice(0, start + open.length)}\n${wanted}\n${doc.slice(end)}`);
		return;
	}
	const a = current.split('\n');
	const b = wanted.split('\n');
	const at = a.findIndex((line, i) => line !== b[i]);
	const line = at < 0 ? a.length : at;
	throw new Error(
		`${file} (section "${name}") no longer matches what the code gives: run "${update}", review the diff and commit it.\n` +
			`First difference at line ${line + 1} of the section:\n  committed: ${a[line] ?? '(end)'}\n  received:  ${b[line] ?? '(end)'}`,
	);
}

export interface ToolView {
	name: string;
	description: string;
	/** The JSON schema of its arguments. */
	schema: Record<string, unknown>;
}

const byName = (tools: ToolView[]) => [...tools].sort((x, y) => x.name.localeCompare(y.name));

/** A summary table of tools: name, description, arguments. */
export function renderToolTable(tools: ToolView[]): string {
	const props = (t: ToolView) => (t.schema.properties ?? {}) as Record<string, { type?: string }>;
	const required = (t: ToolView) => new Set((t.schema.required ?? []) as string[]);
	const rows = byName(tools).map((t) => {
		const args = Object.entries(props(t)).map(
			([k, p]) => `\`${k}\`${required(t).has(k) ? '' : '?'} (${p.type ?? 'any'})`,
		);
		return `| \`${t.name}\` | ${t.description.replace(/\|/g, '\\|')} | ${args.join(', ')} |`;
	});
	return [
		'| Tool name | Description | Arguments (`?`: optional) |',
		'| --- | --- | --- |',
		...rows,
	].join('\n');
}

/** The table, then each tool's exact description and argument schema. */
export function renderTools(tools: ToolView[]): string {
	const details = byName(tools).map((t) =>
		[
			`#### \`${t.name}\``,
			'',
			`> ${t.description}`,
			'',
			'```json',
			JSON.stringify(t.schema, null, 2),
			'```',
		].join('\n'),
	);
	return [renderToolTable(tools), ...details].join('\n\n');
}
