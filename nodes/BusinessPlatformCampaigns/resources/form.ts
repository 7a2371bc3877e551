/** Campaign forms — /v1/crm/campaign/assets/forms and form-templates. */
import type { IDataObject } from 'n8n-workflow';

import { compact, locator, queryField, toIntegerId } from '../../shared/fields';
import type { Field, OpContext, Operation, Resource } from '../../shared/engine/model';
import { searchForms } from '../methods/forms';

const formId: Field = {
	property: locator({ name: 'formId', displayName: 'Form', search: 'searchForms', description: 'The form to use' }),
	send: { in: 'path', key: 'id', map: (v, ctx) => toIntegerId(v, 'Form', ctx) },
};

const idFromPath = (path: string) => Number(path.split('/').pop());

/** The form's `template` is JSON text (html, components, assets, css, styles): given to users as JSON when it parses. */
function decodeTemplate(template: unknown): unknown {
	if (typeof template !== 'string' || template === '') return template;
	try {
		return JSON.parse(template) as unknown;
	} catch {
		return template;
	}
}

function formOutput(f: IDataObject): IDataObject {
	return 'template' in f ? { ...f, template: decodeTemplate(f.template) as IDataObject } : f;
}

export function simplifyForm(f: IDataObject): IDataObject {
	const t = f.template !== null && typeof f.template === 'object' ? (f.template as IDataObject) : {};
	return compact({ id: f.id, name: f.name, html: t.html, css: t.css });
}

const ops: Operation[] = [
	{
		value: 'get',
		name: 'Get',
		action: 'Get a form',
		description: 'Get one form with its markup and editor description',
		method: 'GET',
		path: '/v1/crm/campaign/assets/forms/{id}',
		fields: [formId],
		output: (answer) => formOutput((answer ?? {}) as IDataObject),
		simplify: simplifyForm,
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many forms',
		description: 'List forms, optionally by a search text',
		method: 'GET',
		path: '/v1/crm/campaign/assets/forms',
		paginate: 'dataOnly',
		fields: [
			{
				property: { displayName: 'Filters', name: 'filters', type: 'collection', placeholder: 'Add Filter', default: {}, options: [] },
				children: [queryField({ displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Text found in the form’s name' })],
			},
		],
		output: (answer) => ((answer as IDataObject[] | undefined) ?? []).map(formOutput),
		simplify: simplifyForm,
	},
	{
		value: 'delete',
		name: 'Delete',
		action: 'Delete a form',
		description: 'Delete a form',
		method: 'DELETE',
		path: '/v1/crm/campaign/assets/forms/{id}',
		fields: [formId],
		output: (_a, _ctx, req) => ({ deleted: true, id: idFromPath(req.path) }),
	},
	{
		value: 'getMarkup',
		name: 'Get Template Markup',
		action: 'Get the markup of a form',
		description: 'Get the form as an HTML document, as a field and optionally as a file',
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
					description: 'Whether to also return the markup as an HTML file in a binary field, for example to save or send it',
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
		// A missing field name is refused before the markup is fetched.
		prepare: (_req, ctx) => {
			outputField(ctx);
		},
		output: async (answer, ctx, req) => await markupOutput(answer, ctx, idFromPath(req.path)),
	},
];

/** The binary field for the markup file; undefined when none is asked for. */
function outputField(ctx: OpContext): string | undefined {
	if (!ctx.param<boolean>('asBinary', false)) return undefined;
	const property = String(ctx.param('binaryPropertyName', 'data')).trim();
	if (!property) throw ctx.fail('Put Output File in Field is empty', 'Name the binary field that should hold the HTML file, for example "data".');
	return property;
}

async function markupOutput(answer: unknown, ctx: OpContext, id: number): Promise<IDataObject> {
	let markup = typeof answer === 'string' ? answer : answer === undefined || answer === null ? '' : JSON.stringify(answer);
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
	const file = await ctx.fn.helpers.prepareBinaryData(Buffer.from(markup, 'utf8'), `form-${id}.html`, 'text/html');
	return ctx.scope.withBinary(json, { [property]: file });
}

export const formResource: Resource = {
	value: 'form',
	name: 'Form',
	description: 'Forms built in the campaign editor',
	operations: ops,
	methods: { listSearch: { searchForms } },
};
