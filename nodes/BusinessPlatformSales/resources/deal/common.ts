/** Deal: what its operations share. */

import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Field, OpContext } from '../../../shared/engine/model';
import { fromVersion } from '../../../shared/engine/versions';
import {
	bodyField,
	collection,
	customFieldsField,
	idPath,
	locator,
	options,
} from '../../../shared/engine/fields';
import {
	compact,
	jsonOrText,
	objectAt,
	plainValue,
	toCalendarDate,
	toIntegerId,
	toIntegerIds,
} from '../../../shared/field-values';
import { isoDate } from '../../../shared/text-readers';
import { userName } from '../../common/users';

const dealId = locator({
	name: 'dealId',
	displayName: 'Deal',
	search: 'searchDeals',
	description: 'The deal to use',
});

export const idField: Field = idPath(dealId, 'Deal');

/**
 * The platform does not document the meaning of its deal status numbers. The
 * sandbox (and the samples: 2 comes with a lost reason) use 0 open, 1 won, 2 lost.
 */
const STATUSES = options([
	['Open', 0],
	['Won', 1],
	['Lost', 2],
]);

const STATUS_NAMES: Record<string, string> = { '0': 'open', '1': 'won', '2': 'lost' };

const STATUS_DESCRIPTION =
	'Open, won or lost. The platform does not document its status numbers: the node sends 0 for open, 1 for won and 2 for lost.';

const VISIBILITY = options([
	['Private', 'private'],
	['Public', 'public'],
	['Team', 'team'],
]);

export const optionalId = (label: string) => (v: unknown, ctx: OpContext) => {
	const text = plainValue(v);
	return text === '' || text === '0' ? undefined : toIntegerId(text, label, ctx);
};

export const optionalIds = (label: string) => (v: unknown, ctx: OpContext) =>
	v === '' || v === undefined || v === null || (Array.isArray(v) && v.length === 0)
		? undefined
		: toIntegerIds(v, label, ctx);

/** A closing date as the calendar date YYYY-MM-DD (the format of the platform's samples and the sandbox), read strictly. */
function closingDate(v: unknown, ctx: OpContext): string | undefined {
	const date = toCalendarDate(v, 'Closing Date', ctx);
	return date && isoDate(date);
}

// --------------------------------------------------------------- fields --
export const pipelineProperty = (
	description: string,
	method = 'getPipelines',
): INodeProperties => ({
	displayName: 'Pipeline Name or ID',
	name: 'pipelineId',
	type: 'options',
	typeOptions: { loadOptionsMethod: method },
	default: '',
	description: `${description}. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
});

export const stageProperty = (
	dependsOn: string,
	description: string,
	method = 'getPipelineStages',
): INodeProperties => ({
	displayName: 'Stage Name or ID',
	name: 'stageId',
	type: 'options',
	typeOptions: { loadOptionsMethod: method, loadOptionsDependsOn: [dependsOn] },
	default: '',
	description: `${description}. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
});

/** Version 2's stage: a resource locator that lists the stages of the pipeline chosen in the top-level Pipeline. */
export const stageLocator = (description: string, required = false): INodeProperties =>
	fromVersion(2, {
		...locator({
			name: 'stageId',
			displayName: 'Stage',
			search: 'searchPipelineStages',
			description,
			required,
		}),
		typeOptions: { loadOptionsDependsOn: ['pipelineId.value'] },
	});

export const ownerProperty: INodeProperties = {
	displayName: 'Owner Name or ID',
	name: 'ownerId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getOwners' },
	default: '',
	description:
		'The sales user who owns the deal. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const statusField = bodyField({
	displayName: 'Status',
	name: 'status',
	type: 'options',
	options: STATUSES,
	default: 0,
	description: STATUS_DESCRIPTION,
});

export const reasonField = bodyField({
	displayName: 'Reason',
	name: 'reason',
	type: 'string',
	default: '',
	description: 'Why the deal was won or lost',
});

export const contactLocator = (
	name: string,
	displayName: string,
	description: string,
): INodeProperties => ({
	...locator({ name, displayName, search: 'searchContacts', required: false }),
	description,
});

