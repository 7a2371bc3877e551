/** Payrun → Post Journal Entry: POST /v1/people-pay-run/payruns/sync-je. Post the payrun to the accounting books. Changes the books; never retried automatically. */

import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/engine/model';
import { answerText, requireMdy } from '../common';
import { BASE, JOURNAL_ENTRY_REQUEST, journalEntryPayrunField } from './common';
import { toStringId } from '../../../shared/field-values';

export const postJournalEntryPayrun: Operation = {
	value: 'postJournalEntry',
	name: 'Post Journal Entry',
	action: 'Post the journal entry of a payrun',
	description:
		'Post the payrun to the accounting books. Changes the books; never retried automatically.',
	...JOURNAL_ENTRY_REQUEST,
	path: `${BASE}/sync-je`,
	fields: [
		journalEntryPayrunField('Posting writes a journal entry'),
		{
			property: {
				displayName: 'Posting Date',
				name: 'jeDate',
				type: 'dateTime',
				default: '',
				required: true,
				description: 'Date of the journal entry',
			},
		},
	],
	why: 'The body nests the payrun and its posting date in a list; the platform answers with text only, so the output names the payrun and date posted.',
	// The payrun and the date checked once, and sent as checked.
	check: (req, ctx) => {
		const payrunId = toStringId(ctx.param('payrunId'), 'Payrun', ctx);
		req.body.payrun = [
			{ jeDate: requireMdy(ctx.param('jeDate', ''), 'Posting Date', ctx), payrunId },
		];
	},
	execute: async (ctx, req) => {
		const [entry] = req.body.payrun as IDataObject[];
		const answer = await ctx.send(req);
		return {
			payrunId: entry.payrunId,
			jeDate: entry.jeDate,
			posted: true,
			message: answerText(answer),
		};
	},
};
