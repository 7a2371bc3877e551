/** User → Update Fields: PATCH /v1/people/users. Change the given fields of a user; the others keep their values (PATCH). */

import type { Operation } from '../../../shared/engine/model';
import { saveUser, userIdField } from './common';
import { checkUser, userGroups } from './fields';

export const updateFieldsUser: Operation = {
	value: 'updateFields',
	name: 'Update Fields',
	action: 'Update fields of a user',
	description: 'Change the given fields of a user; the others keep their values (PATCH)',
	method: 'PATCH',
	path: '/v1/people/users',
	regional: true,
	fields: [userIdField('userId'), ...userGroups('patch')],
	why: 'A 200 answer that carries errors and no user fails the item, and the user’s int64 numbers (written as text) are turned back into numbers.',
	check: (req, ctx) => {
		if (Object.keys(req.body).filter((k) => k !== 'userId').length === 0)
			throw ctx.fail(
				'Nothing to update',
				'Add at least one field in one of the groups (Identity, Dates, Address, …).',
			);
		checkUser(req, ctx);
	},
	execute: saveUser,
};
