/** On Record Created: a record of the table with a creation time the trigger has not seen (paged-record sorted by createdAt). */
import { changeTime } from '../../shared/polling/cursor';
import type { PollEvent } from '../../shared/polling/model';
import { recordList } from './common';

export const recordCreated: PollEvent = {
	value: 'recordCreated',
	name: 'Record Created',
	description: 'A record is added to the table',
	noun: 'record',
	list: (param) => recordList('createdAt', param),
	time: (r) => changeTime(r.createdAt),
	key: (r) => String(r._id ?? ''),
};
