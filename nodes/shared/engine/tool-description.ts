/**
 * What a model reads about an operation used as a tool, and the node's subtitle.
 *
 * n8n makes a tool twin of every `usableAsTool` node and, unless the node has a
 * `toolDescription` parameter of its own, adds "Tool Description: Set Automatically",
 * whose text is only "<action> in <node>" (n8n-workflow NodeHelpers.makeDescription,
 * packages/cli tool-generation/ai-tools.ts). Each operation therefore has its own
 * Description, shown only in the tool twin (`@tool`), whose default says what the
 * operation does, which fields it needs and what it returns; a user may rewrite it.
 */
import type { INodeProperties } from 'n8n-workflow';

import type { Operation, Resource } from './model';
import { shownInVersion } from './params';
import { fromVersion, inVersion1 } from './versions';

const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

const plural = (noun: string) =>
	/[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : /s$/.test(noun) ? noun : `${noun}s`;

/** What the operation gives back, in words. */
export function returnsOf(r: Resource, o: Operation): string {
	if (o.returns) return o.returns;
	const noun = r.name.toLowerCase();
	const simplified = o.simplify ? ' (main fields only)' : '';
	if (o.paginate) return `${plural(noun)}${simplified}, one item each, up to the node's limit`;
	if (o.method === 'DELETE' || /^bulk/.test(o.value))
		return '{"success": true} or the platform’s confirmation';
	if (/^get(All|Many|ByObjectType)$/.test(o.value)) return `one item per ${noun}${simplified}`;
	if (/^get$/i.test(o.value)) return `the ${noun}${simplified}`;
	if (/^create/i.test(o.value)) return `the created ${noun}${simplified}`;
	if (/^(update\w*|replace|upsert)$/.test(o.value)) return `the saved ${noun}${simplified}`;
	return `the platform’s answer${simplified}`;
}

/** Required fields shown whatever the other fields say (those a call always needs). */
function neededFields(properties: INodeProperties[]): string[] {
	const plain = (p: INodeProperties) =>
		Object.keys(p.displayOptions?.show ?? {}).every((k) =>
			['resource', 'operation', '@version'].includes(k),
		);
	return properties
		.filter((p) => p.required && plain(p) && !p.displayOptions?.hide)
		.map((p) => p.displayName);
}

/** The default tool description of an operation: what it does, which fields it needs, what it returns. */
export function toolDescriptionText(
	r: Resource,
	o: Operation,
	properties: INodeProperties[],
): string {
	const needed = neededFields(properties);
	const parts = [
		sentence(o.description),
		needed.length ? `Required fields: ${needed.join(', ')}.` : 'No field is required.',
		sentence(`Returns ${returnsOf(r, o)}`),
	];
	return (o.toolHint ? [...parts, sentence(o.toolHint)] : parts).join(' ');
}

/** The node versions an operation's fields differ in: 1 and each version a field starts from. */
function versionsOf(properties: INodeProperties[]): number[] {
	const found = new Set<number>([1]);
	for (const p of properties) {
		const conditions = (p.displayOptions?.show?.['@version'] ?? []) as unknown[];
		for (const c of conditions) {
			const gte = (c as { _cnd?: { gte?: number } })?._cnd?.gte;
			if (typeof c === 'number') found.add(c);
			if (typeof gte === 'number') found.add(gte);
		}
	}
	return [...found].sort((a, b) => a - b);
}

/**
 * The tool twin's Description parameter for one operation: one property while its text is
 * the same in every node version; when a version changes the required fields, version 1
 * keeps its text and each later version gets its own.
 */
export function toolDescriptionProperties(
	r: Resource,
	o: Operation,
	properties: INodeProperties[],
): INodeProperties[] {
	const versions = versionsOf(properties);
	const texts = versions.map((v) =>
		toolDescriptionText(
			r,
			o,
			properties.filter((p) => shownInVersion(p, v)),
		),
	);
	const property = (text: string): INodeProperties => ({
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: text,
		typeOptions: { rows: 3 },
		description:
			'What the model reads about this tool: what it does, which fields it needs, what it returns. Change it to fit your agent.',
		displayOptions: { show: { '@tool': [true], resource: [r.value], operation: [o.value] } },
	});
	if (texts.every((t) => t === texts[0])) return [property(texts[0])];
	return versions.map((v, i) => {
		const last = i === versions.length - 1;
		if (v === 1) return inVersion1(property(texts[i]));
		if (last) return fromVersion(v, property(texts[i]));
		return {
			...property(texts[i]),
			displayOptions: {
				show: { '@tool': [true], resource: [r.value], operation: [o.value], '@version': [v] },
			},
		};
	});
}

/**
 * The canvas subtitle: the chosen operation's action ("Create a deal"), from a flat
 * lookup table (a nested object would contain "}}", which ends n8n's expression early).
 */
export function subtitleExpression(actions: Record<string, string>): string {
	return `={{ ${JSON.stringify(actions)}[$parameter["resource"] + ":" + $parameter["operation"]] ?? $parameter["operation"] }}`;
}
