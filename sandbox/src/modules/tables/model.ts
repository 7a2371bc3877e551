/**
 * The tables' model: tables, columns and records, and the definitions of the
 * four tables every tenant has (CONTACT, DEAL, STAGE, PIPELINE, database "crm").
 *
 * Cells are keyed by column id. select and multi-select hold arrays of option
 * ids (integers), user columns arrays of CRM user ids (integers), ref columns
 * arrays of record ids (strings) of the referenced table, date columns ISO
 * timestamps, json any JSON value, json_array a JSON array.
 */
import type { Doc } from '../../state';

export const OBJECT_TYPES = ['CONTACT', 'DEAL', 'STAGE', 'PIPELINE'] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];

export type ColumnType =
	| 'text'
	| 'string'
	| 'email'
	| 'phone'
	| 'select'
	| 'multi-select'
	| 'number'
	| 'boolean'
	| 'date'
	| 'json'
	| 'json_array'
	| 'ref'
	| 'user';

export interface ColumnOption extends Doc {
	id: number;
	name: string;
	color: string;
	systemField: boolean;
}

export interface Column extends Doc {
	id: string;
	name: string;
	columnCode: string;
	type: ColumnType;
	index: number;
	options: ColumnOption[] | null;
	required: boolean;
	editable: boolean;
	hidden: boolean;
	systemField: boolean;
	uiVisible: boolean;
	width: number;
	datasource: unknown[] | null;
	allowAddOption?: boolean;
	refTable?: { _id: string; objectType: string };
}

export interface Table extends Doc {
	_id: string;
	name: string;
	objectType: ObjectType;
	databaseId: string;
	databaseName: string;
	columnsMetaData: Column[];
	createdAt: string;
	updatedAt: string;
	createdBy: number;
}

export interface TableRecord extends Doc {
	_id: string;
	cells: Record<string, unknown>;
	permissions?: { owners: number[] };
	createdAt: string;
	updatedAt: string;
	createdBy: number;
}

// ---------- table definitions ----------

interface ColumnDef {
	name: string;
	type: ColumnType;
	code?: string;
	required?: boolean;
	system?: boolean;
	hidden?: boolean;
	options?: string[];
	allowAdd?: boolean;
	ref?: ObjectType;
}

/** Every table's first column: the record's name (required; a system field). */
const NAME_COLUMN: ColumnDef = {
	name: 'Name',
	type: 'text',
	code: 'NAME',
	required: true,
	system: true,
};

/** The four tables: their names, column id prefixes, and their columns after Name. */
export const TABLE_DEFS: Record<
	ObjectType,
	{ name: string; prefix: string; columns: ColumnDef[] }
