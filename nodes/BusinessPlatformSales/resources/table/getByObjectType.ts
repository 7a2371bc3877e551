/** Table → Get by Object Type: GET /v1/crm/core/table/by-object-type. Get the table of each object type (one item per table). */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { TABLES_PATH } from '../../common/tables';
import { simplifyTable, tableFilters } from './common';

const isObject = (v: unknown): v is IDataObject =>
	v !== null && typeof v === 'object' && !Array.isArray(v);

export const getByObjectTypeTable: Operation = {
	value: 'getByObjectType',
	name: 'Get by Object Type',
	action: 'Get tables by object type',
	description: 'Get the table of each object type (one item per table)',
	method: 'GET',
	path: `${TABLES_PATH}/by-object-type`,
	regional: true,
	fields: tableFilters(),
	simplify: simplifyTable,
	why: 'The platform answers one object keyed by object type: the output is one item per table, with its object type.',
	execute: async (ctx, req) => {
		const answer = await ctx.send(req);
		if (!isObject(answer)) return [];
		return Object.entries(answer)
			.filter(([, t]) => isObject(t))
			.map(([objectType, t]) => ({
				...(t as IDataObject),
				objectType: (t as IDataObject).objectType ?? objectType,
			}));
	},
};
