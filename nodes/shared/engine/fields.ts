/**
 * Field builders shared by the nodes: a field is a parameter of the node's description and
 * where its value goes in the request (path, query or body); IDs typed or picked from a list,
 * collections, custom fields, and the check that an update changes something.
 */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Field, OpContext, Send } from './model';
import { compareLabels, toIntegerId } from '../field-values';

/** A resource locator: "From List" (searchable) first, then "By ID". */
export function locator(options: {
	name: string;
	displayName: string;
	description?: string;
	search: string;
	placeholder?: string;
	numeric?: boolean;
	required?: boolean;
}): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: options.required ?? true,
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${options.displayName.replace(/ ID$/, '').toLowerCase()}...`,
				typeOptions: {
					searchListMethod: options.search,
					searchable: true,
					searchFilterRequired: false,
				},
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder:
					options.placeholder ?? (options.numeric === false ? 'e.g. 65f1c0ffee' : 'e.g. 1024'),
				validation:
					options.numeric === false
						? []
						: [
								{
									type: 'regex',
									properties: { regex: '^\\s*\\d+\\s*$', errorMessage: 'An ID is a whole number' },
								},
							],
			},
		],
	};
}

/** A field (locator, dropdown or number) that becomes an integer path parameter; `label` names it in errors. */
export function idPath(property: INodeProperties, label: string, key = 'id'): Field {
	return { property, send: { in: 'path', key, map: (v, ctx) => toIntegerId(v, label, ctx) } };
}

export function field(property: INodeProperties, send?: Send): Field {
	return { property, send };
}

/** A body field sent under `key` (defaults to the property name). */
export function bodyField(property: INodeProperties, key?: string, map?: Send['map']): Field {
	return { property, send: { in: 'body', key, map } };
}

export function queryField(property: INodeProperties, key?: string, map?: Send['map']): Field {
	return { property, send: { in: 'query', key, map } };
}

export function collection(
	property: Omit<INodeProperties, 'options' | 'type'> & { type?: 'collection' },
	children: Field[],
): Field {
	return {
		property: { ...property, type: 'collection', options: [] } as INodeProperties,
		children,
	};
}

/** A collection whose fields are listed in alphabetical order, as n8n's guidelines ask. */
export const sortedCollection = (
	property: Parameters<typeof collection>[0],
	children: Field[],
): Field =>
	collection(
		property,
		[...children].sort((a, b) => compareLabels(a.property.displayName, b.property.displayName)),
	);

/** An update with nothing to change is refused before sending. */
export function requireSomeFields(
	body: IDataObject,
	ctx: OpContext,
	where = 'Update Fields',
): void {
	if (Object.keys(body).length === 0)
		throw ctx.fail('Nothing to update', `Add at least one field under "${where}".`);
}

export const options = (values: Array<[string, string | number]>): INodePropertyOptions[] =>
	values.map(([name, value]) => ({ name, value }));

/** A "Custom Fields" list: a fixed collection of "Field" entries with these values each. */
export function customFieldsProperty(values: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Custom Fields',
		name: 'customFields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Custom Field',
		default: {},
		options: [{ displayName: 'Field', name: 'field', values }],
	};
}

/**
 * Custom fields (CustomField: code, label, module, shortName, value) as a fixed
 * collection, sent as the list `custom_field`. Each entry needs a code or a short name.
 */
export function customFieldsField(module: 'contact' | 'deal'): Field {
	return {
		property: customFieldsProperty([
			{
				displayName: 'Code',
				name: 'code',
				type: 'string',
				default: '',
				description: 'System code of the custom field',
			},
			{
				displayName: 'Label',
				name: 'label',
				type: 'string',
				default: '',
				description: 'Display name of the custom field',
			},
			{
				displayName: 'Short Name',
				name: 'shortName',
				type: 'string',
				default: '',
				description: `Key of the field in the ${module}’s c_field map`,
			},
			{ displayName: 'Value', name: 'value', type: 'string', default: '' },
		]),
		send: {
			in: 'body',
			key: 'custom_field',
			map: (v, ctx) => {
				const list = ((v as IDataObject | undefined)?.field as IDataObject[] | undefined) ?? [];
				if (!list.length) return undefined;
				return list.map((f, i) => {
					const key = String(f.shortName || f.code || '').trim();
					if (!key)
						throw ctx.fail(
							`Custom Fields: field ${i + 1} has neither a code nor a short name`,
							'Give each custom field its code or short name.',
						);
					return {
						code: String(f.code || key),
						label: String(f.label || key),
						module,
						shortName: String(f.shortName || f.code),
						value: String(f.value ?? ''),
					};
				});
			},
		},
	};
}
