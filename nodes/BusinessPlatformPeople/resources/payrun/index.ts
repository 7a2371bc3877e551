/**
 * Payruns and their journal entries — /v1/people-pay-run/payruns… (regional).
 * Dates of the payroll module are month/day/year text: the node writes MM/DD/YYYY.
 * Posting and reverting journal entries change the books: they are never retried
 * automatically.
 */

import type { Resource } from '../../../shared/engine/model';
import { getPayruns, searchPayruns } from '../../methods/payruns';
import { getPeopleUsers } from '../../methods/users';
import { createPayrun } from './create';
import { deletePayrun } from './delete';
import { getAllPayrun } from './getAll';
import { getAllByYearPayrun } from './getAllByYear';
import { postJournalEntryPayrun } from './postJournalEntry';
import { revertJournalEntryPayrun } from './revertJournalEntry';

export const payrunResource: Resource = {
	value: 'payrun',
	name: 'Payrun',
	description: 'Payroll runs of a pay period and their journal entries',
	operations: [
		createPayrun,
		getAllByYearPayrun,
		getAllPayrun,
		deletePayrun,
		postJournalEntryPayrun,
		revertJournalEntryPayrun,
	],
	methods: { listSearch: { searchPayruns }, loadOptions: { getPayruns, getPeopleUsers } },
};
