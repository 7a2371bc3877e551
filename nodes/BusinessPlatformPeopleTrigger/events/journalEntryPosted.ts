/**
 * On Journal Entry Posted: a payrun whose journal entry is POSTED, found by its updatedAt
 * (GET /v1/people-pay-run/payruns, sorted by updatedAt). jePostedOn is the posting date the
 * poster gave, which may lie in the past, so it cannot tell when the posting happened. One
 * event per posting (the payrun ID and the journal entry ID), remembered so that a later change
 * of the same payrun does not announce the posting again.
 */
import type { PollEvent } from '../../shared/polling/model';
import { idOf, payrunEvent } from './common';

export const journalEntryPosted: PollEvent = {
	value: 'journalEntryPosted',
	name: 'Journal Entry Posted',
	description: 'A payrun’s journal entry is posted to the books',
	noun: 'payrun with a posted journal entry',
	...payrunEvent('updatedAt'),
	key: (p) => `${idOf(p)}@${String(p.jeId)}`,
	is: (p) => p.jeStatus === 'POSTED',
	remember: true,
};
