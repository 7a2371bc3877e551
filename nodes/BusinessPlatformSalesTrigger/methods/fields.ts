/**
 * The picker of Only When These Fields Change (node version 4, a polling event chosen): the
 * record's own fields as the spec documents them, then the custom fields the newest records carry
 * (`c_field.<short name>`, deals' `custom_field.<short name>`). Any other name can be given by
 * expression.
 */
import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import { fetchPage } from '../../shared/pagination';
import { loadOptions, type PickerScope } from '../../shared/pickers';
import { POLL_EVENT_VALUES } from '../polling/events';
import { RECORD_KINDS, type RecordKind, type RecordType } from '../polling/records';

/** Records whose custom fields are offered (the newest page). */
const SAMPLE = 20;

/** The record kind of the polling event chosen in Events (the first one). */
function chosenKind(scope: PickerScope): RecordKind | undefined {
	let events: unknown;
	try {
		events = scope.ctx.getCurrentNodeParameter('events');
	} catch {
		return undefined;
	}
	const list = Array.isArray(events) ? events : [events];
	const type = (Object.keys(POLL_EVENT_VALUES) as RecordType[]).find((t) =>
		list.includes(POLL_EVENT_VALUES[t]),
	);
	return type ? RECORD_KINDS[type] : undefined;
}

/** The custom fields' names on a record: its c_field map's keys, its custom_field list's short names. */
function customNames(record: IDataObject): string[] {
	const out: string[] = [];
	const map = record.c_field;
	if (map && typeof map === 'object' && !Array.isArray(map))
		for (const key of Object.keys(map)) out.push(`c_field.${key}`);
	const list = record.custom_field;
	if (Array.isArray(list))
		for (const entry of list) {
			const name =
				entry && typeof entry === 'object' ? (entry as IDataObject).shortName : undefined;
			if (typeof name === 'string' && name) out.push(`custom_field.${name}`);
		}
	return out;
}

export const getWatchableFields = loadOptions(async (scope): Promise<INodePropertyOptions[]> => {
	const kind = chosenKind(scope);
	if (!kind) return [];
	const own = kind.fields.map((f) => ({ name: f, value: f }));
	let sample: IDataObject[] = [];
	try {
		sample = (
			await fetchPage(
				scope,
				{ method: 'GET', path: kind.path, qs: { ...kind.newestFirst } },
				kind.style,
				1,
				SAMPLE,
			)
		).items;
	} catch {
		// The documented fields are offered anyway; custom ones can be given by expression.
	}
	const custom = [...new Set(sample.flatMap(customNames))]
		.filter((n) => !kind.fields.includes(n))
		.sort()
		.map((n) => ({ name: n, value: n, description: 'A custom field' }));
	return [...own, ...custom];
});
