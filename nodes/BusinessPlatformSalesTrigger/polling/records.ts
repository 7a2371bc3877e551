/**
 * The three CRM lists the Sales Trigger's polling events read (contacts, deals, activities): where
 * each is, how it is paged and sorted, which of a record's fields are its own (offered in "Only
 * When These Fields Change") and which the platform derives from other records or writes without
 * an edit (left out of a change's fingerprint), and how a watched field, custom fields included,
 * is read from a record. docs/polling-triggers.md, "Contacts, deals and activities".
 */
import type { IDataObject } from 'n8n-workflow';

import type { PageStyle } from '../../shared/pagination';
import { recordHash, type FieldValue } from '../../shared/polling/memory';

export type RecordType = 'contact' | 'deal' | 'activity';

export type ChangeKind = 'created' | 'updated' | 'deleted';

export interface RecordKind {
	type: RecordType;
	/** The list (GET). */
	path: string;
	style: PageStyle;
	/** The query that asks for the newest update first; none: the list is read whole at every poll (deals). */
	newestFirst?: IDataObject;
	/** The record's own fields, as the spec documents them: what the field picker offers first. */
	fields: string[];
	/**
	 * Fields the platform derives from other records (an embedded owner, label, stage, deal) or writes
	 * without an edit of the record (its update stamp, system fields): not part of what changed.
	 */
	derived: ReadonlySet<string>;
	/** The changes a poll can see in this list. */
	changes: ChangeKind[];
}

const STAMPS = ['updated_at', 'updated_by'];

export const RECORD_KINDS: Record<RecordType, RecordKind> = {
	contact: {
		type: 'contact',
		path: '/v1/crm/contacts',
		style: 'contacts',
		// The spec names the sort parameters without their values (the sandbox reads these); read.ts
		// checks that the pages come in this order and reads the whole list when they do not.
		newestFirst: { orderBy: 'updated_at', order: 'desc' },
		fields: [
			'name',
			'type',
			'email',
			'country_code',
			'phone',
			'address',
			'logo',
			'note',
			'label_id',
			'visibility_type',
			'visibility_ids',
			'owner_id',
			'sub_owner_ids',
			'organization_id',
			'organization_name',
			'person_ids',
			'person_names',
			'c_field',
		],
		derived: new Set([
			...STAMPS,
			'label',
			'persons',
			'organization',
			'owner_details',
			'sub_owner_details',
			'deal_details',
			'view_only',
		]),
		changes: ['created', 'updated'],
	},
	deal: {
		type: 'deal',
		path: '/v1/crm/deals',
		style: 'pageEnvelope',
		fields: [
			'name',
			'amount',
			'currency_code',
			'closing_date',
			'pipeline_id',
			'stage_id',
			'status',
			'reason',
			'owner_id',
			'contact_id',
			'organization_id',
			'email',
			'mobile',
			'visibility_type',
			'sub_owner_ids',
			'custom_field',
		],
		derived: new Set([
			...STAMPS,
			'stage',
			'contact_info',
			'organization_info',
			'owner_info',
			'activity_id',
			'total_activities',
			'next_activity_date',
			'summary',
		]),
		changes: ['created', 'updated', 'deleted'],
	},
	activity: {
		type: 'activity',
		path: '/v1/crm/activities',
		style: 'activities',
		// The spec's samples: sortBy=updated_at, sortDir=DESC.
		newestFirst: { sortBy: 'updated_at', sortDir: 'DESC' },
		fields: [
			'name',
			'activity_type',
			'start',
			'end',
			'notes',
			'is_status',
			'visibility_type',
			'assignee_ids',
			'contact_ids',
			'organization_ids',
			'linked_to',
			'owner_id',
			'assigned_to',
			'is_availability',
			'is_send_invitation',
			'is_send_contacts_invitation',
			'user_timezone',
			'source',
			'source_id',
		],
		derived: new Set([
			...STAMPS,
			'duration',
			'assignee_details',
			'contact_details',
			'organization_details',
			'deal_details',
			'owner_details',
			'EmailSent',
			'email_sent',
			'consumer_id',
			'scheduled_status',
			'batch_id',
			'cron_status',
			'notification_error',
		]),
		changes: ['created', 'updated'],
	},
};

const own = (o: unknown, key: string): boolean =>
	!!o && typeof o === 'object' && Object.prototype.hasOwnProperty.call(o, key);

/** A record's ID as text (sales IDs are integers); undefined when it has none a poll can use. */
export function recordId(record: IDataObject): string | undefined {
	const id = record.id;
	if (typeof id === 'number' && Number.isSafeInteger(id)) return String(id);
	if (typeof id === 'string' && /^\d{1,20}$/.test(id.trim())) return id.trim();
	return undefined;
}

/** A deal's custom fields: the list, or the JSON text of one (the platform writes both). */
function customFields(record: IDataObject): IDataObject[] {
	let list: unknown = own(record, 'custom_field') ? record.custom_field : undefined;
	if (typeof list === 'string') {
		try {
			list = JSON.parse(list) as unknown;
		} catch {
			return [];
		}
	}
	return Array.isArray(list)
		? list.filter((e): e is IDataObject => !!e && typeof e === 'object' && !Array.isArray(e))
		: [];
}

/** A custom field by its short name (else its code) in the record's c_field map, then its custom_field list. */
function customField(
	record: IDataObject,
	name: string,
	where: 'c_field' | 'custom_field' | 'any',
): FieldValue {
	const map = record.c_field;
	if (
		where !== 'custom_field' &&
		map &&
		typeof map === 'object' &&
		!Array.isArray(map) &&
		own(map, name)
	)
		return { present: true, value: (map as IDataObject)[name] };
	if (where !== 'c_field') {
		const list = customFields(record);
		const entry = list.find((e) => e.shortName === name) ?? list.find((e) => e.code === name);
		if (entry)
			return own(entry, 'value') ? { present: true, value: entry.value } : { present: false };
	}
	return { present: false };
}

/**
 * A watched field of a record: one of its own fields (`stage_id`), a custom field written
 * `c_field.<short name>` or `custom_field.<short name>`, or a custom field's bare short name when
 * the record has no field of that name.
 */
export function fieldValue(record: IDataObject, field: string): FieldValue {
	if (own(record, field)) return { present: true, value: record[field] };
	const dot = field.indexOf('.');
	if (dot > 0) {
		const where = field.slice(0, dot);
		if (where === 'c_field' || where === 'custom_field')
			return customField(record, field.slice(dot + 1), where);
	}
	return customField(record, field, 'any');
}

/** The fingerprint of what a record holds of its own (not its update stamp, not what is derived): 11 characters. */
export const fingerprint = (record: IDataObject, kind: RecordKind): string =>
	recordHash(record, kind.derived);

/**
 * The key of a change: the record, its update stamp as the platform wrote it, and its fingerprint,
 * so that two edits within one stamp (a platform writing seconds) are two changes.
 */
export function changeKey(record: IDataObject, kind: RecordKind): string {
	return `${recordId(record) ?? ''}@${String(record.updated_at)}#${fingerprint(record, kind)}`;
}

/** The record ID a change key names (changeKey). */
export const keyId = (key: string): string => key.slice(0, Math.max(0, key.indexOf('@')));
