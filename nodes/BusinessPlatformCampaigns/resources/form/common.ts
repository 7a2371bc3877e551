/** Form: what its operations share. */

import type { IDataObject } from 'n8n-workflow';

import type { Field } from '../../../shared/engine/model';
import { compact, jsonOrText, locator, toIntegerId } from '../../../shared/fields';

export const formId: Field = {
	property: locator({ name: 'formId', displayName: 'Form', search: 'searchForms', description: 'The form to use' }),
	send: { in: 'path', key: 'id', map: (v, ctx) => toIntegerId(v, 'Form', ctx) },
};

/** The form's `template` is JSON text (html, components, assets, css, styles): given to users as JSON when it parses. */
export function formOutput(f: IDataObject): IDataObject {
	return 'template' in f ? { ...f, template: jsonOrText(f.template) as IDataObject } : f;
}

export function simplifyForm(f: IDataObject): IDataObject {
	const t = f.template !== null && typeof f.template === 'object' ? (f.template as IDataObject) : {};
	return compact({ id: f.id, name: f.name, html: t.html, css: t.css });
}
