/** Component Group: what its operations share. */

import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { BuiltRequest, Field, OpContext } from '../../../shared/engine/model';
import { bodyField, options } from '../../../shared/engine/fields';
import { compact, toStringId, toStringIds } from '../../../shared/field-values';
import { int64ToNumbers } from '../common';

export const PATH = '/v1/people/tenants/component-group';

export const groupId = (key: string, sendIn: 'body' | 'query'): Field => ({
	property: {
		displayName: 'Component Group ID',
		name: 'componentGroupId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 65f1c0ffee0123456789abcd',
		description: 'The ID of the component group',
	},
	send: { in: sendIn, key, map: (v, ctx) => toStringId(v, 'Component Group ID', ctx) },
});

const listOf = (
	displayName: string,
	name: string,
	item: string,
	values: INodeProperties[],
	placeholder: string,
	description?: string,
): INodeProperties => ({
	displayName,
	name,
	...(description ? { description } : {}),
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder,
	default: {},
	options: [{ displayName: item, name: 'item', values }],
});

const entries = (v: unknown) =>
	((v as IDataObject | undefined)?.item as IDataObject[] | undefined) ?? [];

/** Entries that carry only an ID under `key`: each must have one. */
const idEntries = (key: string, label: string, hint: string) => (v: unknown, ctx: OpContext) =>
	entries(v).map((e, i) => {
		const id = String(e[key] ?? '').trim();
		if (!id) throw ctx.fail(`${label} ${i + 1} has no ID`, hint);
		return { [key]: id };
	});

const fixedComponent: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		description: 'Name of the component, such as Housing allowance',
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		options: options([
			['Earning', 'EARNING'],
			['Deduction', 'DEDUCTION'],
		]),
		default: 'EARNING',
	},
	{
		displayName: 'Amount Basis',
		name: 'configureAmountBasis',
		type: 'options',
		options: options([
			['Fixed Amount', 'fixed'],
			['Percent of Basic Pay', 'percentOfBasic'],
		]),
		default: 'fixed',
	},
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'number',
		typeOptions: { numberPrecision: 2 },
		default: 0,
		description: 'Amount per payrun, for a fixed amount',
		displayOptions: { show: { configureAmountBasis: ['fixed'] } },
	},
	{
		displayName: 'Percent',
		name: 'componentPercent',
		type: 'number',
		typeOptions: { numberPrecision: 2 },
		default: 0,
		description: 'Percent of basic pay',
		displayOptions: { show: { configureAmountBasis: ['percentOfBasic'] } },
	},
	{
		displayName: 'Deduction Type',
		name: 'deductionType',
		type: 'options',
		options: options([
			['Pre-Tax', 'pretaxdeduction'],
			['Post-Tax', 'posttaxdeduction'],
		]),
		default: 'posttaxdeduction',
		displayOptions: { show: { type: ['DEDUCTION'] } },
	},
	{
		displayName: 'Sub Type',
		name: 'subType',
		type: 'string',
		default: '',
		placeholder: 'e.g. allowance',
	},
	{
		displayName: 'Frequency',
		name: 'frequency',
		type: 'string',
		default: 'everyPayrun',
		description: 'How often the component applies, such as everyPayrun',
	},
	{
		displayName: 'Component ID',
		name: 'componentId',
		type: 'string',
		default: '',
		description: 'ID of an existing component; leave empty for a new one',
	},
	{
		displayName: 'Include in CTC',
		name: 'includeInCTC',
		type: 'boolean',
		default: true,
		description: 'Whether the component counts in the cost to company',
	},
	{
		displayName: 'Include in Overtime',
		name: 'includeInOTCalc',
		type: 'boolean',
		default: false,
		description: 'Whether the component counts in overtime pay',
	},
	{
		displayName: 'Hidden',
		name: 'isHidden',
		type: 'boolean',
		default: false,
		description: 'Whether the component is hidden on paystubs',
	},
];

