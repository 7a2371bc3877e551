/** Record: the fields its operations share (table, record, columns, the output switch). */
import type { INodeProperties } from 'n8n-workflow';

import type { Field, OpContext } from '../../../shared/engine/model';
import { locator } from '../../../shared/engine/fields';
import { tableIdValue } from '../table/common';
import { TABLES_PATH } from '../../common/tables';

const recordLocator: INodeProperties = {
	...locator({
		name: 'recordId',
		displayName: 'Record',
		search: 'searchRecords',
		numeric: false,
		placeholder: 'e.g. 65f1c0ffee0123456789abcd',
		description: 'The record to use',
	}),
	typeOptions: { loadOptionsDependsOn: ['tableId.value'] },
};

export function recordIdValue(value: unknown, ctx: OpContext): string {
	const id = String(value ?? '').trim();
	if (!id) throw ctx.fail('Record is empty', 'Pick a record from the list, or give its ID.');
	return id;
}

const tableLocator = locator({
	name: 'tableId',
	displayName: 'Table',
	search: 'searchTables',
	numeric: false,
	placeholder: 'e.g. 65f1c0ffee0123456789abcd',
	description: 'The table to use',
});

export const tableField: Field = {
	property: tableLocator,
	send: { in: 'path', key: 'tableId', map: tableIdValue },
};

export const recordField: Field = {
	property: recordLocator,
	send: { in: 'path', key: 'recordId', map: recordIdValue },
};

/**
 * The output switch. Each operation has its own wording, which also keeps it last in
 * that operation's fields (identical fields of several operations are shown once, at
 * the place of their first use).
 */
export const byNameField = (whose: string): Field => ({
	property: {
		displayName: 'Cells by Column Name',
		name: 'cellsByName',
		type: 'boolean',
		default: true,
		description: `Whether to add each cell of ${whose} under its column name, with select options as names, next to the raw cells keyed by column ID`,
	},
});

/** How the cells of a create or update are given: the Columns mapper (the default, which saved workflows keep), or one JSON value a model or an expression can fill. */
export const cellsInputField: Field = {
	property: {
		displayName: 'Cells',
		name: 'cellsInput',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Map Each Column',
				value: 'mapper',
				description: 'Set each column of the chosen table in the Columns mapper',
			},
			{
				name: 'From JSON',
				value: 'json',
				description:
					'One JSON object keyed by column name, which an AI model or an expression can fill for any table',
			},
		],
		default: 'mapper',
		builderHint: {
			propertyHint:
				'Use "json" when an AI model or an expression gives the cells (any table, columns by name); "mapper" only for one fixed table set up in the editor.',
		},
	},
};

export const cellsJsonField: Field = {
	property: {
		displayName: 'Cells (JSON)',
		name: 'cellsJson',
		type: 'json',
		default: '{}',
		required: true,
		displayOptions: { show: { cellsInput: ['json'] } },
		placeholder: '{"Name": "Ada Lovelace", "Status": "Won"}',
		builderHint: {
			propertyHint:
				'A JSON object keyed by column name, select columns by option name, e.g. {"Name": "Ada", "Status": "Won"}; for an AI Agent tool, $fromAI(\'cells\', …, \'json\').',
		},
		description:
			'The cells as one JSON object keyed by column name (or column ID), such as {"Name": "Ada Lovelace", "Amount": 1200, "Status": "Won"}, or a list of {"column": …, "value": …}. Select columns take option names. Checked against the table’s columns like the mapper’s values; Table → Get lists them.',
	},
};

/**
 * n8n-internals 8 (nodes/shared/n8n-internals/index.ts), pinned by test/integration/n8n-internals.test.ts on
 * both ends of the tested range. Relies on: n8n completes a node's saved parameters with the defaults
 * of those it does not hold before it evaluates display conditions (n8n-workflow
 * NodeHelpers.getNodeParameters, in the editor and at run time). The mapper (`hide: { cellsInput:
 * ['json'] }`), like Search's Conditions (conditions.ts), is hidden only when the new switch is off its
 * default, so a workflow saved before the switch existed keeps its mapper, shown and read. Buys: the
 * JSON input beside the mapper without a new node version; the description guard
 * (testbed/descriptions/compare.ts) accepts only this shape. When it does not hold (a missing switch read
 * as empty), `hide` matches only 'json': the mapper still shows.
 */
export function columnsField(forCreate: boolean): Field {
	return {
		property: {
			displayName: 'Columns',
			displayOptions: { hide: { cellsInput: ['json'] } },
			name: 'columns',
			type: 'resourceMapper',
			noDataExpression: true,
			default: { mappingMode: 'defineBelow', value: null },
			required: true,
			typeOptions: {
				loadOptionsDependsOn: ['tableId.value'],
				resourceMapper: {
					resourceMapperMethod: forCreate
						? 'getRecordColumnsForCreate'
						: 'getRecordColumnsForUpdate',
					mode: forCreate ? 'add' : 'map',
					fieldWords: { singular: 'column', plural: 'columns' },
					addAllFields: forCreate,
					multiKeyMatch: false,
					supportAutoMap: true,
					// Without a table the mapper says so in its notice ("Choose a table first"), not in red with "Retry".
					hideNoDataError: true,
				},
			},
		},
	};
}

export { tableIdFor, tableIdOf, withTableId } from '../table/common';

/** The path of one record. */
export const recordPath = `${TABLES_PATH}/{tableId}/record/{recordId}`;

/** An "Options" collection that the operation's own code reads (nothing in it is sent as it is). */
export const optionsField = (options: INodeProperties[]): Field => ({
	property: {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options,
	},
});