/** Writable deal fields other than name, pipeline and stage. */
export function detailFields(): Field[] {
	return [
		bodyField({
			displayName: 'Amount',
			name: 'amount',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			default: 0,
		}),
		bodyField(
			{
				displayName: 'Currency Code',
				name: 'currencyCode',
				type: 'string',
				default: '',
				placeholder: 'USD',
				description: 'Three-letter currency code',
			},
			'currency_code',
			(v) => (v ? String(v).trim().toUpperCase() : undefined),
		),
		bodyField(
			{
				displayName: 'Closing Date',
				name: 'closingDate',
				type: 'dateTime',
				default: '',
				description: 'Expected closing date (sent as the calendar date)',
			},
			'closing_date',
			closingDate,
		),
		bodyField(
			contactLocator('contactId', 'Contact', 'The person contact of the deal'),
			'contact_id',
			optionalId('Contact'),
		),
		bodyField(
			contactLocator('organizationId', 'Organization', 'The organization contact of the deal'),
			'organization_id',
			optionalId('Organization'),
		),
		bodyField(ownerProperty, 'owner_id', optionalId('Owner')),
		statusField,
		reasonField,
		bodyField({
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
		}),
		bodyField({ displayName: 'Mobile', name: 'mobile', type: 'string', default: '' }),
		bodyField(
			{
				displayName: 'Visibility',
				name: 'visibilityType',
				type: 'options',
				options: VISIBILITY,
				default: 'public',
			},
			'visibility_type',
		),
		bodyField(
			{
				displayName: 'Sub-Owner IDs',
				name: 'subOwnerIds',
				type: 'string',
				default: '',
				description: 'Comma-separated IDs of further owners',
			},
			'sub_owner_ids',
			optionalIds('Sub-owner IDs'),
		),
		customFieldsField('deal'),
	];
}

// --------------------------------------------------------------- output --

function parseInfo(value: unknown): IDataObject | undefined {
	if (value !== null && typeof value === 'object') return value as IDataObject;
	if (typeof value !== 'string' || !value.trim()) return undefined;
	try {
		const parsed = JSON.parse(value) as unknown;
		return parsed !== null && typeof parsed === 'object'
			? (parsed as IDataObject)
			: { name: String(parsed) };
	} catch {
		// contact_info and friends are documented only as strings: a plain text is the name
		return { name: value };
	}
}

const infoName = (value: unknown) => {
	const info = parseInfo(value);
	if (!info) return undefined;
	return (
		(info.name as string | undefined) ?? (userName(info) || (info.email as string | undefined))
	);
};

export function simplifyDeal(d: IDataObject): IDataObject {
	return compact({
		id: d.id,
		name: d.name,
		amount: d.amount,
		currency: d.currency_code,
		status: STATUS_NAMES[String(d.status)] ?? (d.status as IDataObject[string]),
		stage: objectAt(d, 'stage')?.name,
		pipelineId: d.pipeline_id,
		contact: infoName(d.contact_info),
		organization: infoName(d.organization_info),
		owner: infoName(d.owner_info),
		closingDate: d.closing_date,
		updatedAt: d.updated_at,
		summary: d.summary,
	});
}

const INFO_KEYS = ['contact_info', 'organization_info', 'owner_info'];

/** Version 2's Options of the deal operations that output deals. */
export const INFO_AS_TEXT: INodeProperties = fromVersion(2, {
	displayName: 'Info as JSON Text',
	name: 'infoAsText',
	type: 'boolean',
	default: false,
	description:
		'Whether to output contact_info, organization_info and owner_info as the JSON text the platform sends, instead of as objects',
});

export const dealOptionsField = (): Field => {
	const f = collection(
		{ displayName: 'Options', name: 'options', placeholder: 'Add option', default: {} },
		[{ property: INFO_AS_TEXT }],
	);
	return { ...f, property: fromVersion(2, f.property) };
};

/**
 * A deal as output. The platform sends contact_info, organization_info and owner_info as
 * JSON text inside a string; from version 2 they come out as objects (text that is not a
 * JSON object stays as it is), unless the option Info as JSON Text is on. Version 1 keeps
 * the text (saved workflows may read it).
 */
export function dealReader(ctx: OpContext): (d: IDataObject) => IDataObject {
	// Read once for all the deals of an item (a list maps every deal through it).
	if (ctx.scope.node.typeVersion < 2 || ctx.param<IDataObject>('options', {})?.infoAsText === true)
		return (d) => d;
	return (d) => {
		const out = { ...d };
		for (const key of INFO_KEYS) {
			const value = jsonOrText(out[key]);
			if (value !== null && typeof value === 'object' && !Array.isArray(value))
				out[key] = value as IDataObject;
		}
		return out;
	};
}

/** One deal as `dealReader` gives it. */
export const readableDeal = (d: IDataObject, ctx: OpContext): IDataObject => dealReader(ctx)(d);

export const readBack = async (ctx: OpContext, id: number) =>
	readableDeal(await ctx.request<IDataObject>({ method: 'GET', path: `/v1/crm/deals/${id}` }), ctx);

export const dealIdsField = (key: string): Field => ({
	property: {
		displayName: 'Deal IDs',
		name: 'dealIds',
		type: 'string',
		default: '',
		required: true,
		description: 'Comma-separated IDs of the deals',
	},
	send: { in: 'body', key, map: (v, ctx) => [...new Set(toIntegerIds(v, 'Deal IDs', ctx))] },
});
