/** Email Template → Create: POST /v1/crm/campaign/email-templates. Create an email template from its editor JSON and HTML. */

import type { IDataObject } from 'n8n-workflow';

import type { OpContext, Operation } from '../../../shared/engine/model';
import { bodyField } from '../../../shared/engine/fields';
import { parseJson } from '../../../shared/field-values';
import { categoryFields, templateOutput } from './common';
import { echo } from '../../../shared/text-readers';

/** The template's design (Template JSON): a JSON object or array. */
function designOf(ctx: OpContext): object {
	const design = parseJson(ctx.param('templateJson', ''), 'Template JSON', ctx);
	if (design === undefined || design === null || typeof design !== 'object') {
		throw ctx.fail(
			'Template JSON must be a JSON object or array',
			'Give the editor’s design as JSON, for example {"body": {"rows": []}}.',
		);
	}
	return design;
}

/** With the HTML from a file: the input item's binary field that holds it (the item must have it). */
function htmlFile(ctx: OpContext): string | undefined {
	if (ctx.param<string>('htmlSource', 'text') !== 'binary') return undefined;
	const property = String(ctx.param('binaryPropertyName', 'data')).trim();
	const item = ctx.fn.getInputData()[ctx.itemIndex];
	if (!property || !item?.binary?.[property]) {
		throw ctx.fail(
			`The input item has no binary field ${echo(property, 60)}`,
			'Set "Input Binary Field" to the name of the field that holds the HTML file (for example "data"), or choose "Text" as the HTML source.',
		);
	}
	return property;
}

async function readHtml(ctx: OpContext): Promise<string | undefined> {
	const property = htmlFile(ctx);
	if (property !== undefined) {
		const buffer = await ctx.fn.helpers.getBinaryDataBuffer(ctx.itemIndex, property);
		return buffer.toString('utf8');
	}
	const html = ctx.param<string>('templateHtml', '');
	return html === '' ? undefined : html;
}

export const createEmailTemplate: Operation = {
	value: 'create',
	name: 'Create',
	action: 'Create an email template',
	description: 'Create an email template from its editor JSON and HTML',
	method: 'POST',
	path: '/v1/crm/campaign/email-templates',
	fields: [
		bodyField({ displayName: 'Name', name: 'name', type: 'string', default: '', required: true }),
		...categoryFields(),
		{
			property: {
				displayName: 'Template JSON',
				name: 'templateJson',
				type: 'json',
				default: '{}',
				required: true,
				description:
					'The design of the template as the email editor saves it: JSON, or an expression that returns an object. The node URL-encodes it for the platform.',
			},
		},
		{
			property: {
				displayName: 'HTML Source',
				name: 'htmlSource',
				type: 'options',
				options: [
					{ name: 'Text', value: 'text', description: 'Type or map the HTML' },
					{
						name: 'Binary File',
						value: 'binary',
						description: 'Read the HTML from a file of the input item',
					},
				],
				default: 'text',
			},
		},
		{
			property: {
				displayName: 'HTML',
				name: 'templateHtml',
				type: 'string',
				typeOptions: { rows: 6 },
				default: '',
				description: 'The rendered HTML of the template',
				displayOptions: { show: { htmlSource: ['text'] } },
			},
		},
		{
			property: {
				displayName: 'Input Binary Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				required: true,
				hint: 'The name of the input binary field containing the HTML file',
				displayOptions: { show: { htmlSource: ['binary'] } },
			},
		},
		{
			property: {
				displayName: 'Additional Fields',
				name: 'additionalFields',
				type: 'collection',
				placeholder: 'Add Field',
				default: {},
				options: [],
			},
			children: [
				bodyField({
					displayName: 'Image URL',
					name: 'image',
					type: 'string',
					default: '',
					description: 'Address of a preview image of the template',
				}),
			],
		},
	],
	why: 'URL-encodes the design and reads the HTML from text or a file before sending; with no endpoint to read one template, the output is what was sent with the answer, decoded.',
	check: (req, ctx) => {
		if (!String(req.body.name ?? '').trim())
			throw ctx.fail('Name is empty', 'Give the template a name.');
		designOf(ctx);
		htmlFile(ctx);
	},
	execute: async (ctx, req) => {
		req.body.template_json = encodeURIComponent(JSON.stringify(designOf(ctx)));
		const html = await readHtml(ctx);
		if (html !== undefined) req.body.template_html = html;
		const answer = await ctx.send(req);
		// The answer of creation is not shown in the spec (the sandbox answers { id }) and there is no
		// endpoint to read one template: the node returns the answer together with what it sent, decoded.
		const a =
			answer !== null && typeof answer === 'object' && !Array.isArray(answer)
				? (answer as IDataObject)
				: typeof answer === 'number'
					? { id: answer }
					: {};
		return templateOutput({ ...req.body, ...a });
	},
};
