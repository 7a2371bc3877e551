/** User → Create: POST /v1/people/users. Add an employee or contractor. */

import type { Operation } from '../../../shared/engine/model';
import { saveUser } from './common';
import { checkWholeUser, requiredName, userGroups } from './fields';

export const createUser: Operation = {
	value: 'create',
	name: 'Create',
	action: 'Create a user',
	description: 'Add an employee or contractor',
	method: 'POST',
	path: '/v1/people/users',
	regional: true,
	fields: [...requiredName(), ...userGroups('create')],
	why: 'A 200 answer that carries errors and no user fails the item, and the user’s int64 numbers (written as text) are turned back into numbers.',
	check: checkWholeUser,
	execute: saveUser,
};
