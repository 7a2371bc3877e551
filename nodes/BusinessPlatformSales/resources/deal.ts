/** Deals — /v1/crm/deals. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { bodyField, collection, compact, customFieldsField, locator, options, plainValue, toIntegerId, toIntegerIds } from '../../shared/fields';
import type { Field, OpContext, Operation, Resource } from '../../shared/engine/model';
import { getOwners, searchContacts } from '../methods/contacts';
import { getPipelines, getPipelineStages, searchDeals } from '../methods/deals';

const dealId = locator({ name: 'dealId', displayName: 'Deal', search: 'searchDeals', description: 'The deal to use' });
const idField: Field = { property: dealId, send: { in: 'path', key: 'id', map: (v, ctx) => toIntegerId(v, 'Deal', ctx) } };

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
const STATUS_DESCRIPTION = 'Open, won or lost. The platform does not document its status numbers: the node sends 0 for open, 1 for won and 2 for lost.';
const VISIBILITY = options([
	['Private', 'private'],
	['Public', 'public'],
	['Team', 'team'],
]);

const optionalId = (label: string) => (v: unknown, ctx: OpContext) => {
	const text = plainValue(v);
	return text === '' || text === '0' ? undefined : toIntegerId(text, label, ctx);
};
const optionalIds = (label: string) => (v: unknown, ctx: OpContext) => (v === '' || v === undefined || v === null || (Array.isArray(v) && v.length === 0) ? undefined : toIntegerIds(v, label, ctx));

/** A closing date as the calendar date YYYY-MM-DD (the format of the platform's samples and the sandbox). */
function closingDate(v: unknown, ctx: OpContext): string | undefined {
	if (v === undefined || v === null || v === '') return undefined;
	const text = v instanceof Date ? '' : String(v).trim();
	const m = /^(\d{4}-\d{2}-\d{2})(?:$|[T ])/.exec(text);
	if (m && !Number.isNaN(Date.parse(m[1]))) return m[1];
	const date = v instanceof Date ? v : new Date(text);
	if (Number.isNaN(date.getTime())) throw ctx.fail(`Closing Date "${text}" is not a date`, 'Use a date such as 2026-12-31, or pick one.');
	return new Intl.DateTimeFormat('en-CA', { timeZone: ctx.fn.getTimezone(), year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

// --------------------------------------------------------------- fields --

/** A collection whose fields are listed in alphabetical order, as n8n's guidelines ask. */
const sortedCollection = (property: Parameters<typeof collection>[0], children: Field[]): Field =>
	collection(property, [...children].sort((a, b) => a.property.displayName.localeCompare(b.property.displayName)));

const pipelineProperty = (description: string): INodeProperties => ({
	displayName: 'Pipeline Name or ID',
	name: 'pipelineId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getPipelines' },
	default: '',
	description: `${description}. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
});
const stageProperty = (dependsOn: string, description: string): INodeProperties => ({
	displayName: 'Stage Name or ID',
	name: 'stageId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getPipelineStages', loadOptionsDependsOn: [dependsOn] },
	default: '',
	description: `${description}. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
});
const ownerProperty: INodeProperties = {
	displayName: 'Owner Name or ID',
	name: 'ownerId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getOwners' },
	default: '',
	description: 'The sales user who owns the deal. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};
const statusField = bodyField({ displayName: 'Status', name: 'status', type: 'options', options: STATUSES, default: 0, description: STATUS_DESCRIPTION });
const reasonField = bodyField({ displayName: 'Reason', name: 'reason', type: 'string', default: '', description: 'Why the deal was won or lost' });

const contactLocator = (name: string, displayName: string, description: string): INodeProperties => ({
	...locator({ name, displayName, search: 'searchContacts', required: false }),
	description,
});


/** Writable deal fields other than name, pipeline and stage. */
function detailFields(): Field[] {
	return [
		bodyField({ displayName: 'Amount', name: 'amount', type: 'number', typeOptions: { minValue: 0, numberPrecision: 2 }, default: 0 }),
		bodyField({ displayName: 'Currency Code', name: 'currencyCode', type: 'string', default: '', placeholder: 'USD', description: 'Three-letter currency code' }, 'currency_code', (v) =>
			v ? String(v).trim().toUpperCase() : undefined,
		),
		bodyField({ displayName: 'Closing Date', name: 'closingDate', type: 'dateTime', default: '', description: 'Expected closing date (sent as the calendar date)' }, 'closing_date', closingDate),
		bodyField(contactLocator('contactId', 'Contact', 'The person contact of the deal'), 'contact_id', optionalId('Contact')),
		bodyField(contactLocator('organizationId', 'Organization', 'The organization contact of the deal'), 'organization_id', optionalId('Organization')),
		bodyField(ownerProperty, 'owner_id', optionalId('Owner')),
		statusField,
		reasonField,
		bodyField({ displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@email.com', default: '' }),
		bodyField({ displayName: 'Mobile', name: 'mobile', type: 'string', default: '' }),
		bodyField({ displayName: 'Visibility', name: 'visibilityType', type: 'options', options: VISIBILITY, default: 'public' }, 'visibility_type'),
		bodyField({ displayName: 'Sub-Owner IDs', name: 'subOwnerIds', type: 'string', default: '', description: 'Comma-separated IDs of further owners' }, 'sub_owner_ids', optionalIds('Sub-owner IDs')),
		customFieldsField('deal'),
	];
}

// --------------------------------------------------------------- output --

function parseInfo(value: unknown): IDataObject | undefined {
	if (value !== null && typeof value === 'object') return value as IDataObject;
	if (typeof value !== 'string' || !value.trim()) return undefined;
	try {
		const parsed = JSON.parse(value) as unknown;
		return parsed !== null && typeof parsed === 'object' ? (parsed as IDataObject) : { name: String(parsed) };
	} catch {
		// contact_info and friends are documented only as strings: a plain text is the name
		return { name: value };
	}
}
const infoName = (value: unknown) => {
	const info = parseInfo(value);
	if (!info) return undefined;
	const full = `${String(info.first_name ?? '')} ${String(info.last_name ?? '')}`.trim();
	return (info.name as string | undefined) ?? (full || (info.email as string | undefined));
};

export function simplifyDeal(d: IDataObject): IDataObject {
	const stage = d.stage as IDataObject | null | undefined;
	return compact({
		id: d.id,
		name: d.name,
		amount: d.amount,
		currency: d.currency_code,
		status: STATUS_NAMES[String(d.status)] ?? (d.status as IDataObject[string]),
		stage: stage?.name,
		pipelineId: d.pipeline_id,
		contact: infoName(d.contact_info),
		organization: infoName(d.organization_info),
		owner: infoName(d.owner_info),
		closingDate: d.closing_date,
		updatedAt: d.updated_at,
		summary: d.summary,
	});
}

const readBack = async (ctx: OpContext, id: number) => await ctx.request<IDataObject>({ method: 'GET', path: `/v1/crm/deals/${id}` });
const idFromPath = (path: string) => Number(path.split('/').pop());

const requireSomeFields = (body: IDataObject, ctx: OpContext) => {
	if (Object.keys(body).length === 0) throw ctx.fail('Nothing to update', 'Add at least one field under "Update Fields".');
};

const dealIdsField = (key: string): Field => ({
	property: { displayName: 'Deal IDs', name: 'dealIds', type: 'string', default: '', required: true, description: 'Comma-separated IDs of the deals' },
	send: { in: 'body', key, map: (v, ctx) => [...new Set(toIntegerIds(v, 'Deal IDs', ctx))] },
});

// ----------------------------------------------------------- operations --

const ops: Operation[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Create a deal',
		description: 'Create a deal in a pipeline',
		method: 'POST',
		path: '/v1/crm/deals',
		fields: [
			bodyField({ displayName: 'Name', name: 'name', type: 'string', default: '', required: true }),
			bodyField(pipelineProperty('The pipeline of the deal. Empty: the platform’s first pipeline'), 'pipeline_id', optionalId('Pipeline')),
			bodyField(stageProperty('pipelineId', 'The stage of the deal. Empty: the first stage of the pipeline'), 'stage_id', optionalId('Stage')),
			sortedCollection({ displayName: 'Additional Fields', name: 'additionalFields', placeholder: 'Add Field', default: {} }, detailFields()),
		],
		prepare: (req, ctx) => {
			if (!String(req.body.name ?? '').trim()) throw ctx.fail('Name is empty', 'Give the deal a name.');
		},
		output: async (answer, ctx) => await readBack(ctx, toIntegerId((answer as IDataObject | undefined)?.id, 'The created deal’s ID', ctx)),
	},
	{
		value: 'get',
		name: 'Get',
		action: 'Get a deal',
		description: 'Get one deal',
		method: 'GET',
		path: '/v1/crm/deals/{id}',
		fields: [idField],
		simplify: simplifyDeal,
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many deals',
		description: 'List deals, with filters',
		method: 'GET',
		path: '/v1/crm/deals',
		paginate: 'pageEnvelope',
		simplify: simplifyDeal,
		fields: [
			sortedCollection({ displayName: 'Filters', name: 'filters', placeholder: 'Add Filter', default: {} }, [
				{ property: pipelineProperty('Only deals in this pipeline'), send: { in: 'query', key: 'pipeline_id', map: optionalId('Pipeline') } },
				{ property: contactLocator('contactId', 'Contact', 'Only deals of this person or organization contact'), send: { in: 'query', key: 'contact_id', map: (v, ctx) => optionalId('Contact')(v, ctx)?.toString() } },
				{
					property: { displayName: 'Deal IDs', name: 'dealIds', type: 'string', default: '', description: 'Only these deals: comma-separated IDs' },
					send: { in: 'query', key: 'deal_ids', map: (v, ctx) => optionalIds('Deal IDs')(v, ctx)?.join(',') },
				},
				{
					property: { displayName: 'Include Closed Deals', name: 'showClosedDeals', type: 'boolean', default: true, description: 'Whether to include won and lost deals (the platform leaves them out unless asked)' },
					send: { in: 'query', key: 'show_closed_deals' },
				},
			]),
			sortedCollection({ displayName: 'Options', name: 'options', placeholder: 'Add Option', default: {} }, [
				{
					property: {
						displayName: 'Include Summary',
						name: 'includeSummary',
						type: 'boolean',
						default: true,
						description: 'Whether to ask the platform for its summary of all matching deals (deal_summary) and add it to every output deal as "summary"',
					},
				},
			]),
		],
		output: async (answer, ctx, req) => {
			const deals = answer as IDataObject[];
			if (!ctx.param<IDataObject>('options', {}).includeSummary || deals.length === 0) return deals;
			const body = await ctx.request<IDataObject>({ method: 'GET', path: req.path, qs: { ...req.qs, deal_summary: true, page: 1, limit: 1 } });
			const summary = (body?.summary as IDataObject | undefined) ?? null;
			return deals.map((d) => ({ ...d, summary }));
		},
	},
	{
		value: 'update',
		name: 'Update',
		action: 'Update a deal',
		description: 'Change the given fields of a deal (PUT); the others keep their values',
		method: 'PUT',
		path: '/v1/crm/deals/{id}',
		fields: [
			idField,
			sortedCollection({ displayName: 'Update Fields', name: 'updateFields', placeholder: 'Add Field', default: {} }, [
				bodyField({ displayName: 'Name', name: 'name', type: 'string', default: '' }),
				bodyField(pipelineProperty('Move the deal to this pipeline (to its first stage, unless a stage is given)'), 'pipeline_id', optionalId('Pipeline')),
				bodyField(stageProperty('updateFields.pipelineId', 'Move the deal to this stage'), 'stage_id', optionalId('Stage')),
				...detailFields(),
			]),
		],
		prepare: async (req, ctx) => {
			requireSomeFields(req.body, ctx);
			if ('name' in req.body && !String(req.body.name).trim()) throw ctx.fail('Name is empty', 'Give the deal a name, or remove the Name field.');
			const given = req.body.custom_field as IDataObject[] | undefined;
			if (given) {
				// The update model carries custom_field as text: the deal's whole list, so that
				// fields not named here keep their values.
				const current = await readBack(ctx, idFromPath(req.path));
				const list = Array.isArray(current.custom_field) ? [...(current.custom_field as IDataObject[])] : [];
				for (const f of given) {
					const at = list.findIndex((c) => (c.shortName && c.shortName === f.shortName) || (c.code && c.code === f.code));
					if (at >= 0) list[at] = { ...list[at], ...f };
					else list.push(f);
				}
				req.body.custom_field = JSON.stringify(list);
			}
		},
		output: async (_a, ctx, req) => await readBack(ctx, idFromPath(req.path)),
	},
	{
		value: 'delete',
		name: 'Delete',
		action: 'Delete a deal',
		description: 'Delete a deal',
		method: 'DELETE',
		path: '/v1/crm/deals/{id}',
		fields: [idField],
		output: (_a, _ctx, req) => ({ deleted: true, id: idFromPath(req.path) }),
	},
	{
		value: 'bulkUpdate',
		name: 'Bulk Update',
		action: 'Update many deals at once',
		description: 'Set the stage, pipeline, owner, status or reason of several deals in one request',
		method: 'PATCH',
		path: '/v1/crm/deals',
		fields: [
			dealIdsField('ids'),
			sortedCollection({ displayName: 'Update Fields', name: 'updateFields', placeholder: 'Add Field', default: {} }, [
				bodyField(pipelineProperty('Move the deals to this pipeline (to its first stage, unless a stage is given)'), 'pipeline_id', optionalId('Pipeline')),
				bodyField(stageProperty('updateFields.pipelineId', 'Move the deals to this stage'), 'stage_id', optionalId('Stage')),
				bodyField(ownerProperty, 'owner_id', optionalId('Owner')),
				statusField,
				reasonField,
			]),
		],
		prepare: (req, ctx) => {
			const { ids, ...rest } = req.body;
			void ids;
			requireSomeFields(rest, ctx);
		},
		output: (answer, _ctx, req) => {
			const ids = Array.isArray(answer) && answer.length ? (answer as unknown[]).map(Number) : (req.body.ids as number[]);
			return ids.map((id) => ({ id, updated: true }));
		},
	},
	{
		value: 'bulkDelete',
		name: 'Bulk Delete',
		action: 'Delete many deals at once',
		description: 'Delete several deals in one request',
		method: 'DELETE',
		path: '/v1/crm/deals',
		fields: [dealIdsField('ids')],
		output: (_a, _ctx, req) => (req.body.ids as number[]).map((id) => ({ deleted: true, id })),
	},
];

export const dealResource: Resource = {
	value: 'deal',
	name: 'Deal',
	description: 'Deals in pipelines',
	operations: ops,
	methods: { listSearch: { searchDeals, searchContacts }, loadOptions: { getOwners, getPipelines, getPipelineStages } },
};
