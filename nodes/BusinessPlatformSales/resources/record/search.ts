/** Record → Search: POST /v1/crm/core/table/{tableId}/paged-record. Find the records of a table that match conditions or a text. */
import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { bodyField, options, queryField } from '../../../shared/engine/fields';
import { echo } from '../../../shared/text-readers';
import { tableFor, TABLES_PATH } from '../../common/tables';
import {
	checkConditions,
	conditionsInputField,
	conditionsJsonField,
	filtersField,
	prepareSearch,
} from './conditions';
import { recordByName } from './cells';
import { byNameField, optionsField, tableField, tableIdFor, withTableId } from './fields';

export const searchRecord: Operation = {
	value: 'search',
	name: 'Search',
	action: 'Search records',
	description: 'Find the records of a table that match conditions or a text',
	method: 'POST',
	path: `${TABLES_PATH}/{tableId}/paged-record`,
	// Only reads: safe to repeat after a 5xx or a dropped connection.
	idempotent: true,
	regional: true,
	toolHint:
		'Call the tool that gets a table first to learn its columns and allowed options; give conditions by column name, such as Status equals Won and Amount greater than 1000. The table may be given by name or ID',
	paginate: 'records',
	fields: [
		tableField,
		queryField(
			{
				displayName: 'Search Text',
				name: 'q',
				type: 'string',
				default: '',
				description: 'Text to find in any text column of the record (full-text search)',
			},
			'q',
			(v) => (typeof v === 'string' && v.trim() ? v.trim() : undefined),
		),
		bodyField(
			{
				displayName: 'Must Match',
				name: 'logicalOperator',
				type: 'options',
				options: options([
					['All Conditions', 'and'],
					['Any Condition', 'or'],
				]),
				default: 'and',
			},
			'logicalOperator',
		),
		conditionsInputField,
		filtersField,
		conditionsJsonField,
		optionsField([
			{
				displayName: 'Fetch All Referenced Records',
				name: 'fetchAllRef',
				type: 'boolean',
				default: false,
				description: 'Whether to add the records that every ref column points at (under refData)',
			},
			{
				displayName: 'Referenced Column Names or IDs',
				name: 'refColumns',
				type: 'multiOptions',
				typeOptions: {
					loadOptionsMethod: 'getRefColumns',
					loadOptionsDependsOn: ['tableId.value'],
				},
				default: [],
				description:
					'Ref columns whose records to add under refData (ignored when Fetch All Referenced Records is on). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Sort By Name or ID',
				name: 'sortColumn',
				type: 'options',
				typeOptions: {
					loadOptionsMethod: 'getSortColumns',
					loadOptionsDependsOn: ['tableId.value'],
				},
				default: 'createdAt',
				description:
					'Column to sort by. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Sort Direction',
				name: 'sortDirection',
				type: 'options',
				options: options([
					['Ascending', 1],
					['Descending', -1],
				]),
				default: -1,
			},
		]),
		byNameField('each record'),
	],
	why: 'The conditions (one by one, or one JSON value) are checked against the table’s columns and become the platform’s filter; Return All without an order pages oldest first; cells are given by column name too.',
	check: async (_req, ctx) => {
		const opts = (ctx.param<IDataObject>('options', {}) ?? {}) as IDataObject;
		if (opts.sortDirection !== undefined) {
			const dir = Number(opts.sortDirection);
			if (dir !== 1 && dir !== -1)
				throw ctx.fail(
					`Sort Direction must be 1 (ascending) or -1 (descending), got ${echo(opts.sortDirection, 60)}`,
				);
		}
		await checkConditions(ctx);
	},
	execute: async (ctx, req) => {
		const opts = (ctx.param<IDataObject>('options', {}) ?? {}) as IDataObject;
		// Checked (1 or -1) by `check`.
		if (opts.sortDirection !== undefined) req.qs.sortDir = Number(opts.sortDirection);
		req.body.logicalOperator =
			String(req.body.logicalOperator ?? 'and').toLowerCase() === 'or' ? 'or' : 'and';
		await withTableId(req, ctx);
		await prepareSearch(req, ctx);
		// Return All without a chosen order pages oldest first (createdAt ascending): a record created
		// meanwhile lands on the last page instead of shifting the page boundaries.
		if (
			ctx.param<boolean>('returnAll', false) &&
			req.qs.sortCol === undefined &&
			req.qs.sortDir === undefined
		)
			Object.assign(req.qs, { sortCol: 'createdAt', sortDir: 1 });
		const answer = await ctx.send(req);
		const records = Array.isArray(answer) ? (answer as IDataObject[]) : [];
		if (!ctx.param<boolean>('cellsByName', true) || records.length === 0) return records;
		const table = await tableFor(ctx, await tableIdFor(ctx));
		return records.map((r) => recordByName(r, table));
	},
};
