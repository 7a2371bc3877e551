/** User → Get Tax Declarations: GET /v1/people/users/in/tax-declaration-info/list. List the tax declarations employees submitted. */

import type { Operation } from '../../../shared/engine/model';
import { queryField } from '../../../shared/engine/fields';
import { INT64_LIST_WHY, int64ListOf } from '../common';
import { listOptions, str } from './common';

export const getTaxDeclarationsUser: Operation = {
	value: 'getTaxDeclarations',
	name: 'Get Tax Declarations',
	action: 'Get tax declarations',
	description: 'List the tax declarations employees submitted',
	returns: "one item per tax declaration, up to the node's limit",
	method: 'GET',
	path: '/v1/people/users/in/tax-declaration-info/list',
	regional: true,
	paginate: 'taxDeclarations',
	fields: [
		listOptions([
			queryField(
				str(
					'Stage',
					'stage',
					'Only declarations in this stage, such as SUBMITTED, APPROVED or REJECTED (all when empty)',
				),
			),
		]),
	],
	why: INT64_LIST_WHY,
	execute: int64ListOf,
};
