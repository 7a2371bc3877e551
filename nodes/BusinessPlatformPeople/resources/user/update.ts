/** User → Update: PUT /v1/people/users. Replace the whole user (PUT): fields you leave out are cleared. */

import type { Operation } from '../../../shared/engine/model';
import { saveUser, userIdField } from './common';
import { checkWholeUser, requiredName, userGroups } from './fields';

export const updateUser: Operation = {
	value: 'update',
	name: 'Update',
	action: 'Update a user',
	description: 'Replace the whole user (PUT): fields you leave out are cleared',
	method: 'PUT',
	path: '/v1/people/users',
	regional: true,
	fields: [userIdField('userId'), ...requiredName('replace'), ...userGroups('replace')],
	why: 'A 200 answer that carries errors and no user fails the item, and the user’s int64 numbers (written as text) are turned back into numbers.',
	check: checkWholeUser,
	execute: saveUser,
};
