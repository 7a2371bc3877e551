/**
 * On Journal Entry Reverted: a payrun whose journal entry is REVERTED, found by its updatedAt
 * (GET /v1/people-pay-run/payruns, sorted by updatedAt; revertedAt is the revert date the
 * reverter gave). One event per reversal (the payrun ID and the reversing entry's ID),
 * remembered so that a later change of the same payrun does not announce it again.
 */
import type { PollEvent } from '../../shared/polling/model';
import { idOf, lastJournalEntry, payrunEvent } from './common';

export const journalEntryReverted: PollEvent = {
	value: 'journalEntryReverted',
	name: 'Journal Entry Reverted',
	description: 'A payrun’s posted journal entry is reverted',
	noun: 'payrun with a reverted journal entry',
	...payrunEvent('updatedAt'),
	key: (p) => `${idOf(p)}@revert@${String(lastJournalEntry(p)?.jeId ?? p.revertedAt)}`,
	is: (p) => p.jeStatus === 'REVERTED',
	remember: true,
};
