/** Form: what its operations share. */

import type { IDataObject } from 'n8n-workflow';

import type { Field } from '../../../shared/engine/model';
import { compact, locator, toIntegerId } from '../../../shared/fields';

export const formId: Field = {
	property: locator({ name: 'formId', displayName: 'Form', search: 'searchForms', description: 'The form to use' }),
	send: { in: 'path', key: 'id', map: (v, ctx) => toIntegerId(v, 'Form', ctx) },
};

export const idFromPath = (path: string) => Number(path.split('/').pop());

/** The form's `template` is JSON text (html, components, assets, css, styles): given to users as JSON when it parses. */
function decodeTemplate(template: unknown): unknown {
	if (typeof template !== 'string' || template === '') return template;
	try {
		return JSON.parse(template) as unknown;
	} catch {
		return template;
	}
}

export function formOutput(f: IDataObject): IDataObject {
	return 'template' in f ? { ...f, template: decodeTemplate(f.template) as IDataObject } : f;
}

export function simplifyForm(f: IDataObject): IDataObject {
	const t = f.template !== null && typeof f.template === 'object' ? (f.template as IDataObject) : {};
	return compact({ id: f.id, name: f.name, html: t.html, css: t.css });
}
