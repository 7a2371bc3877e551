/** User → Get Many: GET /v1/people/users. List users, with the platform’s filters. */

import type { Operation } from '../../../shared/engine/model';
import { listOptions, simplifyUser, USERS_WHY, userListExtras, usersOf } from './common';

export const getAllUser: Operation = {
	value: 'getAll',
	name: 'Get Many',
	action: 'Get many users',
	description: 'List users, with the platform’s filters',
	method: 'GET',
	path: '/v1/people/users',
	regional: true,
	paginate: 'peopleUsers',
	simplify: simplifyUser,
	fields: [listOptions(userListExtras())],
	why: USERS_WHY,
	execute: usersOf,
};
