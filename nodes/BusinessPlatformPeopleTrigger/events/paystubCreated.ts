/**
 * On Paystub Created: a paystub of the chosen employee with a creation time the trigger has not
 * seen (GET /v1/people-pay-run/paystubs/employee/{employeeId}, sorted by createdAt, newest
 * first). The platform lists paystubs per employee only, so the event watches one employee.
 */
import { locator } from '../../shared/engine/fields';
import type { PollEvent } from '../../shared/polling/model';
import { changeTime } from '../../shared/polling/cursor';

export const paystubCreated: PollEvent = {
	value: 'paystubCreated',
	name: 'Paystub Created',
	description: 'A paystub of an employee is created',
	noun: 'paystub',
	fields: [
		locator({
			name: 'employeeId',
			displayName: 'Employee',
			search: 'searchPeopleUsers',
			description: 'The employee whose paystubs start the workflow',
			numeric: false,
			placeholder: 'e.g. 65f1c0ffee0123456789abcd',
		}),
	],
	list: (param) => ({
		request: {
			method: 'GET',
			path: `/v1/people-pay-run/paystubs/employee/${encodeURIComponent(String(param('employeeId', '')).trim())}`,
			qs: { sortField: 'createdAt', sortOrder: 'desc' },
			regional: true,
		},
		style: 'paystubs',
		newestFirst: true,
	}),
	time: (s) => changeTime(s.createdAt),
	key: (s) => String(s._id ?? ''),
};
