/**
 * On Payrun Updated: a payrun whose updatedAt is later than its createdAt and than what the
 * trigger has seen (GET /v1/people-pay-run/payruns, sorted by updatedAt). A creation is not an
 * update; two updates between two polls are one event (the list shows the latest).
 */
import type { PollEvent } from '../../shared/polling/model';
import { changeTime } from '../../shared/polling/cursor';
import { idOf, payrunEvent } from './common';

export const payrunUpdated: PollEvent = {
	value: 'payrunUpdated',
	name: 'Payrun Updated',
	description:
		'A payrun changes: processed, paid, its journal entry posted or reverted, or any other change the platform records',
	noun: 'payrun',
	...payrunEvent('updatedAt'),
	key: (p) => `${idOf(p)}@${String(p.updatedAt)}`,
	is: (p) => (changeTime(p.updatedAt) ?? 0) > (changeTime(p.createdAt) ?? 0),
};