> = {
	CONTACT: {
		name: 'Contacts',
		prefix: 'c',
		columns: [
			{ name: 'Email', type: 'email', code: 'EMAIL', system: true },
			{ name: 'Phone', type: 'phone', code: 'PHONE', system: true },
			{
				name: 'Type',
				type: 'select',
				code: 'TYPE',
				system: true,
				options: ['Person', 'Organization'],
			},
			{
				name: 'Label',
				type: 'select',
				code: 'LABEL',
				options: ['Hot lead', 'Customer', 'Partner'],
				allowAdd: true,
			},
			{ name: 'Owner', type: 'user', code: 'OWNER', system: true },
			{
				name: 'Tags',
				type: 'multi-select',
				options: ['VIP', 'Newsletter', 'Trade show', 'Inbound'],
				allowAdd: true,
			},
			{ name: 'Score', type: 'number' },
			{ name: 'Subscribed', type: 'boolean' },
			{ name: 'Last contacted', type: 'date' },
			{ name: 'Address', type: 'string', code: 'ADDRESS' },
			{ name: 'Extra', type: 'json', hidden: true },
		],
	},
	DEAL: {
		name: 'Deals',
		prefix: 'd',
		columns: [
			{ name: 'Amount', type: 'number', code: 'AMOUNT', system: true },
			{ name: 'Currency', type: 'string', code: 'CURRENCY' },
			{
				name: 'Status',
				type: 'select',
				code: 'STATUS',
				system: true,
				options: ['Open', 'Won', 'Lost'],
			},
			{ name: 'Contact', type: 'ref', code: 'CONTACT', system: true, ref: 'CONTACT' },
			{ name: 'Stage', type: 'ref', code: 'STAGE', system: true, ref: 'STAGE' },
			{ name: 'Owner', type: 'user', code: 'OWNER', system: true },
			{ name: 'Closing date', type: 'date', code: 'CLOSING_DATE' },
			{
				name: 'Sources',
				type: 'multi-select',
				options: ['Web', 'Referral', 'Event', 'Cold call'],
				allowAdd: true,
			},
			{ name: 'Products', type: 'json_array' },
			{ name: 'Notes', type: 'text' },
			{ name: 'Hot', type: 'boolean' },
		],
	},
	STAGE: {
		name: 'Stages',
		prefix: 's',
		columns: [
			{ name: 'Pipeline', type: 'ref', code: 'PIPELINE', system: true, ref: 'PIPELINE' },
			{ name: 'Order', type: 'number', code: 'ORDER' },
			{ name: 'Deal probability', type: 'number', code: 'PROBABILITY' },
			{
				name: 'Won/lost status',
				type: 'select',
				code: 'WON_LOST',
				system: true,
				options: ['open', 'won', 'lost'],
			},
			{ name: 'System generated', type: 'boolean' },
		],
	},
	PIPELINE: {
		name: 'Pipelines',
		prefix: 'p',
		columns: [
			{ name: 'Default', type: 'boolean' },
			{ name: 'Settings', type: 'json' },
			{ name: 'Started on', type: 'date' },
		],
	},
};

const COLORS = ['#e53935', '#43a047', '#1e88e5', '#fb8c00', '#8e24aa', '#00897b'];
export const TEXT_TYPES: ReadonlySet<ColumnType> = new Set(['text', 'string', 'email', 'phone']);
export const ARRAY_TYPES: ReadonlySet<ColumnType> = new Set([
	'select',
	'multi-select',
	'user',
	'ref',
]);
/** createdAt/updatedAt sort and filter as dates, _id as text. */
export const PSEUDO_COLUMNS: Record<string, 'date' | 'text'> = {
	createdAt: 'date',
	updatedAt: 'date',
	_id: 'text',
};

export function buildColumns(
	def: { prefix: string; columns: ColumnDef[] },
	tableIds: Record<ObjectType, string>,
): Column[] {
	return [NAME_COLUMN, ...def.columns].map((c, i) => {
		const isSelect = c.type === 'select' || c.type === 'multi-select';
		const col: Column = {
			id: `${def.prefix}${Math.floor(i / 26) + 1}${String.fromCharCode(97 + (i % 26))}`,
			name: c.name,
			columnCode: c.code ?? '',
			type: c.type,
			index: i,
			options: isSelect
				? (c.options ?? []).map((name, k) => ({
						id: k + 1,
						name,
						color: COLORS[k % COLORS.length],
						systemField: Boolean(c.system),
					}))
				: null,
			required: Boolean(c.required),
			editable: true,
			hidden: Boolean(c.hidden),
			systemField: Boolean(c.system),
			uiVisible: !c.hidden,
			width:
				c.type === 'text' ? 240 : isSelect || c.type === 'user' || c.type === 'ref' ? 180 : 150,
			datasource: null,
		};
		if (isSelect) col.allowAddOption = Boolean(c.allowAdd);
		if (c.ref) col.refTable = { _id: tableIds[c.ref], objectType: c.ref };
		return col;
	});
}

/** An empty cell: missing, null, '', [] or {}. */
export function isEmpty(v: unknown): boolean {
	if (v === undefined || v === null || v === '') return true;
	if (Array.isArray(v)) return v.length === 0;
	return typeof v === 'object' && Object.keys(v as object).length === 0;
}

export const columnMap = (table: Table) => new Map(table.columnsMetaData.map((c) => [c.id, c]));