function componentOf(c: IDataObject, i: number, ctx: OpContext): IDataObject {
	const name = String(c.name ?? '').trim();
	if (!name)
		throw ctx.fail(`Fixed component ${i + 1} has no name`, 'Give every fixed component a name.');
	const basis = String(c.configureAmountBasis ?? 'fixed');
	const percent = Number(c.componentPercent ?? 0);
	const amount = Number(c.amount ?? 0);
	if (!Number.isFinite(amount) || !Number.isFinite(percent))
		throw ctx.fail(`Fixed component ${i + 1} has an amount that is not a number`);
	const type = String(c.type ?? 'EARNING');
	return compact({
		componentId: String(c.componentId ?? '').trim(),
		name,
		type,
		amount: basis === 'fixed' ? amount : 0,
		componentConfig: compact({
			configureAmountBasis: basis,
			basisComponentId: basis === 'percentOfBasic' ? 'basic' : '',
			componentPercent: basis === 'percentOfBasic' ? percent : 0,
			deductionType: type === 'DEDUCTION' ? String(c.deductionType ?? '') : '',
		}),
		subType: String(c.subType ?? ''),
		frequency: c.frequency ? { period: String(c.frequency) } : undefined,
		includeInCTC: c.includeInCTC !== false,
		includeInOTCalc: c.includeInOTCalc === true,
		isHidden: c.isHidden === true,
		status: 'active',
	});
}

/** The group's fields. Update replaces the group, so its fields say so (and get their own properties, shown after the group ID). */
export function groupFields(replace: boolean): Field[] {
	return [
		bodyField({
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			description: replace
				? 'Name of the group; unique in the account. Required again: the whole group is replaced.'
				: 'Name of the group; unique in the account',
		}),
		bodyField({
			displayName: 'Apply to All Users',
			name: 'applyToAll',
			type: 'boolean',
			default: false,
			description: replace
				? 'Whether the group applies to every user without a group of their own (set it again: the whole group is replaced)'
				: 'Whether the group applies to every user without a group of their own',
		}),
		bodyField(
			{
				displayName: 'User Names or IDs',
				name: 'users',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getPeopleUsers' },
				default: [],
				description:
					'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
				hint: replace
					? 'The full list of users the group applies to; users left out leave the group'
					: 'Users the group applies to (a user belongs to one group)',
			},
			'users',
			(v, ctx) =>
				v === '' || v === undefined || v === null || (Array.isArray(v) && v.length === 0)
					? []
					: toStringIds(v, 'Users', ctx),
		),
		...componentLists(replace),
	];
}

/** The group's lists: fixed components, variable components and benefits, each sent even when empty. */
function componentLists(replace: boolean): Field[] {
	const full = replace ? 'The full list: entries left out are removed from the group' : undefined;
	return [
		{
			property: listOf(
				'Fixed Components',
				'fixedComponents',
				'Component',
				fixedComponent,
				'Add Fixed Component',
				full,
			),
			send: {
				in: 'body',
				key: 'fixedComponents',
				keepEmpty: true,
				map: (v, ctx) => entries(v).map((c, i) => componentOf(c, i, ctx)),
			},
		},
		{
			property: listOf(
				'Variable Components',
				'variableComponents',
				'Component',
				[{ displayName: 'Component ID', name: 'componentId', type: 'string', default: '' }],
				'Add Variable Component',
				full,
			),
			send: {
				in: 'body',
				key: 'variableComponents',
				keepEmpty: true,
				map: idEntries(
					'componentId',
					'Variable component',
					'Give the ID of every variable component.',
				),
			},
		},
		{
			property: listOf(
				'Benefits',
				'benefits',
				'Benefit',
				[{ displayName: 'Benefit ID', name: 'benefitId', type: 'string', default: '' }],
				'Add Benefit',
				full,
			),
			send: {
				in: 'body',
				key: 'benefits',
				keepEmpty: true,
				map: idEntries('benefitId', 'Benefit', 'Give the ID of every benefit.'),
			},
		},
	];
}

/** Create and Update's `check`: a group needs a name. */
export function checkGroup(req: BuiltRequest, ctx: OpContext): void {
	if (!String(req.body.name ?? '').trim())
		throw ctx.fail('Name is empty', 'Give the component group a name.');
}

function prepareGroup(req: BuiltRequest): void {
	const has = (k: string) => Array.isArray(req.body[k]) && (req.body[k] as unknown[]).length > 0;
	req.body.hasFixedComponents = has('fixedComponents');
	req.body.hasVarComponents = has('variableComponents');
	req.body.hasBenefits = has('benefits');
	req.body.users ??= [];
}

/** Create and Update: the has… flags set before sending; the answer with its int64 numbers as numbers. */
export async function saveGroup(ctx: OpContext): Promise<IDataObject> {
	const req = ctx.fromFields();
	prepareGroup(req);
	const answer = await ctx.send<IDataObject | undefined>(req);
	return int64ToNumbers(answer ?? {});
}

export const SAVE_GROUP_WHY =
	'Sets the has… flags the platform expects from the lists given before sending; the answer’s int64 numbers (written as text) are turned back into numbers.';
