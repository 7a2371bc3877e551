/**
 * Campaign email templates — /v1/crm/campaign/email-templates.
 *
 * `template_json` travels as URL-encoded JSON text. Users give and get JSON: the
 * node encodes it with encodeURIComponent(JSON.stringify(…)) on the way out and
 * decodes it (decodeURIComponent, then JSON.parse) on the way back.
 */
import type { IDataObject } from 'n8n-workflow';

import { bodyField, compact, parseJson, queryField, toIntegerId } from '../../shared/fields';
import type { Field, OpContext, Operation, Resource } from '../../shared/engine/model';
import { getCategories } from '../methods/categories';

/** URL-encoded JSON text → JSON (decodeURIComponent, then JSON.parse); plain JSON text is read too; anything else is returned as it came. */
export function decodeTemplateJson(value: unknown): unknown {
	if (typeof value !== 'string' || value === '') return value;
	try {
		return JSON.parse(decodeURIComponent(value)) as unknown;
	} catch {
		try {
			return JSON.parse(value) as unknown;
		} catch {
			return value;
		}
	}
}

function templateOutput(t: IDataObject): IDataObject {
	return 'template_json' in t ? { ...t, template_json: decodeTemplateJson(t.template_json) as IDataObject } : t;
}

export function simplifyTemplate(t: IDataObject): IDataObject {
	const category = t.category as IDataObject | null | undefined;
	return compact({
		id: t.id,
		name: t.name,
		image: t.image,
		categoryId: category?.id,
		category: category?.name,
		isDefault: t.is_default,
		ownerId: t.owner_id,
		createdAt: t.created_at,
		updatedAt: t.updated_at,
	});
}

const categoryField = (required: boolean): Field => ({
	property: {
		displayName: 'Category Name or ID',
		name: 'categoryId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getCategories' },
		default: '',
		required,
		description: 'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
	},
	send: {
		in: required ? 'body' : 'query',
		key: 'category_id',
		map: (v, ctx) => (v === '' || v === undefined || v === null ? undefined : toIntegerId(v, 'Category', ctx)),
	},
});

async function readHtml(ctx: OpContext): Promise<string | undefined> {
	const source = ctx.param<string>('htmlSource', 'text');
	if (source === 'binary') {
		const property = String(ctx.param('binaryPropertyName', 'data')).trim();
		const item = ctx.fn.getInputData()[ctx.itemIndex];
		if (!property || !item?.binary?.[property]) {
			throw ctx.fail(`The input item has no binary field "${property}"`, 'Set "Input Binary Field" to the name of the field that holds the HTML file (for example "data"), or choose "Text" as the HTML source.');
		}
		const buffer = await ctx.fn.helpers.getBinaryDataBuffer(ctx.itemIndex, property);
		return buffer.toString('utf8');
	}
	const html = ctx.param<string>('templateHtml', '');
	return html === '' ? undefined : html;
}

const ops: Operation[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Create an email template',
		description: 'Create an email template from its editor JSON and HTML',
		method: 'POST',
		path: '/v1/crm/campaign/email-templates',
		fields: [
			bodyField({ displayName: 'Name', name: 'name', type: 'string', default: '', required: true }),
			categoryField(true),
			{
				property: {
					displayName: 'Template JSON',
					name: 'templateJson',
					type: 'json',
					default: '{}',
					required: true,
					description: 'The design of the template as the email editor saves it: JSON, or an expression that returns an object. The node URL-encodes it for the platform.',
				},
			},
			{
				property: {
					displayName: 'HTML Source',
					name: 'htmlSource',
					type: 'options',
					options: [
						{ name: 'Text', value: 'text', description: 'Type or map the HTML' },
						{ name: 'Binary File', value: 'binary', description: 'Read the HTML from a file of the input item' },
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
				property: { displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, options: [] },
				children: [bodyField({ displayName: 'Image URL', name: 'image', type: 'string', default: '', description: 'Address of a preview image of the template' })],
			},
		],
		prepare: async (req, ctx) => {
			if (!String(req.body.name ?? '').trim()) throw ctx.fail('Name is empty', 'Give the template a name.');
			const design = parseJson(ctx.param('templateJson', ''), 'Template JSON', ctx);
			if (design === undefined || design === null || typeof design !== 'object') {
				throw ctx.fail('Template JSON must be a JSON object or array', 'Give the editor’s design as JSON, for example {"body": {"rows": []}}.');
			}
			req.body.template_json = encodeURIComponent(JSON.stringify(design));
			const html = await readHtml(ctx);
			if (html !== undefined) req.body.template_html = html;
		},
		// The answer of creation is not shown in the spec (the sandbox answers { id }) and there is no
		// endpoint to read one template: the node returns the answer together with what it sent, decoded.
		output: (answer, _ctx, req) => {
			const a = answer !== null && typeof answer === 'object' && !Array.isArray(answer) ? (answer as IDataObject) : typeof answer === 'number' ? { id: answer } : {};
			return templateOutput({ ...req.body, ...a });
		},
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many email templates',
		description: 'List email templates, with filters',
		method: 'GET',
		path: '/v1/crm/campaign/email-templates',
		paginate: 'pageEnvelope',
		simplify: simplifyTemplate,
		fields: [
			{
				property: { displayName: 'Filters', name: 'filters', type: 'collection', placeholder: 'Add Filter', default: {}, options: [] },
				children: [
					queryField({ displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Text found in the template’s name' }),
					categoryField(false),
					queryField({ displayName: 'Default Templates', name: 'isDefault', type: 'boolean', default: true, description: 'Whether to return only the platform’s default templates (on) or only the others (off)' }, 'default'),
					queryField({ displayName: 'Only Mine', name: 'myTemplate', type: 'boolean', default: true, description: 'Whether to return only templates of the connected user' }, 'my_template', (v) => (v === true ? true : undefined)),
					queryField({ displayName: 'Owner ID', name: 'ownerId', type: 'number', default: 0, description: 'Only templates of this sales user' }, 'ownerId', (v) => (Number(v) > 0 ? Number(v) : undefined)),
				],
			},
		],
		output: (answer) => ((answer as IDataObject[] | undefined) ?? []).map(templateOutput),
	},
];

export const emailTemplateResource: Resource = {
	value: 'emailTemplate',
	name: 'Email Template',
	description: 'Designs of campaign emails',
	operations: ops,
	methods: { loadOptions: { getCategories } },
};
