/** Email Template: what its operations share. */

import type { IDataObject } from 'n8n-workflow';

import type { Field } from '../../../shared/engine/model';
import { compact, jsonOrText, toIntegerId } from '../../../shared/fields';

/** URL-encoded JSON text → JSON (decodeURIComponent, then JSON.parse); plain JSON text is read too; anything else is returned as it came. */
export function decodeTemplateJson(value: unknown): unknown {
	if (typeof value !== 'string' || value === '') return value;
	let decoded: string;
	try {
		decoded = decodeURIComponent(value);
	} catch {
		return jsonOrText(value);
	}
	const parsed = jsonOrText(decoded);
	return parsed !== decoded ? parsed : jsonOrText(value);
}

export function templateOutput(t: IDataObject): IDataObject {
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

export const categoryField = (required: boolean): Field => ({
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
