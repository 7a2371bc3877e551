/**
 * On Record Updated: a record whose updatedAt is later than its createdAt and than what the
 * trigger has seen (paged-record sorted by updatedAt). A creation is not an update; two updates
 * between two polls are one event (the list shows the latest).
 */
import { changeTime } from '../../shared/polling/cursor';
import type { PollEvent } from '../../shared/polling/model';
import { recordList } from './common';

export const recordUpdated: PollEvent = {
	value: 'recordUpdated',
	name: 'Record Updated',
	description: 'A record of the table changes',
	noun: 'updated record',
	list: (param) => recordList('updatedAt', param),
	time: (r) => changeTime(r.updatedAt),
	key: (r) => `${String(r._id ?? '')}@${String(r.updatedAt)}`,
	is: (r) => (changeTime(r.updatedAt) ?? 0) > (changeTime(r.createdAt) ?? 0),
};
