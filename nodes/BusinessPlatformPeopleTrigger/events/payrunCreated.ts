/** On Payrun Created: a payrun with a creation time the trigger has not seen (GET /v1/people-pay-run/payruns, sorted by createdAt). */
import type { PollEvent } from '../../shared/polling/model';
import { idOf, payrunEvent } from './common';

export const payrunCreated: PollEvent = {
	value: 'payrunCreated',
	name: 'Payrun Created',
	description: 'A payrun is created',
	noun: 'payrun',
	...payrunEvent('createdAt'),
	key: idOf,
};
