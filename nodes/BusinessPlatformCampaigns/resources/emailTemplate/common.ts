/** Email Template: what its operations share. */

import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Field, Send } from '../../../shared/engine/model';
import { fromVersion, inVersion1 } from '../../../shared/engine/versions';
import { locator } from '../../../shared/engine/fields';
import {
	compact,
	jsonOrText,
	objectAt,
	plainValue,
	toIntegerId,
} from '../../../shared/field-values';

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
	return 'template_json' in t
		? { ...t, template_json: decodeTemplateJson(t.template_json) as IDataObject }
		: t;
}

export function simplifyTemplate(t: IDataObject): IDataObject {
	const category = objectAt(t, 'category');
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

const categoryDropdown = (required: boolean): INodeProperties => ({
	displayName: 'Category Name or ID',
	name: 'categoryId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getCategories' },
	default: '',
	required,
	description:
		'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
});

const categorySend = (required: boolean): Send => ({
	in: required ? 'body' : 'query',
	key: 'category_id',
	map: (v, ctx) => (plainValue(v) === '' ? undefined : toIntegerId(v, 'Category', ctx)),
});

/** A filter's category: a dropdown (inside a collection it loads only when added, with the node's credential set). */
export const categoryField = (required: boolean): Field => ({
	property: categoryDropdown(required),
	send: categorySend(required),
});

/** Create's category: version 1's dropdown, version 2's resource locator (it loads when opened; see README, "Pickers"). */
export const categoryFields = (): Field[] =>
	[
		inVersion1(categoryDropdown(true)),
		fromVersion(
			2,
			locator({
				name: 'categoryId',
				displayName: 'Category',
				search: 'searchCategories',
				description: 'The category of the template',
			}),
		),
	].map((property) => ({ property, send: categorySend(true) }));
