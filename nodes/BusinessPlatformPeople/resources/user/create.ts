/** User → Create: POST /v1/people/users. Add an employee or contractor. */

import type { Operation } from '../../../shared/engine/model';
import { userOutput } from './common';
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
	prepare: checkWholeUser,
	output: userOutput,
};
