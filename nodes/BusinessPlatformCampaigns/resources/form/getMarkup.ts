/** Form → Get Template Markup: GET /v1/crm/campaign/assets/form-templates/{id}. Get the form as an HTML document, as a field and optionally as a file. */

import type { IDataObject } from 'n8n-workflow';

import type { OpContext, Operation } from '../../../shared/engine/model';
import { formId } from './common';
import { idFromPath } from '../../../shared/field-values';

/** The binary field for the markup file; undefined when none is asked for. */
function outputField(ctx: OpContext): string | undefined {
	if (!ctx.param<boolean>('asBinary', false)) return undefined;
	const property = String(ctx.param('binaryPropertyName', 'data')).trim();
	if (!property)
		throw ctx.fail(
			'Put Output File in Field is empty',
			'Name the binary field that should hold the HTML file, for example "data".',
		);
	return property;
}

async function markupOutput(answer: unknown, ctx: OpContext, id: number): Promise<IDataObject> {
	let markup =
		typeof answer === 'string'
			? answer
			: answer === undefined || answer === null
				? ''
				: JSON.stringify(answer);
	// The spec says the answer is a string: one sent as JSON text ("<html>…") is unquoted.
	if (/^\s*".*"\s*$/s.test(markup)) {
		try {
			const inner = JSON.parse(markup) as unknown;
			if (typeof inner === 'string') markup = inner;
		} catch {
			// keep the text
		}
	}
	const json: IDataObject = { id, markup };
	const property = outputField(ctx);
	if (property === undefined) return json;
	const file = await ctx.fn.helpers.prepareBinaryData(
		Buffer.from(markup, 'utf8'),
		`form-${id}.html`,
		'text/html',
	);
	return ctx.scope.withBinary(json, { [property]: file });
}

export const getMarkupForm: Operation = {
	value: 'getMarkup',
	name: 'Get Template Markup',
	action: 'Get the markup of a form',
	description: 'Get the form as an HTML document, as a field and optionally as a file',
	returns: 'the form’s HTML in a field (and as a file when asked)',
	method: 'GET',
	path: '/v1/crm/campaign/assets/form-templates/{id}',
	text: true,
	fields: [
		formId,
		{
			property: {
				displayName: 'Put Markup in Binary Field',
				name: 'asBinary',
				type: 'boolean',
				default: false,
				description:
					'Whether to also return the markup as an HTML file in a binary field, for example to save or send it',
			},
		},
		{
			property: {
				displayName: 'Put Output File in Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				required: true,
				hint: 'The name of the output binary field to put the file in',
				displayOptions: { show: { asBinary: [true] } },
			},
		},
	],
	why: 'The markup text is unquoted when sent as JSON text and can also be given as an HTML file.',
	// A missing field name is refused before the markup is fetched.
	check: (_req, ctx) => {
		outputField(ctx);
	},
	execute: async (ctx, req) => {
		const answer = await ctx.send(req);
		return await markupOutput(answer, ctx, idFromPath(req.path));
	},
};
