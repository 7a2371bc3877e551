/** Form: what its operations share. */

import type { IDataObject } from 'n8n-workflow';

import type { Field } from '../../../shared/engine/model';
import { idPath, locator } from '../../../shared/engine/fields';
import { compact, jsonOrText } from '../../../shared/field-values';

export const formId: Field = idPath(
	locator({
		name: 'formId',
		displayName: 'Form',
		search: 'searchForms',
		description: 'The form to use',
	}),
	'Form',
);

/** The form's `template` is JSON text (html, components, assets, css, styles): given to users as JSON when it parses. */
export function formOutput(f: IDataObject): IDataObject {
	return 'template' in f ? { ...f, template: jsonOrText(f.template) as IDataObject } : f;
}

/** A form without its markup (raw HTML and editor template): what lists need to pick one. */
export function withoutMarkup(f: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(f).filter(([k]) => k !== 'raw' && k !== 'template'));
}

export function simplifyForm(f: IDataObject): IDataObject {
	const t =
		f.template !== null && typeof f.template === 'object' ? (f.template as IDataObject) : {};
	return compact({ id: f.id, name: f.name, html: t.html, css: t.css });
}
