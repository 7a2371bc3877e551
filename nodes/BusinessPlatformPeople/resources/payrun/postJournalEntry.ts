/** Payrun → Post Journal Entry: POST /v1/people-pay-run/payruns/sync-je. Post the payrun to the accounting books. Changes the books; never retried automatically. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { answerText, requireMdy } from '../common';
import { BASE, JOURNAL_ENTRY_REQUEST, journalEntryPayrunField } from './common';
import { toStringId } from '../../../shared/fields';

export const postJournalEntryPayrun: Operation = {
	value: 'postJournalEntry',
	name: 'Post Journal Entry',
	action: 'Post the journal entry of a payrun',
	description: 'Post the payrun to the accounting books. Changes the books; never retried automatically.',
	...JOURNAL_ENTRY_REQUEST,
	path: `${BASE}/sync-je`,
	fields: [
		journalEntryPayrunField('Posting writes a journal entry'),
		{ property: { displayName: 'Posting Date', name: 'jeDate', type: 'dateTime', default: '', required: true, description: 'Date of the journal entry' } },
	],
	prepare: (req, ctx) => {
		const payrunId = toStringId(ctx.param('payrunId'), 'Payrun', ctx);
		req.body.payrun = [{ jeDate: requireMdy(ctx.param('jeDate', ''), 'Posting Date', ctx), payrunId }];
	},
	output: (answer, _ctx, req) => {
		const entry = (req.body.payrun as IDataObject[])[0];
		return { payrunId: entry.payrunId, jeDate: entry.jeDate, posted: true, message: answerText(answer) };
	},
};
