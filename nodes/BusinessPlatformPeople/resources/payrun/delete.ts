/** Payrun → Delete: DELETE /v1/people-pay-run/payruns. Delete one or more payruns and their paystubs. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { toStringIds } from '../../../shared/field-values';
import { BASE } from './common';

export const deletePayrun: Operation = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete payruns',
	description: 'Delete one or more payruns and their paystubs',
	method: 'DELETE',
	path: BASE,
	regional: true,
	fields: [
		{
			property: {
				displayName: 'Payrun Names or IDs',
				name: 'payrunIds',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getPayruns' },
				default: [],
				required: true,
				description:
					'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
				hint: 'The payruns to delete; an expression may give a list or comma-separated text',
			},
		},
	],
	why: 'The body is a bare list of {payrunId} built from the picked payruns, and the platform answers with nothing to show: the output names each deleted ID.',
	// The IDs checked once, and sent as checked: the body is the bare list.
	check: (req, ctx) => {
		req.rawBody = toStringIds(ctx.param('payrunIds', []), 'Payruns', ctx).map((payrunId) => ({
			payrunId,
		}));
	},
	execute: async (ctx, req) => {
		await ctx.send(req);
		return (req.rawBody as IDataObject[]).map((p) => ({ deleted: true, id: p.payrunId }));
	},
};
