/**
 * On User Created: a user (employee) with a creation time the trigger has not seen
 * (GET /v1/people/users, sorted by createdAt, newest first). Users have no update time in the
 * platform's documents, so there is no "User Updated" event.
 */
import type { PollEvent } from '../../shared/polling/model';
import { changeTime } from '../../shared/polling/cursor';

export const userCreated: PollEvent = {
	value: 'userCreated',
	name: 'User Created',
	description: 'A user (employee) is added',
	noun: 'user',
	list: () => ({
		request: {
			method: 'GET',
			path: '/v1/people/users',
			qs: { field: 'createdAt', order: 'desc' },
			regional: true,
		},
		style: 'peopleUsers',
		newestFirst: true,
	}),
	time: (u) => changeTime(u.createdAt),
	key: (u) => String(u.userId ?? u._id ?? ''),
};
