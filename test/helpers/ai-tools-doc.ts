/**
 * docs/ai-tools.md holds, between markers, what models receive from the pack's tools
 * (written by the tests that observe it). A test compares what it observed with its
 * section and fails with the command that rewrites it; `npm run docs:ai-tools` sets
 * BP_WRITE_REPORTS=1 and the sections are written instead. `npm test` never writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { ROOT } from '../../scripts/n8n-runtime';

export const AI_TOOLS_DOC = join(ROOT, 'docs', 'ai-tools.md');
const UPDATE = 'npm run docs:ai-tools';

const markers = (name: string) => [`<!-- generated:${name} (${UPDATE}) -->`, `<!-- /generated:${name} -->`];

/** Compares (or, with BP_WRITE_REPORTS=1, rewrites) one generated section of docs/ai-tools.md. */
export function checkDocSection(name: string, content: string): void {
	const [open, close] = markers(name);
	const doc = readFileSync(AI_TOOLS_DOC, 'utf8');
	const start = doc.indexOf(open);
	const end = doc.indexOf(close);
	if (start < 0 || end < start) throw new Error(`docs/ai-tools.md has no section "${name}": add the lines\n${open}\n${close}\nwhere it belongs, then run ${UPDATE}`);
	const current = doc.slice(start + open.length, end).trim();
	const wanted = content.trim();
	if (current === wanted) return;
	if (process.env.BP_WRITE_REPORTS === '1') {
		writeFileSync(AI_TOOLS_DOC, `${doc.slice(0, start + open.length)}\n${wanted}\n${doc.slice(end)}`);
		return;
	}
	const a = current.split('\n');
	const b = wanted.split('\n');
	const at = a.findIndex((line, i) => line !== b[i]);
	const line = at < 0 ? a.length : at;
	throw new Error(
		`docs/ai-tools.md (section "${name}") no longer matches what the model receives: run "${UPDATE}", review the diff and commit it.\n` +
			`First difference at line ${line + 1} of the section:\n  committed: ${a[line] ?? '(end)'}\n  received:  ${b[line] ?? '(end)'}`,
	);
}

export interface ToolView {
	name: string;
	description: string;
	/** The JSON schema of its arguments. */
	schema: Record<string, unknown>;
}

/** Markdown for a list of tools: a summary table, then each tool's exact description and schema. */
export function renderTools(tools: ToolView[]): string {
	const sorted = [...tools].sort((x, y) => x.name.localeCompare(y.name));
	const props = (t: ToolView) => (t.schema.properties ?? {}) as Record<string, { type?: string; description?: string }>;
	const required = (t: ToolView) => new Set((t.schema.required ?? []) as string[]);
	const rows = sorted.map((t) => {
		const args = Object.entries(props(t)).map(([k, p]) => `\`${k}\`${required(t).has(k) ? '' : '?'} (${p.type ?? 'any'})`);
		return `| \`${t.name}\` | ${t.description.replace(/\|/g, '\\|')} | ${args.join(', ')} |`;
	});
	const details = sorted.map((t) => [`#### \`${t.name}\``, '', `> ${t.description}`, '', '```json', JSON.stringify(t.schema, null, 2), '```'].join('\n'));
	return [['| Tool name | Description | Arguments (`?`: optional) |', '| --- | --- | --- |', ...rows].join('\n'), ...details].join('\n\n');
}
