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

const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

const plural = (noun: string) => (/[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : /s$/.test(noun) ? noun : `${noun}s`);

/** What the operation gives back, in words. */
export function returnsOf(r: Resource, o: Operation): string {
	if (o.returns) return o.returns;
	const noun = r.name.toLowerCase();
	const simplified = o.simplify ? ' (main fields only)' : '';
	if (o.paginate) return `${plural(noun)}${simplified}, one item each, up to the node's limit`;
	if (o.method === 'DELETE' || /^bulk/.test(o.value)) return '{"success": true} or the platform’s confirmation';
	if (/^get(All|Many|ByObjectType)$/.test(o.value)) return `one item per ${noun}${simplified}`;
	if (/^get$/i.test(o.value)) return `the ${noun}${simplified}`;
	if (/^create/i.test(o.value)) return `the created ${noun}${simplified}`;
	if (/^(update\w*|replace|upsert)$/.test(o.value)) return `the saved ${noun}${simplified}`;
	return `the platform’s answer${simplified}`;
}

/** Required fields shown whatever the other fields say (those a call always needs). */
function neededFields(properties: INodeProperties[]): string[] {
	const plain = (p: INodeProperties) => Object.keys(p.displayOptions?.show ?? {}).every((k) => ['resource', 'operation', '@version'].includes(k));
	return properties.filter((p) => p.required && plain(p) && !p.displayOptions?.hide).map((p) => p.displayName);
}

/** The default tool description of an operation: what it does, which fields it needs, what it returns. */
export function toolDescriptionText(r: Resource, o: Operation, properties: INodeProperties[]): string {
	const needed = neededFields(properties);
	return [sentence(o.description), needed.length ? `Required fields: ${needed.join(', ')}.` : 'No field is required.', sentence(`Returns ${returnsOf(r, o)}`)].join(' ');
}

/** The tool twin's Description parameter for one operation. */
export function toolDescriptionProperty(r: Resource, o: Operation, properties: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: toolDescriptionText(r, o, properties),
		typeOptions: { rows: 3 },
		description: 'What the model reads about this tool: what it does, which fields it needs, what it returns. Change it to fit your agent.',
		displayOptions: { show: { '@tool': [true], resource: [r.value], operation: [o.value] } },
	};
}

/**
 * The canvas subtitle: the chosen operation's action ("Create a deal"), from a flat
 * lookup table (a nested object would contain "}}", which ends n8n's expression early).
 */
export function subtitleExpression(actions: Record<string, string>): string {
	return `={{ ${JSON.stringify(actions)}[$parameter["resource"] + ":" + $parameter["operation"]] ?? $parameter["operation"] }}`;
}
