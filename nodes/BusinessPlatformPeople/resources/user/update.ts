/** User → Update: PUT /v1/people/users. Replace the whole user (PUT): fields you leave out are cleared. */

import type { Operation } from '../../../shared/engine/model';
import { userIdField, userOutput } from './common';
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
	prepare: checkWholeUser,
	output: userOutput,
};
